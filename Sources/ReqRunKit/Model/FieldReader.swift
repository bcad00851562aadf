/// Reads typed fields out of a `JSONNode` object while tracking the field path, so every decoding error
/// names the file, the line and column, and the path (`groups[1].requests[0].url`).
struct FieldReader {
    let file: String
    let node: JSONNode
    let fieldPath: FieldPath
    let members: [JSONNode.Member]
    /// One bit per member key (`KeyCode.presenceBit`): a field whose bit is not set is not there, which the
    /// decoder's lookups find out without looking at the members. A request's decoder asks for some thirty
    /// fields, nearly all absent, and comparing each with every key was a sixth of `list --all --json` on
    /// 100,000 requests (callgrind: 3,000 instructions a request).
    let presentKeys: UInt64

    /// Wraps `node`, which must be an object.
    init(file: String, node: JSONNode, path: FieldPath) throws(InputError) {
        guard case .object(let members) = node.value else {
            throw InputError(file: file, location: node.location, fieldPath: path.text,
                             reason: "expected an object, found \(node.kindDescription)")
        }
        self.file = file
        self.node = node
        self.fieldPath = path
        self.members = members
        presentKeys = members.withUnsafeBufferPointer { members in
            var bits: UInt64 = 0
            for i in members.indices { bits |= members[i].keyCode.presenceBit }
            return bits
        }
    }

    /// Wraps `node`, which must be an object, at the path `path` given in full.
    init(file: String, node: JSONNode, path: String) throws(InputError) {
        try self.init(file: file, node: node, path: FieldPath(path))
    }

    /// The object's own path, e.g. `groups[1].requests[0]`.
    var path: String { fieldPath.text }

    func childPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    func childPath(_ key: FieldKey) -> String { childPath(key.text) }

    func error(_ node: JSONNode, _ path: String, _ reason: String) -> InputError {
        InputError(file: file, location: node.location, fieldPath: path, reason: reason)
    }

    /// Rejects keys outside `known` (catches typos such as `heders`), with a "did you mean" hint.
    func rejectUnknownKeys(_ known: FieldNames) throws(InputError) {
        for member in members where !known.contains(member) {
            var reason = "unknown field '\(member.key)'"
            if let guess = Suggestion.closest(to: member.key, among: known.names) { reason += " (did you mean '\(guess)'?)" }
            throw InputError(file: file, location: member.keyLocation, fieldPath: childPath(member.key), reason: reason)
        }
        // Objects here have a handful of keys, all from `known`: comparing pairs costs less than building a
        // Set for every object of a large collection.
        for (i, member) in members.enumerated() where members[..<i].contains(where: { $0.hasSameKey(as: member) }) {
            throw InputError(file: file, location: member.keyLocation, fieldPath: childPath(member.key),
                             reason: "the field '\(member.key)' appears twice")
        }
    }

    /// The value of the field `key`, or nil when absent or `null`.
    ///
    /// Inlined so that a literal key's code and presence bit are made where it is written, where the
    /// optimizer knows the literal's bytes: made at each call, they were 1,730 instructions a request of
    /// `list --all --json` (callgrind, 100,000 requests). The search itself is not inlined.
    @inline(__always)
    func optional(_ key: FieldKey) -> JSONNode? {
        let code = key.code
        guard code.mayBeAmong(presentKeys) else { return nil }
        return member(code, key)
    }

    /// The value of the member whose key is `key` (with code `code`), or nil when there is none or it is `null`.
    @inline(never)
    private func member(_ code: KeyCode, _ key: FieldKey) -> JSONNode? {
        members.withUnsafeBufferPointer { members in
            for i in members.indices where members[i].keyCode.equals(code) ?? (members[i].key == key.text) {
                if case .null = members[i].value.value { return nil }
                return members[i].value
            }
            return nil
        }
    }

    /// The value of the field `name`, or nil when absent or `null`.
    func optional(_ name: FieldName) -> JSONNode? {
        guard name.code.mayBeAmong(presentKeys) else { return nil }
        for i in members.indices where name.matches(members[i]) {
            if case .null = members[i].value.value { return nil }
            return members[i].value
        }
        return nil
    }

    /// Those of `names` that are present and not `null`, in the order of `names` (no allocation when none is).
    func present(_ names: FieldNames) -> [String] {
        var found: [String] = []
        for name in names.entries where optional(name) != nil { found.append(name.text) }
        return found
    }

    func required(_ key: FieldKey) throws(InputError) -> JSONNode {
        guard let node = optional(key) else {
            throw InputError(file: file, location: node.location, fieldPath: childPath(key),
                             reason: "missing required field '\(key.text)'")
        }
        return node
    }

    @inline(__always)
    func optionalString(_ key: FieldKey) throws(InputError) -> String? {
        guard key.code.mayBeAmong(presentKeys) else { return nil }
        return try presentString(key)
    }

    /// `optionalString` once the presence bits say the field may be there.
    @inline(never)
    private func presentString(_ key: FieldKey) throws(InputError) -> String? {
        guard let node = optional(key) else { return nil }
        guard case .string(let s) = node.value else {
            throw error(node, childPath(key), "expected a string, found \(node.kindDescription)")
        }
        return s
    }

    func requiredString(_ key: FieldKey) throws(InputError) -> String {
        let node = try required(key)
        guard case .string(let s) = node.value else {
            throw error(node, childPath(key), "expected a string, found \(node.kindDescription)")
        }
        return s
    }

    /// The elements of the array at `key` (empty when absent), each with its path `key[i]` built on demand.
    func optionalElements(_ key: FieldKey) throws(InputError) -> FieldElements {
        guard let node = optional(key) else { return FieldElements(items: [], arrayPath: "") }
        guard case .array(let items) = node.value else {
            throw error(node, childPath(key), "expected an array, found \(node.kindDescription)")
        }
        return FieldElements(items: items, arrayPath: childPath(key))
    }

    /// The elements of the array at `key` (empty when absent), each with its path `key[i]`.
    func optionalArray(_ key: FieldKey) throws(InputError) -> [(node: JSONNode, path: String)] {
        try optionalElements(key).map { (node: $0.node, path: $0.path.text) }
    }
}
