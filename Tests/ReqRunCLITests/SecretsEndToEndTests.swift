import Foundation
import Testing
import ReqRunKit
import TestSupport

/// No clear secret in the console, the run record or any report, against the local httpbin, which echoes
/// what it receives in its own spellings.
@Suite struct SecretsEndToEndTests {
    @Test func noSecretReachesAnyOutput() throws {
        let base = try TestServers.httpbin()
        let host = base.replacingOccurrences(of: "http://", with: "")
        let captured = Data(#"{"token": "cap-t0ken-xyz"}"#.utf8).base64EncodedString()
        let dir = try TemporaryDirectory()
        let longBody = String(repeating: "a", count: RunRecord.bodyLimit - 6) + "{{cut}}"
        try dir.write("collections/s.json", """
            {"name": "S", "variables": {"base": "\(base)"}, "groups": [{"name": "g", "requests": [
              {"name": "json echo", "method": "POST", "url": "{{base}}/anything", "body": {"p": "{{pw}}"}, "expect": [{"status": 200}]},
              {"url": "http://ada:pa55word@\(host)/basic-auth/ada/pa55word", "expect": [{"status": 200}]},
              {"url": "http://ada:pa55word@\(host)/headers"},
              {"name": "login", "url": "{{base}}/base64/\(captured)", "capture": [{"var": "token", "json": "$.token"}]},
              {"name": "use", "url": "{{base}}/bearer", "auth": {"type": "bearer", "token": "{{token}}"}, "expect": [{"status": 200}]},
              {"name": "by hand", "url": "{{base}}/headers", "headers": {"Authorization": "Bearer hand-t0ken-1", "Cookie": "session=c00kie-val-1"}},
              {"name": "cut", "method": "POST", "url": "{{base}}/anything", "body": "\(longBody)"}
            ]}]}
            """)
        try dir.write("environments/e.json", #"""
            {"pw": {"value": "p\"a\\ss✓wörd-1", "secret": true}, "cut": {"value": "trunc-s3cret-99", "secret": true}}
            """#)
        let run = try ReqRunBinary.run(["run", "--all", "--env", "e", "--report", "junit=r/j.xml", "--report", "har=r/h.har",
                                        "--report", "html=r/h.html", "--report", "json=r/r.json"], in: dir.url)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let recordFile = try #require(try FileManager.default.contentsOfDirectory(atPath: dir.url.appendingPathComponent(".reqrun/runs").path).first)
        let outputs = ["stdout": run.stdout + run.stderr, "record": try dir.read(".reqrun/runs/\(recordFile)"),
                       "junit": try dir.read("r/j.xml"), "har": try dir.read("r/h.har"), "html": try dir.read("r/h.html"),
                       "json": try dir.read("r/r.json")]
        let clear = ["rd-1", "pa55word", Data("ada:pa55word".utf8).base64EncodedString(), "cap-t0ken-xyz", "hand-t0ken-1",
                     "c00kie-val-1", "trunc-"]
        for (name, text) in outputs {
            for secret in clear { #expect(!text.contains(secret), "\(name) shows \(secret)") }
        }
        // Masked, not dropped: the URL keeps its shape.
        #expect(outputs["record"]!.contains("http://ada:****@\(host)/headers"))
        // The default name is the URL with its password masked (`list` also shows the URL as written).
        let list = try ReqRunBinary.run(["list", "--all"], in: dir.url)
        #expect(list.status == 0 && list.stdout.contains("  http://ada:****@\(host)/headers"), "\(list.stdout)")
    }

    /// A secret with non-ASCII characters, in a query, a body and a header field, comes back from httpbin's
    /// `/anything` in other spellings than an ASCII one: `\u00e9` escapes in its JSON (a header field's UTF-8
    /// read as Latin-1 first: `\u00c3\u00a9`), percent-encoded UTF-8 in lower case in a `Location` (as
    /// `/redirect-to` gives back what it was sent), Latin-1 bytes in a header field (`/response-headers`).
    /// None of them reaches the record, `show` or the console.
    @Test func aNonASCIISecretIsMaskedInEveryEchoedSpelling() throws {
        let dir = try TemporaryDirectory()
        try dir.write("collections/u.json", """
            {"name": "U", "variables": {"base": "\(try TestServers.httpbin())"}, "groups": [{"name": "g", "requests": [
              {"name": "query", "url": "{{base}}/anything?x={{pw}}", "expect": [{"status": 200}]},
              {"name": "body", "method": "POST", "url": "{{base}}/anything", "body": "raw {{pw}} text", "headers": {"Content-Type": "text/plain"}},
              {"name": "json", "method": "POST", "url": "{{base}}/anything", "body": {"p": "{{pw}}"}},
              {"name": "header", "url": "{{base}}/anything", "headers": {"X-Secret": "{{pw}}"}},
              {"name": "latin1", "url": "{{base}}/response-headers?k={{pw}}"},
              {"name": "location", "url": "{{base}}/redirect-to?url=%2Fanything%3Fx%3Ds%25c3%25a9cr%25c3%25a8t-%25c3%25bcber-7", "followRedirects": false}
            ]}]}
            """)
        try dir.write("environments/e.json", #"""
            {"pw": {"value": "s\#u{e9}cr\#u{e8}t-\#u{fc}ber-7", "secret": true}}
            """#)
        let run = try ReqRunBinary.run(["run", "--all", "--env", "e", "-v"], in: dir.url)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let record = try RecordFiles.newest(in: dir.url)
        #expect(record.results.count == 6)
        let recordFile = try #require(try FileManager.default.contentsOfDirectory(atPath: dir.url.appendingPathComponent(".reqrun/runs").path).first)
        let show = try ReqRunBinary.run(["show"], in: dir.url), json = try ReqRunBinary.run(["show", "--json"], in: dir.url)
        // Each body and header value in the record as its bytes, whatever the record keeps as text or base64.
        let latin1 = { (data: Data) in String(String.UnicodeScalarView(data.map { Unicode.Scalar($0) })) }
        var bytes = ""
        for result in record.results {
            for field in (result.request?.headers ?? []) + (result.response?.headers ?? []) {
                bytes += String(decoding: field.valueBase64.flatMap { Data(base64Encoded: $0) } ?? Data(field.value.utf8), as: UTF8.self)
                if let raw = field.valueBase64.flatMap({ Data(base64Encoded: $0) }) { bytes += latin1(raw) }
            }
            for body in [result.request?.body, result.response?.body].compactMap({ $0 }) {
                let data = body.encoding == "utf8" ? Data(body.data.utf8) : Data(base64Encoded: body.data) ?? Data()
                bytes += String(decoding: data, as: UTF8.self) + latin1(data)
            }
        }
        let outputs = ["console": run.stdout + run.stderr, "record file": try dir.read(".reqrun/runs/\(recordFile)"),
                       "show": show.stdout, "show --json": json.stdout, "record bytes": bytes]
        // The part "cr\u{e8}t" of the secret in each spelling: as it is, JSON-escaped in either case, the UTF-8
        // read as Latin-1 (as it is and JSON-escaped), percent-encoded in either case, a Latin-1 byte as the
        // record writes a header field's byte that is not UTF-8 (`\xE8`).
        let spellings = ["cr\u{e8}t", #"cr\u00e8t"#, #"cr\u00E8t"#, "cr\u{c3}\u{a8}t", #"cr\u00c3\u00a8t"#, #"cr\u00C3\u00A8t"#,
                         "cr%C3%A8t", "cr%c3%a8t", #"cr\xE8t"#]
        for (name, text) in outputs {
            for spelling in spellings { #expect(!text.contains(spelling), "\(name) shows \(spelling)") }
        }
        // Masked, not dropped.
        #expect(outputs["record file"]!.contains("/anything?x=****"), "\(outputs["record file"]!)")
    }

    /// A server that answers with a template gets it back as text: `{{pw}}` is not expanded in the next request.
    @Test func capturedValuesAreSentAsData() throws {
        let dir = try TemporaryDirectory()
        let template = Data("{{pw}}".utf8).base64EncodedString()
        try dir.write("collections/d.json", """
            {"name": "D", "variables": {"base": "\(try TestServers.httpbin())", "pw": "hunter22"}, "groups": [{"name": "g", "requests": [
              {"name": "answer", "url": "{{base}}/base64/\(template)", "capture": [{"var": "echo", "regex": "(.*)"}]},
              {"name": "next", "url": "{{base}}/anything", "query": {"v": "{{echo}}"}, "expect": [{"json": "$.args.v", "exists": true}]}
            ]}]}
            """)
        let run = try ReqRunBinary.run(["run", "--all"], in: dir.url)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("/anything?v=%7B%7Bpw%7D%7D"), "\(run.stdout)")
        #expect(!run.stdout.contains("hunter22"))
    }

    /// A request that cannot be sent still names its URL: its user information's password is masked.
    @Test func anInvalidRequestMasksItsUserInformation() throws {
        let dir = try TemporaryDirectory()
        try dir.write("collections/i.json", """
            {"name": "I", "variables": {"pw": "pa55word"}, "groups": [{"name": "g", "requests": [
              {"name": "x", "url": "http://ada:{{pw}}@h:99999/x"}, {"name": "y", "url": "http://ada:pa55word@h:99999/x"},
              {"name": "z", "url": "http://ada:pa55word@h:8x/x"}
            ]}]}
            """)
        let run = try ReqRunBinary.run(["run", "--all"], in: dir.url)
        #expect(run.status == 3)
        #expect(run.stdout.components(separatedBy: "http://ada:****@h:99999/x  invalid URL").count == 3
                && run.stdout.contains("'http://ada:****@h:8x/x' has an invalid port"), "\(run.stdout)")
        #expect(!(try ReqRunBinary.run(["show", "--json"], in: dir.url).stdout.contains("pa55word")))
        // The same messages from `--dry-run` (text and JSON) and `show --curl`, which prepare it too.
        for arguments in [["run", "--all", "--dry-run"], ["run", "--all", "--dry-run", "--json"], ["show", "--curl", "x"], ["show", "--curl", "y"], ["show", "--curl", "z"]] {
            let other = try ReqRunBinary.run(arguments, in: dir.url)
            #expect(other.stdout.contains("invalid URL") || other.stderr.contains("invalid URL"), "\(arguments): \(other.stdout)\(other.stderr)")
            #expect(!(other.stdout + other.stderr).contains("pa55word"), "\(arguments): \(other.stdout)\(other.stderr)")
        }
    }
}
