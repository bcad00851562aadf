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
    ///
    /// The URL is made in one byte buffer (on the stack, `Output`), read back for each reference's component (`component(after:)`),
    /// and the template's pieces are visited without an array of them (`Template.forEachSegment`): with a
    /// `String` appended to and its UTF-8 view scanned again for each reference, this was 16 % of
    /// `run --all --dry-run --json` on 100,000 requests (callgrind).
    static func resolve(_ template: String, _ scope: VariableScope, field: String) throws(PreparationFailure) -> String {
        guard Template.mayHaveReferences(template) else { return template }
        // The bytes on the stack while they fit (`Output`): an array for them was allocated and freed for every URL.
        let (url, failure) = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Output.stackCapacity) { stack in
            var output = Output(stack)
            let failure = resolve(template, scope, field: field, into: &output)
            return (failure == nil ? output.withBytes { String(decoding: $0, as: UTF8.self) } : "", failure)
        }
        if let failure { throw failure }
        return url
    }

    /// The bytes `resolve(template, scope, field: "url")` makes into a `String`, handed to `body` where they are (the
    /// template's own, or the stack buffer's), or nil when it would throw: for `DryRunEntry.Planner.writePlain`, which
    /// writes the URL without making its `String` (about 280 instructions a request, and its release) when nothing
    /// changes it after the substitution. The same resolution as `resolve`, reference by reference.
    static func withResolvedBytes<R>(_ template: String, _ scope: VariableScope, _ body: (UnsafeBufferPointer<UInt8>?) -> R) -> R {
        guard Template.mayHaveReferences(template) else {
            var text = template  // a copy of a native string shares its storage; withUTF8 reads it in place
            return text.withUTF8 { body($0) }
        }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Output.stackCapacity) { stack in
            var output = Output(stack)
            guard resolve(template, scope, field: "url", into: &output) == nil else { return body(nil) }
            return output.withBytes { body($0) }
        }
    }

    /// `resolve(_:_:field:)` into `output`; returns why it failed, or nil.
    private static func resolve(_ template: String, _ scope: VariableScope, field: String, into output: inout Output) -> PreparationFailure? {
        var missing: [String] = []
        var failure: PreparationFailure?
        Template.forEachSegment(template, text: { bytes in
            // The text's bytes in place (as a `Substring`, through its own `withUTF8`, it cost some 1,100 instructions more).
            if failure == nil { output.append(bytes) }
        }, reference: { utf8, range in
            guard failure == nil else { return }
            let value: String
            // A value the scope keeps (`VariableScope.cachingPlainReferences`), found by the name's bytes, without
            // making the name's `String`; any other name resolved as before.
            if let bytes = Template.trimmedASCIIName(utf8, range), let kept = scope.keptValue(ofName: bytes) {
                value = kept
            } else {
                do throws(PreparationFailure) {
                    value = try scope.resolve(reference: Template.trimmedName(template, utf8, range), field: field)
                } catch {
                    guard case .undefinedVariables(let names, _) = error else {
                        failure = error
                        return
                    }
                    for name in names where !missing.contains(name) { missing.append(name) }
                    return
                }
            }
            var encoded = encode(value, for: output.withBytes { component(after: $0) })
            encoded.withUTF8 { output.append($0) }
        })
        if let failure { return failure }
        if !missing.isEmpty { return .undefinedVariables(names: missing, field: field) }
        return nil
    }

    /// The bytes of a URL being made: in the caller's stack allocation while they fit, then in an array.
    struct Output {
        /// Bytes on the stack: URLs are most often shorter.
        static let stackCapacity = 512
        private let stack: UnsafeMutableBufferPointer<UInt8>
        private var count = 0
        private var heap: [UInt8]?

        init(_ stack: UnsafeMutableBufferPointer<UInt8>) { self.stack = stack }

        mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard let start = bytes.baseAddress, !bytes.isEmpty else { return }
            if heap == nil {
                if count + bytes.count <= stack.count {
                    (stack.baseAddress! + count).update(from: start, count: bytes.count)
                    count += bytes.count
                    return
                }
                heap = Array(UnsafeBufferPointer(rebasing: stack[..<count]))
            }
            heap!.append(contentsOf: bytes)
        }

        /// `body` of the bytes so far.
        func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
            if let heap { return heap.withUnsafeBufferPointer(body) }
            return body(UnsafeBufferPointer(rebasing: stack[..<count]))
        }
    }

    /// Which component a value appended to `prefix` (the URL so far) falls in.
    static func component(after prefix: String) -> Component { component(after: Array(prefix.utf8)) }

    /// Which component a value appended to `prefix` (the UTF-8 of the URL so far, indices from 0) falls in.
    static func component<Bytes: RandomAccessCollection<UInt8>>(after prefix: Bytes) -> Component where Bytes.Index == Int {
        guard !prefix.isEmpty else { return .schemeOrAuthority }
        let authorityStart = URLNormalizer.schemeEnd(utf8: prefix).map { $0 + 3 } ?? 0
        let rest = prefix[authorityStart...]
        guard rest.contains(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) else {
            return .schemeOrAuthority
        }
        if rest.contains(UInt8(ascii: "#")) { return .fragment }
        guard let question = rest.firstIndex(of: UInt8(ascii: "?")) else { return .path }
        // In the current parameter (after the last '&'), after its '=': its value.
        let query = prefix[(question + 1)...]
        let parameter = query.lastIndex(of: UInt8(ascii: "&")).map { query[($0 + 1)...] } ?? query
        return parameter.contains(UInt8(ascii: "=")) ? .queryValue : .query
    }

    /// `value` with the characters that would end `component` percent-encoded.
    static func encode(_ value: String, for component: Component) -> String {
        guard component != .schemeOrAuthority, component != .fragment,
              value.containsUTF8Byte(where: { ends(component, $0) }) else { return value }
        var out: [UInt8] = []
        for byte in value.utf8 {
            if ends(component, byte) {
                out += Array(URLQuery.encode(String(UnicodeScalar(byte))).utf8)
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether `byte` would end `component` (an array of them was made for every reference).
    private static func ends(_ component: Component, _ byte: UInt8) -> Bool {
        switch component {
        case .schemeOrAuthority, .fragment: return false
        case .path: return byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#")
        case .query: return byte == UInt8(ascii: "#")
        case .queryValue: return byte == UInt8(ascii: "#") || byte == UInt8(ascii: "&") || byte == UInt8(ascii: "+")
        }
    }
}
