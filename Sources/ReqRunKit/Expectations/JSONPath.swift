/// A JSONPath subset (RFC 9535 syntax) that selects one value: `$` for the root, then any number of
/// `.key`, `['key']` (or `["key"]`, for keys with dots, spaces or quotes; `\'` and `\\` escape) and
/// `[index]` (from 0; a negative index counts from the end, -1 is the last element).
///
/// Examples: `$`, `$.args.x`, `$.items[0].id`, `$['content-type']`, `$.list[-1]`.
public struct JSONPath: Sendable, Equatable, CustomStringConvertible {
    public enum Component: Sendable, Equatable {
        case key(String)
        case index(Int)
    }

    /// The path as written.
    public let text: String
    public let components: [Component]

    public var description: String { text }

    /// - Throws: `JSONPathError` with the 0-based character offset of the problem.
    public init(_ text: String) throws(JSONPathError) {
        self.text = text
        let chars = Array(text)
        guard chars.first == "$" else { throw JSONPathError(offset: 0, reason: "a path starts with '$'") }
        var i = 1
        var components: [Component] = []
        while i < chars.count {
            switch chars[i] {
            case ".":
                i += 1
                let start = i
                while i < chars.count, chars[i] != ".", chars[i] != "[" { i += 1 }
                guard i > start else { throw JSONPathError(offset: start, reason: "expected a key after '.'") }
                components.append(.key(String(chars[start..<i])))
            case "[":
                i += 1
                guard i < chars.count else { throw JSONPathError(offset: i, reason: "expected an index or a quoted key after '['") }
                if chars[i] == "'" || chars[i] == "\"" {
                    let quote = chars[i]
                    i += 1
                    var key = ""
                    while true {
                        guard i < chars.count else { throw JSONPathError(offset: i, reason: "unterminated quoted key") }
                        if chars[i] == "\\", i + 1 < chars.count { key.append(chars[i + 1]); i += 2; continue }
                        if chars[i] == quote { i += 1; break }
                        key.append(chars[i])
                        i += 1
                    }
                    components.append(.key(key))
                } else {
                    let start = i
                    if chars[i] == "-" { i += 1 }
                    while i < chars.count, chars[i].isASCII, chars[i].isNumber { i += 1 }
                    guard let index = Int(String(chars[start..<i])) else {
                        throw JSONPathError(offset: start, reason: "expected an integer index or a quoted key")
                    }
                    components.append(.index(index))
                }
                guard i < chars.count, chars[i] == "]" else { throw JSONPathError(offset: i, reason: "expected ']'") }
                i += 1
            default:
                throw JSONPathError(offset: i, reason: "expected '.' or '[' here")
            }
        }
        self.components = components
    }

    /// The value the path selects in `root`, or nil when a key or index is not there. With repeated keys
    /// the last one counts (as in most JSON parsers).
    public func select(in root: JSONNode) -> JSONNode? {
        var node = root
        for component in components {
            switch (component, node.value) {
            case (.key(let key), .object(let members)):
                guard let member = members.last(where: { $0.key == key }) else { return nil }
                node = member.value
            case (.index(let index), .array(let items)):
                let position = index < 0 ? items.count + index : index
                guard items.indices.contains(position) else { return nil }
                node = items[position]
            default:
                return nil
            }
        }
        return node
    }
}

/// A JSONPath that cannot be parsed; `offset` counts characters from 0.
public struct JSONPathError: Error, Sendable, Equatable {
    public var offset: Int
    public var reason: String
}
