/// A Postman `url`: a string, or an object whose parts make the URL.
///
/// Object shape (v2.0/v2.1 schema `url`): `raw`, `protocol`, `auth` (`{"user", "password"}`), `host`
/// (string or array of labels), `port` (string or number), `path` (string or array of segments, a segment a
/// string or `{"value"}`), `query` (`[{"key", "value", "disabled"}]`), `hash`, `variable`
/// (`[{"key", "value"}]` for `:name` path segments).
///
/// As postman-collection's `Url.toString()` does, an object is built from its parts, not from `raw` (which
/// the Postman app keeps in step with them): `protocol://user:password@host.labels:port/path/segments?query#hash`.
/// Only an object without `host` and `path` falls back to `raw`. Disabled query entries are dropped; an entry
/// without a value is sent as the key alone (`?flag`), with an empty value as `key=`; one with neither key nor
/// value is left out (under Newman's rules, `keepingEmptyQueryEntries`, it is an empty entry: `?a=1&&b=2`). A `:name` segment is
/// replaced by the value of `name` in `variable` when it is listed there (its `?` and `#` percent-encoded, as
/// are `#` and `&` in query names and values, and `=` in names: `encodingOutsideReferences`); else it stays as
/// written. Control characters written in the URL (a line feed in a query value) are percent-encoded, as
/// Newman sends them.
enum PostmanURL {
    static func decode(_ node: JSONNode, path: String, file: String, keepingEmptyQueryEntries: Bool = false) throws(InputError) -> String {
        switch node.value {
        case .string(let text):
            return encodingControls(text)
        case .object:
            break
        default:
            throw InputError(file: file, location: node.location, fieldPath: path,
                             reason: "expected a string or an object, found \(node.kindDescription)")
        }
        let url = try FieldReader(file: file, node: node, path: path)
        guard url.optional("host") != nil || url.optional("path") != nil else {
            return encodingControls(try url.optionalString("raw") ?? "")
        }
        var text = ""
        if let scheme = url.postmanText("protocol"), !scheme.isEmpty {
            text += scheme.hasSuffix("://") ? scheme : (scheme.hasSuffix(":") ? String(scheme.dropLast()) : scheme) + "://"
        }
        if let authNode = url.optional("auth"), case .object = authNode.value {
            let auth = try FieldReader(file: file, node: authNode, path: url.childPath("auth"))
            let user = auth.postmanText("user") ?? "", password = auth.postmanText("password") ?? ""
            if !user.isEmpty || !password.isEmpty { text += password.isEmpty ? "\(user)@" : "\(user):\(password)@" }
        }
        text += try parts(url, "host").joined(separator: ".")
        if let port = url.postmanText("port"), !port.isEmpty { text += ":\(port)" }
        var segments = try parts(url, "path")
        let variables = Dictionary(try url.postmanEntries("variable").compactMap { entry in entry.key.map { ($0, entry.value ?? "") } },
                                   uniquingKeysWith: { $1 })
        segments = segments.map { segment in
            guard segment.hasPrefix(":"), let value = variables[String(segment.dropFirst())] else { return segment }
            return encodingOutsideReferences(value, ["?", "#"])
        }
        if !segments.isEmpty {
            let joined = segments.joined(separator: "/")
            text += joined.hasPrefix("/") ? joined : "/" + joined
        }
        var query: [String] = []
        for entry in try url.postmanEntries("query") {
            guard entry.key != nil || entry.value != nil else {
                if keepingEmptyQueryEntries { query.append("") }
                continue
            }
            query.append(encodingOutsideReferences(entry.key ?? "", ["#", "&", "="])
                         + (entry.value.map { "=" + encodingOutsideReferences($0, ["#", "&"]) } ?? ""))
        }
        if !query.isEmpty { text += "?" + query.joined(separator: "&") }
        if let hash = url.postmanText("hash"), !hash.isEmpty { text += "#" + hash }
        return encodingControls(text)
    }

    /// `text` with `characters` percent-encoded except inside `{{…}}` references (whose values reqrun encodes
    /// when it sends: `URLSubstitution`), so a path variable's or a query entry's value stays in its part of
    /// the URL: `:id` = `qwert#2345` is `qwert%232345`, a query value `a&b` is `a%26b`.
    static func encodingOutsideReferences(_ text: String, _ characters: Set<Character>) -> String {
        guard text.contains(where: characters.contains) else { return text }
        var out = ""
        for segment in Template.segments(text) {
            switch segment {
            case .reference(let name): out += "{{\(name)}}"
            case .text(let part):
                for character in part {
                    if characters.contains(character) { out += URLQuery.encode(String(character)) } else { out.append(character) }
                }
            }
        }
        return out
    }

    /// C0 control characters and DEL percent-encoded (`\n` → `%0A`), as Newman's URL encoder sends them
    /// (WHATWG URL: the C0 control percent-encode set).
    static func encodingControls(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F {
                out += "%" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16, uppercase: true)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `host` or `path` as its list of parts: a string is one part (a path string is split at `/`).
    private static func parts(_ url: FieldReader, _ key: String) throws(InputError) -> [String] {
        guard let node = url.optional(.named(key)) else { return [] }
        switch node.value {
        case .string(let text):
            return key == "path" ? text.split(separator: "/", omittingEmptySubsequences: false).map(String.init).drop { $0.isEmpty }.map { $0 } : [text]
        case .array(let items):
            var result: [String] = []
            for (i, item) in items.enumerated() {
                switch item.value {
                case .object:
                    let segment = try FieldReader(file: url.file, node: item, path: "\(url.childPath(key))[\(i)]")
                    result.append(segment.postmanText("value") ?? "")
                case .null: continue
                default: result.append(PostmanFields.text(item))
                }
            }
            return result
        default:
            throw url.error(node, url.childPath(key), "expected a string or an array, found \(node.kindDescription)")
        }
    }
}
