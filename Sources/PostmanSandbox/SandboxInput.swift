import ReqRunKit

/// The JSON handed to `__reqrun.begin`, written directly (Foundation's JSONSerialization of the same
/// dictionaries took a fifth of a 300-request scripted run's time: perf).
///
/// Shape: `{"fresh", "event", "request": {"name", "id", "method", "url", "headers": [{"key", "value"}], "body"?},
/// "response": {"code", "reason", "body"?, "responseTime", "responseSize"}?, "info"?: {"iteration", "iterationCount"}, "location": [NAME],
/// "data"?: [{"key", "value"}], "dataJSON"?: {NAME: JSON text}, "scopes": {NAME: {…}}, "defines"?, "sameBody"?, "sameHeaders"?}`; `info` and each scope
/// only when it differs from what the context holds (`PostmanSandbox.held`).
///
/// Written as UTF-8 bytes: each string appended to a `String` went through a byte array and a new string
/// of its own (`JSONNode.appendQuoted(_:to: &String)`), about a third of the hand-off's instructions.
struct SandboxInput {
    private var text = Bytes()

    /// A byte buffer that takes `+=` of literals and interpolations, so the writing below reads as text.
    private struct Bytes {
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        static func += (buffer: inout Bytes, text: String) { buffer.bytes.append(contentsOf: text.utf8) }
    }

    private init() {}

    init(fresh: Bool, event: Script.Event) {
        text.bytes.reserveCapacity(2048)
        text += "\"fresh\":\(fresh),\"event\":"
        JSONNode.appendQuoted(event.rawValue, to: &text.bytes)
    }

    /// - Parameter body: the raw body (`{"mode": "raw", "raw"}`), a form's fields and a multipart body's text
    ///   parts (`{"mode", "fields": [{"key", "value"}]}`), or only the mode for the others.
    mutating func request(name: String, id: String, method: String, url: String, headers: [HeaderField], body: RequestBody?) {
        text += ",\"request\":{\"name\":"
        JSONNode.appendQuoted(name, to: &text.bytes)
        text += ",\"id\":"
        JSONNode.appendQuoted(id, to: &text.bytes)
        text += ",\"method\":"
        JSONNode.appendQuoted(method, to: &text.bytes)
        text += ",\"url\":"
        JSONNode.appendQuoted(url, to: &text.bytes)
        text += ",\"headers\":"
        append(headers)
        switch body {
        case nil: break
        case .text(let raw), .json(let raw):
            text += ",\"body\":{\"mode\":\"raw\",\"raw\":"
            JSONNode.appendQuoted(raw, to: &text.bytes)
            text += "}"
        case .form(let fields):
            text += ",\"body\":{\"mode\":\"urlencoded\",\"fields\":"
            appendPairs(fields, { $0.name }, { $0.value })
            text += "}"
        case .multipart(let parts):
            text += ",\"body\":{\"mode\":\"formdata\",\"fields\":"
            appendPairs(parts.compactMap { part in if case .text(let value) = part.content { (part.name, value) } else { nil } }, { $0.0 }, { $0.1 })
            text += "}"
        case .file: text += ",\"body\":{\"mode\":\"file\"}"
        case .graphQL: text += ",\"body\":{\"mode\":\"graphql\"}"
        }
        text += "}"
    }

    /// The response's status and times; its header fields and body go beside the JSON (`__reqrun.run`'s
    /// arguments, `headersJSON`): a body with a NUL goes in it (`"body"`), as an argument cannot hold one.
    mutating func response(code: Int, reason: String, body: String?, responseTime: Int, responseSize: Int) {
        text += ",\"response\":{\"code\":\(code),\"reason\":"
        JSONNode.appendQuoted(reason, to: &text.bytes)
        if let body {
            text += ",\"body\":"
            JSONNode.appendQuoted(body, to: &text.bytes)
        }
        text += ",\"responseTime\":\(responseTime),\"responseSize\":\(responseSize)}"
    }

    /// `[{"key", "value"}]` of `headers`, parsed by the sandbox only when a script reads them.
    static func headersJSON(_ headers: [HeaderField]) -> String {
        var input = SandboxInput()
        input.text.bytes = []
        input.append(headers)
        return String(decoding: input.text.bytes, as: UTF8.self)
    }

    /// `"info": {"iteration", "iterationCount"}` (nil: left out, the context keeps the last), the data row as
    /// `"data": [{"key", "value"}]` (in column order) and `"dataJSON": {NAME: JSON text}` for its values that
    /// are not strings (each left out when empty).
    mutating func iteration(_ info: (iteration: Int, count: Int)?, data: [Variable], json: [String: String]) {
        if let info { text += ",\"info\":{\"iteration\":\(info.iteration),\"iterationCount\":\(info.count)}" }
        if !data.isEmpty {
            text += ",\"data\":"
            appendPairs(data, { $0.name }, { $0.value })
        }
        if !json.isEmpty {
            text += ",\"dataJSON\":"
            appendObject(json.lazy.map { (name: $0.key, value: $0.value) })
        }
    }

    /// `"sameBody": true` or `"sameHeaders": true`: the response's body or header fields are those of the
    /// last `stage` (`PostmanSandbox.Held`), not sent again.
    mutating func same(_ what: StaticString) { text += ",\"same\(what)\":true" }

    /// `"defines": true` when a script's text names `defineProperty` (it may add a global that is not
    /// enumerable, which the next request's clean-up then looks for among all the global object's names).
    mutating func definesGlobals() { text += ",\"defines\":true" }

    /// `"location": [NAME, …]`, `pm.execution.location`'s item names (`ScriptContext.location`).
    mutating func location(_ names: [String]) {
        text += ",\"location\":["
        for (index, name) in names.enumerated() {
            if index > 0 { text += "," }
            JSONNode.appendQuoted(name, to: &text.bytes)
        }
        text += "]"
    }

    /// `scopes`, each name → values in their order (those left out: the context keeps what it holds).
    mutating func scopes(_ scopes: [(String, VariableList)]) {
        text += ",\"scopes\":{"
        for (index, (name, values)) in scopes.enumerated() {
            if index > 0 { text += "," }
            JSONNode.appendQuoted(name, to: &text.bytes)
            text += ":"
            appendObject(values)
        }
        text += "}"
    }

    /// `{"name": "value", …}`, in `values`' order.
    private mutating func appendObject<Pairs: Sequence>(_ values: Pairs) where Pairs.Element == (name: String, value: String) {
        text += "{"
        for (position, (key, value)) in values.enumerated() {
            if position > 0 { text += "," }
            JSONNode.appendQuoted(key, to: &text.bytes)
            text += ":"
            JSONNode.appendQuoted(value, to: &text.bytes)
        }
        text += "}"
    }

    consuming func finish() -> String {
        text += "}"
        return String(decoding: text.bytes, as: UTF8.self)
    }

    private mutating func append(_ headers: [HeaderField]) { appendPairs(headers, { $0.name }, { $0.value }) }

    /// `[{"key", "value"}]`, read from each element (headers written from their fields, no array of pairs made first).
    private mutating func appendPairs<Pairs: Sequence>(_ pairs: Pairs, _ key: (Pairs.Element) -> String, _ value: (Pairs.Element) -> String) {
        text += "["
        for (index, pair) in pairs.enumerated() {
            text += (index > 0 ? ",{\"key\":" : "{\"key\":")
            JSONNode.appendQuoted(key(pair), to: &text.bytes)
            text += ",\"value\":"
            JSONNode.appendQuoted(value(pair), to: &text.bytes)
            text += "}"
        }
        text += "]"
    }
}
