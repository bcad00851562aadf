/// Field access for Postman files, which are looser than reqrun's format: unknown fields are ignored (exports
/// carry many: `_postman_id`, `protocolProfileBehavior`, `response`…), scalars stand for strings, and most
/// lists are `{"key", "value", "disabled"}` entries.
extension FieldReader {
    /// The value at `key` as text: a string as is, a number as written, a boolean as `true`/`false`, an object
    /// or array as compact JSON; nil when absent or null.
    func postmanText(_ key: FieldKey) -> String? {
        optional(key).map(PostmanFields.text)
    }

    /// The array at `key`, also accepting a single object where Postman exports sometimes write one
    /// (`"event": {…}`).
    func postmanList(_ key: FieldKey) throws(InputError) -> [(node: JSONNode, path: String)] {
        guard let node = optional(key) else { return [] }
        if case .object = node.value { return [(node, childPath(key))] }
        return try optionalArray(key)
    }

    /// True when the entry is switched off: `"disabled": true` (v2.1) or `"enabled": false` (v2.0, environments).
    var isDisabled: Bool {
        if let node = optional("disabled"), case .bool(true) = node.value { return true }
        if let node = optional("enabled"), case .bool(false) = node.value { return true }
        return false
    }

    /// The enabled `{"key", "value"}` entries of the list at `key`, in order (disabled ones dropped).
    func postmanEntries(_ key: FieldKey) throws(InputError) -> [PostmanFields.Entry] {
        var entries: [PostmanFields.Entry] = []
        for (node, path) in try postmanList(key) {
            let entry = try FieldReader(file: file, node: node, path: path)
            if entry.isDisabled { continue }
            entries.append(PostmanFields.Entry(key: entry.postmanText("key") ?? entry.postmanText("id"),
                                               value: entry.postmanText("value"), reader: entry))
        }
        return entries
    }
}

enum PostmanFields {
    /// One enabled entry of a Postman list.
    struct Entry {
        var key: String?
        var value: String?
        /// The entry's object, for its other fields (`type`, `src`, `contentType`…).
        var reader: FieldReader
    }

    /// A JSON value as the text Postman would substitute for it.
    static func text(_ node: JSONNode) -> String {
        switch node.value {
        case .null: return ""
        case .bool(let value): return value ? "true" : "false"
        case .number(let text), .string(let text): return text
        case .array, .object: return node.compactText
        }
    }

    /// Entries as variables, the last enabled value of a name winning (in the place of its first
    /// appearance), as Newman resolves duplicates.
    static func variables(_ entries: [Entry]) -> [Variable] {
        var variables: [Variable] = []
        for entry in entries {
            guard let name = entry.key, !name.isEmpty else { continue }
            let value = entry.value ?? ""
            if let i = variables.firstIndex(where: { $0.name == name }) {
                variables[i].value = value
            } else {
                variables.append(Variable(name: name, value: value))
            }
        }
        return variables
    }
}
