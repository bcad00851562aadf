import Foundation
import Testing
import ReqRunKit
import TestSupport

/// Auth kinds, inheritance and masking through the built binary, checked by the local httpbin.
@Suite struct AuthEndToEndTests {
    private func workspace() throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory()
        try dir.write("collections/a.json", """
            {"name": "Auth", "variables": {"base": "\(try TestServers.httpbin())", "user": "ada", "pw": "s3cret"},
             "auth": {"type": "bearer", "token": "tok-{{user}}"},
             "groups": [
              {"name": "inherit", "requests": [
                {"name": "bearer", "url": "{{base}}/bearer", "expect": [{"status": 200}, {"json": "$.token", "equals": "tok-ada"}]},
                {"name": "none", "url": "{{base}}/bearer", "auth": {"type": "none"}, "expect": [{"status": 401}]}
              ]},
              {"name": "kinds", "auth": {"type": "basic", "username": "{{user}}", "password": "{{pw}}"}, "requests": [
                {"name": "basic", "url": "{{base}}/basic-auth/ada/s3cret", "expect": [{"status": 200}, {"json": "$.user", "equals": "ada"}]},
                {"name": "digest", "url": "{{base}}/digest-auth/auth/ada/s3cret", "auth": {"type": "digest", "username": "ada", "password": "{{pw}}"},
                 "expect": [{"status": 200}, {"json": "$.authenticated", "equals": true}]},
                {"name": "key in query", "url": "{{base}}/anything?a=1", "auth": {"type": "apikey", "key": "api key", "value": "k&{{pw}}", "in": "query"},
                 "expect": [{"json": "$.args['api key']", "equals": "k&s3cret"}, {"json": "$.args.a", "equals": "1"}]},
                {"name": "key in header", "url": "{{base}}/headers", "auth": {"type": "apikey", "key": "X-Api-Key", "value": "{{pw}}"},
                 "expect": [{"json": "$.headers.X-Api-Key", "equals": "s3cret"}, {"json": "$.headers.Authorization", "exists": false}]},
                {"name": "aws", "url": "{{base}}/headers", "auth": {"type": "awsv4", "accessKey": "AKID", "secretKey": "{{pw}}",
                 "region": "eu-west-1", "service": "s3"}}
              ]}
             ]}
            """)
        return dir
    }

    @Test func everyKindReachesTheServerAndCredentialsAreMasked() throws {
        let dir = try workspace()
        let run = try ReqRunBinary.run(["run", "--all"], in: dir.url)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("7 requests: 7 passed"))
        #expect(run.stdout.contains("/anything?a=1&api%20key=****\n"))
        let recordFile = try #require(try FileManager.default.contentsOfDirectory(atPath: dir.url.appendingPathComponent(".reqrun/runs").path).first)
        let record = try dir.read(".reqrun/runs/\(recordFile)")
        #expect(!record.contains("s3cret") && !record.contains("tok-ada") && !record.contains("k%26s3cret"))
        // httpbin echoes the Basic header: its base64 form of user:password is masked too.
        #expect(!record.contains(Data("ada:s3cret".utf8).base64EncodedString()))
    }

    @Test func awsSignatureVerifies() throws {
        let dir = try workspace()
        let run = try ReqRunBinary.run(["run", "kinds", "--show-secrets"], in: dir.url)
        #expect(run.status == 0)
        let record = try JSONDecoder().decode(RunRecord.self, from: Data(try ReqRunBinary.run(["show", "--json"], in: dir.url).stdout.utf8))
        let aws = try #require(record.results.last)
        let sent = try #require(aws.request?.headers)
        let authorization = try #require(sent.first { $0.name == "Authorization" }?.value)
        let date = try #require(sent.first { $0.name == "X-Amz-Date" }?.value)
        let host = try #require(sent.first { $0.name == "Host" }?.value)
        #expect(authorization.hasPrefix("AWS4-HMAC-SHA256 Credential=AKID/\(date.prefix(8))/eu-west-1/s3/aws4_request, SignedHeaders=host;x-amz-date, Signature="))
        // Recompute the signature independently (AWS SigV4 with Python's hmac) from what was sent.
        let expected = try Python.run("""
            import hashlib, hmac, sys
            date, host, secret = sys.argv[1:4]
            canonical = "\\n".join(["GET", "/headers", "", "host:" + host, "x-amz-date:" + date, "", "host;x-amz-date",
                                   hashlib.sha256(b"").hexdigest()])
            scope = date[:8] + "/eu-west-1/s3/aws4_request"
            to_sign = "\\n".join(["AWS4-HMAC-SHA256", date, scope, hashlib.sha256(canonical.encode()).hexdigest()])
            sign = lambda key, msg: hmac.new(key, msg.encode(), hashlib.sha256).digest()
            key = sign(sign(sign(sign(("AWS4" + secret).encode(), date[:8]), "eu-west-1"), "s3"), "aws4_request")
            print(hmac.new(key, to_sign.encode(), hashlib.sha256).hexdigest())
            """, [date, host, "s3cret"]).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(authorization.hasSuffix("Signature=\(expected)"))
    }
}
