/// How a variable's value goes into a URL template: as data for the part of the URL it stands in, so a
/// value cannot end that part early (`/r4/{{id}}` with `id = qwert#2345` sends `/r4/qwert%232345`, not
/// `/r4/qwert` and a fragment).
///
/// The rule, decided by what the template has produced before the reference:
/// - at the very start of the URL, or in the scheme or authority (before the first `/`, `?` or `#` after
///   `://`): inserted as it is, so a value may hold a whole base URL (`{{httpbin}}/get`), a host and port,
///   or user information;
/// - in the path: `?` and `#` are percent-encoded (`%3F`, `%23`); `/` is kept, so a value may hold several
///   segments (`{{version}}/users`);
/// - in the query, as a parameter's value (after its `=`): `#`, `&` and `+` are percent-encoded, so the
///   value stays one value (`+` would read as a space: WHATWG `application/x-www-form-urlencoded` parsing);
/// - elsewhere in the query (a name, or a whole parameter list as in `?{{params}}`): only `#`, so a value may
///   hold several parameters;
/// - in the fragment (never sent): as it is.
/// `%` is kept everywhere, as `URLNormalizer` keeps existing escapes, so an already encoded value is not
/// encoded twice; spaces and non-ASCII are percent-encoded later by `URLNormalizer` wherever they are.
/// Text typed in the template keeps its meaning: a `#` written there still starts the fragment.
///
/// A value that must stay one query parameter whatever it holds goes in the `query` list, whose names and
/// values are encoded whole (as Hurl's `[Query]` section does).
enum URLSubstitution {
    /// The part of a URL a reference stands in.
    enum Component: Equatable {
        case schemeOrAuthority, path, query, queryValue, fragment
    }

    /// `template` with every reference resolved in `scope`, each value encoded for its component.
    /// - Throws: as `VariableScope.resolve`: every undefined name of the template in one error, in order.
    static func resolve(_ template: String, _ scope: VariableScope, field: String) throws(PreparationFailure) -> String {
        guard Template.mayHaveReferences(template) else { return template }
        var output = ""
        var missing: [String] = []
        for segment in Template.segments(template) {
            switch segment {
            case .text(let text):
                output += text
            case .reference(let name):
                do throws(PreparationFailure) {
                    let value = try scope.resolve(reference: name, field: field)
                    output += encode(value, for: component(after: output))
                } catch {
                    guard case .undefinedVariables(let names, _) = error else { throw error }
                    for name in names where !missing.contains(name) { missing.append(name) }
                }
            }
        }
        if !missing.isEmpty { throw .undefinedVariables(names: missing, field: field) }
        return output
    }

    /// Which component a value appended to `prefix` (the URL so far) falls in.
    static func component(after prefix: String) -> Component {
        // On the string's own UTF-8 (a copy of it into an array was made for every reference of every URL).
        let utf8 = prefix.utf8
        guard !utf8.isEmpty else { return .schemeOrAuthority }
        let authorityStart = URLNormalizer.schemeEnd(prefix).map { $0 + 3 } ?? 0
        let rest = utf8.dropFirst(authorityStart)
        guard rest.contains(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) else {
            return .schemeOrAuthority
        }
        if rest.contains(UInt8(ascii: "#")) { return .fragment }
        guard let question = rest.firstIndex(of: UInt8(ascii: "?")) else { return .path }
        // In the current parameter (after the last '&'), after its '=': its value.
        let query = utf8[utf8.index(after: question)...]
        let parameter = query.lastIndex(of: UInt8(ascii: "&")).map { query[query.index(after: $0)...] } ?? query
        return parameter.contains(UInt8(ascii: "=")) ? .queryValue : .query
    }

    /// `value` with the characters that would end `component` percent-encoded.
    static func encode(_ value: String, for component: Component) -> String {
        let ending: [UInt8]
        switch component {
        case .schemeOrAuthority, .fragment: return value
        case .path: ending = [UInt8(ascii: "?"), UInt8(ascii: "#")]
        case .query: ending = [UInt8(ascii: "#")]
        case .queryValue: ending = [UInt8(ascii: "#"), UInt8(ascii: "&"), UInt8(ascii: "+")]
        }
        guard value.utf8.contains(where: ending.contains) else { return value }
        var out: [UInt8] = []
        for byte in value.utf8 {
            if ending.contains(byte) {
                out += Array(URLQuery.encode(String(UnicodeScalar(byte))).utf8)
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
