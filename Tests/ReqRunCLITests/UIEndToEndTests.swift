import Foundation
import Testing
import ReqRunKit
import TestSupport

/// `reqrun ui` in a real terminal (a private tmux server): the tree, expansion saved through the state store,
/// a send to the local httpbin, the screen given back on q, Ctrl-C, SIGTERM and a crash, escaped names, and
/// the refusal without a terminal.
@Suite struct UIEndToEndTests {
    static let groupID = "7bbd0224-3a31-4ba7-9dbb-b7138de7aaee"

    private func workspace(_ collection: String? = nil) throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory()
        try dir.write("collections/sample.json", collection ?? """
            {"name": "Sample", "variables": {"httpbin": "http://127.0.0.1:9"}, "groups": [
              {"id": "\(Self.groupID)", "name": "httpbin.org", "requests": [
                {"method": "GET", "url": "{{httpbin}}/get", "expect": [{"status": 200}]},
                {"method": "POST", "url": "{{httpbin}}/post", "body": {"message": "hello"}}]},
              {"id": "6df253c4-3c91-4712-a398-605c67b1e5b5", "name": "echo.websocket.org", "requests": [{"url": "wss://echo.websocket.org"}]}
            ]}
            """)
        return dir
    }

    private var reqrun: String { TmuxTerminal.quoted(ReqRunBinary.url.path) }

    @Test func treeExpandSendQuitAndRestart() throws {
        let httpbin = try TestServers.httpbin()
        let dir = try workspace()
        let terminal = try TmuxTerminal(in: dir.url)
        try terminal.run("echo BEFORE-UI; \(reqrun) ui --var httpbin=\(httpbin); echo EXIT=$?")
        try terminal.waitFor("the collapsed tree") {
            $0.contains("Sample  collections/sample.json") && $0.contains("▸ httpbin.org (2 requests)") && $0.contains("▸ echo.websocket.org (1 request)")
        }
        // → on httpbin.org expands it, saved at once in .reqrun/state.json as `reqrun expand` saves it.
        try terminal.press("Down", "Right")
        try TmuxTerminal.poll("the id in state.json") {
            ((try? dir.read(".reqrun/state.json")) ?? "").contains(Self.groupID.uppercased())
        }
        try terminal.waitFor("GET {{httpbin}}/get")
        #expect(try ReqRunBinary.run(["list"], in: dir.url).stdout.contains("▾ httpbin.org"))
        // → again moves to the first request; Enter sends it to the local httpbin.
        try terminal.press("Right", "Enter")
        let response = try terminal.waitFor("200 OK")
        #expect(response.contains("✓ passed"), "\(response)")
        // In colour (NO_COLOR unset): the status is green.
        #expect(Self.colours(in: try terminal.screen(escapes: true)).contains(32))
        #expect(response.contains("\"url\": \"\(httpbin)/get\""), "\(response)")
        let record = try RunStore(directory: dir.url.appendingPathComponent(".reqrun/runs")).load(nil)
        #expect(record.selection.mode == "send")
        #expect(record.selection.overriddenVariables == ["httpbin"])
        #expect(record.selection.named == ["Sample/httpbin.org/{{httpbin}}/get"])
        #expect(record.results.map(\.response?.status) == [200])
        // q gives the screen back: the shell's earlier lines are there again, the UI's are gone.
        try terminal.press("q")
        let after = try terminal.waitFor("EXIT=0")
        #expect(after.contains("BEFORE-UI"), "\(after)")
        #expect(!after.contains("▾ httpbin.org"), "\(after)")
        // A second start (plain `reqrun`, which opens the UI on a terminal) opens as the first was left.
        try terminal.run("\(reqrun); echo EXIT=$?")
        try terminal.waitFor("▾ httpbin.org")
        try terminal.press("q")
        try terminal.waitFor("the second exit") { $0.components(separatedBy: "EXIT=0").count == 3 }
    }

    @Test func environmentCurlRunHistoryFilterAndHelpKeys() throws {
        let httpbin = try TestServers.httpbin()
        let dir = try workspace()
        try dir.write("environments/local.json", #"{"httpbin": "\#(httpbin)"}"#)
        let terminal = try TmuxTerminal(in: dir.url, columns: 160, rows: 40)
        try terminal.run("\(reqrun) ui")
        try terminal.waitFor("▸ httpbin.org")
        // e picks the environment, saved as `reqrun env use` saves it.
        try terminal.press("e")
        try terminal.waitFor("(none)")
        try terminal.press("Down", "Enter")
        try terminal.waitFor("env: local")
        #expect(try ReqRunBinary.run(["env", "list"], in: dir.url).stdout.contains("* local"))
        // c: the curl command of `show --curl`, with the environment's value.
        try terminal.press("Down", "Right", "Right", "c")
        try terminal.waitFor("curl \(httpbin)/get")
        // r runs the visible requests and records them as `run --expanded` does.
        try terminal.press("r")
        try terminal.waitFor("2 requests: 2 passed")
        #expect(try RunStore(directory: dir.url.appendingPathComponent(".reqrun/runs")).load(nil).selection.mode == "expanded")
        // h: this request's earlier results from the run records.
        try terminal.press("h")
        try terminal.waitFor("Earlier results of {{httpbin}}/get")
        try terminal.waitFor("✓ GET \(httpbin)/get  200")
        // / filters the tree by name; Esc clears the filter.
        try terminal.press("/")
        try terminal.type("post")
        try terminal.press("Enter")
        try terminal.waitFor("only the match") { $0.contains("POST {{httpbin}}/post") && !$0.contains("echo.websocket.org") }
        try terminal.press("Escape")
        try terminal.waitFor("▸ echo.websocket.org")
        try terminal.press("?")
        try terminal.waitFor("the equivalent curl command")
        try terminal.press("q")
    }

    /// A collection that does not load leaves the others in the sidebar; its error is a warning printed before
    /// the screen opens, there again when it is given back.
    @Test func aBrokenCollectionLeavesTheOthersInTheSidebar() throws {
        let dir = try workspace(#"{"name": "S", "groups": [{"name": "teapot", "requests": [{"name": "brew", "url": "http://127.0.0.1:1/"}]}]}"#)
        try dir.write("collections/b.json", "{\n  \"name\": \"B\",\n    \"groups\" [\n}\n")
        let terminal = try TmuxTerminal(in: dir.url)
        try terminal.run("\(reqrun) ui")
        try terminal.waitFor("▸ teapot")
        try terminal.press("q")
        let screen = try terminal.waitFor("(this collection is left out)")
        #expect(screen.contains("warning: collections/b.json:3:14: expected ':' after the key"), "\(screen)")
    }

    @Test func aFailedExpectationIsListedWithTheResponse() throws {
        let httpbin = try TestServers.httpbin()
        let dir = try workspace(#"{"name": "S", "groups": [{"name": "teapot", "requests": [{"name": "brew", "url": "\#(httpbin)/status/418", "expect": [{"status": 200}]}]}]}"#)
        let terminal = try TmuxTerminal(in: dir.url)
        try terminal.run("\(reqrun) ui")
        try terminal.waitFor("▸ teapot")
        try terminal.press("Down", "Right", "Right", "Enter")
        let screen = try terminal.waitFor("✗ failed")
        #expect(screen.contains("418 "), "\(screen)")
        #expect(screen.contains("✗ status == 200"), "\(screen)")
        #expect(screen.contains("expected: 200"), "\(screen)")
        #expect(screen.contains("actual:   418"), "\(screen)")
        try terminal.press("q")
    }

    @Test func enterUsesTheValuesAnEarlierSendCaptured() throws {
        let httpbin = try TestServers.httpbin()
        let dir = try workspace(#"""
            {"name": "S", "groups": [{"name": "Login flow", "requests": [
              {"name": "login", "method": "POST", "url": "\#(httpbin)/anything/login", "body": {"token": "tok-42"},
               "capture": [{"var": "token", "json": "$.json.token"}]},
              {"name": "me", "url": "\#(httpbin)/bearer", "auth": {"type": "bearer", "token": "{{token}}"}}]}]}
            """#)
        let terminal = try TmuxTerminal(in: dir.url)
        try terminal.run("\(reqrun) ui")
        try terminal.waitFor("▸ Login flow")
        try terminal.press("Down", "Right", "Right", "Enter")
        try terminal.waitFor("200 OK")
        // The preview of `me` resolves {{token}} from that send's capture, as `run --dry-run` does, and says so.
        try terminal.press("Down")
        let preview = try terminal.waitFor("token from run")
        #expect(!preview.contains("undefined variable"), "\(preview)")
        // Enter sends it with the token, as `reqrun send me` would (the token, a credential, shows masked).
        try terminal.press("Enter")
        let response = try terminal.waitFor("\"authenticated\": true")
        #expect(response.contains("200 OK"), "\(response)")
        #expect(!response.contains("tok-42"), "\(response)")
        try terminal.press("q")
    }

    @Test func rSummarisesTheRunAsRunDoes() throws {
        let dir = try workspace(#"{"name": "S", "groups": [{"name": "down", "requests": [{"name": "refused", "url": "http://127.0.0.1:9/"}]}]}"#)
        #expect(try ReqRunBinary.run(["expand", "down"], in: dir.url).status == 0)
        let terminal = try TmuxTerminal(in: dir.url)
        try terminal.run("\(reqrun) ui")
        try terminal.waitFor("GET refused")
        try terminal.press("r")
        // The summary line of `reqrun run`, singular where it is one.
        try terminal.waitFor("1 request: 0 passed, 0 failed, 1 error, 0 skipped")
        try terminal.press("q")
    }

    @Test func escCancelsASendInFlight() throws {
        let httpbin = try TestServers.httpbin()
        let dir = try workspace(#"{"name": "S", "groups": [{"name": "slow", "requests": [{"name": "delayed", "url": "\#(httpbin)/delay/10"}]}]}"#)
        let terminal = try TmuxTerminal(in: dir.url)
        try terminal.run("\(reqrun) ui; echo EXIT=$?")
        try terminal.waitFor("▸ slow")
        try terminal.press("Down", "Right", "Right", "Enter")
        try terminal.waitFor("sending GET delayed…")
        try terminal.press("Escape")
        try terminal.waitFor("✗ cancelled", seconds: 5)
        let record = try RunStore(directory: dir.url.appendingPathComponent(".reqrun/runs")).load(nil)
        #expect(record.results.map(\.error?.message) == ["cancelled"])
        try terminal.press("q")
        try terminal.waitFor("EXIT=0")
    }

    @Test func altKeysAndUnknownSequencesAreNotEscFollowedByAKey() throws {
        let dir = try workspace()
        let terminal = try TmuxTerminal(in: dir.url)
        try terminal.run("\(reqrun) ui; echo EXIT=$?")
        try terminal.waitFor("▸ httpbin.org")
        try terminal.press("/")
        try terminal.type("post")
        try terminal.press("Enter")
        try terminal.waitFor("filter: post")
        // Alt+q arrives as ESC q, Ctrl+↑ (unknown to tmux's terminal description) as ESC [ 1 ; 5 A: neither
        // clears the filter (Esc) nor quits (q).
        try terminal.press("M-q", "C-Up", "?")
        let screen = try terminal.waitFor("the keys") { $0.contains("the equivalent curl command") }
        #expect(screen.contains("filter: post"), "\(screen)")
        #expect(!screen.contains("EXIT="), "\(screen)")
        // Esc alone still clears it.
        try terminal.press("Escape")
        try terminal.waitFor("▸ echo.websocket.org")
        try terminal.press("q")
        try terminal.waitFor("EXIT=0")
    }

    @Test func aLargeWorkspaceOpensAndScrollsToTheEnd() throws {
        // 200 groups of 100 requests, every group expanded: 20,201 rows, of which only a screenful is drawn.
        let groups = (0..<200).map { g in
            #"{"id": "\#(String(format: "00000000-0000-4000-8000-%012d", g))", "name": "group \#(g)", "requests": ["#
                + (0..<100).map { #"{"name": "request \#(g)-\#($0)", "url": "http://127.0.0.1:9/\#($0)"}"# }.joined(separator: ",") + "]}"
        }
        let dir = try workspace(#"{"name": "Big", "groups": [\#(groups.joined(separator: ","))]}"#)
        #expect(try ReqRunBinary.run(["expand", "--all"], in: dir.url).status == 0)
        let terminal = try TmuxTerminal(in: dir.url)
        try terminal.run("\(reqrun) ui")
        try terminal.waitFor("GET request 0-0")
        try terminal.press("End")
        try terminal.waitFor("GET request 199-99")
        try terminal.press("PageUp", "Home")
        try terminal.waitFor("the top again") { $0.contains("Big  collections/sample.json") && !$0.contains("GET request 199-99") }
        try terminal.press("q")
    }

    @Test func escapeSequencesInNamesAreShownEscaped() throws {
        let dir = try workspace(#"""
            {"name": "Evil\u001b]0;pwned\u0007", "groups": [{"name": "g\u001b[2Jx", "requests": [{"name": "r\u0007", "url": "http://127.0.0.1:9/"}]}]}
            """#)
        try dir.write(".reqrun/state.json", "{}")
        let terminal = try TmuxTerminal(in: dir.url)
        try terminal.run("\(reqrun) ui --workspace \(TmuxTerminal.quoted(dir.path))")
        try terminal.waitFor("(1 request)")
        try terminal.press("Down", "Right")
        let screen = try terminal.waitFor("the escaped names") {
            $0.contains(#"Evil\u{1b}]0;pwned\u{7}"#) && $0.contains(#"▾ g\u{1b}[2Jx"#) && $0.contains(#"GET r\u{7}"#)
        }
        #expect(!screen.contains("pwned\u{7}"))
        try terminal.press("q")
    }

    @Test(arguments: [("C-c", 130), ("SIGTERM", 143), ("SIGSEGV", 139)])
    func theScreenIsRestoredOnSignals(_ how: String, _ status: Int) throws {
        let dir = try workspace()
        let terminal = try TmuxTerminal(in: dir.url)
        try terminal.run("echo BEFORE-UI; sh -c 'echo $$ > pid; exec \(reqrun) ui'; echo EXIT=$?")
        try terminal.waitFor("▸ httpbin.org")
        #expect(try terminal.paneState("keypad_cursor_flag") == "1")  // ncurses' keypad mode (smkx) is on
        if how == "C-c" {
            try terminal.press("C-c")
        } else {
            let pid = try #require(Int32(try dir.read("pid").trimmingCharacters(in: .whitespacesAndNewlines)))
            kill(pid, how == "SIGTERM" ? SIGTERM : SIGSEGV)
        }
        let after = try terminal.waitFor("EXIT=\(status)")
        #expect(after.contains("BEFORE-UI"), "\(after)")
        #expect(!after.contains("▸ httpbin.org"), "\(after)")
        // The keypad is back in normal mode (rmkx): arrows send ESC [ A again, not ESC O A, to the shell.
        #expect(try terminal.paneState("keypad_cursor_flag") == "0")
        #expect(try terminal.paneState("keypad_flag") == "0")
        #expect(try terminal.paneState("cursor_flag") == "1")
        // The terminal's modes are back too: what is typed shows (echo) and a line runs on Enter.
        try terminal.run("echo TYPED-\("BACK")")
        try terminal.waitFor("TYPED-BACK")
    }

    @Test func resizingRedrawsAndNoColorHasNoColours() throws {
        let dir = try workspace()
        let terminal = try TmuxTerminal(in: dir.url, environment: ["NO_COLOR": "1"])
        try terminal.run("\(reqrun) ui")
        try terminal.waitFor("▸ httpbin.org")
        try terminal.resize(columns: 70, rows: 12)
        let small = try terminal.waitFor("a 70-column frame") { screen in
            let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
            return lines.count >= 12 && lines[11].hasPrefix("↑↓ move") && screen.contains("▸ httpbin.org")
        }
        #expect(small.split(separator: "\n").allSatisfy { $0.count <= 70 })
        let screen = try terminal.screen(escapes: true)
        #expect(Self.colours(in: screen).isEmpty, "colour with NO_COLOR: \(screen.debugDescription)")
        try terminal.press("q")
    }

    @Test func aTerminalWithoutAnAlternateScreenIsLeftClear() throws {
        // TERM=linux (the Linux console: eight colours, no smcup/rmcup) cannot give the earlier screen back;
        // the UI's frame must not stay under the shell's prompt either.
        let dir = try workspace()
        let terminal = try TmuxTerminal(in: dir.url, environment: ["TERM": "linux"])
        try terminal.run("\(reqrun) ui; echo EXIT=$?")
        try terminal.waitFor("▸ httpbin.org")
        try terminal.press("q")
        let after = try terminal.waitFor("EXIT=0")
        #expect(!after.contains("▸ httpbin.org"), "\(after)")
        #expect(!after.contains("open/close"), "\(after)")
    }

    /// The foreground colours (SGR 30–37, 90–97) that `capture-pane -e` shows on a screen.
    static func colours(in screen: String) -> Set<Int> {
        var found = Set<Int>()
        for match in screen.matches(of: /\x1B\[([0-9;]*)m/) {
            for parameter in match.output.1.split(separator: ";") {
                if let n = Int(parameter), (30...37).contains(n) || (90...97).contains(n) { found.insert(n) }
            }
        }
        return found
    }

    @Test func refusesWithoutATerminal() throws {
        let dir = try workspace()
        let ui = try ReqRunBinary.run(["ui"], in: dir.url)
        #expect(ui.status == 64)
        #expect(ui.stderr.contains("error: reqrun ui needs a terminal on standard input and output; use 'reqrun list'"), "\(ui.stderr)")
        // Plain `reqrun` without a terminal still prints the command list (help: exit 0).
        let plain = try ReqRunBinary.run([], in: dir.url)
        #expect(plain.status == 0)
        #expect(plain.stdout.contains("ui"), "\(plain.stdout)")
    }
}
