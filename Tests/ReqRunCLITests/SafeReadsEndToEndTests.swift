import Foundation
import Testing
import ReqRunKit
import TestSupport

/// What a shared collection may read, tried as an attacker would: files outside the workspace, the user's
/// environment variables, body files that block. Checked on the wire by the local httpbin.
@Suite struct SafeReadsEndToEndTests {
    private func record(_ dir: TemporaryDirectory) throws -> RunRecord {
        try JSONDecoder().decode(RunRecord.self, from: Data(try ReqRunBinary.run(["show", "--json"], in: dir.url).stdout.utf8))
    }

    /// A repository can carry `environments/dev.json` as a link to a credentials file of the user's (a flat
    /// JSON object of strings, like gcloud's) and a `.reqrun/state.json` that selects it, or names such a file
    /// directly: the workspace's environments are files of the workspace too. `--env FILE`, typed by the user,
    /// is not limited.
    @Test func workspaceEnvironmentsReadNoFileOutsideIt() throws {
        let dir = try TemporaryDirectory()
        let outside = try TemporaryDirectory()
        let credentials = try outside.write("adc.json", #"{"refresh_token": "1//refresh-s3cret"}"#).path
        try dir.write("collections/t.json", #"{"name": "T", "groups": [{"name": "g", "requests": [{"url": "http://127.0.0.1:9/?t={{refresh_token}}"}]}]}"#)
        try FileManager.default.createDirectory(at: dir.url.appendingPathComponent("environments"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir.url.appendingPathComponent("environments/dev.json").path, withDestinationPath: credentials)
        for state in [#"{"environment": "dev"}"#, "{\"environment\": \"\(credentials)\"}"] {
            try dir.write(".reqrun/state.json", state)
            for arguments in [["run", "--all", "--dry-run"], ["show", "--curl", "#0"], ["env", "show"]] {
                let output = try ReqRunBinary.run(arguments, in: dir.url)
                #expect(output.status == 2, "\(state) \(arguments): \(output.stdout)\(output.stderr)")
                #expect(output.stderr.contains("is outside the workspace"), "\(output.stderr)")
                // Each command's hint names what it has: `env` has no --file-root or --env.
                if arguments[0] == "env" {
                    #expect(output.stderr.hasSuffix("; show the file by its path with 'reqrun env show PATH'\n") && !output.stderr.contains("--"),
                            "\(output.stderr)")
                } else {
                    #expect(output.stderr.hasSuffix("; allow its folder with --file-root DIR, or name the file with --env FILE\n"), "\(output.stderr)")
                }
                #expect(!output.stdout.contains("refresh-s3cret"))
            }
        }
        #expect(try ReqRunBinary.run(["run", "--all", "--dry-run", "--env", "dev"], in: dir.url).status == 2)
        // `env show NAME` reads it as `run --env NAME` does: the same refusal, word for word, with env's hint.
        let refused = try ReqRunBinary.run(["run", "--all", "--dry-run", "--env", "dev"], in: dir.url)
        let shown = try ReqRunBinary.run(["env", "show", "dev"], in: dir.url)
        let envRefusal = refused.stderr.replacingOccurrences(of: "allow its folder with --file-root DIR, or name the file with --env FILE",
                                                            with: "show the file by its path with 'reqrun env show PATH'")
        #expect(shown.status == 2 && shown.stderr == envRefusal && !shown.stdout.contains("refresh"), "\(shown.stdout)\(shown.stderr)")
        #expect(try ReqRunBinary.run(["env", "show", credentials], in: dir.url).stdout.contains("refresh_token = "))
        // Allowed by the user: the folder with --file-root, or the file itself with --env FILE.
        #expect(try ReqRunBinary.run(["run", "--all", "--dry-run", "--file-root", outside.path], in: dir.url).status == 0)
        #expect(try ReqRunBinary.run(["run", "--all", "--dry-run", "--env", credentials], in: dir.url).status == 0)
        // `env use` saves nothing that a run would refuse.
        try dir.write(".reqrun/state.json", "{}")
        for name in ["dev", credentials] {
            let use = try ReqRunBinary.run(["env", "use", name], in: dir.url)
            #expect(use.status == 2 && use.stderr.contains("is outside the workspace"), "\(use.stdout)\(use.stderr)")
            #expect(use.stderr.hasSuffix("; the environment in use must lie in the workspace; give the file to a run with 'reqrun run --env FILE'\n"),
                    "\(use.stderr)")
        }
        #expect(try dir.read(".reqrun/state.json") == "{}")
    }

    @Test func collectionsReadNoFileOutsideTheWorkspaceUnlessAllowed() throws {
        let dir = try TemporaryDirectory()
        let outside = try TemporaryDirectory()
        let secret = try outside.write("id_rsa", "PRIVATE KEY").path
        let base = try TestServers.httpbin()
        let text = #"{"name": "T", "groups": [{"name": "g", "requests": [{"name": "up", "method": "PUT", "url": "\#(base)/anything", "bodyFile": "\#(secret)"}]}]}"#
        try dir.write("collections/t.json", text)
        let column = try #require(text.range(of: "\"\(secret)\"")).lowerBound.utf16Offset(in: text) + 1
        let expected = "error: collections/t.json:1:\(column): groups[0].requests[0].bodyFile: '\(secret)' is outside the workspace: "
            + "files may be read only inside \(dir.path); allow its folder with --file-root DIR\n"
        // Every command that loads the collection says so, before anything is sent or saved.
        for arguments in [["run", "--all"], ["run", "--all", "--dry-run"], ["list"], ["show", "--curl", "#0"], ["expand", "g"]] {
            let output = try ReqRunBinary.run(arguments, in: dir.url)
            #expect(output.status == 2, "\(arguments): \(output.stdout)")
            #expect(output.stderr == expected, "\(arguments)")
        }
        #expect(!dir.exists(".reqrun"))
        // A Postman collection to import is held to the same rule.
        try outside.write("p.json", #"{"info": {"name": "P", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}, "item": [{"name": "r", "request": {"method": "POST", "url": "x", "body": {"mode": "file", "file": {"src": "id_rsa"}}}}]}"#)
        let imported = try ReqRunBinary.run(["import", outside.url.appendingPathComponent("p.json").path], in: dir.url)
        #expect(imported.status == 2 && imported.stderr.contains("item[0].request.body.file.src: 'id_rsa' (\(secret)) is outside the workspace"))
        #expect(!dir.exists("collections/p.json"))
        // The user allows the folder: the file is sent.
        let allowed = try ReqRunBinary.run(["run", "--all", "--file-root", outside.path], in: dir.url)
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(try record(dir).results[0].response?.body.data.contains("PRIVATE KEY") == true)
        let missing = try ReqRunBinary.run(["list", "--file-root", "no-such-folder"], in: dir.url)
        #expect(missing.status == 2 && missing.stderr == "error: --file-root no-such-folder: no such folder\n")
        // An empty value (`--file-root "$ASSETS"` with ASSETS unset) is no folder, not the current one.
        let empty = try ReqRunBinary.run(["list", "--file-root", ""], in: dir.url)
        #expect(empty.status == 2 && empty.stderr == "error: --file-root '': no such folder\n", "\(empty.stderr)")
    }

    @Test func processEnvironmentIsReadOnlyForAllowedNamesAndMasked() throws {
        let dir = try TemporaryDirectory()
        let base = try TestServers.httpbin()
        try dir.write("collections/t.json", """
            {"name": "T", "groups": [{"name": "g", "requests": [
              {"name": "prefixed", "url": "\(base)/headers", "headers": {"X-Token": "{{process.env.REQRUN_SAFE_READS_TOKEN}}"}},
              {"name": "other", "url": "\(base)/headers", "headers": {"X-Other": "{{process.env.SAFE_READS_OTHER}}"}}
            ]}]}
            """)
        let environment = ["REQRUN_SAFE_READS_TOKEN": "tok-1234567", "SAFE_READS_OTHER": "aws-secret-987"]
        let refused = try ReqRunBinary.run(["run", "--all"], in: dir.url, environment: environment)
        #expect(refused.status == 3)
        let first = try record(dir)
        #expect(first.results[1].error?.message == "process.env.SAFE_READS_OTHER in headers[0].value is not readable: "
                + "collections may read only REQRUN_* variables and those allowed with --allow-env SAFE_READS_OTHER")
        #expect(first.results[0].request?.headers.first { $0.name == "X-Token" }?.value == "****")
        let allowed = try ReqRunBinary.run(["run", "--all", "--allow-env", "SAFE_READS_OTHER"], in: dir.url, environment: environment)
        #expect(allowed.status == 0, "\(allowed.stdout)")
        let second = try record(dir)
        #expect(second.results[1].request?.headers.first { $0.name == "X-Other" }?.value == "****")
        // Masked in the record's request and in the response that echoes it, in every record.
        for file in try FileManager.default.contentsOfDirectory(atPath: dir.url.appendingPathComponent(".reqrun/runs").path) {
            let bytes = try String(contentsOf: dir.url.appendingPathComponent(".reqrun/runs/\(file)"), encoding: .utf8)
            #expect(!bytes.contains("tok-1234567") && !bytes.contains("aws-secret-987"))
        }
        // show --curl and --dry-run apply the same rule and mask the same values.
        let curl = try ReqRunBinary.run(["show", "--curl", "other", "--allow-env", "SAFE_READS_OTHER"], in: dir.url, environment: environment)
        #expect(curl.status == 0 && curl.stdout.contains("X-Other: ****") && !curl.stdout.contains("aws-secret-987"))
        let refusedCurl = try ReqRunBinary.run(["show", "--curl", "other"], in: dir.url, environment: environment)
        #expect(refusedCurl.status == 3 && refusedCurl.stderr.contains("--allow-env SAFE_READS_OTHER"))
        let dry = try ReqRunBinary.run(["run", "--all", "--dry-run", "--allow-env", "SAFE_READS_OTHER"], in: dir.url, environment: environment)
        #expect(dry.status == 0 && !dry.stdout.contains("tok-1234567") && !dry.stdout.contains("aws-secret-987"))
        let dryRefused = try ReqRunBinary.run(["run", "--all", "--dry-run"], in: dir.url, environment: environment)
        #expect(dryRefused.status == 3 && dryRefused.stdout.contains("--allow-env SAFE_READS_OTHER"))
    }

    @Test func aCookieJarAboveItsBoundIsRefusedBeforeAnythingIsSent() throws {
        let dir = try TemporaryDirectory()
        try dir.write("collections/t.json", #"{"name": "T", "groups": [{"name": "g", "requests": [{"url": "\#(try TestServers.httpbin())/get"}]}]}"#)
        let jar = try dir.write("jar.txt", "# Netscape HTTP Cookie File\n")
        let handle = try FileHandle(forWritingTo: jar)
        try handle.truncate(atOffset: 17 << 20)
        try handle.close()
        let output = try ReqRunBinary.run(["run", "--all", "--cookie-jar", "jar.txt"], in: dir.url)
        #expect(output.status == 2)
        #expect(output.stderr == "error: jar.txt: is 17 MiB (17825792 bytes), more than a cookie jar may have (16 MiB)\n")
        #expect(!dir.exists(".reqrun"))
    }

    /// A cloned repository can hold a FIFO where reqrun reads a workspace file (`environments/NAME.json`, a
    /// collection of `collections/`, a collection's script file): refused with the file's name, never waited
    /// on (each command is killed after 15 s, and the test then fails on its status).
    @Test func workspaceFilesThatAreFIFOsAreRefusedInsteadOfBlocking() throws {
        func finish(_ arguments: [String], in dir: TemporaryDirectory) throws -> ReqRunBinary.Output {
            try ReqRunBinary.run(arguments, in: dir.url, killedAfter: 15)
        }
        let dir = try TemporaryDirectory()
        try dir.write("collections/t.json", #"{"name": "T", "groups": [{"name": "g", "requests": [{"url": "http://127.0.0.1:9/"}]}]}"#)
        try FileManager.default.createDirectory(at: dir.url.appendingPathComponent("environments"), withIntermediateDirectories: true)
        #expect(mkfifo(dir.url.appendingPathComponent("environments/dev.json").path, 0o600) == 0)
        for arguments in [["run", "--all", "--dry-run", "--env", "dev"], ["env", "show", "dev"], ["env", "use", "dev"]] {
            let output = try finish(arguments, in: dir)
            #expect(output.status == 2, "\(arguments): \(output.stderr)")
            #expect(output.stderr == "error: environments/dev.json: is a FIFO (named pipe), not a regular file\n", "\(arguments)")
        }
        #expect(mkfifo(dir.url.appendingPathComponent("collections/u.json").path, 0o600) == 0)
        let list = try finish(["list", "--all"], in: dir)
        #expect(list.status == 2, "\(list.stderr)")
        #expect(list.stderr.contains("error: collections/u.json: is a FIFO (named pipe), not a regular file"), "\(list.stderr)")
        #expect(list.stdout.contains("T"))
        try FileManager.default.removeItem(at: dir.url.appendingPathComponent("collections/u.json"))
        try dir.write("collections/s.json", #"{"name": "S", "scripts": {"prerequest": {"file": "pre.js"}}, "groups": []}"#)
        #expect(mkfifo(dir.url.appendingPathComponent("collections/pre.js").path, 0o600) == 0)
        let script = try finish(["list", "--all"], in: dir)
        #expect(script.status == 2, "\(script.stderr)")
        #expect(script.stderr.contains("pre.js") && script.stderr.contains("is a FIFO (named pipe), not a regular file"), "\(script.stderr)")
    }

    @Test func aBodyFileReplacedByAFIFOFailsInsteadOfHanging() throws {
        try expectFIFOBodyFails(#"{"name": "up", "method": "PUT", "url": "URL", "bodyFile": "data.bin"}"#)
    }

    /// EdgeGrid and OAuth 1.0a's body hash read a body file before it is sent: that read, too, must not block
    /// on a file replaced by a FIFO.
    @Test(arguments: [#"{"type": "edgegrid", "accessToken": "akab-a", "clientToken": "akab-c", "clientSecret": "s"}"#,
                      #"{"type": "oauth1", "consumerKey": "k", "consumerSecret": "s", "includeBodyHash": true}"#])
    func aBodyFileHashedForASignatureAndReplacedByAFIFOFailsInsteadOfHanging(auth: String) throws {
        try expectFIFOBodyFails(#"{"name": "up", "method": "POST", "url": "URL", "bodyFile": "data.bin", "auth": "# + auth + "}")
    }

    /// Runs a slow request and then `request` (its `URL` replaced by httpbin's `/anything`), whose body file
    /// `data.bin` is replaced by a FIFO while the first one runs: the second must fail, not hang.
    private func expectFIFOBodyFails(_ request: String) throws {
        let dir = try TemporaryDirectory()
        let base = try TestServers.httpbin()
        let data = try dir.write("collections/data.bin", "payload").path
        try dir.write("collections/t.json", """
            {"name": "T", "groups": [{"name": "g", "requests": [
              {"name": "slow", "url": "\(base)/delay/1"},
              \(request.replacingOccurrences(of: "\"URL\"", with: "\"\(base)/anything\""))
            ]}]}
            """)
        let running = try ReqRunBinary.start(["run", "--all", "--timeout", "5"], in: dir.url)
        // The run's record is made once the collection has loaded; the first request takes a second: replace
        // the file meanwhile, in one rename (a remove and a mkfifo would leave a moment with no file at all).
        let deadline = Date().addingTimeInterval(10)
        while (try? FileManager.default.contentsOfDirectory(atPath: dir.url.appendingPathComponent(".reqrun/runs").path))?.isEmpty ?? true,
              Date() < deadline {
            Thread.sleep(forTimeInterval: 0.02)
        }
        #expect(mkfifo(data + ".fifo", 0o600) == 0)
        #expect(rename(data + ".fifo", data) == 0)
        let finished = DispatchSemaphore(value: 0)
        let output = ReqRunOutputBox()
        DispatchQueue.global().async { output.value = running.finish(); finished.signal() }
        if finished.wait(timeout: .now() + 15) == .timedOut {
            running.send(signal: SIGKILL)
            finished.wait()
            Issue.record("reqrun hung on a FIFO body file")
            return
        }
        #expect(output.value?.status == 3)
        // `#require`, not an index: a run that ended early must fail this test, not crash the test process.
        let results = try record(dir).results
        try #require(results.count == 2, "the run recorded \(results.count) results; output: \(output.value?.stderr ?? "")")
        let result = results[1]
        #expect(result.error?.message == "\(data): is a FIFO (named pipe), not a regular file; only regular files can be sent as content")
    }
}

/// The output of a process finished on another thread.
private final class ReqRunOutputBox: @unchecked Sendable {
    var value: ReqRunBinary.Output?
}
