import Foundation
import Testing
import ReqRunKit
import TestSupport

/// A shared collection must not drive the terminal: no raw ESC, BEL or other control character from it
/// reaches stdout or stderr, and `show --curl` stays a command that pastes back into bash as the same bytes.
@Suite struct TerminalEscapingEndToEndTests {
    /// ESC ] 0 ; … BEL sets the window title; ESC [ 2 J clears the screen.
    private static let title = #"\u001b]0;pwned\u0007"#
    private static let clear = #"\u001b[2J"#

    private func workspace() throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory()
        try dir.write("collections/c.json", #"""
            {"name": "C", "groups": [{"name": "g", "requests": [
              {"name": "odd scheme", "url": "\#(Self.title)x://h/"},
              {"name": "post", "method": "POST", "url": "http://127.0.0.1:9/p",
               "headers": [{"name": "X-Evil", "value": "a\#(Self.clear)b"}], "body": "x\u0007y'z\u202e"}
            ]}]}
            """#)
        return dir
    }

    private func expectNoControls(_ output: ReqRunBinary.Output, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        for text in [output.stdout, output.stderr] {
            let controls = text.unicodeScalars.filter { $0.isTerminalControl && $0 != "\n" && $0 != "\t" }
            #expect(controls.isEmpty, "raw control characters \(controls.map { String($0.value, radix: 16) }) in \(text.debugDescription)",
                    sourceLocation: sourceLocation)
        }
    }

    @Test func theSkipMessageEscapesTheCollectionsScheme() throws {
        let dir = try workspace()
        let run = try ReqRunBinary.run(["run", "--all", "--connect-timeout", "0.5"], in: dir.url)
        expectNoControls(run)
        #expect(run.stdout.contains(#"skipped: the \u{1b}]0;pwned\u{7}x:// scheme is not supported"#), "\(run.stdout)")
        for command in [["show"], ["history"], ["run", "--all", "--dry-run"], ["list", "--all"]] {
            expectNoControls(try ReqRunBinary.run(command, in: dir.url))
        }
    }

    @Test func showCurlQuotesControlCharactersAsBashANSIC() throws {
        let dir = try workspace()
        let show = try ReqRunBinary.run(["show", "--curl", "post"], in: dir.url)
        #expect(show.status == 0, "\(show.stderr)")
        expectNoControls(show)
        #expect(show.stdout.contains(#"--header $'X-Evil: a\x1b[2Jb'"#), "\(show.stdout)")
        #expect(show.stdout.contains(#"--data-binary $'x\x07y\'z\xe2\x80\xae'"#), "\(show.stdout)")
        // Pasted into bash (curl replaced by a function that prints its arguments), the same bytes come back.
        let bash = Process()
        bash.executableURL = URL(fileURLWithPath: "/bin/bash")
        bash.arguments = ["-c", #"curl() { printf '%s\n' "$@"; }; eval "$1""#, "bash", show.stdout]
        let pipe = Pipe()
        bash.standardOutput = pipe
        try bash.run()
        let words = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n").map(String.init)
        bash.waitUntilExit()
        #expect(words.contains("X-Evil: a\u{1B}[2Jb"))
        #expect(words.contains("x\u{07}y'z\u{202E}"))
    }

    @Test func quotingKeepsPlainValuesAsTheyWere() {
        #expect(CurlCommand.shellQuoted("http://h/a?b=1") == "'http://h/a?b=1'")
        #expect(CurlCommand.shellQuoted("it's") == #"'it'\''s'"#)
        #expect(CurlCommand.shellQuoted("a\u{1B}\\b\tc\u{85}") == #"$'a\x1b\\b\tc\xc2\x85'"#)
    }
}
