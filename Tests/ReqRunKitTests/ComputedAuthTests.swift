import Foundation
import Testing
@testable import ReqRunKit

/// The auth kinds reqrun computes: published test vectors, the Postman mapping and the native format.
/// (Their signatures are checked against independent implementations in `ComputedAuthEndToEndTests`.)
@Suite struct ComputedAuthTests {
    private func prepared(_ url: String, method: String = "GET", headers: [HeaderField] = [], body: [UInt8]? = nil) -> PreparedRequest {
        PreparedRequest(method: method, url: url, headers: headers, body: body.map { .bytes($0) })
    }

    @Test func oauth1MatchesTheExampleOfRFC5849() throws {
        // RFC 5849 §1.2: the signed request for the photo, with realm "Photos".
        var request = prepared("http://photos.example.net/photos?file=vacation.jpg&size=original")
        let auth = OAuth1Auth(consumerKey: "dpf43f3p2l4k3l03", consumerSecret: "kd94hf93k423kf44", token: "nnch734d00sl2jdk",
                              tokenSecret: "pfkkdhi9sl3r4s00", realm: "Photos", nonce: "chapoH", timestamp: "137131202", version: "")
        _ = try OAuth1Signer.sign(auth, &request)
        let header = try #require(request.headers.first { $0.name == "Authorization" }?.value)
        #expect(header.hasPrefix("OAuth realm=\"Photos\", oauth_consumer_key=\"dpf43f3p2l4k3l03\", oauth_token=\"nnch734d00sl2jdk\""))
        #expect(header.hasSuffix("oauth_signature=\"MdpQcU8iPSUjWoN%2FUDMsK2sui9I%3D\""))
    }

    @Test func oauth1EncodesAndSortsParametersAsRFC5849Section3_4_1() {
        // §3.6: only unreserved characters stay; §3.4.1.3.2: sorted by name, then value.
        #expect(OAuth1Signer.percentEncode("a b~*+%/é") == "a%20b~%2A%2B%25%2F%C3%A9")
        #expect(OAuth1Signer.normalizedParameters([("b", "2"), ("a", "z"), ("a", "1"), ("c ", "")]) == "a=1&a=z&b=2&c%20=")
        #expect(OAuth1Signer.baseStringURI(RequestTarget("HTTPS://Example.COM:443/r%20v?x=1#f")) == "https://example.com/r%20v")
        #expect(OAuth1Signer.baseStringURI(RequestTarget("http://user:pw@example.com:8080")) == "http://example.com:8080/")
    }

    @Test func hawkMatchesTheExamplesOfHawksReadme() {
        // hueniverse/hawk's README: the GET example and the payload example.
        var get = prepared("http://example.com:8000/resource/1?b=1&a=2")
        let credentials = HawkAuth(id: "dh37fgj492je", key: "werxhqb98rpaxn39848xrunpaw3489ruxnpa98w4rxn", nonce: "j4h3g2",
                                   timestamp: "1353832234", ext: "some-app-ext-data")
        _ = HawkSigner.sign(credentials, &get)
        #expect(get.headers.first?.value == #"Hawk id="dh37fgj492je", ts="1353832234", nonce="j4h3g2", ext="some-app-ext-data", mac="6R4rV5iE+NPoym+WwjeHzjAGXUtLNIxmo1vpMofpLAE=""#)
        #expect(HawkSigner.payloadHash(.sha256, contentType: "text/plain", payload: Array("Thank you for flying Hawk".utf8))
                == "Yi9LfIIFRtBEPt74PVmbTF/xVAwPn7ub15ePICfgnuY=")
    }

    @Test func jwtHeaderPayloadAndMACAreAsRFC7515Says() throws {
        // An HS256 token verifies by recomputing its MAC over `header.payload`.
        let auth = JWTAuth(algorithm: .hs256, secret: "k", header: #"{"kid": "k1", "typ": "at+jwt"}"#)
        let token = try JWTSigner.token(auth, payload: #"{"sub":"ada","n":1}"#, header: auth.header)
        let parts = token.split(separator: ".").map(String.init)
        #expect(parts.count == 3)
        #expect(parts[0] == JWTSigner.base64URL(Array(#"{"alg":"HS256","typ":"at+jwt","kid":"k1"}"#.utf8)))
        #expect(parts[1] == JWTSigner.base64URL(Array(#"{"sub":"ada","n":1}"#.utf8)))
        #expect(parts[2] == JWTSigner.base64URL(Signing.hmac(.sha256, key: [UInt8(ascii: "k")], message: Array((parts[0] + "." + parts[1]).utf8))))
        #expect(throws: PreparationFailure.invalidAuth("the jwt payload is not a JSON object")) { try JWTSigner.token(auth, payload: "[1]", header: "") }
    }

    @Test func postmanAuthObjectsMapToTheComputedKinds() throws {
        let text = """
            {"info": {"name": "P", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}, "item": [
              {"name": "o1", "request": {"url": "x", "auth": {"type": "oauth1", "oauth1": [
                {"key": "consumerKey", "value": "ck"}, {"key": "consumerSecret", "value": "{{cs}}"}, {"key": "signatureMethod", "value": "HMAC-SHA256"},
                {"key": "addParamsToHeader", "value": true, "type": "boolean"}, {"key": "includeBodyHash", "value": true, "type": "boolean"},
                {"key": "addEmptyParamsToSign", "value": false, "type": "boolean"}, {"key": "realm", "value": "R"}, {"key": "version", "value": "1.0"}]}}},
              {"name": "o1 query", "request": {"url": "x", "auth": {"type": "oauth1", "oauth1": [{"key": "consumerKey", "value": "ck"},
                {"key": "signatureMethod", "value": "RSA-SHA1"}, {"key": "privateKey", "value": "{{pem}}"}]}}},
              {"name": "o1 unknown", "request": {"url": "x", "auth": {"type": "oauth1", "oauth1": [{"key": "consumerKey", "value": "ck"},
                {"key": "signatureMethod", "value": "HMAC-MD5"}]}}},
              {"name": "o1 without key", "request": {"url": "x", "auth": {"type": "oauth1", "oauth1": []}}},
              {"name": "hawk", "request": {"url": "x", "auth": {"type": "hawk", "hawk": [{"key": "authId", "value": "id"}, {"key": "authKey", "value": "k"},
                {"key": "algorithm", "value": "sha1"}, {"key": "extraData", "value": "e"}, {"key": "app", "value": "a"}, {"key": "delegation", "value": "d"},
                {"key": "includePayloadHash", "value": true}]}}},
              {"name": "ntlm", "request": {"url": "x", "auth": {"type": "ntlm", "ntlm": [{"key": "username", "value": "u"}, {"key": "password", "value": "p"},
                {"key": "domain", "value": "D"}]}}},
              {"name": "oauth2 cc", "request": {"url": "x", "auth": {"type": "oauth2", "oauth2": [{"key": "grant_type", "value": "client_credentials"},
                {"key": "accessTokenUrl", "value": "{{base}}/token"}, {"key": "clientId", "value": "c"}, {"key": "clientSecret", "value": "s"},
                {"key": "scope", "value": "read"}, {"key": "client_authentication", "value": "body"}, {"key": "addTokenTo", "value": "queryParams"},
                {"key": "accessToken", "value": "stale"}]}}},
              {"name": "oauth2 password", "request": {"url": "x", "auth": {"type": "oauth2", "oauth2": [{"key": "grant_type", "value": "password_credentials"},
                {"key": "accessTokenUrl", "value": "t"}, {"key": "clientId", "value": "c"}, {"key": "username", "value": "u"}, {"key": "password", "value": "p"},
                {"key": "headerPrefix", "value": "Token"}]}}},
              {"name": "oauth2 code", "request": {"url": "x", "auth": {"type": "oauth2", "oauth2": [{"key": "grant_type", "value": "authorization_code"},
                {"key": "accessTokenUrl", "value": "t"}]}}},
              {"name": "jwt", "request": {"url": "x", "auth": {"type": "jwt", "jwt": [{"key": "algorithm", "value": "RS256"}, {"key": "privateKey", "value": "{{pem}}"},
                {"key": "payload", "value": "{\\"sub\\": \\"{{user}}\\"}"}, {"key": "addTokenTo", "value": "queryParam"}, {"key": "queryParamKey", "value": "jwt"}]}}}
            ]}
            """
        let collection = try CollectionDecoder.decode(Array(text.utf8), file: "p.json", fileName: "p.json")
        let auths = Outline(collections: [collection], expansion: .transient([])).allRequests().map(\.effectiveAuth)
        #expect(auths == [
            .oauth1(OAuth1Auth(consumerKey: "ck", consumerSecret: "{{cs}}", signatureMethod: .hmacSHA256, placement: .header, realm: "R",
                               version: "1.0", includeBodyHash: true)),
            .oauth1(OAuth1Auth(consumerKey: "ck", privateKey: "{{pem}}", signatureMethod: .rsaSHA1, placement: .body, version: "")),
            Auth.none, Auth.none,
            .hawk(HawkAuth(id: "id", key: "k", algorithm: .sha1, ext: "e", app: "a", dlg: "d", includePayloadHash: true)),
            .ntlm(username: "u", password: "p", domain: "D"),
            .oauth2(OAuth2Auth(grant: .clientCredentials, tokenURL: "{{base}}/token", clientId: "c", clientSecret: "s", scope: "read",
                               clientAuthentication: .body, inQuery: true)),
            .oauth2(OAuth2Auth(grant: .password, tokenURL: "t", clientId: "c", username: "u", password: "p", headerPrefix: "Token")),
            Auth.none,
            .jwt(JWTAuth(algorithm: .rs256, privateKey: "{{pem}}", payload: #"{"sub": "{{user}}"}"#, inQuery: true, queryParameter: "jwt")),
        ])
        #expect(collection.warnings.contains { $0.contains("auth type 'oauth1' is not supported: 1 request") })
        #expect(collection.warnings.contains { $0.contains("auth type 'oauth2' is not supported: 1 request") })
    }

    @Test func nativeFormatRoundTripsEveryComputedKind() throws {
        let text = """
            {"name": "N", "groups": [{"name": "g", "requests": [
              {"url": "a", "auth": {"type": "oauth1", "consumerKey": "ck", "consumerSecret": "{{s}}", "signatureMethod": "RSA-SHA256", "in": "query",
                "privateKey": "{{pem}}", "nonce": "n", "timestamp": "1", "includeBodyHash": true, "addEmptyParamsToSign": true, "version": ""}},
              {"url": "b", "auth": {"type": "hawk", "id": "i", "key": "{{k}}", "algorithm": "sha1", "ext": "e", "app": "a", "dlg": "d", "includePayloadHash": true}},
              {"url": "c", "auth": {"type": "ntlm", "username": "u", "password": "{{p}}", "domain": "D"}},
              {"url": "d", "auth": {"type": "oauth2", "grant": "refresh_token", "tokenUrl": "{{t}}", "clientId": "c", "refreshToken": "{{r}}",
                "clientAuth": "body", "in": "query", "queryParam": "tok", "scope": "s"}},
              {"url": "e", "auth": {"type": "jwt", "algorithm": "HS512", "secret": "{{s}}", "secretBase64": true, "payload": {"sub": "{{u}}", "n": 1},
                "header": {"kid": "1"}, "headerPrefix": "", "in": "query"}},
              {"url": "f", "auth": {"type": "asap", "algorithm": "ES384", "issuer": "i", "audience": "a", "keyId": "k", "privateKey": "{{pem}}",
                "subject": "s", "claims": {"x": "{{u}}"}, "expiry": "5m"}}
            ]}]}
            """
        let original = try CollectionDecoder.decode(Array(text.utf8), file: "n.json", fileName: "n.json")
        let encoded = CollectionEncoder.encode(original)
        let again = try CollectionDecoder.decode(Array(encoded.utf8), file: "n.json", fileName: "n.json")
        #expect(again.groups[0].requests.map(\.auth) == original.groups[0].requests.map(\.auth))
        #expect(original.groups[0].requests[4].auth == .jwt(JWTAuth(algorithm: .hs512, secret: "{{s}}", secretIsBase64: true,
                                                                  payload: #"{"sub":"{{u}}","n":1}"#, header: #"{"kid":"1"}"#,
                                                                  headerPrefix: "", inQuery: true)))
        #expect(encoded.contains("\"payload\": {"))
        #expect(original.groups[0].requests[5].auth == .asap(AsapAuth(algorithm: .es384, issuer: "i", audience: "a", keyId: "k", privateKey: "{{pem}}",
                                                                    subject: "s", claims: #"{"x":"{{u}}"}"#, expiry: "5m")))
        #expect(throws: InputError.self) {
            try CollectionDecoder.decode(Array(#"{"name": "N", "requests": [{"url": "a", "auth": {"type": "oauth1", "consumerKey": "c", "signatureMethod": "HMAC-MD5"}}]}"#.utf8),
                                         file: "n.json", fileName: "n.json")
        }
    }

    @Test func preparationSignsAfterSubstitutionAndKnowsItsSecrets() throws {
        let scope = VariableScope(layers: [VariableLayer(source: "vars", values: ["cs": "consumer-secret", "pem": "not a key"])])
        let request = Request(name: "r", method: "POST", url: "http://h.example/p?x={{cs}}", body: .form([Parameter(name: "a", value: "b c")]))
        let oauth1 = Auth.oauth1(OAuth1Auth(consumerKey: "ck", consumerSecret: "{{cs}}", placement: .body, nonce: "n", timestamp: "1"))
        let prepared = try RequestPreparation.prepare(request, scope: scope, auth: oauth1).get()
        let body = String(decoding: try #require(prepared.body?.bytes), as: UTF8.self)
        #expect(body.hasPrefix("a=b+c&oauth_consumer_key=ck&oauth_signature_method=HMAC-SHA1&oauth_timestamp=1&oauth_nonce=n&oauth_version=1.0&oauth_signature="))
        let signature = try #require(body.components(separatedBy: "oauth_signature=").last)
        #expect(prepared.secrets.contains("consumer-secret") && prepared.secrets.contains(signature))
        let rsa = Auth.oauth1(OAuth1Auth(consumerKey: "ck", privateKey: "{{pem}}", signatureMethod: .rsaSHA1))
        #expect(RequestPreparation.prepare(request, scope: scope, auth: rsa)
                == .failure(.invalidAuth("OAuth 1.0a RSA-SHA1: the private key is not an unencrypted PEM private key")))
        // Without a token source (dry runs, show --curl), a placeholder stands for the OAuth 2.0 token.
        let oauth2 = Auth.oauth2(OAuth2Auth(grant: .clientCredentials, tokenURL: "http://h.example/token", clientId: "c", inQuery: true))
        #expect(try RequestPreparation.prepare(request, scope: scope, auth: oauth2).get().url
                == "http://h.example/p?x=consumer-secret&access_token=%3COAuth%202.0%20token%20from%20http%3A%2F%2Fh.example%2Ftoken%3E")
    }
}
