import Foundation
import ReqRunKit

/// What `reqrun run` prints while it runs, as results arrive (in list order, from `Runner.run`'s `onResult`):
///
/// ```
/// ❏ Auth API › Login flow
///   ✓ login              POST     200    12 ms    312 B  http://127.0.0.1:8080/post
///   ✗ profile            GET      404     3 ms     0 B  http://127.0.0.1:8080/profile
///       ✗ status is 200
///           expected: 200
///           actual:   404
/// 154 requests not run: the run was interrupted (Ctrl-C)
/// ```
/// - A heading per collection and group path when it changes.
/// - One line per request: its name (which defaults to the URL template), method, status, time, size, then the
///   resolved URL last so that every other column lines up whatever its length; `---` in the status column
///   for a request without a response, then its URL and why.
/// - Each line is flushed as soon as it is written, into a pipe or a file too, so a CI log never looks hung.
/// - On a terminal, a progress line (`[57/200] 12.3 s`) is kept at the bottom while requests are in flight
///   and erased at the end.
/// - Requests not run (`--bail`, Ctrl-C) get one line together, not one each.
final class RunConsole: @unchecked Sendable {
    private let terminal: Terminal
    private let detail: ConsoleDetail
    /// The run's redirect method rule, for `-v`'s request lines (`RequestRules.followsOriginalMethod`).
    var followsOriginalMethod = true
    private let total: Int
    private let nameWidth: Int
    private let started = Date()
    private let lock = NSLock()
    private var heading: [String]?
    private var done = 0
    private var notRun = 0
    private var notRunReason = ""
    private var progressShown = false
    private var timer: DispatchSourceTimer?

    /// Widest name column; a longer name is cut to it, ending in `…`.
    static let maxNameWidth = 32
    /// `OPTIONS`, the widest method in RFC 9110's list.
    static let methodWidth = 7

    /// `Iteration 2/3` before the first result of each iteration of an iterated run.
    private let iterationHeadings: IterationHeadings

    /// - Parameter iterations: how many times the selection runs (`--iterations`, `--iteration-data`).
    init(_ references: [RequestReference], _ terminal: Terminal, detail: ConsoleDetail, iterations: Int = 1) {
        self.terminal = terminal
        self.detail = detail
        iterationHeadings = IterationHeadings(count: iterations)
        total = references.count * max(1, iterations)
        nameWidth = min(Self.maxNameWidth, references.map { Terminal.sanitized($0.request.name).count }.max() ?? 0)
    }

    /// Starts the progress line, on a terminal only.
    func start() {
        guard terminal.isTerminal, total > 0 else { return }
        let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        timer.schedule(deadline: .now() + .milliseconds(100), repeating: .milliseconds(100))
        timer.setEventHandler { [weak self] in self?.drawProgress() }
        self.timer = timer
        timer.resume()
    }

    /// Prints `result` (called in list order).
    func show(_ result: RequestResult) {
        lock.lock()
        defer { lock.unlock() }
        done += 1
        if result.outcome == .notRun {
            notRun += 1
            if notRunReason.isEmpty { notRunReason = Self.reason(result) }
            redraw()
            return
        }
        if detail == .quiet, !result.isFailure { redraw(); return }
        var text = eraseProgress()
        if let iteration = iterationHeadings.heading(before: result) {
            text += terminal.styled(iteration, .bold) + "\n"
            heading = nil
        }
        let path = [result.collection] + result.groupPath
        if path != heading {
            if heading != nil { text += "\n" }
            heading = path
            text += terminal.styled("❏ " + path.map { Terminal.sanitized($0) }.joined(separator: " › "), .bold) + "\n"
        }
        text += "  " + line(result) + ResultLines.details(result, terminal, indent: "      ") + "\n"
        if detail == .verbose {
            text += VerboseExchange.lines(result, terminal, followsOriginalMethod: followsOriginalMethod).split(separator: "\n").map { "      " + $0 + "\n" }.joined()
        }
        terminal.out(text)
        StandardOutput.shared.flush()
        if progressShown { terminal.out(progressText()) }
    }

    /// Stops the progress line, erases it, and prints the not-run line.
    func finish() {
        timer?.cancel()
        lock.lock()
        defer { lock.unlock() }
        var text = eraseProgress()
        if notRun > 0 {
            text += terminal.styled("\(notRun) request\(notRun == 1 ? "" : "s") not run: \(Terminal.sanitized(notRunReason))", .dim) + "\n"
        }
        if !text.isEmpty { terminal.out(text) }
        StandardOutput.shared.flush()
    }

    /// `✓ name  GET      200    12 ms    312 B  http://…`.
    func line(_ result: RequestResult) -> String {
        let name = Terminal.padded(Self.truncated(Terminal.sanitized(result.name), nameWidth), nameWidth)
        let method = Terminal.padded(Terminal.sanitized(result.method), Self.methodWidth)
        let url = Terminal.sanitized(result.url)
        switch result.outcome {
        case .response:
            let response = result.response!
            let mark = result.passed ? terminal.styled("✓", .green) : terminal.styled("✗", .red)
            let status = terminal.styled(Self.leftPadded(String(response.status), 3), response.status >= 400 ? .yellow : .green)
            return "\(mark) \(name)  \(method)  \(status)  \(Self.leftPadded(ResultLines.duration(result.timings?.total ?? 0), 7))  "
                + "\(Self.leftPadded(result.webSocket.map(ResultLines.messageCount) ?? ResultLines.byteCount(response.bodySize), 9))  \(url)"
                + (result.redirects.isEmpty ? "" : terminal.styled("  ↪ \(result.redirects.count) redirect\(result.redirects.count == 1 ? "" : "s")", .dim))
                + ResultLines.attempts(result, terminal)
        case .transportError, .invalid, .scriptError:
            return "\(terminal.styled("✗", .red)) \(name)  \(method)  \(Self.noStatus)  \(url)  "
                + terminal.styled(Terminal.sanitized(result.error?.message ?? ""), .red)
        case .skipped, .notRun:
            return "\(terminal.styled("-", .dim)) \(name)  \(method)  \(Self.noStatus)  \(url)  "
                + terminal.styled("skipped: \(Terminal.sanitized(result.error?.message ?? ""))", .dim)
        }
    }

    /// The status, time and size columns of a request that got no response.
    private static let noStatus = "---" + String(repeating: " ", count: 2 + 7 + 2 + 9)

    /// `text` cut to `width` characters, its end replaced by `…` (the URL column still shows the whole URL).
    static func truncated(_ text: String, _ width: Int) -> String {
        text.count <= width ? text : String(text.prefix(width - 1)) + "…"
    }

    /// `text` with spaces before it up to `width` characters.
    static func leftPadded(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }

    /// `the run was interrupted (Ctrl-C)` from `not run: the run was interrupted (Ctrl-C)`.
    private static func reason(_ result: RequestResult) -> String {
        let message = result.error?.message ?? "not run"
        return message.hasPrefix("not run: ") ? String(message.dropFirst("not run: ".count)) : message
    }

    /// `[57/200] 12.3 s`, after a carriage return and an erase to the end of the line (ECMA-48 EL).
    private func progressText() -> String {
        let seconds = Date().timeIntervalSince(started)
        return "\r\u{1B}[K" + terminal.styled("[\(done)/\(total)] \(String(format: "%.1f", seconds)) s", .dim)
    }

    /// What erases the progress line, or nothing when none is shown; the caller holds the lock.
    private func eraseProgress() -> String { progressShown ? "\r\u{1B}[K" : "" }

    /// Redraws the progress line after a result that printed nothing; the caller holds the lock.
    private func redraw() { if progressShown { terminal.out(progressText()) } }

    private func drawProgress() {
        lock.lock()
        defer { lock.unlock() }
        guard timer?.isCancelled == false else { return }
        progressShown = true
        terminal.out(progressText())
    }
}
