import Foundation

/// A real terminal for end-to-end tests of the full-screen UI: a private tmux server (`tmux -L NAME`, its own
/// socket, no configuration file) with one window running `sh` in a folder. Keys go in with `send-keys`, the
/// screen comes out with `capture-pane -p`; waits poll the screen until a deadline, never a fixed sleep.
public final class TmuxTerminal {
    public struct Timeout: Error, CustomStringConvertible {
        public var waitingFor: String
        public var screen: String
        public var description: String { "timed out waiting for \(waitingFor); the screen:\n\(screen)" }
    }

    public let socket = "reqrun-test-\(UUID().uuidString.prefix(12))"

    /// Starts the server with a `columns` × `rows` window running `sh` in `directory`, with a UTF-8 locale,
    /// without the test's `NO_COLOR`, and with `environment` added.
    public init(in directory: URL, columns: Int = 120, rows: Int = 30, environment: [String: String] = [:]) throws {
        var variables = ["LANG": "C.UTF-8", "PS1": "$ "]
        for (key, value) in environment { variables[key] = value }
        let assignments = variables.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.quoted($0.value))" }.joined(separator: " ")
        try tmux(capturing: false, ["-f", "/dev/null", "new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", "-c", directory.path,
                  "env -u NO_COLOR \(assignments) sh"])
        serverPID = Int32(try tmux(["display-message", "-p", "#{pid}"]).trimmingCharacters(in: .whitespacesAndNewlines))
        // Keys typed before sh has printed its prompt are echoed first and the prompt lands on the next line, in
        // front of what the command prints: wait for it, so a screen's lines start where the tests expect.
        _ = try waitFor("the shell's prompt") { $0.hasPrefix("$") }
    }

    /// The server's process, killed outright if `kill-server` cannot reach it.
    private var serverPID: Int32?

    deinit {
        _ = try? tmux(capturing: false, ["kill-server"])
        if let serverPID, kill(serverPID, 0) == 0 { kill(serverPID, SIGKILL) }
    }

    /// Types `text` literally (`send-keys -l`).
    public func type(_ text: String) throws { try tmux(capturing: false, ["send-keys", "-l", text]) }

    /// Sends keys by tmux's names: `Down`, `Right`, `Enter`, `Escape`, `C-c`, `q`…
    public func press(_ keys: String...) throws { try tmux(capturing: false, ["send-keys"] + keys) }

    /// Types a shell command line and presses Enter.
    public func run(_ commandLine: String) throws {
        try type(commandLine)
        try press("Enter")
    }

    /// The screen's text, one line a row (`capture-pane -p`); with `escapes`, with colours and attributes
    /// as escape sequences (`-e`).
    public func screen(escapes: Bool = false) throws -> String {
        try tmux(["capture-pane", "-p"] + (escapes ? ["-e"] : []))
    }

    /// A value of the pane's state by tmux's format name (`display-message -p '#{keypad_cursor_flag}'`):
    /// `alternate_on`, `cursor_flag`, `keypad_cursor_flag` (application cursor keys), `keypad_flag`…
    public func paneState(_ name: String) throws -> String {
        try tmux(["display-message", "-p", "#{\(name)}"]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Changes the window's size (the program in it gets SIGWINCH).
    public func resize(columns: Int, rows: Int) throws {
        try tmux(capturing: false, ["resize-window", "-x", "\(columns)", "-y", "\(rows)"])
    }

    /// Polls the screen until `condition` holds, for at most `seconds`; returns that screen.
    @discardableResult
    public func waitFor(_ what: String, seconds: Double = 10, escapes: Bool = false, _ condition: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var last = ""
        while Date() < deadline {
            last = try screen(escapes: escapes)
            if condition(last) { return last }
            usleep(20_000)
        }
        throw Timeout(waitingFor: what, screen: last)
    }

    /// Polls the screen until it contains `text`.
    @discardableResult
    public func waitFor(_ text: String, seconds: Double = 10) throws -> String {
        try waitFor("'\(text)'", seconds: seconds) { $0.contains(text) }
    }

    /// Polls `condition` (a file written, a process gone) until it holds, for at most `seconds`.
    public static func poll(_ what: String, seconds: Double = 10, _ condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return }
            usleep(20_000)
        }
        throw Timeout(waitingFor: what, screen: "")
    }

    /// Runs `tmux -L socket arguments…` and waits for it. Spawned and reaped directly (`posix_spawn`,
    /// `waitpid`) rather than through Foundation's `Process`, whose wait did not return for the client of a
    /// `new-session` (the server it forks keeps running). Only a command that answers is `capturing`: the
    /// server would otherwise inherit the pipe and hold it open for its whole life.
    @discardableResult
    private func tmux(capturing: Bool = true, _ arguments: [String]) throws -> String {
        var fds: [Int32] = [-1, -1]
        // A tmux server spawned meanwhile by a test on another thread must not inherit the write end (it would
        // keep this read waiting for its whole life): close-on-exec, and the pipe is made, handed over and
        // closed here under one lock that every spawn takes. dup2 onto 1 clears the flag in the child.
        Self.spawning.lock()
        var locked = true
        defer { if locked { Self.spawning.unlock() } }
        if capturing {
            guard pipe(&fds) == 0 else { throw POSIXError(.EMFILE) }
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if capturing {
            posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
            posix_spawn_file_actions_addclose(&actions, fds[0])
            posix_spawn_file_actions_addclose(&actions, fds[1])
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = (["/usr/bin/tmux", "-L", socket] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, "/usr/bin/tmux", &actions, nil, argv, environ)
        if capturing { close(fds[1]) }
        Self.spawning.unlock()
        locked = false
        guard status == 0 else {
            if capturing { close(fds[0]) }
            throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EIO)
        }
        var output: [UInt8] = []
        if capturing {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let n = read(fds[0], &buffer, buffer.count)
                if n > 0 { output += buffer[0..<n] } else if n == 0 || errno != EINTR { break }
            }
            close(fds[0])
        }
        var exitStatus: Int32 = 0
        while waitpid(pid, &exitStatus, 0) == -1 && errno == EINTR {}
        return String(decoding: output, as: UTF8.self)
    }

    private static let spawning = NSLock()

    /// `text` in single quotes for sh.
    public static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
}
