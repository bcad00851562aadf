import Foundation
import Testing
import ReqRunKit
import TestSupport

/// Issue 13 §3-4: shell completions, the man page, the CLI reference and `make install`, all generated from
/// the command specifications. The bash script is loaded in a real bash and asked as bash's programmable
/// completion asks it (COMP_WORDS, COMP_CWORD, then `_reqrun`).
@Suite struct CompletionAndManualEndToEndTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `program arguments…` (found on PATH) in `directory` with the built reqrun first on PATH.
    private func shell(_ program: String, _ arguments: [String], in directory: URL) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = ReqRunBinary.url.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return .init(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// The candidates bash's completion offers for `words` (the last one being completed), one per element.
    private func complete(_ words: [String], in directory: URL) throws -> [String] {
        let script = """
            source <(reqrun --generate-completion-script bash)
            COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
            _reqrun
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let output = try shell("bash", ["-c", script, "bash"] + words, in: directory)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.isEmpty, "\(output.stderr)")
        return output.stdout.split(separator: "\n").map(String.init)
    }

    private func workspace() throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory()
        try dir.write("collections/api.json", """
            {"name": "Auth API", "groups": [
              {"name": "Login flow", "requests": [{"name": "login", "url": "ftp://x/"}, {"name": "who am i", "url": "ftp://x/me"}],
               "groups": [{"name": "v1.2", "requests": [{"name": "old", "url": "ftp://x/old"}]}]},
              {"name": "$(touch pwned)", "requests": []},
              {"name": "esc\\u001b[2Jape", "requests": []}]}
            """)
        try dir.write("environments/staging.json", "{}")
        try dir.write("environments/local.json", "{}")
        return dir
    }

    @Test func bashCompletesCommandsOptionsValuesAndNames() throws {
        let dir = try workspace()
        #expect(try complete(["reqrun", ""], in: dir.url) == ["init", "list", "expand", "collapse", "run", "send", "history", "show", "diff",
                                                                "merge", "env", "import", "ui", "help"])
        #expect(try complete(["reqrun", "ex"], in: dir.url) == ["expand"])
        #expect(try complete(["reqrun", "--"], in: dir.url) == ["--version", "--color", "--generate-completion-script", "--help"])
        #expect(try complete(["reqrun", "--generate-completion-script", ""], in: dir.url) == ["bash", "zsh", "fish"])
        #expect(try complete(["reqrun", "run", "--re"], in: dir.url) == ["--report", "--retry-until-pass", "--retry-interval", "--retry"])
        #expect(try complete(["reqrun", "run", "--color", ""], in: dir.url) == ["auto", "always", "never"])
        // bash splits --color=al at '='.
        #expect(try complete(["reqrun", "list", "--color", "=", "al"], in: dir.url) == ["always"])
        #expect(try complete(["reqrun", "run", "--report", ""], in: dir.url) == ["junit=", "json=", "har=", "html=", "newman-json="])
        #expect(try complete(["reqrun", "run", "--report", "junit", "=", "coll"], in: dir.url) == ["collections"])
        #expect(try complete(["reqrun", "run", "--shard-by", ""], in: dir.url) == ["group", "request"])
        #expect(try complete(["reqrun", "run", "-e", ""], in: dir.url).prefix(2) == ["local", "staging"])
        // Names from the workspace: a name with $(…) is offered as text and not run; one with an escape is left out.
        #expect(try complete(["reqrun", "run", ""], in: dir.url) == ["Auth API", "Login flow", "v1.2", "Login flow/v1.2", "$(touch pwned)",
                                                                       "Login flow/login", "Login flow/who am i", "Login flow/v1.2/old"])
        #expect(!dir.exists("pwned"))
        #expect(try complete(["reqrun", "expand", "Lo"], in: dir.url) == ["Login flow", "Login flow/v1.2"])
        #expect(try complete(["reqrun", "send", "Login flow/w"], in: dir.url) == ["Login flow/who am i"])
        #expect(try complete(["reqrun", "send", "'Login flow/w"], in: dir.url) == ["Login flow/who am i"])
        #expect(try complete(["reqrun", "send", "#0", ""], in: dir.url) == [])
        #expect(try complete(["reqrun", "env", ""], in: dir.url) == ["list", "show", "use"])
        #expect(try complete(["reqrun", "env", "use", ""], in: dir.url) == ["local", "staging"])
        #expect(try complete(["reqrun", "env", "list", ""], in: dir.url) == [])
        // --workspace given on the command line is the workspace asked.
        let elsewhere = try TemporaryDirectory()
        #expect(try complete(["reqrun", "expand", "--workspace", dir.path, "v"], in: elsewhere.url) == ["v1.2"])
        #expect(try complete(["reqrun", "expand", "v"], in: elsewhere.url) == [])
        #expect(try complete(["reqrun", "help", "se"], in: dir.url) == ["send"])
    }

    @Test func runRecordsAreCompletedForShow() throws {
        let dir = try workspace()
        #expect(try ReqRunBinary.run(["run", "Login flow"], in: dir.url).status == 0)
        let id = try #require(try FileManager.default.contentsOfDirectory(atPath: dir.url.appendingPathComponent(".reqrun/runs").path).first).split(separator: ".")[0]
        #expect(try complete(["reqrun", "show", ""], in: dir.url) == [String(id)])
        let list = try ReqRunBinary.run(["list", "--names", "nonsense"], in: dir.url)
        #expect(list.status == 64 && list.stderr.hasPrefix("error: --names expects one of targets, groups, requests, environments, runs, got 'nonsense'\n"))
        // Hidden: not in --help, nor suggested for a typo.
        #expect(!(try ReqRunBinary.run(["list", "--help"], in: dir.url).stdout.contains("--names")))
        #expect(!(try ReqRunBinary.run(["list", "--name"], in: dir.url).stderr.contains("--names")))
    }

    /// zsh and fish are not needed to build or test reqrun: their scripts are checked when the shell is there.
    @Test(arguments: [("zsh", "zsh"), ("fish", "fish")])
    func zshAndFishScriptsParse(shellName: String, program: String) throws {
        let dir = try TemporaryDirectory()
        guard try shell("sh", ["-c", "command -v \(program)"], in: dir.url).status == 0 else { return }
        let script = try ReqRunBinary.run(["--generate-completion-script", shellName], in: dir.url)
        #expect(script.status == 0)
        let file = try dir.write("completion.\(shellName)", script.stdout)
        let check = try shell(program, ["-n", file.path], in: dir.url)
        #expect(check.status == 0 && check.stderr.isEmpty, "\(check.stderr)")
        if shellName == "fish" {
            // fish loads it and lists the subcommands and a command's options as its completion would.
            let loaded = try shell("fish", ["-c", "source \(file.path); complete -C 'reqrun ru'; complete -C 'reqrun run --exp'"], in: dir.url)
            #expect(loaded.stdout.contains("run\tSend requests through libcurl"), "\(loaded.stdout)\(loaded.stderr)")
            #expect(loaded.stdout.contains("--expanded\tRun the visible requests."))
        }
        let wrong = try ReqRunBinary.run(["--generate-completion-script", "tcsh"], in: dir.url)
        #expect(wrong.status == 64 && wrong.stderr.hasPrefix("error: --generate-completion-script expects bash, zsh or fish, got 'tcsh'\n"))
    }

    @Test func theManPageIsValidRoffWithEveryCommand() throws {
        let dir = try TemporaryDirectory()
        let page = try ReqRunBinary.run(["--generate-man-page"], in: dir.url)
        #expect(page.status == 0)
        let file = try dir.write("reqrun.1", page.stdout)
        // groff with every warning on: no warning at all.
        let groff = try shell("groff", ["-man", "-Tutf8", "-ww", "-z", file.path], in: dir.url)
        #expect(groff.status == 0 && groff.stderr.isEmpty, "\(groff.stderr)")
        let text = try shell("sh", ["-c", "MANWIDTH=100 man -l \(file.path)"], in: dir.url).stdout
        #expect(text.contains("reqrun - runs collections of HTTP requests"))
        #expect(text.contains("reqrun run [options] [NAME ...]"))
        #expect(text.contains("--report kind=file ..."))
        #expect(text.contains("EXIT STATUS"))
        #expect(!text.contains("--names"))
        if try shell("sh", ["-c", "command -v mandoc"], in: dir.url).status == 0 {
            let lint = try shell("mandoc", ["-T", "lint", "-W", "warning", file.path], in: dir.url)
            #expect(lint.stdout.isEmpty && lint.stderr.isEmpty, "\(lint.stdout)\(lint.stderr)")
        }
    }

    @Test func theCommittedCLIReferenceIsWhatTheSpecificationsGive() throws {
        let generated = try ReqRunBinary.run(["--generate-cli-reference"], in: Self.repository)
        #expect(generated.status == 0)
        let committed = try String(contentsOf: Self.repository.appendingPathComponent("docs/cli-reference.md"), encoding: .utf8)
        #expect(committed == generated.stdout, "docs/cli-reference.md differs from 'reqrun --generate-cli-reference': run 'make docs' and commit it")
        #expect(committed.contains("## reqrun init\n"))
        #expect(committed.contains("| `--report KIND=FILE` (repeatable) |"))
    }

    @Test func makeInstallPutsEachFileWhereItsToolLooks() throws {
        let prefix = try TemporaryDirectory()
        let make = try shell("make", ["-s", "-C", Self.repository.path, "install", "PREFIX=\(prefix.path)", "REQRUN=\(ReqRunBinary.url.path)"],
                             in: Self.repository)
        #expect(make.status == 0, "\(make.stderr)")
        for file in ["bin/reqrun", "share/bash-completion/completions/reqrun", "share/zsh/site-functions/_reqrun",
                     "share/fish/vendor_completions.d/reqrun.fish", "share/man/man1/reqrun.1"] {
            #expect(prefix.exists(file), "\(file)")
        }
        let mode = try FileManager.default.attributesOfItem(atPath: prefix.url.appendingPathComponent("bin/reqrun").path)[.posixPermissions] as? Int
        #expect(mode == 0o755)
        let version = try shell(prefix.url.appendingPathComponent("bin/reqrun").path, ["--version"], in: prefix.url)
        #expect(version.status == 0 && version.stdout == "\(reqrunVersion)\n")
        // The installed completion is the one the binary prints; man finds the page through MANPATH.
        #expect(try prefix.read("share/bash-completion/completions/reqrun") == (try ReqRunBinary.run(["--generate-completion-script", "bash"], in: prefix.url)).stdout)
        let man = try shell("sh", ["-c", "MANPATH=\(prefix.path)/share/man man -w reqrun"], in: prefix.url)
        #expect(man.stdout == "\(prefix.path)/share/man/man1/reqrun.1\n", "\(man.stderr)")
    }
}
