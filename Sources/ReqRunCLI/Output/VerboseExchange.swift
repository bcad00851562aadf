import Foundation
import ReqRunKit

/// What `-v/--verbose` adds for one request, on `send` and `run`: what was sent, in curl -v's shape.
/// Built from the result as recorded (already masked: credentials and secrets show as `****`), so the
/// console never shows more than the record keeps.
///
/// ```
/// > GET http://127.0.0.1:8080/redirect/1
/// < 302 → http://127.0.0.1:8080/get  (1.2 ms)
/// > GET http://127.0.0.1:8080/get HTTP/1.1
/// > Host: 127.0.0.1:8080
/// > Authorization: ****
/// >
/// > {"content": "as sent"}
/// * timings (ms): namelookup 0.0  connect 0.1  appconnect 0.0  pretransfer 0.1  starttransfer 1.9  total 2.0
/// ```
/// A `pm.sendRequest` of its scripts is one line first: `* pm.sendRequest GET http://… → 200  (3.1 ms)`.
/// Each redirect hop is its request line and the status and `Location` that answered it; the header
/// fields shown are those of the last request (libcurl's own, as sent), its content up to the record's
/// 64 KiB; the timings are those of the last transfer (curl's names, `CURLINFO_*_TIME_T`).
enum VerboseExchange {
    /// - Parameter followsOriginalMethod: the run's redirect method rule (`RequestRules.followsOriginalMethod`).
    static func lines(_ result: RequestResult, _ terminal: Terminal, followsOriginalMethod: Bool = true) -> String {
        let safe = { (text: String) in Terminal.sanitized(text) }
        let sent = { (text: String) in text.isEmpty ? terminal.styled(">", .dim) : terminal.styled("> ", .dim) + text }
        var lines: [String] = []
        // What its scripts sent with pm.sendRequest (in the order sent), before its own exchange.
        for exchange in result.scriptRequests ?? [] {
            let outcome = exchange.status.map { "\($0)" } ?? "error: \(safe(exchange.error ?? ""))"
            lines.append(terminal.styled("* ", .dim) + "pm.sendRequest \(safe(exchange.method)) \(safe(exchange.url)) → \(outcome)  "
                         + terminal.styled("(\(milliseconds(exchange.total)) ms)", .dim))
        }
        var method = result.method
        for hop in result.redirects {
            lines.append(sent("\(safe(hop.method)) \(safe(hop.url))"))
            lines.append(terminal.styled("< ", .dim) + "\(hop.status) → \(safe(hop.location))  " + terminal.styled("(\(milliseconds(hop.total)) ms)", .dim))
            method = RedirectFollower.method(after: hop.method, status: hop.status, followsOriginalMethod: followsOriginalMethod)
        }
        let url = result.redirects.last?.location ?? result.url
        let version = result.response.map { " HTTP/\(safe($0.httpVersion))" } ?? ""
        guard let request = result.request else {
            // Not sent (invalid, skipped, not run): the request line as far as it is known.
            lines.append(sent("\(safe(method)) \(safe(url))"))
            return lines.joined(separator: "\n")
        }
        lines.append(sent("\(safe(method)) \(safe(url))\(version)"))
        for header in request.headers { lines.append(sent(safe("\(header.name): \(header.value)"))) }
        if let body = request.body, request.bodySize > 0 {
            lines.append(sent(""))
            if body.encoding == "utf8" {
                lines += Terminal.sanitized(body.data, multiline: true).split(separator: "\n", omittingEmptySubsequences: false).map { sent(String($0)) }
                if body.truncated { lines.append(sent(terminal.styled("… (\(RunRecord.bodyLimit) of \(request.bodySize) bytes shown)", .dim))) }
            } else {
                lines.append(sent(terminal.styled("(binary content, \(ResultLines.byteCount(request.bodySize)))", .dim)))
            }
        } else if request.bodySize > 0 {
            lines.append(sent(""))
            lines.append(sent(terminal.styled("(\(ResultLines.byteCount(request.bodySize)) of content: a file or multipart parts)", .dim)))
        }
        if let timings = result.timings { lines.append(terminal.styled("* ", .dim) + timingsLine(timings)) }
        return lines.joined(separator: "\n")
    }

    /// `timings (ms): namelookup 0.1  connect 0.3  appconnect 0.0  pretransfer 0.4  starttransfer 2.0  total 2.1`,
    /// appended to one string (interpolated, it was a tenth of `show`'s instructions, callgrind).
    static func timingsLine(_ timings: Timings) -> String {
        var line = "timings (ms): namelookup "
        line.reserveCapacity(112)
        appendMilliseconds(timings.namelookup, to: &line)
        line += "  connect "
        appendMilliseconds(timings.connect, to: &line)
        line += "  appconnect "
        appendMilliseconds(timings.appconnect, to: &line)
        line += "  pretransfer "
        appendMilliseconds(timings.pretransfer, to: &line)
        line += "  starttransfer "
        appendMilliseconds(timings.starttransfer, to: &line)
        line += "  total "
        appendMilliseconds(timings.total, to: &line)
        return line
    }

    /// Microseconds as milliseconds with one decimal, rounded half up (150 µs is `0.2`). In integers:
    /// `String(format:)` was a fifth of `show` on 100,000 results.
    static func milliseconds(_ microseconds: Int) -> String {
        var text = ""
        appendMilliseconds(microseconds, to: &text)
        return text
    }

    /// `milliseconds(microseconds)` appended to `text`.
    static func appendMilliseconds(_ microseconds: Int, to text: inout String) {
        let tenths = (microseconds.magnitude + 50) / 100
        if microseconds < 0 && tenths > 0 { text += "-" }
        text += String(tenths / 10)
        text += "."
        text.unicodeScalars.append(Unicode.Scalar(UInt8(tenths % 10) + 0x30))
    }
}
