import Foundation

/// A WebSocket request's conversation as recorded (`webSocket` in a result; the handshake is the result's
/// `request` and `response`, status 101).
public struct WebSocketRecord: Codable, Sendable, Equatable {
    /// Each message and control frame sent and received, in order.
    public var messages: [WebSocketMessageRecord]
    /// Messages not recorded because the record already held `maximumMessages`, or `maximumDataBytes` of
    /// data.
    public var omitted: Int
    /// The bytes of `data` kept so far (not part of the record).
    private var dataBytes = 0

    private enum CodingKeys: String, CodingKey { case messages, omitted }

    /// Records are equal by what they hold (`dataBytes` is bookkeeping).
    public static func == (a: Self, b: Self) -> Bool { a.messages == b.messages && a.omitted == b.omitted }

    public init(messages: [WebSocketMessageRecord] = [], omitted: Int = 0) {
        self.messages = messages
        self.omitted = omitted
    }

    /// The most messages one request records, and the most bytes of their data (the rest are counted in
    /// `omitted`): a server streaming 64 KiB messages cannot make the record hold more than this.
    public static let maximumMessages = 10_000
    public static let maximumDataBytes = 16 * 1024 * 1024

    mutating func append(_ message: WebSocketMessageRecord) {
        let size = message.data.data.utf8.count
        guard messages.count < Self.maximumMessages, dataBytes + size <= Self.maximumDataBytes else {
            omitted += 1
            return
        }
        dataBytes += size
        messages.append(message)
    }
}

/// One message or control frame.
public struct WebSocketMessageRecord: Codable, Sendable, Equatable {
    /// `send` or `receive`.
    public var direction: String
    /// Milliseconds from the start of the request (its connection) to the message, to the microsecond.
    public var offset: Double
    /// `text`, `binary`, `ping`, `pong` or `close`.
    public var type: String
    /// The payload's size in bytes (a fragmented message's whole size; a close frame's reason).
    public var size: Int
    /// The first `RunRecord.bodyLimit` bytes of the payload (UTF-8 text as text, binary messages and anything
    /// not UTF-8 as base64; for a close frame, its reason).
    public var data: RecordedBody
    /// A close frame's status code (RFC 6455 §7.4), when it has one.
    public var closeCode: Int?

    public init(direction: String, offset: Double, type: String, size: Int, data: RecordedBody, closeCode: Int? = nil) {
        self.direction = direction
        self.offset = offset
        self.type = type
        self.size = size
        self.data = data
        self.closeCode = closeCode
    }

    /// A message with its payload kept up to `limit` bytes; a binary message's always as base64 (as Chrome
    /// writes them), even when its bytes happen to be UTF-8.
    init(direction: String, offset: Double, type: String, payload: [UInt8], limit: Int, closeCode: Int? = nil) {
        let prefix = Array(payload.prefix(limit))
        var data = RecordedBody(prefix: prefix, truncated: payload.count > limit)
        if type == "binary", data.encoding == "utf8" {
            data.encoding = "base64"
            data.data = Data(prefix).base64EncodedString()
        }
        self.init(direction: direction, offset: offset, type: type, size: payload.count, data: data, closeCode: closeCode)
    }
}

extension WebSocketRecord {
    func write(_ w: inout JSONWriter) {
        w.object { w in
            w.field("messages", messages) { w, m in
                w.object { w in
                    w.field("closeCode", m.closeCode)
                    w.key("data"); m.data.write(&w)
                    w.field("direction", m.direction)
                    w.key("offset"); w.raw(Array(String(format: "%.3f", m.offset).utf8))
                    w.field("size", m.size)
                    w.field("type", m.type)
                }
            }
            w.field("omitted", omitted)
        }
    }
}

extension SecretMasker {
    /// The conversation with secrets masked in every payload.
    func mask(_ record: WebSocketRecord) -> WebSocketRecord {
        var copy = record
        copy.messages = record.messages.map { message in
            var message = message
            message.data = mask(message.data)
            return message
        }
        return copy
    }
}
