import Foundation
import Testing
@testable import ReqRunKit

/// `PostmanScriptAuth`: every auth reqrun computes goes to a script as Postman's auth object and comes back
/// unchanged, so changing one parameter in `pm.request.auth` changes only that one.
@Suite struct PostmanScriptAuthTests {
    private func roundTrip(_ auth: Auth) throws -> Auth? {
        let (type, parameters) = PostmanScriptAuth.parameters(of: auth)
        let object: [String: Any] = ["type": type, type: parameters.map { ["key": $0.key, "value": $0.value, "type": "string"] }]
        let node = try JSONParser.parse(Array(try JSONSerialization.data(withJSONObject: object)))
        return try PostmanScriptAuth.decode(node, api: "pm.request.auth").get()
    }

    @Test func everyTypeComesBackAsItWent() throws {
        let auths: [Auth] = [
            .none,
            .basic(username: "ada", password: "{{pw}}"),
            .digest(username: "ada", password: "pw"),
            .bearer(token: "{{token}}"),
            .apiKey(name: "X-Api-Key", value: "k", inQuery: false),
            .apiKey(name: "api_key", value: "k", inQuery: true),
            .awsSigV4(accessKey: "AKID", secretKey: "s", region: "eu-west-1", service: "s3", sessionToken: "st"),
            .awsSigV4(accessKey: "AKID", secretKey: "s", region: "us-east-1", service: "execute-api", sessionToken: nil),
            .ntlm(username: "ada", password: "pw", domain: "LAB"),
            .oauth1(OAuth1Auth(consumerKey: "ck", consumerSecret: "cs", token: "t", tokenSecret: "ts", signatureMethod: .hmacSHA256,
                               placement: .header, realm: "r", nonce: "n", timestamp: "1", version: "1.0", callback: "cb", verifier: "v",
                               includeBodyHash: true, addEmptyParamsToSign: true)),
            .oauth1(OAuth1Auth(consumerKey: "ck", privateKey: "-----BEGIN PRIVATE KEY-----", signatureMethod: .rsaSHA1, placement: .body)),
            .hawk(HawkAuth(id: "id", key: "key", algorithm: .sha1, nonce: "n", timestamp: "1", ext: "e", app: "a", dlg: "d",
                           includePayloadHash: true)),
            .oauth2(OAuth2Auth(grant: .clientCredentials, tokenURL: "{{auth}}/token", clientId: "c", clientSecret: "s", scope: "read",
                               audience: "aud", resource: "res", clientAuthentication: .body, headerPrefix: "Token", inQuery: false)),
            .oauth2(OAuth2Auth(grant: .password, tokenURL: "http://x/token", clientId: "c", username: "ada", password: "pw", inQuery: true)),
            .jwt(JWTAuth(algorithm: .hs384, secret: "c2VjcmV0", secretIsBase64: true, payload: #"{"sub":"1"}"#, header: #"{"kid":"k"}"#,
                         headerPrefix: "JWT", inQuery: true, queryParameter: "jwt")),
            .jwt(JWTAuth(algorithm: .rs256, privateKey: "-----BEGIN PRIVATE KEY-----")),
            .asap(AsapAuth(algorithm: .es256, issuer: "i", audience: "a", keyId: "k", privateKey: "p", subject: "s", claims: #"{"x":1}"#,
                           expiry: "2h")),
        ]
        for auth in auths {
            #expect(try roundTrip(auth) == auth)
        }
    }

    /// A script's object: v2.0's parameter object too; no type inherits; a type reqrun does not compute is refused.
    @Test func decodesScriptObjects() throws {
        func decode(_ text: String) throws -> Result<Auth?, ScriptRequestRefusal> {
            PostmanScriptAuth.decode(try JSONParser.parse(Array(text.utf8)), api: "pm.request.auth")
        }
        #expect(try decode(#"{"type": "bearer", "bearer": {"token": "t"}}"#) == .success(.bearer(token: "t")))
        #expect(try decode(#"{"type": "noauth"}"#) == .success(Auth.none))
        #expect(try decode(#"{}"#) == .success(nil))
        #expect(try decode(#"{"type": "oauth2", "oauth2": {"grant_type": "authorization_code"}}"#)
            == .failure(ScriptRequestRefusal("pm.request.auth: auth type 'oauth2' is not computed by reqrun")))
        guard case .failure(let refusal) = try decode(#"{"type": "basic", "basic": 3}"#) else { Issue.record("a number was read"); return }
        #expect(refusal.reason.hasPrefix("pm.request.auth: auth.basic: expected a list"), "\(refusal.reason)")
    }
}
