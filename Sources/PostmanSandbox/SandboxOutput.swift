import ReqRunKit

/// What `__reqrun.end` returns, read with reqrun's JSON parser: `{"assertions": [{"name", "passed",
/// "skipped", "error", "place"}], "console": [line], "globals" | "collection" | "environment" | "local":
/// {name: value} (each only when a script changed it), "method" | "url" | "body": string or null, "headers": [{"key", "value"}] or null, "skip": bool, "nextSet": bool,
/// "next": string or null, "auth"?: Postman auth object or null, "authError"?: string}` (`auth` only when a pre-request script changed it:
/// `SandboxRequestAuth`).
struct SandboxOutput {
    var assertions: [ScriptAssertion] = []
    var console: [String] = []
    /// Each changed scope's values in the order `JSON.stringify` wrote them (the object's, Postman's list order).
    var scopes: [String: VariableList] = [:]
    /// The pre-request scripts' changes to the request (nil: unchanged).
    var method: String?
    var url: String?
    var headers: [HeaderField]?
    /// The new raw body.
    var body: String?
    /// `pm.request.auth` was changed (`auth`: the new Postman auth object; nil or a JSON null when removed).
    var authChanged = false
    var auth: JSONNode?
    /// Reading the changed `pm.request.auth` threw: the exception (`Error: boom`).
    var authError: String?
    /// `pm.execution.skipRequest()` was called.
    var skip = false
    /// `setNextRequest` was called (`next`: its name or id, nil for `null`).
    var nextSet = false
    var next: String?

    /// Nil when `text` is not the JSON `end` writes.
    init?(_ text: String) {
        guard let root = Self.parse(text), case .object(let members) = root.value else { return nil }
        for member in members {
            switch member.key {
            case "assertions":
                assertions = member.value.elements.map { item in
                    ScriptAssertion(name: item["name"]?.string ?? "", passed: item["passed"]?.bool ?? false,
                                    skipped: item["skipped"]?.bool ?? false, error: item["error"]?.string,
                                    place: item["place"]?.string ?? "")
                }
            case "console": console = member.value.elements.compactMap(\.string)
            case "globals", "collection", "environment", "local":
                guard case .object(let values) = member.value.value else { continue }
                scopes[member.key] = VariableList(values.compactMap { value in value.value.string.map { (value.key, $0) } })
            case "method": method = member.value.string
            case "url": url = member.value.string
            case "body": body = member.value.string
            case "skip": skip = member.value.bool ?? false
            case "nextSet": nextSet = member.value.bool ?? false
            case "next": next = member.value.string
            case "auth": (authChanged, auth) = (true, member.value)
            case "authError": authError = member.value.string
            case "headers":
                guard case .array(let items) = member.value.value else { continue }
                headers = items.compactMap { item in
                    guard let name = item["key"]?.string, !name.isEmpty else { return nil }
                    return HeaderField(name: name, value: item["value"]?.string ?? "")
                }
            default: continue
            }
        }
    }

    /// JSON the sandbox wrote (`JSON.stringify`: `end`'s, `pm.sendRequest`'s queue), parsed; the escape of a
    /// lone surrogate read as U+FFFD (`withoutLoneSurrogates`, tried only when the text does not parse).
    static func parse(_ text: String) -> JSONNode? {
        let bytes = Array(text.utf8)
        return (try? JSONParser.parse(bytes)) ?? (try? JSONParser.parse(withoutLoneSurrogates(bytes)))
    }

    /// `json` with each `\uXXXX` escape of a lone surrogate (U+D800 to U+DFFF not in a high-low pair) written
    /// `\ufffd`. A JavaScript string may hold one (half of an emoji cut by `slice`), `JSON.stringify` writes
    /// it so (ES2019's well-formed `JSON.stringify`), and reqrun's parser refuses it (RFC 8259 §8.2: not a
    /// character), which cost the request every assertion and console line of its scripts. U+FFFD is what a
    /// UTF-8 encoder writes for it (WHATWG Encoding, "UTF-8 encode" of a USVString).
    static func withoutLoneSurrogates(_ json: [UInt8]) -> [UInt8] {
        var bytes = json, i = 0
        func unit(at j: Int) -> UInt16? {
            guard j + 6 <= bytes.count, bytes[j] == UInt8(ascii: "\\"), bytes[j + 1] == UInt8(ascii: "u") else { return nil }
            var value: UInt16 = 0
            for byte in bytes[(j + 2)..<(j + 6)] {
                guard let digit = Character(UnicodeScalar(byte)).hexDigitValue else { return nil }
                value = value << 4 | UInt16(digit)
            }
            return value
        }
        // Escapes are read from the start, two bytes or six at a time, so `\\ud800` (a backslash, then text) is not one.
        while i < bytes.count {
            guard bytes[i] == UInt8(ascii: "\\") else { i += 1; continue }
            guard let value = unit(at: i) else { i += 2; continue }
            if (0xD800...0xDBFF).contains(value), let low = unit(at: i + 6), (0xDC00...0xDFFF).contains(low) {
                i += 12
                continue
            }
            if (0xD800...0xDFFF).contains(value) { bytes.replaceSubrange((i + 2)..<(i + 6), with: Array("fffd".utf8)) }
            i += 6
        }
        return bytes
    }
}

extension JSONNode {
    fileprivate var string: String? { if case .string(let text) = value { text } else { nil } }
    fileprivate var bool: Bool? { if case .bool(let flag) = value { flag } else { nil } }
    fileprivate var elements: [JSONNode] { if case .array(let items) = value { items } else { [] } }
    fileprivate subscript(key: String) -> JSONNode? {
        guard case .object(let members) = value else { return nil }
        return members.last { $0.key == key }?.value
    }

}
