import ReqRunKit

/// A JSON body shown indented (two spaces, `"key": value`), members in the order the server sent them and
/// numbers as written, as `jq .` shows it. Text that is not JSON is left as it is.
enum PrettyJSON {
    /// The indented text, or nil when `text` is not JSON (or is a bare string or number: nothing to indent).
    static func format(_ text: String) -> String? {
        guard let root = try? JSONParser.parse(Array(text.utf8)) else { return nil }
        switch root.value {
        case .object, .array: break
        default: return nil
        }
        var out = ""
        write(root, indent: 0, to: &out)
        return out
    }

    private static func write(_ node: JSONNode, indent: Int, to out: inout String) {
        let pad = String(repeating: "  ", count: indent + 1)
        switch node.value {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .number(let text): out += text
        case .string(let text): JSONNode.appendQuoted(text, to: &out)
        case .array(let items):
            guard !items.isEmpty else { out += "[]"; return }
            out += "[\n"
            for (i, item) in items.enumerated() {
                out += pad
                write(item, indent: indent + 1, to: &out)
                out += i == items.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: "  ", count: indent) + "]"
        case .object(let members):
            guard !members.isEmpty else { out += "{}"; return }
            out += "{\n"
            for (i, member) in members.enumerated() {
                out += pad
                JSONNode.appendQuoted(member.key, to: &out)
                out += ": "
                write(member.value, indent: indent + 1, to: &out)
                out += i == members.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: "  ", count: indent) + "}"
        }
    }
}
