import Foundation

/// A WebSocket request's conversation in the HTML report: one line per frame, `→` sent and `←` received, with
/// its time offset, type, size and data (escaped; base64 data as it is recorded), as a browser's developer
/// tools list the messages of a WebSocket.
enum WebSocketConversationHTML {
    /// The report's CSS for the conversation.
    static let style = ".ws { margin: .3em 0; padding-left: 0; list-style: none; font: 12px ui-monospace, monospace; } "
        + ".ws .send { color: #0550ae; } .ws .receive { color: #1a7f37; } .ws .data { color: #1d1d1f; white-space: pre-wrap; word-break: break-all; }"

    static func render(_ record: WebSocketRecord) -> String {
        var items = record.messages.map { message in
            let arrow = message.direction == "send" ? "→" : "←"
            var label = String(format: "%@ %.1f ms %@ %d B", arrow, message.offset, message.type, message.size)
            if let code = message.closeCode { label += " \(code)" }
            let data = message.data.encoding == "base64" ? "base64 " + message.data.data : message.data.data
            return "<li class=\"\(message.direction == "send" ? "send" : "receive")\">\(XMLText.escape(label))"
                + (data.isEmpty ? "" : " <span class=\"data\">\(XMLText.escape(data))\(message.data.truncated ? "…" : "")</span>") + "</li>"
        }
        if record.omitted > 0 { items.append("<li class=\"muted\">\(record.omitted) more messages not recorded</li>") }
        return "<ul class=\"ws\">\(items.joined())</ul>"
    }
}
