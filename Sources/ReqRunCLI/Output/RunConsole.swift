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
/// - Into a pipe or a file, lines are flushed within `flushDelay` of being written, so a CI log never looks
///   hung; lines that come together (a batch of results of a parallel run) go out in one write, since a
///   write per line cost a tenth of a 1,000-request run.
/// - On a terminal, a progress line (`[57/200] 12.3 s`) is kept at the bottom while requests are in flight
///   and erased at the end.
/// - Requests not run (`--bail`, Ctrl-C) get one line together, not one each.
final class RunConsole: @unchecked Sendable {
    private let terminal: Terminal
    private let detail: ConsoleDetail
    /// The run's redirect method rule, for `-v`'s request lines (`RequestRules.followsOriginalMethod`).
    var followsOriginalMethod = true
    /// The same rule by collection name, for collections whose own rules differ from the run's.
    var followsOriginalMethodByCollection: [String: Bool] = [:]
    private let total: Int
    private let nameWidth: Int
    private let started = Date()
    private let lock = NSLock()
    private var heading: [String]?
    private var done = 0
    private var notRun = 0
    private var notRunReason = ""
    private var assertionCounts = AssertionCounts()
    private var progressShown = false
    private var timer: DispatchSourceTimer?
    /// Whether a flush is scheduled (`flushSoon`).
    private var flushScheduled = false

    /// How long a line written into a pipe or a file may wait for the lines after it.
    static let flushDelay = DispatchTimeInterval.milliseconds(50)

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
        nameWidth = min(Self.maxNameWidth, references.map { Terminal.characterCount(Terminal.sanitized($0.request.name)) }.max() ?? 0)
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
        assertionCounts.add(result)
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
        text += "  "
        text += line(result)
        text += ResultLines.details(result, terminal, indent: "      ")
        text += "\n"
        if detail == .verbose {
            text += VerboseExchange.lines(result, terminal, followsOriginalMethod: followsOriginalMethodByCollection[result.collection] ?? followsOriginalMethod).split(separator: "\n").map { "      " + $0 + "\n" }.joined()
        }
        terminal.out(text)
        flushSoon()
        if progressShown { terminal.out(progressText()) }
    }

    /// Flushes standard output `flushDelay` from now, unless a flush is already scheduled; the caller holds
    /// the lock. (On a terminal standard output is unbuffered: nothing waits.)
    private func flushSoon() {
        guard !flushScheduled else { return }
        flushScheduled = true
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + Self.flushDelay) { [self] in
            lock.lock()
            flushScheduled = false
            lock.unlock()
            StandardOutput.shared.flush()
        }
    }

    /// The assertions of the results shown so far (`--quiet` too), for the line after the run's summary.
    var assertions: AssertionCounts {
        lock.lock()
        defer { lock.unlock() }
        return assertionCounts
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
        // A test script's error after a response keeps the response's columns, the error after the URL (the
        // `---` columns are for a request that got no response).
        case .response,
             .scriptError where result.response != nil:
            let response = result.response!
            // Appended as UTF-8 to one buffer sized once: the line made of `+` and interpolations allocated a
            // string per piece, about 20,000 instructions a line (callgrind).
            var text: [UInt8] = []
            text.reserveCapacity(96 + name.utf8.count + url.utf8.count)
            func add(_ piece: String) { text.append(contentsOf: piece.utf8) }
            add(result.passed ? terminal.styled("✓", .green) : terminal.styled("✗", .red))
            add(" ")
            add(name)
            add("  ")
            add(method)
            add("  ")
            add(terminal.styled(Self.leftPadded(String(response.status), 3), response.status >= 400 ? .yellow : .green))
            add("  ")
            add(Self.leftPadded(ResultLines.duration(result.timings?.total ?? 0), 7))
            add("  ")
            add(Self.leftPadded(result.webSocket.map(ResultLines.messageCount) ?? ResultLines.byteCount(response.bodySize), 9))
            add("  ")
            add(url)
            if !result.redirects.isEmpty {
                add(terminal.styled("  ↪ \(result.redirects.count) redirect\(result.redirects.count == 1 ? "" : "s")", .dim))
            }
            add(ResultLines.attempts(result, terminal))
            if result.outcome == .scriptError {
                add("  ")
                add(terminal.styled(Terminal.sanitized(result.error?.message ?? ""), .red))
            }
            return String(decoding: text, as: UTF8.self)
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
        Terminal.characterCount(text) <= width ? text : String(text.prefix(width - 1)) + "…"
    }

    /// `text` with spaces before it up to `width` characters.
    static func leftPadded(_ text: String, _ width: Int) -> String {
        let count = Terminal.characterCount(text)
        return count >= width ? text : String(repeating: " ", count: width - count) + text
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
