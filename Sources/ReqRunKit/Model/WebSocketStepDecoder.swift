import Foundation

/// Reads a request's `messages` list (see `WebSocketStep`). Each item has exactly one of `send`, `sendJSON`,
/// `receive`, `receiveCount`, `receiveUntil`, `close`; receive steps may add `within` (milliseconds) and
/// `capture` (as a request's). Matchers are checked here (regular expressions, JSONPaths, base64), and a file
/// to send must lie inside the file roots, as a `bodyFile` must.
enum WebSocketStepDecoder {
    static let actions = ["send", "sendJSON", "receive", "receiveCount", "receiveUntil", "close"]
    /// The fields a step with each action may have.
    private static let allowedKeys: [String: FieldNames] = [
        "send": ["send"], "sendJSON": ["sendJSON"], "close": ["close"], "receive": ["receive", "within", "capture"],
        "receiveCount": ["receiveCount", "within", "capture"], "receiveUntil": ["receiveUntil", "within", "capture"],
    ]

    static func decode(_ reader: FieldReader, base: FileScope) throws(InputError) -> [WebSocketStep]? {
        guard reader.optional("messages") != nil else { return nil }
        var steps: [WebSocketStep] = []
        for (node, path) in try reader.optionalArray("messages") {
            let item = try FieldReader(file: reader.file, node: node, path: path)
            if let last = steps.last, case .close = last.action {
                throw item.error(node, path, "nothing can follow a 'close' step: the connection is closed")
            }
            steps.append(try step(item, base: base))
        }
        return steps
    }

    private static func step(_ item: FieldReader, base: FileScope) throws(InputError) -> WebSocketStep {
        let present = actions.filter { item.optional(.named($0)) != nil }
        guard present.count == 1 else {
            throw item.error(item.node, item.path, present.isEmpty
                ? "a message step needs one of \(actions.map { "'\($0)'" }.joined(separator: ", "))"
                : "a message step does one thing, found \(present.map { "'\($0)'" }.joined(separator: " and "))")
        }
        let key = present[0]
        let node = item.optional(.named(key))!
        let path = item.childPath(key)
        let receives = key.hasPrefix("receive")
        try item.rejectUnknownKeys(allowedKeys[key]!)
        let action: WebSocketStep.Action
        switch key {
        case "send": action = .send(try payload(node, path, item, base: base))
        case "sendJSON":
            switch node.value {
            case .object, .array: action = .send(.json(node.compactText))
            default: throw item.error(node, path, "expected a JSON object or array, found \(node.kindDescription)")
            }
        case "receive":
            action = .receive(try matcher(node, path, item))
        case "receiveUntil":
            guard let matcher = try matcher(node, path, item) else {
                throw item.error(node, path, "receiveUntil needs a matcher ('equals', 'contains', 'matches', 'json' or 'base64')")
            }
            action = .receiveUntil(matcher)
        case "receiveCount":
            guard case .number(let text) = node.value, let count = Int(text), count >= 1 else {
                throw item.error(node, path, "expected a whole number of 1 or more")
            }
            action = .receiveCount(count)
        default:
            action = try close(node, path, item)
        }
        var within: Int?
        if let node = item.optional("within") {
            guard case .number(let text) = node.value, let value = Int(text), value >= 0 else {
                throw item.error(node, item.childPath("within"), "expected a whole number of milliseconds")
            }
            within = value
        }
        return WebSocketStep(action: action, withinMilliseconds: within,
                             captures: receives ? try ExpectationDecoder.captures(item) : [], fieldPath: item.path)
    }

    /// `"text"` or `{"type": "text" | "binary" | "ping" | "pong", "data" | "base64" | "file": …}`.
    private static func payload(_ node: JSONNode, _ path: String, _ item: FieldReader, base: FileScope) throws(InputError) -> WebSocketPayload {
        if case .string(let text) = node.value { return .text(text) }
        let send = try FieldReader(file: item.file, node: node, path: path)
        try send.rejectUnknownKeys(["type", "data", "base64", "file"])
        let type = try send.optionalString("type") ?? (send.optional("data") == nil ? "binary" : "text")
        guard ["text", "binary", "ping", "pong"].contains(type) else {
            throw send.error(send.optional("type")!, send.childPath("type"), "unknown message type '\(type)'; expected text, binary, ping or pong")
        }
        let sources = ["data", "base64", "file"].filter { send.optional(.named($0)) != nil }
        guard sources.count <= 1 else { throw send.error(node, path, "a message has one of 'data', 'base64' and 'file', found \(sources.count)") }
        let source = sources.first
        if type == "ping" || type == "pong" {
            guard source == nil || source == "data" else { throw send.error(node, path, "a \(type) carries 'data' (text), not '\(source!)'") }
            let data = try send.optionalString("data") ?? ""
            guard data.utf8.count <= 125 else {
                throw send.error(send.optional("data")!, send.childPath("data"), "a \(type) carries at most 125 bytes (RFC 6455 §5.5)")
            }
            return type == "ping" ? .ping(data) : .pong(data)
        }
        switch source {
        case "data":
            return .text(try send.requiredString("data"))
        case "base64":
            let text = try send.requiredString("base64")
            guard let data = Data(base64Encoded: text) else {
                throw send.error(send.optional("base64")!, send.childPath("base64"), "not valid base64 (RFC 4648 §4)")
            }
            guard type == "text" else { return .binary(Array(data)) }
            guard String(validating: Array(data), as: UTF8.self) != nil else {
                throw send.error(send.optional("base64")!, send.childPath("base64"), "a text message must be UTF-8 (RFC 6455 §5.6); this base64 is not")
            }
            return .textBytes(Array(data))
        case "file":
            let written = try send.requiredString("file")
            switch base.bodyFile(written, mustExist: true) {
            case .success(let resolved): return .file(path: resolved, asText: type == "text")
            case .failure(let refusal): throw send.error(send.optional("file")!, send.childPath("file"), refusal.reason)
            }
        default:
            throw send.error(node, path, "a message needs 'data', 'base64' or 'file'")
        }
    }

    /// nil for `{}` (any message), `{"equals" | "contains" | "matches": TEXT}`,
    /// `{"json": PATH, "equals" | "exists" | "type": …}` or `{"base64": BYTES}`.
    private static func matcher(_ node: JSONNode, _ path: String, _ item: FieldReader) throws(InputError) -> WebSocketMatcher? {
        let reader = try FieldReader(file: item.file, node: node, path: path)
        if reader.members.isEmpty { return nil }
        if reader.optional("json") != nil {
            guard case .json(let jsonPath, let check) = try ExpectationDecoder.expectation(reader) else { preconditionFailure("a json subject") }
            return .json(path: jsonPath, check)
        }
        if let bytes = reader.optional("base64") {
            try reader.rejectUnknownKeys(["base64"])
            guard case .string(let text) = bytes.value, let data = Data(base64Encoded: text) else {
                throw reader.error(bytes, reader.childPath("base64"), "expected base64 text (RFC 4648 §4)")
            }
            return .binary(Array(data))
        }
        try reader.rejectUnknownKeys(["equals", "contains", "matches"])
        return .text(try ExpectationDecoder.textCheck(reader))
    }

    /// `1000`, or `{"code": 1000, "reason": "bye"}`: a code a client may send (1000, 3000–4999; RFC 6455 §7.4).
    private static func close(_ node: JSONNode, _ path: String, _ item: FieldReader) throws(InputError) -> WebSocketStep.Action {
        var codeNode = node, codePath = path, reason = ""
        if case .object = node.value {
            let close = try FieldReader(file: item.file, node: node, path: path)
            try close.rejectUnknownKeys(["code", "reason"])
            codeNode = try close.required("code")
            codePath = close.childPath("code")
            reason = try close.optionalString("reason") ?? ""
            guard reason.utf8.count <= 123 else {
                throw close.error(close.optional("reason")!, close.childPath("reason"), "a close reason has at most 123 bytes (RFC 6455 §5.5)")
            }
        }
        guard case .number(let text) = codeNode.value, let code = Int(text), code == 1000 || (3000...4999).contains(code) else {
            throw item.error(codeNode, codePath, "expected a close code of 1000 or 3000 to 4999 (RFC 6455 §7.4)")
        }
        return .close(code: code, reason: reason)
    }
}
