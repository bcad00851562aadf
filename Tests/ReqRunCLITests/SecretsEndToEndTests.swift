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
