import Foundation
import ReqRunKit

/// A response as `reqrun send` prints it, in the shape of `curl -i` and HTTPie: the status line, the
/// header fields as received, an empty line, the content. Built from the recorded (masked) response.
///
/// Content: JSON (a `json` media type, or text that parses as JSON) is pretty-printed with two-space
/// indentation, keys, strings, numbers and literals coloured on a terminal (numbers keep their text,
/// members their order and duplicates); other UTF-8 text is shown as it is, control characters escaped;
/// anything else is summarised (size, media type, SHA-256), never written to the terminal. The record
/// keeps 64 KiB of the content: a longer one shows that much and says so (`--body` writes it all).
enum ResponseText {
    static func text(_ response: ResponseRecord, _ terminal: Terminal) -> String {
        let safe = { (text: String) in Terminal.sanitized(text) }
        let statusStyle: Terminal.Style = response.status >= 400 ? .red : response.status >= 300 ? .yellow : .green
        var lines = [terminal.styled("HTTP/\(safe(response.httpVersion)) \(response.status)"
                                     + (response.reasonPhrase.isEmpty ? "" : " " + safe(response.reasonPhrase)), statusStyle)]
        for header in response.headers { lines.append(terminal.styled(safe(header.name), .cyan) + ": " + safe(header.value)) }
        lines.append("")
        return lines.joined(separator: "\n") + "\n" + content(response, terminal)
    }

    /// The content part alone (empty for no content), each line ended.
    static func content(_ response: ResponseRecord, _ terminal: Terminal) -> String {
        let safe = { (text: String) in Terminal.sanitized(text) }
        var lines: [String] = []
        let mediaType = response.headers.values(named: "content-type").first?.lowercased() ?? ""
        if response.bodySize == 0 { return "" }
        guard let text = response.body.displayText, !isBinaryMediaType(mediaType) else {
            lines.append(terminal.styled("(binary content: \(ResultLines.byteCount(response.bodySize))"
                                         + (mediaType.isEmpty ? "" : ", \(safe(mediaType))")
                                         + ", sha256 \(safe(response.bodySHA256)); 'reqrun send --body' writes it)", .dim))
            return lines.joined(separator: "\n") + "\n"
        }
        if !response.body.truncated, mediaType.contains("json") || text.first(where: { !$0.isWhitespace }).map({ $0 == "{" || $0 == "[" }) == true,
           let node = try? JSONParser.parse(Array(text.utf8)) {
            lines.append(JSONText.pretty(node, terminal))
        } else {
            lines.append(Terminal.sanitized(text, multiline: true))
        }
        if response.body.truncated {
            lines.append(terminal.styled("… (\(ResultLines.byteCount(RunRecord.bodyLimit)) of \(ResultLines.byteCount(response.bodySize)) shown; "
                                         + "'reqrun send --body' writes it all)", .dim))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Media types whose content is not text even when it happens to be valid UTF-8.
    static func isBinaryMediaType(_ type: String) -> Bool {
        ["image/", "audio/", "video/", "font/", "application/octet-stream", "application/pdf", "application/zip",
         "application/gzip", "application/x-protobuf", "application/protobuf"].contains { type.hasPrefix($0) }
    }
}

/// JSON pretty-printed for a terminal: two-space indentation, colours when the terminal has them, every
/// string escaped as JSON (RFC 8259 §7) and then for the terminal (`Terminal.sanitized`).
enum JSONText {
    static func pretty(_ node: JSONNode, _ terminal: Terminal) -> String {
        var out = ""
        append(node, indent: 0, to: &out, terminal)
        return out
    }

    private static func quoted(_ text: String) -> String {
        var out = ""
        JSONNode.appendQuoted(text, to: &out)
        return Terminal.sanitized(out)
    }

    private static func append(_ node: JSONNode, indent: Int, to out: inout String, _ terminal: Terminal) {
        let pad = String(repeating: "  ", count: indent + 1)
        let closePad = String(repeating: "  ", count: indent)
        switch node.value {
        case .null: out += terminal.styled("null", .magenta)
        case .bool(let value): out += terminal.styled(value ? "true" : "false", .magenta)
        case .number(let text): out += terminal.styled(text, .cyan)
        case .string(let text): out += terminal.styled(quoted(text), .green)
        case .array(let items):
            guard !items.isEmpty else { out += "[]"; return }
            out += "[\n"
            for (i, item) in items.enumerated() {
                out += pad
                append(item, indent: indent + 1, to: &out, terminal)
                out += i < items.count - 1 ? ",\n" : "\n"
            }
            out += closePad + "]"
        case .object(let members):
            guard !members.isEmpty else { out += "{}"; return }
            out += "{\n"
            for (i, member) in members.enumerated() {
                out += pad + terminal.styled(quoted(member.key), .blue) + ": "
                append(member.value, indent: indent + 1, to: &out, terminal)
                out += i < members.count - 1 ? ",\n" : "\n"
            }
            out += closePad + "}"
        }
    }
}
