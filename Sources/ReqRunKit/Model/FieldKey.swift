/// The name of a field to look up: a literal in the decoder (`reader.optional("url")`) or `.named(text)`
/// for a name known only at run time.
///
/// With a `String` parameter, every literal became a `String` whose code then had to be worked out on each
/// call, which cost more than the comparisons it saved (callgrind); a `StaticString` carries its length and
/// ASCII-ness, so the code of a literal key is a few shifts.
enum FieldKey: ExpressibleByStringLiteral {
    case literal(StaticString)
    case named(String)

    init(stringLiteral value: StaticString) { self = .literal(value) }

    /// The name as messages show it.
    var text: String {
        switch self {
        case .literal(let literal): return literal.description
        case .named(let text): return text
        }
    }

    /// The name's code.
    @inline(__always)
    var code: KeyCode {
        switch self {
        case .literal(let literal): return KeyCode(literal)
        case .named(let text): return KeyCode(text)
        }
    }
}

/// A field name with its `KeyCode`, made once and compared against many keys.
struct FieldName: Sendable {
    /// The name as written.
    let text: String
    let code: KeyCode

    init(_ name: String) {
        text = name
        code = KeyCode(name)
    }

    /// Whether `member`'s key equals this name (`String ==`).
    @inline(__always)
    func matches(_ member: JSONNode.Member) -> Bool {
        if let answer = member.keyCode.equals(code) { return answer }
        return member.key == text
    }
}

extension JSONNode.Member {
    /// Whether this member's key equals `other`'s (`String ==`, see `KeyCode`).
    func hasSameKey(as other: JSONNode.Member) -> Bool {
        if let answer = keyCode.equals(other.keyCode) { return answer }
        return key == other.key
    }
}

/// The field names an object may have, for `FieldReader.rejectUnknownKeys`; made once per decoder where
/// the same list serves every object of a large file.
struct FieldNames: ExpressibleByArrayLiteral, Sendable {
    let entries: [FieldName]

    init(arrayLiteral names: String...) {
        entries = names.map(FieldName.init)
    }

    init(_ names: [String]) {
        entries = names.map(FieldName.init)
    }

    /// The names as written, for "did you mean" hints.
    var names: [String] { entries.map(\.text) }

    /// Whether `member`'s key is one of the names.
    func contains(_ member: JSONNode.Member) -> Bool {
        entries.contains { $0.matches(member) }
    }
}
