import Foundation

/// The inside of one request's `<details>` in the HTML report: expectations (expected vs. actual), captures,
/// redirect hops, then the request and the response, each with its header fields and content. Everything
/// comes from the record, so it is masked as the record is; JSON content is pretty-printed.
enum HTMLRequestDetails {
    static func render(_ result: RequestResult) -> String {
        var html = ""
        if let error = result.error { html += "<p class=\"problem\">\(XMLText.escape(error.message))</p>" }
        if !result.expectations.isEmpty {
            html += "<h4>Expectations</h4><table class=\"checks\"><tr><th></th><th>check</th><th>expected</th><th>actual</th></tr>"
            for e in result.expectations {
                // `pm.test.skip` (kind `script-skipped`): neither passed nor failed, marked as a skipped request is.
                let (state, mark) = e.isSkipped ? ("skipped", "–") : e.passed ? ("ok", "✓") : ("bad", "✗")
                html += "<tr class=\"\(state)\"><td>\(mark)</td><td>\(XMLText.escape(e.description))</td>"
                    + "<td><code>\(XMLText.escape(e.expected))</code></td><td><code>\(XMLText.escape(e.actual))</code></td></tr>"
            }
            html += "</table>"
        }
        if !result.captures.isEmpty {
            html += "<h4>Captures</h4><ul>"
            for c in result.captures {
                html += c.error.map { "<li class=\"bad\">✗ \(XMLText.escape($0))</li>" }
                    ?? "<li class=\"ok\">✓ <code>\(XMLText.escape(c.variable))</code> = <code>\(XMLText.escape(c.value ?? ""))</code></li>"
            }
            html += "</ul>"
        }
        if !result.redirects.isEmpty {
            html += "<h4>Redirects</h4><ol class=\"hops\">"
            for hop in result.redirects {
                html += "<li><code>\(XMLText.escape(hop.method)) \(XMLText.escape(hop.url))</code> → \(hop.status) "
                    + "<code>\(XMLText.escape(hop.location))</code> <span class=\"muted\">\(String(format: "%.1f ms", Double(hop.total) / 1000))</span></li>"
            }
            html += "</ol>"
        }
        if let request = result.request {
            html += "<h4>Request</h4><pre class=\"head\">\(XMLText.escape(result.method)) \(XMLText.escape(result.redirects.last?.location ?? result.url))\n"
                + headers(request.headers) + "</pre>"
            if let body = request.body, request.bodySize > 0 { html += content(body, size: request.bodySize, type: request.headers.last(named: "content-type")) }
        }
        if let response = result.response {
            html += "<h4>Response</h4><pre class=\"head\">HTTP/\(XMLText.escape(response.httpVersion)) \(response.status) \(XMLText.escape(response.reasonPhrase))\n"
                + headers(response.headers) + "</pre>"
            if response.bodySize > 0 { html += content(response.body, size: response.bodySize, type: response.headers.last(named: "content-type")) }
        }
        if let console = result.console, !console.isEmpty {
            html += "<h4>Console</h4><pre>\(XMLText.escape(console.joined(separator: "\n")))</pre>"
        }
        return html
    }

    private static func headers(_ fields: [HeaderField]) -> String {
        fields.map { "<b>\(XMLText.escape($0.name))</b>: \(XMLText.escape($0.value))" }.joined(separator: "\n")
    }

    /// The content: pretty JSON, text as recorded, or a line for binary content; the record's 64 KiB cut said.
    private static func content(_ body: RecordedBody, size: Int, type: String?) -> String {
        guard var text = body.displayText else {
            return "<p class=\"muted\">binary content, \(size) bytes\(type.map { ", " + XMLText.escape($0) } ?? "")</p>"
        }
        if !body.truncated, let data = text.data(using: .utf8), let first = text.first(where: { !$0.isWhitespace }), first == "{" || first == "[",
           let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]),
           let pretty = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .withoutEscapingSlashes]) {
            text = String(decoding: pretty, as: UTF8.self)
        }
        return "<pre class=\"body\">\(XMLText.escape(text))</pre>"
            + (body.truncated ? "<p class=\"muted\">first \(RunRecord.bodyLimit) of \(size) bytes</p>" : "")
    }
}
