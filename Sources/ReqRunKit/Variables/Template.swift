import Foundation

/// `{{name}}` references in URL, header and body templates (Postman's syntax).
public enum Template {
    /// Replaces each `{{name}}` with its value from `variables`. A name is the text between the braces,
    /// trimmed of spaces. Values are inserted as they are (a value's own `{{…}}` is not expanded again).
    /// - Returns: the text, or the names that have no value, in order of first use.
    public static func resolve(_ template: String, _ variables: [String: String]) -> Result<String, UnresolvedVariables> {
        var output = ""
        var missing: [String] = []
        var rest = template[...]
        while let open = rest.range(of: "{{") {
            guard let close = rest[open.upperBound...].range(of: "}}") else { break }
            output += rest[..<open.lowerBound]
            let name = rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            if let value = variables[name] {
                output += value
            } else if !missing.contains(name) {
                missing.append(name)
            }
            rest = rest[close.upperBound...]
        }
        output += rest
        return missing.isEmpty ? .success(output) : .failure(UnresolvedVariables(names: missing))
    }
}

/// `{{name}}` references that have no value.
public struct UnresolvedVariables: Error, Sendable, Equatable {
    public var names: [String]
}
