import Foundation

/// A run as one self-contained HTML page (no scripts, no outside files): a summary, then each request with
/// its status, expectations (expected vs. actual) and captures, and a timing waterfall drawn from the
/// recorded phases (DNS, connect, TLS, waiting, receiving), placed on the run's time line.
public enum HTMLReport {
    public static func render(_ record: RunRecord) -> String {
        let s = record.summary
        let verdict = s.failed + s.errors == 0 ? "passed" : "failed"
        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>reqrun run \(XMLText.escape(record.id))</title>
            <style>
            body { font: 14px/1.45 system-ui, sans-serif; margin: 2em; color: #1d1d1f; }
            h1 { font-size: 1.4em; } .muted { color: #6e6e73; }
            .summary span { display: inline-block; margin-right: 1.5em; font-weight: 600; }
            .passed { color: #1a7f37; } .failed, .error { color: #cf222e; } .skipped { color: #6e6e73; }
            table { border-collapse: collapse; width: 100%; margin-top: 1em; }
            th, td { text-align: left; padding: .35em .6em; border-bottom: 1px solid #e5e5ea; vertical-align: top; }
            .url { word-break: break-all; font-family: ui-monospace, monospace; font-size: 12px; }
            ul.checks { margin: .2em 0; padding-left: 1.2em; } ul.checks li { font-size: 12px; }
            .bar { position: relative; height: 12px; min-width: 240px; background: #f5f5f7; }
            .bar span { position: absolute; top: 0; height: 12px; }
            .dns { background: #8e8ee0; } .connect { background: #f0a030; } .tls { background: #b060d0; }
            .wait { background: #30a060; } .receive { background: #3080e0; }
            .legend span { display: inline-block; width: 10px; height: 10px; margin: 0 .3em 0 1em; }
            </style>
            </head>
            <body>
            <h1>reqrun run \(XMLText.escape(record.id)) <span class="\(verdict)">\(verdict)</span></h1>
            <p class="muted">\(XMLText.escape(record.startedAt)) → \(XMLText.escape(record.endedAt)) · selection: \(XMLText.escape(record.selection.mode))\(record.environment.map { " · environment: " + XMLText.escape($0) } ?? "") · reqrun \(XMLText.escape(record.reqrunVersion))</p>
            <p class="summary"><span>\(s.total) requests</span><span class="passed">\(s.passed) passed</span><span class="failed">\(s.failed) failed</span><span class="error">\(s.errors) error\(s.errors == 1 ? "" : "s")</span><span class="skipped">\(s.skipped) skipped</span></p>
            <p class="legend muted">waterfall:<span class="dns"></span>DNS<span class="connect"></span>connect<span class="tls"></span>TLS<span class="wait"></span>waiting<span class="receive"></span>receiving</p>
            <table>
            <thead><tr><th>#</th><th>request</th><th>status</th><th>time</th><th>checks</th><th>waterfall</th></tr></thead>
            <tbody>

            """
        let span = max(record.results.map { Double(($0.startOffset ?? 0) + ($0.timings?.total ?? 0)) }.max() ?? 1, 1)
        for result in record.results {
            html += row(result, offset: Double(result.startOffset ?? 0), span: span)
        }
        html += "</tbody>\n</table>\n</body>\n</html>\n"
        return html
    }

    private static func row(_ result: RequestResult, offset: Double, span: Double) -> String {
        let state: String
        switch result.outcome {
        case .response: state = result.passed ? "passed" : "failed"
        case .skipped, .notRun: state = "skipped"
        default: state = "error"
        }
        let status = result.response.map { "\($0.status)" } ?? (result.outcome == .skipped ? "skipped" : result.outcome == .notRun ? "not run" : "—")
        var checks = result.expectations.map { e in
            "<li class=\"\(e.passed ? "passed" : "failed")\">\(e.passed ? "✓" : "✗") \(XMLText.escape(e.description))"
                + (e.passed ? "" : e.kind != nil ? " — \(XMLText.escape(e.actual))"
                   : " — expected \(XMLText.escape(e.expected)), actual \(XMLText.escape(e.actual))") + "</li>"
        }
        checks += result.captures.map { c in
            c.error.map { "<li class=\"failed\">✗ \(XMLText.escape($0))</li>" }
                ?? "<li class=\"passed\">✓ captured \(XMLText.escape(c.variable))</li>"
        }
        if let error = result.error { checks.append("<li class=\"\(state)\">\(XMLText.escape(error.message))</li>") }
        let time = result.timings.map { String(format: "%.1f ms", Double($0.total) / 1000) } ?? ""
        return "<tr class=\"\(state)\"><td>\(result.index)</td><td><strong>\(XMLText.escape(result.name))</strong><br>"
            + "<span class=\"muted\">\(XMLText.escape(([result.collection] + result.groupPath).joined(separator: " › ")))"
            + (result.iteration.map { " · iteration \($0 + 1)" } ?? "") + "</span></td>"
            + "<td class=\"\(state)\">\(status)</td><td>\(time)</td>"
            + "<td><span class=\"muted\">\(XMLText.escape(result.method))</span> <span class=\"url\">\(XMLText.escape(result.url))</span>"
            + (checks.isEmpty ? "" : "<ul class=\"checks\">\(checks.joined())</ul>") + "</td>"
            + "<td>\(waterfall(result.timings, offset: offset, span: span))</td></tr>\n"
    }

    /// Bars for each phase, as percentages of the run's span, so rows line up on one time line.
    private static func waterfall(_ timings: Timings?, offset: Double, span: Double) -> String {
        guard let t = timings else { return "" }
        let tlsEnd = t.appconnect > 0 ? t.appconnect : t.connect
        let phases: [(String, Int, Int)] = [
            ("dns", 0, t.namelookup), ("connect", t.namelookup, max(t.namelookup, t.connect)),
            ("tls", t.connect, max(t.connect, t.appconnect)), ("wait", max(tlsEnd, t.pretransfer), t.starttransfer),
            ("receive", t.starttransfer, t.total),
        ]
        var bars = ""
        for (name, from, to) in phases where to > from {
            let left = (offset + Double(from)) / span * 100
            let width = max(0.3, Double(to - from) / span * 100)
            bars += String(format: "<span class=\"%@\" style=\"left:%.2f%%;width:%.2f%%\" title=\"%@ %.1f ms\"></span>",
                           name, left, width, name, Double(to - from) / 1000)
        }
        return "<div class=\"bar\">\(bars)</div>"
    }
}
