import ReqRunKit

/// The console's one line per request and the run summary, shared by `run` and `show`.
enum ResultLines {
    /// The request's line, then one indented line per failed expectation or capture (expected vs. actual).
    static func lines(_ result: RequestResult, _ terminal: Terminal) -> String {
        line(result, terminal) + details(result, terminal)
    }

    /// What follows a request's line: each failed expectation or capture (expected vs. actual), each script
    /// assertion and each `console.*` line, one per line, each after a line feed and `indent`.
    static func details(_ result: RequestResult, _ terminal: Terminal, indent: String = "    ") -> String {
        var text = ""
        for expectation in result.expectations where expectation.kind != nil || !expectation.passed {
            if expectation.kind != nil {
                text += "\n" + indent + scriptAssertion(expectation, terminal, indent: indent)
                continue
            }
            text += "\n" + indent + terminal.styled("✗ \(Terminal.sanitized(expectation.description))", .red)
                + "\n\(indent)    expected: \(Terminal.sanitized(expectation.expected))\n\(indent)    actual:   \(Terminal.sanitized(expectation.actual))"
        }
        for capture in result.captures {
            if let error = capture.error { text += "\n" + indent + terminal.styled("✗ \(Terminal.sanitized(error))", .red) }
        }
        for line in result.console ?? [] { text += "\n" + indent + terminal.styled("│ " + Terminal.sanitized(line), .dim) }
        return text
    }

    /// A script's assertion, passed or not, as Newman lists them under the request: `✓ name`, `✗ name`
    /// and its error, `- name (skipped)`.
    static func scriptAssertion(_ assertion: ExpectationResult, _ terminal: Terminal, indent: String = "    ") -> String {
        let name = Terminal.sanitized(assertion.description)
        if assertion.isSkipped { return terminal.styled("- \(name) (skipped)", .dim) }
        if assertion.passed { return terminal.styled("✓", .green) + " \(name)" }
        return terminal.styled("✗ \(name)", .red) + (assertion.actual.isEmpty ? "" : "\n\(indent)    \(Terminal.sanitized(assertion.actual))")
    }

    /// `✓ GET  http://127.0.0.1:8080/get  200  12 ms  312 B`; `✗` for a failure, `-` for a skip.
    /// `  (N attempts)` when the request was sent more than once: its `--retry` transfers and, for a polled
    /// request (`retry`, `--retry-until-pass`), each earlier attempt in `polls`; empty otherwise.
    static func attempts(_ result: RequestResult, _ terminal: Terminal) -> String {
        let sends = result.attempts + (result.polls?.count ?? 0)
        return sends > 1 ? terminal.styled("  (\(sends) attempts)", .dim) : ""
    }

    static func line(_ result: RequestResult, _ terminal: Terminal) -> String {
        let method = Terminal.padded(Terminal.sanitized(result.method), 4)
        let url = Terminal.sanitized(result.url)
        switch result.outcome {
        // A test script's error after a response keeps the response's status, time and size, the error last.
        case .response,
             .scriptError where result.response != nil:
            let response = result.response!
            let style: Terminal.Style = response.status >= 400 ? .yellow : .green
            let mark = result.passed ? terminal.styled("✓", .green) : terminal.styled("✗", .red)
            return "\(mark) \(method) \(url)  \(terminal.styled(String(response.status), style))  "
                + "\(duration(result.timings?.total ?? 0))  "
                + (result.webSocket.map { messageCount($0) } ?? byteCount(response.bodySize))
                + (result.redirects.isEmpty ? "" : terminal.styled("  ↪ \(result.redirects.count) redirect\(result.redirects.count == 1 ? "" : "s")", .dim))
                + attempts(result, terminal)
                + (result.outcome == .scriptError ? "  " + terminal.styled(Terminal.sanitized(result.error?.message ?? ""), .red) : "")
        case .transportError, .invalid, .scriptError:
            return "\(terminal.styled("✗", .red)) \(method) \(url)  " + terminal.styled(Terminal.sanitized(result.error?.message ?? ""), .red)
        case .skipped:
            return "\(terminal.styled("-", .dim)) \(method) \(url)  " + terminal.styled("skipped: \(Terminal.sanitized(result.error?.message ?? ""))", .dim)
        case .notRun:
            return "\(terminal.styled("-", .dim)) \(method) \(url)  " + terminal.styled(Terminal.sanitized(result.error?.message ?? "not run"), .dim)
        }
    }

    /// A WebSocket conversation's size on the console: `4 messages`.
    static func messageCount(_ record: WebSocketRecord) -> String {
        let count = record.messages.count + record.omitted
        return "\(count) message\(count == 1 ? "" : "s")"
    }

    /// `4 requests: 2 passed, 1 failed, 0 errors, 1 skipped` (`RunSummary.text`).
    static func summary(_ summary: RunSummary) -> String { summary.text }

    /// Microseconds as `12 ms` (`0.4 ms` below one millisecond, `11.0 s` from one second on).
    static func duration(_ microseconds: Int) -> String {
        if microseconds >= 1_000_000 { return "\(Double(microseconds / 100_000) / 10) s" }
        return microseconds < 1000 ? "\(Double(microseconds / 100) / 10) ms" : "\(microseconds / 1000) ms"
    }

    /// `312 B`, `1.5 KiB`, `2.0 MiB`.
    static func byteCount(_ bytes: Int) -> String {
        if bytes < 1024 { return "\(bytes) B" }
        let units = ["KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes) / 1024
        var unit = 0
        while value >= 1024, unit < units.count - 1 { value /= 1024; unit += 1 }
        return "\((value * 10).rounded() / 10) \(units[unit])"
    }
}
