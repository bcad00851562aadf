import Foundation

/// A run as one self-contained HTML page (no outside files; one small inline script for the filter): a
/// summary, a "failures only" filter, then the requests grouped by collection and group, each a `<details>`
/// (open when it failed) with its status, time, size and a waterfall bar, and inside it the expectations
/// (expected vs. actual), captures, redirect hops, and the request's and response's header fields and content
/// (`HTMLRequestDetails`), a WebSocket request's conversation one line per frame
/// (`WebSocketConversationHTML`). The waterfall's time axis is logarithmic (`position`), so one slow request does not
/// squash the others into slivers. Counts that are zero are not coloured; the layout wraps on a narrow window.
///
/// A run of more than `fullLimit` requests stays a page a browser opens: the requests that failed come first,
/// in full (up to `fullLimit` of them), then each group's first `groupLimit` other requests and a count of
/// the rest. The page is written from the record in passes that read one result at a time (`RecordSource`).
public enum HTMLReport {
    /// The most requests a page shows in full: every request of a run up to this size.
    public static let fullLimit = 1_000
    /// In a larger run, how many of each group's requests that did not fail are shown in full.
    public static let groupLimit = 20

    public static func render(_ record: RunRecord) -> String {
        ReportOutput.text { (try? write(record, to: $0)) ?? () }
    }

    /// Writes the page of `source` to `out`.
    /// - Throws: what reading the record throws.
    public static func write(_ source: some RecordSource, to out: ReportOutput) throws {
        let record = source.head
        var (end, total, failures) = (1, 0, 0)
        try source.forEach { result in
            end = max(end, (result.startOffset ?? 0) + (result.timings?.total ?? 0))
            total += 1
            if result.isFailure { failures += 1 }
        }
        let s = record.summary
        let verdict = s.failed + s.errors == 0 ? "passed" : "failed"
        let count = { (n: Int, word: String, style: String) in "<span class=\"\(n > 0 ? style : "zero")\">\(n) \(word)</span>" }
        let html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>reqrun run \(XMLText.escape(record.id))</title>
            <style>
            body { font: 14px/1.45 system-ui, sans-serif; margin: 1.5em; color: #1d1d1f; max-width: 1200px; }
            h1 { font-size: 1.4em; } h2 { font-size: 1.1em; margin: 1.4em 0 .4em; } h4 { margin: .8em 0 .2em; }
            .muted, .zero { color: #6e6e73; }
            .summary span { display: inline-block; margin-right: 1.5em; font-weight: 600; }
            .passed, .ok { color: #1a7f37; } .failed, .error, .bad { color: #cf222e; } .skipped { color: #6e6e73; }
            details { border-bottom: 1px solid #e5e5ea; padding: .3em 0; }
            summary { display: flex; flex-wrap: wrap; gap: .2em .8em; align-items: center; cursor: pointer; }
            summary .name { font-weight: 600; min-width: 10em; } summary .url { flex: 1 1 16em; }
            .url, code, pre { font-family: ui-monospace, monospace; font-size: 12px; word-break: break-all; }
            pre { white-space: pre-wrap; background: #f5f5f7; padding: .5em; margin: .2em 0; }
            table.checks { border-collapse: collapse; } table.checks td, table.checks th { text-align: left; padding: .15em .5em; vertical-align: top; }
            .bar { position: relative; height: 10px; flex: 0 1 240px; min-width: 120px; background: #f5f5f7; }
            .bar span { position: absolute; top: 0; height: 10px; }
            .dns { background: #8e8ee0; } .connect { background: #f0a030; } .tls { background: #b060d0; }
            .wait { background: #30a060; } .receive { background: #3080e0; }
            .legend span { display: inline-block; width: 10px; height: 10px; margin: 0 .3em 0 1em; }
            \(WebSocketConversationHTML.style)
            body.failures-only details[data-state=passed], body.failures-only details[data-state=skipped] { display: none; }
            @media (max-width: 600px) { body { margin: .6em; } .bar { flex-basis: 100%; } }
            </style>
            </head>
            <body>
            <h1>reqrun run \(XMLText.escape(record.id)) <span class="\(verdict)">\(verdict)</span></h1>
            <p class="muted">\(XMLText.escape(record.startedAt)) → \(XMLText.escape(record.endedAt)) · selection: \(XMLText.escape(record.selection.mode))\(record.environment.map { " · environment: " + XMLText.escape($0) } ?? "") · reqrun \(XMLText.escape(record.reqrunVersion))</p>
            <p class="summary"><span>\(s.total) requests</span>\(count(s.passed, "passed", "passed"))\(count(s.failed, "failed", "failed"))\(count(s.errors, s.errors == 1 ? "error" : "errors", "error"))\(count(s.skipped, "skipped", "skipped"))\(s.notRun > 0 ? count(s.notRun, "not run", "skipped") : "")</p>
            <p><label><input type="checkbox" id="failures-only" onchange="document.body.classList.toggle('failures-only', this.checked)"> show only failures</label></p>
            <p class="legend muted">waterfall (log time axis, 0 to \(String(format: "%.1f ms", Double(end) / 1000))):<span class="dns"></span>DNS<span class="connect"></span>connect<span class="tls"></span>TLS<span class="wait"></span>waiting<span class="receive"></span>receiving</p>

            """
        out.write(html)
        let span = Double(end)
        var heading: [String]?
        func headed(_ result: RequestResult, prefix: String = "") {
            let path = [result.collection] + result.groupPath
            guard path != heading else { return }
            heading = path
            out.write("<h2>\(prefix)\(XMLText.escape(path.joined(separator: " › ")))</h2>\n")
        }
        if total <= fullLimit {
            try source.forEach { result in
                headed(result)
                out.write(row(result, span: span))
            }
        } else {
            out.write("<p class=\"muted\">\(total) requests: the \(failures > fullLimit ? "first \(fullLimit) of the \(failures)" : "\(failures)") that failed first, "
                      + "then each group's first \(groupLimit) other requests and a count of the rest (<code>reqrun show \(XMLText.escape(record.id))</code> "
                      + "lists every request, <code>--failed</code> only those that failed).</p>\n")
            var shown = 0
            if failures > 0 {
                try source.scan(from: nil) { _, result in
                    guard result.isFailure else { return true }
                    headed(result, prefix: "Failed: ")
                    out.write(row(result, span: span))
                    shown += 1
                    return shown < fullLimit
                }
                if failures > shown { out.write("<p class=\"muted\">… and \(failures - shown) more that failed.</p>\n") }
            }
            heading = nil
            var (inGroup, passed, skipped) = (0, 0, 0)
            func rest() {
                if passed + skipped > 0 {
                    out.write("<p class=\"muted rest\">… and \(passed + skipped) more in this group: \(passed) passed, \(skipped) skipped or not run.</p>\n")
                }
                (inGroup, passed, skipped) = (0, 0, 0)
            }
            try source.forEach { result in
                if [result.collection] + result.groupPath != heading { rest() }
                headed(result)
                guard !result.isFailure else { return }
                inGroup += 1
                if inGroup <= groupLimit { out.write(row(result, span: span)) } else if result.outcome == .response { passed += 1 } else { skipped += 1 }
            }
            rest()
        }
        out.write("</body>\n</html>\n")
        out.flush()
    }

    private static func row(_ result: RequestResult, span: Double) -> String {
        let state: String
        switch result.outcome {
        case .response: state = result.passed ? "passed" : "failed"
        case .skipped, .notRun: state = "skipped"
        default: state = "error"
        }
        let status = result.response.map { "\($0.status)" } ?? (result.outcome == .skipped ? "skipped" : result.outcome == .notRun ? "not run" : "—")
        let time = result.timings.map { String(format: "%.1f ms", Double($0.total) / 1000) } ?? ""
        let size = result.response.map { "\($0.bodySize) B" } ?? ""
        return "<details data-state=\"\(state)\"\(state == "failed" || state == "error" ? " open" : "")><summary>"
            + "<span class=\"\(state)\">\(state == "passed" ? "✓" : state == "skipped" ? "–" : "✗")</span>"
            + "<span class=\"name\">\(XMLText.escape(result.name))</span>"
            + (result.iteration.map { "<span class=\"muted\">iteration \($0 + 1)</span>" } ?? "")
            + "<span class=\"muted\">\(XMLText.escape(result.method))</span><span class=\"\(state)\">\(status)</span>"
            + "<span>\(time)</span><span class=\"muted\">\(size)</span><span class=\"url\">\(XMLText.escape(result.url))</span>"
            + waterfall(result.timings, offset: Double(result.startOffset ?? 0), span: span)
            + "</summary>\n" + HTMLRequestDetails.render(result) + (result.webSocket.map(WebSocketConversationHTML.render) ?? "") + "</details>\n"
    }

    /// Where `microseconds` falls on the time axis, in percent: log(1 + t) over log(1 + span), with t in
    /// tenths of a millisecond, so 1 ms and 10 s both stay visible.
    static func position(_ microseconds: Double, span: Double) -> Double {
        log1p(max(0, microseconds) / 100) / log1p(span / 100) * 100
    }

    /// Bars for each phase on the run's (logarithmic) time line, so rows line up.
    private static func waterfall(_ timings: Timings?, offset: Double, span: Double) -> String {
        guard let t = timings else { return "<div class=\"bar\"></div>" }
        let tlsEnd = t.appconnect > 0 ? t.appconnect : t.connect
        let phases: [(String, Int, Int)] = [
            ("dns", 0, t.namelookup), ("connect", t.namelookup, max(t.namelookup, t.connect)),
            ("tls", t.connect, max(t.connect, t.appconnect)), ("wait", max(tlsEnd, t.pretransfer), t.starttransfer),
            ("receive", t.starttransfer, t.total),
        ]
        var bars = ""
        for (name, from, to) in phases where to > from {
            let left = position(offset + Double(from), span: span)
            let width = max(0.5, position(offset + Double(to), span: span) - left)
            bars += String(format: "<span class=\"%@\" style=\"left:%.2f%%;width:%.2f%%\" title=\"%@ %.1f ms\"></span>",
                           name, left, width, name, Double(to - from) / 1000)
        }
        return "<div class=\"bar\">\(bars)</div>"
    }
}
