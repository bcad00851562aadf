import Foundation
import Testing
import ReqRunKit
import TestSupport

/// The auth kinds reqrun computes (OAuth 1.0a, OAuth 2.0, Hawk, NTLM, JWT, EdgeGrid), sent by the built binary to
/// the auth server (`scripts/auth-server`), which checks each with an independent implementation (oauthlib,
/// mohawk, PyJWT, edgegrid-python, its own NTLMv2) and answers 200 only when it verifies.
@Suite struct ComputedAuthEndToEndTests {
    /// `text` as a JSON string literal (for PEM keys with line breaks).
    private func quoted(_ text: String) throws -> String {
        String(decoding: try JSONEncoder().encode(text), as: UTF8.self)
    }

    /// The run record's text (every record of the workspace).
    private func records(_ dir: TemporaryDirectory) throws -> String {
        let folder = dir.url.appendingPathComponent(".reqrun/runs")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).map { try dir.read(".reqrun/runs/\($0)") }.joined()
    }

    @Test func oauth1SignaturesVerifyWithOAuthlib() throws {
        let dir = try TemporaryDirectory()
        let key = try String(contentsOfFile: try TestServers.authRSAKey(), encoding: .utf8)
        let verified: [String] = [#"{"status": 200}"#, #"{"json": "$.verified", "equals": true}"#]
        func request(_ name: String, _ url: String, _ auth: String, method: String = "GET", body: String? = nil, expect: [String] = []) -> String {
            #"{"name": "\#(name)", "method": "\#(method)", "url": "{{base}}\#(url)", "auth": {"type": "oauth1", "consumerKey": "reqrun-consumer", "consumerSecret": "{{cs}}", "token": "reqrun-token", "tokenSecret": "{{ts}}", \#(auth)}"#
                + (body.map { ", " + $0 } ?? "") + #", "expect": [\#((verified + expect).joined(separator: ", "))]}"#
        }
        try dir.write("collections/o.json", """
            {"name": "OAuth1", "variables": {"base": "\(try TestServers.auth())", "cs": "consumer-secret-1", "ts": "token-secret-1",
              "key": \(try quoted(key))},
             "groups": [{"name": "oauth1", "requests": [
              \(request("hmac-sha1 header", "/oauth1/a?b=two%20words&c=~x&a=1&a=0", #""signatureMethod": "HMAC-SHA1""#,
                        expect: [#"{"json": "$.placement", "equals": "header"}"#, #"{"json": "$.params.b", "equals": "two words"}"#])),
              \(request("hmac-sha256 query", "/oauth1/q?x=1", #""signatureMethod": "HMAC-SHA256", "in": "query""#,
                        expect: [#"{"json": "$.placement", "equals": "query"}"#, #"{"json": "$.method", "equals": "HMAC-SHA256"}"#])),
              \(request("plaintext", "/oauth1/p", #""signatureMethod": "PLAINTEXT""#)),
              \(request("rsa-sha1", "/oauth1/r?y=2", #""signatureMethod": "RSA-SHA1", "privateKey": "{{key}}""#,
                        expect: [#"{"json": "$.method", "equals": "RSA-SHA1"}"#])),
              \(request("form body", "/oauth1/f?q=1", #""in": "body""#, method: "POST", body: #""form": {"name": "Ada Lovelace", "n": "1+1"}"#,
                        expect: [#"{"json": "$.placement", "equals": "body"}"#, #"{"json": "$.params.name", "equals": "Ada Lovelace"}"#])),
              \(request("body hash", "/oauth1/h", #""signatureMethod": "HMAC-SHA256", "includeBodyHash": true"#, method: "PUT",
                        body: #""body": {"a": [1, 2]}"#, expect: [#"{"json": "$.bodyHash", "equals": "ok"}"#])),
              \(request("fixed", "/oauth1/x", #""realm": "Photos", "nonce": "fixed-nonce-1", "timestamp": "1300000000", "version": "", "addEmptyParamsToSign": true"#,
                        expect: [#"{"json": "$.params.oauth_nonce", "equals": "fixed-nonce-1"}"#, #"{"json": "$.params.oauth_timestamp", "equals": "1300000000"}"#,
                                 #"{"json": "$.params.oauth_version", "equals": ""}"#, #"{"json": "$.realm", "equals": "Photos"}"#])),
              {"name": "wrong secret", "url": "{{base}}/oauth1/w", "auth": {"type": "oauth1", "consumerKey": "reqrun-consumer", "consumerSecret": "not-the-secret"},
               "expect": [{"status": 401}, {"json": "$.reason", "equals": "signature mismatch"}]}
             ]}]}
            """)
        let run = try ReqRunBinary.run(["run", "--all"], in: dir.url)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("8 requests: 8 passed"), "\(run.stdout)")
        let record = try records(dir)
        for secret in ["consumer-secret-1", "token-secret-1", "reqrun-token", "BEGIN PRIVATE KEY"] { #expect(!record.contains(secret), "\(secret)") }
    }
}

extension ComputedAuthEndToEndTests {
    /// The auth server's count of token requests with `scope`, and their grants (`grant/clientAuth`).
    private func tokenRequests(_ scope: String) throws -> (count: Int, grants: [String]) {
        let data = Data(try CurlTool.run(["-s", try TestServers.auth() + "/oauth2/count?scope=" + scope]).stdout.utf8)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return (object["count"] as? Int ?? -1, object["grants"] as? [String] ?? [])
    }

    /// A hostile token endpoint's `error_description` (1 MB) is cut in the error every request that needs the
    /// token repeats, so it cannot multiply into the console and the record.
    @Test func anOAuth2ErrorDescriptionIsCut() throws {
        let dir = try TemporaryDirectory()
        let auth = #""auth": {"type": "oauth2", "grant": "client_credentials", "tokenUrl": "\#(try TestServers.hostile())/oauth2-long-error", "clientId": "c"}"#
        try dir.write("collections/o.json", #"{"name": "O", "groups": [{"name": "g", \#(auth), "requests": [{"url": "http://127.0.0.1:1/a"}, {"url": "http://127.0.0.1:1/b"}]}]}"#)
        let output = try ReqRunBinary.run(["run", "--all"], in: dir.url)
        #expect(output.status == 3)
        #expect(output.stdout.contains("answered 400: invalid_client (\(String(repeating: "x", count: 200))… (1048576 characters))"), "\(output.stdout.prefix(600))")
        #expect(output.stdout.utf8.count < 4000)
        #expect(try records(dir).utf8.count < 20000)
    }

    @Test func oauth2TokensAreRequestedOncePerRunAndMasked() throws {
        let dir = try TemporaryDirectory()
        let cc = "cc-\(UUID().uuidString)", pw = "pw-\(UUID().uuidString)", expired = "expired-\(UUID().uuidString)", wrong = "wrong-\(UUID().uuidString)"
        let refresh = "refresh-\(UUID().uuidString)"
        let resource: String = #"{"url": "{{base}}/oauth2/resource", "expect": [{"status": 200}, {"json": "$.scope", "equals": "{{scope}}"}]}"#
        try dir.write("collections/o.json", """
            {"name": "OAuth2", "variables": {"base": "\(try TestServers.auth())", "secret": "client-secret-1"},
             "groups": [
              {"name": "cc", "variables": {"scope": "\(cc)"},
               "auth": {"type": "oauth2", "grant": "client_credentials", "tokenUrl": "{{base}}/oauth2/token", "clientId": "reqrun-client",
                        "clientSecret": "{{secret}}", "scope": "{{scope}}"},
               "requests": [\(resource), \(resource),
                 {"name": "echo", "url": "\(try TestServers.httpbin())/headers", "expect": [{"json": "$.headers.Authorization", "exists": true}]}]},
              {"name": "password", "variables": {"scope": "\(pw)"},
               "auth": {"type": "oauth2", "grant": "password", "tokenUrl": "{{base}}/oauth2/token", "clientId": "reqrun-client",
                        "clientSecret": "{{secret}}", "username": "ada", "password": "owner-pass-1", "scope": "{{scope}}", "clientAuth": "body", "in": "query"},
               "requests": [{"url": "{{base}}/oauth2/resource", "expect": [{"status": 200}, {"json": "$.via", "equals": "query"}]}]},
              {"name": "expired", "variables": {"scope": "\(expired)"},
               "auth": {"type": "oauth2", "grant": "password", "tokenUrl": "{{base}}/oauth2/token", "clientId": "reqrun-client",
                        "clientSecret": "{{secret}}", "username": "ada", "password": "owner-pass-1", "scope": "{{scope}}", "headerPrefix": "Token"},
               "requests": [{"url": "{{base}}/oauth2/resource", "expect": [{"status": 200}, {"json": "$.prefix", "equals": "Token"}]}, \(resource)]},
              {"name": "refresh", "variables": {"scope": "\(refresh)"},
               "auth": {"type": "oauth2", "grant": "refresh_token", "tokenUrl": "{{base}}/oauth2/token", "clientId": "reqrun-client",
                        "clientSecret": "{{secret}}", "refreshToken": "seed-refresh-token", "scope": "{{scope}}"},
               "requests": [\(resource)]},
              {"name": "wrong", "variables": {"scope": "\(wrong)"},
               "auth": {"type": "oauth2", "grant": "client_credentials", "tokenUrl": "{{base}}/oauth2/token", "clientId": "reqrun-client",
                        "clientSecret": "not-the-secret", "scope": "{{scope}}"},
               "requests": [\(resource), \(resource)]}
             ]}
            """)
        let run = try ReqRunBinary.run(["run", "--all", "-v"], in: dir.url)
        #expect(run.status != 0)
        #expect(run.stdout.contains("9 requests: 7 passed, 0 failed, 2 errors"), "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("the OAuth 2.0 token request to \(try TestServers.auth())/oauth2/token answered 401: invalid_client (unknown client or wrong secret)"))
        #expect(try tokenRequests(cc) == (1, ["client_credentials/header"]))
        #expect(try tokenRequests(pw) == (1, ["password/body"]))
        // A token that expired is refreshed with the refresh token the endpoint gave (RFC 6749 §6).
        #expect(try tokenRequests(expired) == (2, ["password/header", "refresh_token/header"]))
        #expect(try tokenRequests(refresh) == (1, ["refresh_token/header"]))
        #expect(try tokenRequests(wrong).count == 1)
        let record = try records(dir)
        // httpbin echoed the Authorization header: the token is masked there as everywhere.
        #expect(!record.contains("access-clientcredentials-") && !record.contains("access-password-") && !record.contains("client-secret-1"))
        #expect(!record.contains("owner-pass-1") && !record.contains("seed-refresh-token") && !run.stdout.contains("access-"))
    }
}

extension ComputedAuthEndToEndTests {
    @Test func hawkHeadersVerifyWithMohawk() throws {
        let dir = try TemporaryDirectory()
        func hawk(_ id: String, _ extra: String) -> String {
            #"{"type": "hawk", "id": "\#(id)", "key": "{{hawkKey}}", \#(extra)}"#
        }
        try dir.write("collections/h.json", """
            {"name": "Hawk", "variables": {"base": "\(try TestServers.auth())", "hawkKey": "hawk-key-0123456789"},
             "groups": [{"name": "g", "requests": [
              {"name": "sha256", "url": "{{base}}/hawk/r?b=1&a=2", "auth": \(hawk("hawk-sha256", #""ext": "some-app ext data: {{hawkKey}}?""#)),
               "expect": [{"status": 200}, {"json": "$.ext", "equals": "some-app ext data: hawk-key-0123456789?"}, {"json": "$.hash", "equals": false}]},
              {"name": "sha1 payload", "method": "POST", "url": "{{base}}/hawk/p", "body": {"flying": "Hawk"},
               "auth": \(hawk("hawk-sha1", #""algorithm": "sha1", "includePayloadHash": true, "app": "app-1", "dlg": "dlg-1""#)),
               "expect": [{"status": 200}, {"json": "$.hash", "equals": true}, {"json": "$.app", "equals": "app-1"}, {"json": "$.dlg", "equals": "dlg-1"}]},
              {"name": "wrong key", "url": "{{base}}/hawk/w", "auth": {"type": "hawk", "id": "hawk-sha256", "key": "not-the-key"},
               "expect": [{"status": 401}]}
             ]}]}
            """)
        let run = try ReqRunBinary.run(["run", "--all"], in: dir.url)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("3 requests: 3 passed"), "\(run.stdout)")
        #expect(!(try records(dir)).contains("hawk-key-0123456789"))
    }

    @Test func edgegridHeadersVerifyWithEdgegridPython() throws {
        let dir = try TemporaryDirectory()
        func edgegrid(_ extra: String = "") -> String {
            #"{"type": "edgegrid", "accessToken": "akab-access-token-1", "clientToken": "{{ct}}", "clientSecret": "{{cs}}"\#(extra)}"#
        }
        let verified = #"{"status": 200}, {"json": "$.verified", "equals": true}"#
        try dir.write("collections/e.json", """
            {"name": "EdgeGrid", "variables": {"base": "\(try TestServers.auth())", "ct": "akab-client-token-1", "cs": "edgegrid-secret-1"},
             "groups": [{"name": "g", "requests": [
              {"name": "signed fields", "url": "{{base}}/edgegrid/papi/v1/groups?b=2&a=1",
               "headers": {"X-Check-Headers-To-Sign": "x-one,x-two", "X-One": "  spaced   out ", "X-Two": "2"},
               "auth": \(edgegrid(#", "headersToSign": "X-One, x-two""#)), "expect": [\(verified), {"json": "$.contentHash", "equals": false}]},
              {"name": "post", "method": "POST", "url": "{{base}}/edgegrid/p", "body": {"hashed": "body"},
               "auth": \(edgegrid()), "expect": [\(verified), {"json": "$.contentHash", "equals": true}]},
              {"name": "post beyond maxBodySize", "method": "POST", "url": "{{base}}/edgegrid/p", "headers": {"X-Check-Max-Body": "8"},
               "body": "a body of more than eight bytes", "auth": \(edgegrid(#", "maxBodySize": "8""#)),
               "expect": [\(verified), {"json": "$.contentHash", "equals": true}]},
              {"name": "put", "method": "PUT", "url": "{{base}}/edgegrid/p", "body": "not hashed", "auth": \(edgegrid()),
               "expect": [\(verified), {"json": "$.contentHash", "equals": false}]},
              {"name": "fixed", "url": "{{base}}/edgegrid/f", "auth": \(edgegrid(#", "nonce": "nonce-{{ct}}", "timestamp": "20261201T14:30:05+0000""#)),
               "expect": [\(verified), {"json": "$.nonce", "equals": "nonce-akab-client-token-1"}, {"json": "$.timestamp", "equals": "20261201T14:30:05+0000"}]},
              {"name": "baseURL", "url": "{{base}}/edgegrid/b", "headers": {"Host": "akab-base.luna.akamaiapis.net"},
               "auth": \(edgegrid(#", "baseURL": "https://akab-base.luna.akamaiapis.net""#)), "expect": [\(verified)]},
              {"name": "wrong secret", "url": "{{base}}/edgegrid/w",
               "auth": {"type": "edgegrid", "accessToken": "akab-access-token-1", "clientToken": "{{ct}}", "clientSecret": "not-the-secret"},
               "expect": [{"status": 401}]}
             ]}]}
            """)
        let run = try ReqRunBinary.run(["run", "--all"], in: dir.url)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("7 requests: 7 passed"), "\(run.stdout)")
        let saved = try records(dir)
        for secret in ["edgegrid-secret-1", "akab-access-token-1", "akab-client-token-1"] { #expect(!saved.contains(secret), "\(secret)") }
        let curl = try ReqRunBinary.run(["show", "--curl", "post"], in: dir.url)
        #expect(curl.stdout.hasPrefix("# the EdgeGrid header below holds a nonce and a timestamp made now"), "\(curl.stdout)")
        #expect(!curl.stdout.contains("edgegrid-secret-1") && !curl.stdout.contains("akab-access-token-1"), "\(curl.stdout)")
    }

    @Test func ntlmIsNegotiatedByLibcurl() throws {
        let dir = try TemporaryDirectory()
        try dir.write("collections/n.json", """
            {"name": "NTLM", "variables": {"base": "\(try TestServers.auth())", "pw": "ntlm-pass-1"},
             "groups": [{"name": "g", "requests": [
              {"name": "ok", "url": "{{base}}/ntlm", "auth": {"type": "ntlm", "username": "ada", "password": "{{pw}}", "domain": "LAB"},
               "expect": [{"status": 200}, {"json": "$.user", "equals": "ada"}, {"json": "$.domain", "equals": "LAB"},
                          "jsonpath '$.type1' startsWith 'NTLM TlRMTVNTUAAB'"]},
              {"name": "wrong", "url": "{{base}}/ntlm", "auth": {"type": "ntlm", "username": "ada", "password": "wrong-pass", "domain": "LAB"},
               "expect": [{"status": 401}]}
             ]}]}
            """)
        let run = try ReqRunBinary.run(["run", "--all"], in: dir.url)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("2 requests: 2 passed"), "\(run.stdout)")
        #expect(!(try records(dir)).contains("ntlm-pass-1"))
        let dry = try ReqRunBinary.run(["run", "--all", "--dry-run"], in: dir.url)
        #expect(dry.stdout.contains("NTLM as 'LAB\\ada', negotiated by libcurl"), "\(dry.stdout)")
    }

    @Test func jwtTokensVerifyWithPyJWT() throws {
        let dir = try TemporaryDirectory()
        let key = try String(contentsOfFile: try TestServers.authRSAKey(), encoding: .utf8)
        try dir.write("collections/j.json", """
            {"name": "JWT", "variables": {"base": "\(try TestServers.auth())", "secret": "jwt-secret-0123456789", "key": \(try quoted(key)),
                                          "user": "ada \\"the first\\""},
             "groups": [{"name": "g", "requests": [
              {"name": "hs256", "url": "{{base}}/jwt", "auth": {"type": "jwt", "secret": "{{secret}}", "payload": {"sub": "{{user}}", "n": 1}, "header": {"kid": "k1"}},
               "expect": [{"status": 200}, {"json": "$.claims.sub", "equals": "ada \\"the first\\""}, {"json": "$.header.kid", "equals": "k1"},
                          {"json": "$.prefix", "equals": "Bearer"}]},
              {"name": "rs256 query", "url": "{{base}}/jwt", "auth": {"type": "jwt", "algorithm": "RS256", "privateKey": "{{key}}", "payload": {"sub": "x"},
                                                                      "in": "query"},
               "expect": [{"status": 200}, {"json": "$.header.alg", "equals": "RS256"}]},
              {"name": "wrong secret", "url": "{{base}}/jwt", "auth": {"type": "jwt", "secret": "not-the-secret", "payload": {}}, "expect": [{"status": 401}]}
             ]}]}
            """)
        let run = try ReqRunBinary.run(["run", "--all"], in: dir.url)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("3 requests: 3 passed"), "\(run.stdout)")
        #expect(run.stdout.contains("/jwt?token=****"), "\(run.stdout)")
        #expect(!(try records(dir)).contains("jwt-secret-0123456789"))
    }
}

extension ComputedAuthEndToEndTests {
    /// PS256/384/512 (RSASSA-PSS) and ES256/384/512 (ECDSA, raw r||s) tokens, verified by PyJWT with
    /// cryptography; the EC keys are the auth server's `auth-ec-p256-key.pem` and its siblings.
    @Test func jwtPSAndESTokensVerifyWithPyJWT() throws {
        let dir = try TemporaryDirectory()
        let rsaPath = try TestServers.authRSAKey()
        let folder = URL(fileURLWithPath: rsaPath).deletingLastPathComponent()
        func key(_ name: String) throws -> String { try quoted(String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)) }
        var requests: [String] = []
        for (alg, keyName) in [("PS256", "rsa"), ("PS384", "rsa"), ("PS512", "rsa"), ("ES256", "p256"), ("ES384", "p384"), ("ES512", "p521")] {
            requests.append(#"{"name": "\#(alg)", "url": "{{base}}/jwt", "auth": {"type": "jwt", "algorithm": "\#(alg)", "privateKey": "{{\#(keyName)}}", "payload": {"sub": "\#(alg)"}}, "#
                + #""expect": [{"status": 200}, {"json": "$.header.alg", "equals": "\#(alg)"}, {"json": "$.claims.sub", "equals": "\#(alg)"}]}"#)
        }
        requests.append(#"{"name": "wrong curve", "url": "{{base}}/jwt", "auth": {"type": "jwt", "algorithm": "ES384", "privateKey": "{{p256}}", "payload": {}}}"#)
        try dir.write("collections/j.json", """
            {"name": "JWT", "variables": {"base": "\(try TestServers.auth())", "rsa": \(try key("auth-rsa-key.pem")), "p256": \(try key("auth-ec-p256-key.pem")),
                                          "p384": \(try key("auth-ec-p384-key.pem")), "p521": \(try key("auth-ec-p521-key.pem"))},
             "groups": [{"name": "g", "requests": [\(requests.joined(separator: ",\n"))]}]}
            """)
        let run = try ReqRunBinary.run(["run", "--all"], in: dir.url)
        #expect(run.stdout.contains("7 requests: 6 passed, 0 failed, 1 error"), "\(run.stdout)\(run.stderr)")
        #expect((run.stdout + run.stderr).contains("jwt ES384: the private key is not a P-384 key"), "\(run.stdout)\(run.stderr)")
        #expect(!(try records(dir)).contains("PRIVATE KEY"))
    }
}

extension ComputedAuthEndToEndTests {
    /// Atlassian S2S (`asap`): a JWT with iss, sub, aud, jti, iat, exp and a `kid` header, verified by PyJWT with
    /// the public key; native and imported from Postman (v2.1 key/value form), the key masked in the record.
    @Test func asapTokensVerifyWithPyJWT() throws {
        let dir = try TemporaryDirectory()
        let key = try String(contentsOfFile: try TestServers.authRSAKey(), encoding: .utf8)
        try dir.write("collections/a.json", """
            {"name": "ASAP", "variables": {"base": "\(try TestServers.auth())", "key": \(try quoted(key))},
             "groups": [{"name": "g", "requests": [
              {"name": "asap", "url": "{{base}}/jwt", "auth": {"type": "asap", "issuer": "svc-a", "audience": "svc-b", "keyId": "svc-a/k1",
                                                               "privateKey": "{{key}}", "claims": {"scope": "read"}, "expiry": "10m"},
               "expect": [{"status": 200}, {"json": "$.header.kid", "equals": "svc-a/k1"}, {"json": "$.header.alg", "equals": "RS256"},
                          {"json": "$.claims.iss", "equals": "svc-a"}, {"json": "$.claims.sub", "equals": "svc-a"}, {"json": "$.claims.aud", "equals": "svc-b"},
                          {"json": "$.claims.scope", "equals": "read"}, {"json": "$.lifetime", "equals": 600}, {"json": "$.jtiLength", "equals": 36}]}
             ]}]}
            """)
        let run = try ReqRunBinary.run(["run", "--all"], in: dir.url)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("1 requests: 1 passed") || run.stdout.contains("1 request: 1 passed"), "\(run.stdout)")
        #expect(!(try records(dir)).contains("PRIVATE KEY"))
        let curl = try ReqRunBinary.run(["show", "--curl", "asap"], in: dir.url)
        #expect(curl.stdout.contains("# the ASAP token below"), "\(curl.stdout)")

        let entries = [("alg", "ES256"), ("iss", "svc-p"), ("aud", "svc-q"), ("kid", "svc-p/k2"), ("privateKey", "{{key}}"), ("sub", "user-1"), ("exp", "120")]
            .map { #"{"key": "\#($0.0)", "value": "\#($0.1)", "type": "string"}"# }.joined(separator: ", ")
        let ec = try String(contentsOf: URL(fileURLWithPath: try TestServers.authRSAKey()).deletingLastPathComponent().appendingPathComponent("auth-ec-p256-key.pem"), encoding: .utf8)
        try dir.write("p.postman_collection.json", """
            {"info": {"name": "P", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             "variable": [{"key": "base", "value": "\(try TestServers.auth())"}, {"key": "key", "value": \(try quoted(ec))}],
             "item": [{"name": "pasap", "event": [{"listen": "test", "script": {"exec": [
               "pm.test('asap', () => { const j = pm.response.json(); pm.expect(j.claims.sub).to.equal('user-1'); pm.expect(j.header.kid).to.equal('svc-p/k2'); pm.expect(j.lifetime).to.equal(120); });",
               "pm.response.to.have.status(200);"]}}],
               "request": {"method": "GET", "url": "{{base}}/jwt", "auth": {"type": "asap", "asap": [\(entries)]}}}]}
            """)
        let imported = try ReqRunBinary.run(["import", "p.postman_collection.json", "--to", "collections/p.json"], in: dir.url)
        #expect(imported.status == 0 && !imported.stderr.contains("not"), "\(imported.stderr)")
        #expect(try dir.read("collections/p.json").contains("\"type\": \"asap\""))
        let postman = try ReqRunBinary.run(["run", "pasap"], in: dir.url)
        #expect(postman.status == 0, "\(postman.stdout)\(postman.stderr)")
    }
}

extension ComputedAuthEndToEndTests {
    @Test func postmanAuthIsImportedAndRunsAndShowCurlSaysWhatItCannotDo() throws {
        let dir = try TemporaryDirectory()
        func item(_ name: String, _ path: String, _ type: String, _ fields: [(String, String)]) -> String {
            let entries = fields.map { #"{"key": "\#($0.0)", "value": \#($0.1 == "true" ? $0.1 : "\"\($0.1)\""), "type": "string"}"# }
            return #"{"name": "\#(name)", "event": [{"listen": "test", "script": {"exec": ["pm.response.to.have.status(200);"]}}], "#
                + #""request": {"method": "GET", "url": "{{base}}\#(path)", "auth": {"type": "\#(type)", "\#(type)": [\#(entries.joined(separator: ", "))]}}}"#
        }
        let scope = "postman-\(UUID().uuidString)"
        try dir.write("p.postman_collection.json", """
            {"info": {"name": "Computed", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             "variable": [{"key": "base", "value": "\(try TestServers.auth())"}, {"key": "cs", "value": "consumer-secret-1"}],
             "item": [
              \(item("oauth1", "/oauth1/p?x=1", "oauth1", [("consumerKey", "reqrun-consumer"), ("consumerSecret", "{{cs}}"), ("signatureMethod", "HMAC-SHA1"),
                                                  ("addParamsToHeader", "true"), ("version", "1.0")])),
              \(item("oauth2", "/oauth2/resource", "oauth2", [("grant_type", "client_credentials"), ("accessTokenUrl", "{{base}}/oauth2/token"),
                                                    ("clientId", "reqrun-client"), ("clientSecret", "client-secret-1"), ("scope", scope),
                                                    ("client_authentication", "header"), ("addTokenTo", "header")])),
              \(item("hawk", "/hawk/p", "hawk", [("authId", "hawk-sha256"), ("authKey", "hawk-key-0123456789"), ("algorithm", "sha256")])),
              \(item("jwt", "/jwt", "jwt", [("algorithm", "HS256"), ("secret", "jwt-secret-0123456789"), ("payload", "{\\\"sub\\\": \\\"ada\\\"}"),
                                            ("addTokenTo", "header"), ("headerPrefix", "Bearer")])),
              \(item("ntlm", "/ntlm", "ntlm", [("username", "ada"), ("password", "ntlm-pass-1"), ("domain", "LAB")])),
              \(item("edgegrid", "/edgegrid/p", "edgegrid", [("accessToken", "akab-access-token-1"), ("clientToken", "akab-client-token-1"),
                                                          ("clientSecret", "edgegrid-secret-1"), ("maxBodySize", "131072")]))
             ]}
            """)
        let imported = try ReqRunBinary.run(["import", "p.postman_collection.json", "--to", "collections/p.json"], in: dir.url)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(!imported.stderr.contains("not supported"), "\(imported.stderr)")
        let native = try dir.read("collections/p.json")
        for type in ["oauth1", "oauth2", "hawk", "jwt", "ntlm", "edgegrid"] { #expect(native.contains("\"type\": \"\(type)\""), "\(type)") }
        let run = try ReqRunBinary.run(["run", "--all"], in: dir.url)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("6 requests: 6 passed"), "\(run.stdout)")
        let oauth1 = try ReqRunBinary.run(["show", "--curl", "oauth1"], in: dir.url)
        #expect(oauth1.stdout.hasPrefix("# the OAuth 1.0a signature below holds a nonce and a timestamp made now"), "\(oauth1.stdout)")
        #expect(oauth1.stdout.contains("--header 'Authorization: ****'") && !oauth1.stdout.contains("consumer-secret-1"))
        let oauth2 = try ReqRunBinary.run(["show", "--curl", "oauth2", "--show-secrets"], in: dir.url)
        #expect(oauth2.stdout.hasPrefix("# reqrun requests the OAuth 2.0 token from the token endpoint when it runs"), "\(oauth2.stdout)")
        #expect(oauth2.stdout.contains("Authorization: Bearer <OAuth 2.0 token from \(try TestServers.auth())/oauth2/token>"), "\(oauth2.stdout)")
        let ntlm = try ReqRunBinary.run(["show", "--curl", "ntlm"], in: dir.url)
        #expect(ntlm.stdout.contains("--ntlm --user 'LAB\\ada:****'"), "\(ntlm.stdout)")
        // `show --curl` and the dry run request no token.
        _ = try ReqRunBinary.run(["run", "--all", "--dry-run"], in: dir.url)
        #expect(try tokenRequests(scope).count == 1)
    }
}
