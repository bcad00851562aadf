import Foundation

/// One `Set-Cookie` field (RFC 6265 §4.1.1): `NAME=VALUE` and its attributes, as written.
struct SetCookie: Equatable {
    var name: String
    var value: String
    /// Attribute names as written and their values (`nil` for flags such as `Secure`), in order.
    var attributes: [(name: String, value: String?)]

    static func == (a: SetCookie, b: SetCookie) -> Bool {
        a.name == b.name && a.value == b.value && a.attributes.elementsEqual(b.attributes) { $0.name == $1.name && $0.value == $1.value }
    }

    /// Parses a field value; nil when it has no `=` in its first part (RFC 6265 §5.2 ignores such fields).
    init?(_ field: String) {
        let parts = field.split(separator: ";", omittingEmptySubsequences: false)
        let pair = parts[0]
        guard let equals = pair.firstIndex(of: "=") else { return nil }
        name = pair[..<equals].trimmingCharacters(in: .whitespaces)
        value = pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        attributes = parts.dropFirst().compactMap { part in
            let text = part.trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { return nil }
            guard let eq = text.firstIndex(of: "=") else { return (text, nil) }
            return (text[..<eq].trimmingCharacters(in: .whitespaces), text[text.index(after: eq)...].trimmingCharacters(in: .whitespaces))
        }
    }

    /// The last attribute with that name (any case, RFC 6265 §5.2: the last one wins); `""` for a flag.
    func attribute(_ name: String) -> String? {
        attributes.last { $0.name.lowercased() == name.lowercased() }.map { $0.value ?? "" }
    }

    /// The cookie `name` as the last of `fields` that sets it gives it.
    static func last(named name: String, in fields: [String]) -> SetCookie? {
        fields.compactMap(SetCookie.init).last { $0.name == name }
    }
}
