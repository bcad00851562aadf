/// `{{name}}` references in URL, header, body and capture templates (Postman's syntax).
public enum Template {
    /// A piece of a template: text as written, or a reference to a variable.
    public enum Segment: Sendable, Equatable {
        case text(Substring)
        /// The name between the braces, surrounding spaces trimmed.
        case reference(String)
    }

    /// Splits `template` into text and `{{name}}` references. `{{` without a closing `}}` is text.
    public static func segments(_ template: String) -> [Segment] {
        var result: [Segment] = []
        var rest = template[...]
        while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
            if open.lowerBound > rest.startIndex { result.append(.text(rest[..<open.lowerBound])) }
            let name = rest[open.upperBound..<close.lowerBound]
            result.append(.reference(String(name.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())))
            rest = rest[close.upperBound...]
        }
        if !rest.isEmpty { result.append(.text(rest)) }
        return result
    }

    /// The names `template` refers to, in order of first use.
    public static func references(_ template: String) -> [String] {
        var names: [String] = []
        for case .reference(let name) in segments(template) where !names.contains(name) { names.append(name) }
        return names
    }
}
