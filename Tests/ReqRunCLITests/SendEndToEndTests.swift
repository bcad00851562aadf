import Foundation
import Testing
import ReqRunKit
import TestSupport

/// `reqrun send`, `-v/--verbose` on `send` and `run`, `run NAME` for collections and requests, and values
/// carried over from earlier runs, through the built binary against the local httpbin.
@Suite struct SendEndToEndTests {
    private func workspace() throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory()
        try dir.write("collections/a.json", """
            {"name": "Auth API", "variables": {"base": "\(try TestServers.httpbin())"},
             "groups": [
              {"name": "Login flow", "requests": [
                {"name": "login", "method": "POST", "url": "{{base}}/anything", "body": {"user": "ada-lovelace"},
                 "capture": [{"var": "token", "json": "$.json.user"}]},
                {"name": "profile", "url": "{{base}}/bearer", "auth": {"type": "bearer", "token": "{{token}}"}, "expect": [{"status": 200}]}
              ]},
              {"name": "Later", "requests": [{"name": "echo", "url": "{{base}}/anything?t={{token}}"}]},
              {"name": "Misc", "requests": [
                {"name": "bytes", "url": "{{base}}/bytes/100000?seed=7"},
                {"name": "png", "url": "{{base}}/image/png"},
                {"name": "hops", "url": "{{base}}/redirect/2"}
              ]}
             ]}
            """)
        try dir.write("collections/b.json", """
            {"name": "Other", "groups": [{"name": "Elsewhere", "requests": [{"name": "status", "url": "\(try TestServers.httpbin())/status/204"}]}]}
            """)
        return dir
    }

    /// The bytes httpbin sends for `path`, fetched by Python's urllib (an independent client).
    private func fetched(_ path: String, into dir: TemporaryDirectory) throws -> Data {
        let file = dir.url.appendingPathComponent("expected.bin").path
        _ = try Python.run("import sys, urllib.request\nopen(sys.argv[2], 'wb').write(urllib.request.urlopen(sys.argv[1]).read())",
                           [try TestServers.httpbin() + path, file])
        return try Data(contentsOf: URL(fileURLWithPath: file))
    }

    @Test func sendsByPathNameAndIndexAndPrintsTheResponseLikeCurlI() throws {
        let dir = try workspace()
        for name in ["Login flow/login", "Auth API/Login flow/login", "login", "#0"] {
            let send = try ReqRunBinary.run(["send", name], in: dir.url)
            #expect(send.status == 0, "\(name): \(send.stderr)")
            #expect(send.stdout.hasPrefix("HTTP/1.1 200 OK\n"), "\(name)")
            #expect(send.stdout.contains("\nContent-Type: application/json\n"))
            // Header fields, an empty line, then the JSON pretty-printed with two-space indentation.
            #expect(send.stdout.contains("\n\n{\n  \"args\": {},\n"))
            #expect(send.stdout.contains("  \"json\": {\n    \"user\": \"ada-lovelace\"\n  },\n"))
            #expect(send.stderr.contains("recorded in .reqrun/runs/"))
        }
        let unknown = try ReqRunBinary.run(["send", "logn"], in: dir.url)
        #expect(unknown.status == 2 && unknown.stderr == "error: no request named 'logn'; did you mean 'login'?\n")
    }

    @Test func bodyWritesEveryByteTheServerSentAndBinaryIsSummarised() throws {
        let dir = try workspace()
        // 100,000 bytes: more than the 64 KiB a record keeps.
        let bytes = try ReqRunBinary.run(["send", "bytes", "--body"], in: dir.url)
        #expect(bytes.status == 0, "\(bytes.stderr)")
        #expect(bytes.stdoutData.count == 100_000)
        #expect(bytes.stdoutData == (try fetched("/bytes/100000?seed=7", into: dir)))
        let png = try ReqRunBinary.run(["send", "png", "--body"], in: dir.url)
        #expect(png.stdoutData == (try fetched("/image/png", into: dir)))
        #expect(png.stdoutData.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        // Without --body the binary content is summarised, never written raw.
        let shown = try ReqRunBinary.run(["send", "png"], in: dir.url)
        #expect(shown.status == 0)
        #expect(shown.stdout.contains("\nContent-Type: image/png\n"))
        #expect(shown.stdout.contains("(binary content: 7.9 KiB, image/png, sha256 "))
        #expect(!shown.stdoutData.contains(0x89) && !shown.stdout.contains("PNG"))
        // Redirects followed: only the final response's content, not the redirects' own.
        let hops = try ReqRunBinary.run(["send", "hops", "--body"], in: dir.url)
        let final = try JSONSerialization.jsonObject(with: hops.stdoutData) as? [String: Any]
        #expect((final?["url"] as? String)?.hasSuffix("/get") == true, "\(hops.stdout)")
    }

    @Test func bodyOnATerminalIsNeverWrittenRaw() throws {
        let dir = try workspace()
        // util-linux `script` gives the command a pseudo-terminal as stdout and copies what it shows.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", "NO_COLOR=1 '\(ReqRunBinary.url.path)' send png --body", "/dev/null"]
        process.currentDirectoryURL = dir.url
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let shown = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(!shown.contains(0x89) && String(decoding: shown, as: UTF8.self).contains("(binary content: 7.9 KiB, image/png"))
    }

    @Test func verboseShowsWhatWasSentMaskedWithEachRedirectAndTheTimings() throws {
        let dir = try workspace()
        let profile = try ReqRunBinary.run(["send", "profile", "-v", "--var", "token=tok-s3cr3t-value"], in: dir.url)
        #expect(profile.status == 0, "\(profile.stderr)")
        let base = try TestServers.httpbin()
        #expect(profile.stdout.hasPrefix("> GET \(base)/bearer HTTP/1.1\n> Host: 127.0.0.1:"))
        #expect(profile.stdout.contains("\n> Authorization: ****\n"))
        #expect(profile.stdout.contains("\n* timings (ms): namelookup "))
        for name in ["connect", "appconnect", "pretransfer", "starttransfer", "total"] { #expect(profile.stdout.contains("  \(name) ")) }
        // httpbin echoes the token in its body: masked there too, as in the record.
        #expect(!profile.stdout.contains("tok-s3cr3t-value") && profile.stdout.contains("\"token\": \"****\""))
        let hops = try ReqRunBinary.run(["send", "hops", "--verbose"], in: dir.url)
        #expect(hops.stdout.hasPrefix("""
            > GET \(base)/redirect/2
            < 302 → \(base)/relative-redirect/1
            """))
        #expect(hops.stdout.contains("\n> GET \(base)/relative-redirect/1\n< 302 → \(base)/get  ("))
        #expect(hops.stdout.contains("\n> GET \(base)/get HTTP/1.1\n"))
        // Content that holds a secret is masked too.
        try dir.write("collections/c.json", """
            {"name": "Masking", "groups": [{"name": "m", "requests": [{"name": "post-secret", "method": "POST", "url": "\(base)/anything",
              "auth": {"type": "bearer", "token": "{{tok}}"}, "body": {"t": "{{tok}}"}}]}]}
            """)
        let content = try ReqRunBinary.run(["send", "post-secret", "-v", "--var", "tok=tok-s3cr3t-value"], in: dir.url)
        #expect(content.status == 0, "\(content.stderr)")
        #expect(content.stdout.contains("\n>\n> {\"t\":\"****\"}\n") && !content.stdout.contains("tok-s3cr3t-value"), "\(content.stdout)")
        // The content sent, on run -v too (the same lines, indented under the request's line).
        let run = try ReqRunBinary.run(["run", "Login flow/login", "-v"], in: dir.url)
        #expect(run.status == 0)
        #expect(run.stdout.contains("\n      > POST \(base)/anything HTTP/1.1\n"))
        #expect(run.stdout.contains("\n      > Content-Type: application/json\n"))
        #expect(run.stdout.contains("\n      >\n      > {\"user\":\"ada-lovelace\"}\n"))
    }

    @Test func runTakesCollectionNamesAndRequestPaths() throws {
        let dir = try workspace()
        let collection = try ReqRunBinary.run(["run", "Auth API"], in: dir.url)
        #expect(collection.status == 0, "\(collection.stdout)\(collection.stderr)")
        #expect(collection.stdout.contains("6 requests: 6 passed"))
        #expect(!collection.stdout.contains("/status/204"))
        let request = try ReqRunBinary.run(["run", "Login flow/login", "Other"], in: dir.url)
        #expect(request.stdout.contains("2 requests: 2 passed"), "\(request.stdout)\(request.stderr)")
        let record = try JSONDecoder().decode(RunRecord.self, from: Data(try ReqRunBinary.run(["show", "--json"], in: dir.url).stdout.utf8))
        #expect(record.selection.mode == "named")
        #expect(record.selection.named == ["Auth API/Login flow/login", "Other"])
        #expect(record.results.map(\.name) == ["login", "status"])
        // A group still wins, and keeps its mode.
        let group = try ReqRunBinary.run(["run", "Misc"], in: dir.url)
        #expect(group.stdout.contains("3 requests: 3 passed"))
        let groupRecord = try JSONDecoder().decode(RunRecord.self, from: Data(try ReqRunBinary.run(["show", "--json"], in: dir.url).stdout.utf8))
        #expect(groupRecord.selection.mode == "groups" && groupRecord.selection.named == nil)
    }

    @Test func anUnknownNameSaysWhatKindsWereLookedForAndSuggestsEach() throws {
        let dir = try workspace()
        let collection = try ReqRunBinary.run(["run", "Auth AP"], in: dir.url)
        #expect(collection.status == 2)
        #expect(collection.stderr == "error: no collection, group or request named 'Auth AP'; did you mean the collection 'Auth API'?\n")
        let several = try ReqRunBinary.run(["run", "Mis"], in: dir.url)
        #expect(several.stderr == "error: no collection, group or request named 'Mis'; did you mean the group 'Misc'?\n")
        let request = try ReqRunBinary.run(["run", "Misc/pgn"], in: dir.url)
        #expect(request.stderr == "error: no collection, group or request named 'Misc/pgn'; did you mean the request 'Misc/png'?\n")
        let nothing = try ReqRunBinary.run(["run", "zzzzzz"], in: dir.url)
        #expect(nothing.stderr == "error: no collection, group or request named 'zzzzzz'\n")
        // `newman run FILE` habits: a NAME that is a collection file says how to run one.
        let file = try ReqRunBinary.run(["run", "Shop.postman_collection.json"], in: dir.url)
        #expect(file.stderr == "error: no collection, group or request named 'Shop.postman_collection.json'; "
                + "to run a collection file, name it with --collection FILE and add --all\n")
        #expect(!dir.exists(".reqrun/runs"))
    }

    @Test func sendAndDryRunUseTheValueTheLastRunCapturedAndSaySo() throws {
        let dir = try workspace()
        // Nothing captured yet: undefined, as before.
        let before = try ReqRunBinary.run(["send", "profile"], in: dir.url)
        #expect(before.status == 3 && before.stderr.contains("undefined variable"), "\(before.stderr)")
        let login = try ReqRunBinary.run(["send", "login"], in: dir.url)
        #expect(login.status == 0)
        let loginRun = try JSONDecoder().decode(RunRecord.self, from: Data(try ReqRunBinary.run(["show", "--json"], in: dir.url).stdout.utf8))
        let profile = try ReqRunBinary.run(["send", "profile"], in: dir.url)
        #expect(profile.status == 0, "\(profile.stderr)")
        #expect(profile.stderr.hasPrefix("token from run \(loginRun.id) (captured by 'login')\n"))
        // Sent as a credential: masked in the output, as any secret.
        #expect(profile.stdout.contains("\"token\": \"****\"") && !profile.stdout.contains("ada-lovelace"))
        let plan = try ReqRunBinary.run(["run", "--dry-run", "profile"], in: dir.url)
        #expect(plan.status == 0 && plan.stderr.contains("token from run \(loginRun.id)"))
        #expect(plan.stdout.contains("Authorization: ****"))
        // A request of the same command that captures it comes first: no earlier run is used.
        let both = try ReqRunBinary.run(["run", "--dry-run", "Login flow"], in: dir.url)
        #expect(!both.stderr.contains("from run"))
        // --var wins over an earlier capture.
        let given = try ReqRunBinary.run(["send", "profile", "--var", "token=mine-1234"], in: dir.url)
        #expect(given.status == 0 && !given.stderr.contains("from run"))
    }

    @Test func aCapturedSecretIsUsedAndStaysMasked() throws {
        let dir = try workspace()
        // The run that captured it also sent it as a credential: its record masks it everywhere.
        let run = try ReqRunBinary.run(["run", "Login flow"], in: dir.url)
        #expect(run.status == 0)
        let runRecord = try JSONDecoder().decode(RunRecord.self, from: Data(try ReqRunBinary.run(["show", "--json"], in: dir.url).stdout.utf8))
        #expect(runRecord.results[0].captures[0].value == "****")
        let profile = try ReqRunBinary.run(["send", "profile"], in: dir.url)
        #expect(profile.status == 0, "\(profile.stderr)")
        #expect(profile.stderr.hasPrefix("token from run \(runRecord.id) (captured by 'login')\n"))
        // Used where it is no credential, it is masked all the same: in the output and in the new record.
        let echo = try ReqRunBinary.run(["send", "echo"], in: dir.url)
        #expect(echo.status == 0, "\(echo.stderr)")
        #expect(echo.stdout.contains("\"t\": \"****\"") && !echo.stdout.contains("ada-lovelace"))
        let record = try ReqRunBinary.run(["show", "--json"], in: dir.url).stdout
        #expect(record.contains("t=****") && !record.contains("ada-lovelace"))
        let plan = try ReqRunBinary.run(["run", "--dry-run", "echo"], in: dir.url)
        #expect(plan.stdout.contains("/anything?t=****") && !plan.stdout.contains("ada-lovelace"))
        // The store is private, like the records.
        let attributes = try FileManager.default.attributesOfItem(atPath: dir.url.appendingPathComponent(".reqrun/captures.json").path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test func historyShowAndDiffIncludeTheSend() throws {
        let dir = try workspace()
        _ = try ReqRunBinary.run(["send", "login"], in: dir.url)
        _ = try ReqRunBinary.run(["send", "#0"], in: dir.url)
        let history = try ReqRunBinary.run(["history"], in: dir.url)
        #expect(history.stdout.components(separatedBy: "  send Auth API/Login flow/login ").count == 3, "\(history.stdout)")
        let show = try ReqRunBinary.run(["show"], in: dir.url)
        #expect(show.stdout.contains("selection: send") && show.stdout.contains("POST http://"))
        let record = try JSONDecoder().decode(RunRecord.self, from: Data(try ReqRunBinary.run(["show", "--json"], in: dir.url).stdout.utf8))
        #expect(record.selection.named == ["Auth API/Login flow/login"] && record.results.count == 1)
        let ids = try RunStore(directory: dir.url.appendingPathComponent(".reqrun/runs")).ids()
        let diff = try ReqRunBinary.run(["diff", ids[1], ids[0]], in: dir.url)
        #expect(diff.status == 0, "\(diff.stdout)\(diff.stderr)")
        #expect(diff.stdout.contains("login"))
    }
}
