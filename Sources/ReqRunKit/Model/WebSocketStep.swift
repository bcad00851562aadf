/// One item of a WebSocket request's `messages` list (documented in the README, "WebSocket requests"): what
/// to send or what to wait for, in order. Strings may hold `{{name}}`, resolved when the step runs, so a
/// value captured from an earlier message of the same request can be sent by a later step.
public struct WebSocketStep: Sendable, Equatable {
    public enum Action: Sendable, Equatable {
        /// `send`, `sendJSON`: a message (or a ping or pong control frame) to send.
        case send(WebSocketPayload)
        /// `{"receive": MATCHER}`: the next text or binary message must arrive and match (nil: any message).
        case receive(WebSocketMatcher?)
        /// `{"receiveCount": N}`: the next N text or binary messages must arrive (each is recorded).
        case receiveCount(Int)
        /// `{"receiveUntil": MATCHER}`: messages are read (and recorded) until one matches.
        case receiveUntil(WebSocketMatcher)
        /// `{"close": CODE}` or `{"close": {"code": CODE, "reason": TEXT}}`: the close handshake
        /// (RFC 6455 §5.5.1, §7.4); the last step of a list.
        case close(code: Int, reason: String)
    }

    public var action: Action
    /// `within`: how long a receive step waits, in milliseconds; nil: until the request's time limit.
    public var withinMilliseconds: Int?
    /// `capture`: values taken from the message a receive step matched (the last one for `receiveCount`).
    public var captures: [Capture]
    /// Where the step is written, e.g. `groups[1].requests[0].messages[2]`.
    public var fieldPath: String

    public init(action: Action, withinMilliseconds: Int? = nil, captures: [Capture] = [], fieldPath: String) {
        self.action = action
        self.withinMilliseconds = withinMilliseconds
        self.captures = captures
        self.fieldPath = fieldPath
    }
}

/// What a send step sends.
public enum WebSocketPayload: Sendable, Equatable {
    /// A text message (`{"send": "hello {{name}}"}`); the template is resolved when sent.
    case text(String)
    /// A text message holding JSON (`sendJSON`), compact as written, `{{name}}` resolved inside its strings
    /// (JSON-escaped) as in a JSON body.
    case json(String)
    /// A binary message (`{"send": {"type": "binary", "base64": …}}`).
    case binary([UInt8])
    /// A text message written as base64 (`{"send": {"type": "text", "base64": …}}`): sent as decoded, no
    /// templates (UTF-8, checked when the collection loads).
    case textBytes([UInt8])
    /// A file's bytes (`{"send": {"file": PATH}}`), read when sent; absolute (resolved against the collection
    /// file's folder and checked against the file roots when the collection loads). `asText`: sent as a
    /// text message (the file must be UTF-8), else as a binary message.
    case file(path: String, asText: Bool)
    /// A ping (`{"send": {"type": "ping"}}`, optional `data`), at most 125 bytes (RFC 6455 §5.5); the peer's
    /// pong is recorded.
    case ping(String)
    /// An unsolicited pong (RFC 6455 §5.5.3), at most 125 bytes.
    case pong(String)
}

/// What a received message must be, in the expectation language of `expect`.
public enum WebSocketMatcher: Sendable, Equatable {
    /// `equals`, `contains`, `matches`: the message's data as UTF-8 text.
    case text(Expectation.TextCheck)
    /// `{"json": PATH, "equals" | "exists" | "type": …}`: a value in the message parsed as JSON.
    case json(path: JSONPath, Expectation.JSONCheck)
    /// `{"base64": …}`: a binary message with exactly these bytes.
    case binary([UInt8])
}
