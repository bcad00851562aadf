import Foundation
import Testing
import ReqRunKit
import TestSupport

/// The auth kinds reqrun computes (OAuth 1.0a, OAuth 2.0, Hawk, NTLM, JWT), sent by the built binary to the
/// auth server (`scripts/auth-server`), which checks each with an independent implementation (oauthlib,
/// mohawk, PyJWT, its own NTLMv2) and answers 200 only when it verifies.
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
