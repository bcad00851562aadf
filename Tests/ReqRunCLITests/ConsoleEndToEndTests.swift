import Foundation
import Testing
import ReqRunKit
import TestSupport

/// What `reqrun run` prints while it runs (issue 13 §1): headings per collection and group, named lines in
/// aligned columns flushed into a pipe as each result arrives, the progress line on a terminal, one line for
/// the requests not run, `--quiet`, colour choices, help width, short options, and an empty selection.
@Suite struct ConsoleEndToEndTests {
    private func workspace(_ httpbin: String) throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory()
        try dir.write("collections/api.json", """
            {"name": "Auth API", "groups": [
              {"name": "Login flow", "requests": [
                {"name": "login", "method": "POST", "url": "\(httpbin)/post", "expect": [{"status": 200}]},
                {"name": "slow", "url": "\(httpbin)/delay/1"},
                {"method": "DELETE", "url": "\(httpbin)/status/404?reason=not-found", "expect": [{"status": 200}]}]},
              {"name": "v1.2", "requests": [{"name": "refused", "url": "http://127.0.0.1:9/x"}]}]}
            """)
        return dir
    }

    @Test func headingsNamesAndAlignedColumns() throws {
        let httpbin = try TestServers.httpbin()
        let dir = try workspace(httpbin)
        let run = try ReqRunBinary.run(["run", "--all"], in: dir.url)
        #expect(run.status == 3)
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "❏ Auth API › Login flow")
        #expect(run.stdout.contains("\n❏ Auth API › v1.2\n"))
        let login = try #require(lines.first { $0.hasPrefix("  ✓ login ") })
        let delete = try #require(lines.first { $0.contains(" DELETE ") })
        // The template names a request without a name; DELETE does not shift the status column.
        #expect(delete.hasPrefix("  ✗ \("\(httpbin)/status/404?reason=not-found".prefix(31))…  DELETE   404 "))
        #expect(login.range(of: "200")?.lowerBound.utf16Offset(in: login) == delete.range(of: "404  ")?.lowerBound.utf16Offset(in: delete))
        #expect(login.hasSuffix("  \(httpbin)/post"))
        #expect(lines.contains { $0.hasPrefix("  ✓ slow ") && $0.contains(" 1.0 s ") })
        #expect(lines.contains { $0.hasPrefix("  ✗ refused ") && $0.contains("---") && $0.contains("http://127.0.0.1:9/x  Failed to connect") })
        #expect(run.stdout.contains(" in 1.0 s\n") || run.stdout.contains(" in 1.1 s\n"))
    }

    /// Into a pipe, the first line arrives while the slow request is still in flight.
    @Test func eachLineIsFlushedIntoAPipe() throws {
        let httpbin = try TestServers.httpbin()
        let dir = try TemporaryDirectory()
        try dir.write("collections/slow.json", """
            {"name": "Slow", "groups": [{"name": "g", "requests": [
              {"name": "fast", "url": "\(httpbin)/get"}, {"name": "slow", "url": "\(httpbin)/delay/2"}]}]}
            """)
        let process = Process()
        process.executableURL = ReqRunBinary.url
        process.arguments = ["run", "--all"]
        process.currentDirectoryURL = dir.url
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let started = Date()
        var text = ""
        while !text.contains("✓ fast") {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        let firstLineAfter = Date().timeIntervalSince(started)
        #expect(process.isRunning)
        #expect(text.contains("✓ fast"))
        #expect(firstLineAfter < 1.5)
        _ = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
    }

    @Test func requestsNotRunGetOneLine() throws {
        let httpbin = try TestServers.httpbin()
        let dir = try TemporaryDirectory()
        try dir.write("collections/bail.json", """
            {"name": "Bail", "groups": [{"name": "g", "requests": [
              {"name": "fails", "url": "\(httpbin)/status/500", "expect": [{"status": 200}]},
              {"name": "second", "url": "\(httpbin)/get"}, {"name": "third", "url": "\(httpbin)/get"}]}]}
            """)
        let run = try ReqRunBinary.run(["run", "--all", "--bail"], in: dir.url)
        #expect(run.status == 1)
        #expect(run.stdout.contains("\n2 requests not run: --bail stopped the run at request #0 (fails)\n"))
        #expect(!run.stdout.contains("second") && !run.stdout.contains("third"))
    }

    @Test func quietPrintsOnlyFailuresAndTheSummary() throws {
        let httpbin = try TestServers.httpbin()
        let dir = try workspace(httpbin)
        for option in ["--quiet", "-q"] {
            let run = try ReqRunBinary.run(["run", "--all", option], in: dir.url)
            #expect(run.status == 3)
            #expect(!run.stdout.contains("login") && !run.stdout.contains("slow"))
            #expect(run.stdout.contains("/status/404?reason=not-found\n") && run.stdout.contains("  ✗ refused"))
            #expect(run.stdout.contains("4 requests: 2 passed, 1 failed, 1 error, 0 skipped"))
        }
        let both = try ReqRunBinary.run(["run", "--all", "-q", "-v"], in: dir.url)
        #expect(both.status == 64 && both.stderr.hasPrefix("error: give only one of --quiet and --verbose\n"))
    }

    @Test func colourFollowsTheOptionAndTheEnvironment() throws {
        let httpbin = try TestServers.httpbin()
        let dir = try workspace(httpbin)
        let escape = "\u{1B}["
        func run(_ options: [String], _ environment: [String: String]) throws -> String {
            try ReqRunBinary.run(["run", "login"] + options, in: dir.url, environment: ["NO_COLOR": ""].merging(environment) { $1 }).stdout
        }
        #expect(!(try run([], [:])).contains(escape))  // a pipe
        #expect(try run(["--color", "always"], [:]).contains(escape))
        #expect(try run(["--color=always"], ["NO_COLOR": "1"]).contains(escape))
        #expect(try run([], ["FORCE_COLOR": "1"]).contains(escape))
        #expect(try run([], ["CLICOLOR_FORCE": "1"]).contains(escape))
        #expect(!(try run([], ["FORCE_COLOR": "0"])).contains(escape))
        #expect(!(try run([], ["FORCE_COLOR": "1", "NO_COLOR": "1"])).contains(escape))
        #expect(!(try run(["--color", "never"], ["FORCE_COLOR": "1"])).contains(escape))
        let bad = try ReqRunBinary.run(["run", "--all", "--color", "sometimes"], in: dir.url)
        #expect(bad.status == 64 && bad.stderr.hasPrefix("error: --color expects auto, always or never, got 'sometimes'\n"))
    }

    @Test func progressLineOnATerminalIsErasedAtTheEnd() throws {
        let httpbin = try TestServers.httpbin()
        let dir = try workspace(httpbin)
        let terminal = try TmuxTerminal(in: dir.url, columns: 160)
        try terminal.run("\(TmuxTerminal.quoted(ReqRunBinary.url.path)) run --all; echo EXIT=$?")
        try terminal.waitFor("[1/4]") { $0.contains("[1/4] ") || $0.contains("[2/4] ") }
        let end = try terminal.waitFor("EXIT=3")
        #expect(!end.contains("/4] "))
        #expect(end.contains("✓ slow"))
    }

    @Test func helpWrapsAndUsageErrorsAreShort() throws {
        let dir = try TemporaryDirectory()
        let help = try ReqRunBinary.run(["run", "--help"], in: dir.url, environment: ["COLUMNS": "60"])
        let options = try #require(help.stdout.components(separatedBy: "OPTIONS:\n").last?.components(separatedBy: "\nEXAMPLES:").first)
        #expect(options.split(separator: "\n").allSatisfy { $0.count <= 60 })
        #expect(options.contains("  -q, --quiet") && options.contains("  -e, --env <name|file>") && options.contains("  -k, --insecure"))
        let wide = try ReqRunBinary.run(["run", "--help"], in: dir.url, environment: ["COLUMNS": "200"])
        #expect(wide.stdout.contains("  --var <name=value>      Set a variable, over the environment's and collection's values.\n"))
        let bad = try ReqRunBinary.run(["run", "--expandd"], in: dir.url)
        #expect(bad.status == 64)
        #expect(bad.stderr == "error: unknown option '--expandd'; did you mean '--expanded'?\nUsage: reqrun run [options] [NAME ...]\n  See 'reqrun run --help'.\n")
        let plain = try ReqRunBinary.run([], in: dir.url)
        #expect(plain.status == 0 && plain.stdout.hasPrefix("OVERVIEW: ") && plain.stdout.contains("SUBCOMMANDS:"))
        let version = try ReqRunBinary.run(["-V"], in: dir.url)
        #expect(version.status == 0 && version.stdout == "\(reqrunVersion)\n")
    }

    @Test func shortOptionsForEnvAndInsecure() throws {
        let nginx = try TestServers.nginxHTTPS()
        let dir = try TemporaryDirectory()
        try dir.write("collections/tls.json", """
            {"name": "TLS", "groups": [{"name": "g", "requests": [{"name": "tls", "url": "{{base}}/"}]}]}
            """)
        try dir.write("environments/local.json", #"{"base": "\#(nginx)"}"#)
        let run = try ReqRunBinary.run(["run", "--all", "-e", "local", "-k"], in: dir.url)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("✓ tls "))
    }

    @Test func aRunThatSelectsNothingExits2UnlessAllowed() throws {
        let httpbin = try TestServers.httpbin()
        let dir = try workspace(httpbin)
        let empty = try ReqRunBinary.run(["run", "--expanded"], in: dir.url)
        #expect(empty.status == 2)
        #expect(empty.stderr.hasPrefix("error: no visible requests: no group is expanded"))
        #expect(!dir.exists(".reqrun/runs"))
        let allowed = try ReqRunBinary.run(["run", "--expanded", "--allow-empty"], in: dir.url)
        #expect(allowed.status == 0)
        #expect(allowed.stdout.hasPrefix("No visible requests: "))
    }
}
