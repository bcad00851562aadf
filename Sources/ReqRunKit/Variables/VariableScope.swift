import Foundation

/// One source of variables, e.g. the collection's `variables` or `--var` values.
public struct VariableLayer: Sendable, Equatable {
    /// Where the values come from, for messages: `collection`, `group 'auth'`, `environment 'staging'`,
    /// `--var`, `capture`.
    public var source: String
    public var values: [String: String]
    /// Names whose values are secret (masked in output unless `--show-secrets`).
    public var secretNames: Set<String>
    /// Whether the values are data rather than templates: a `{{name}}` inside one is sent as written, never
    /// resolved. True for values taken from responses (captures) and, later, set by scripts: a server that
    /// answers `{{password}}` or `{{process.env.HOME}}` must not pull those values into the next request.
    public var isLiteral: Bool

    public init(source: String, values: [String: String], secretNames: Set<String> = [], isLiteral: Bool = false) {
        self.source = source
        self.values = values
        self.secretNames = secretNames
        self.isLiteral = isLiteral
    }

    /// The empty layer of values captured during a run (`source` `capture`): literal.
    public static func captures() -> VariableLayer {
        VariableLayer(source: "capture", values: [:], isLiteral: true)
    }
}

/// The variables one request sees, and how `{{name}}` resolves.
///
/// Layers, lowest precedence first: collection variables, group variables (outer to inner), the
/// environment, `--var`, captures made earlier in the run. A value may itself hold references; they are
/// resolved up to `maximumDepth` levels, and a cycle is an error naming it. A value from a literal layer
/// (`VariableLayer.isLiteral`: captures) is data and is inserted as it is, `{{…}}` included. Besides variables:
/// - dynamic values with Postman's names, a new value at each use: `{{$guid}}` and `{{$randomUUID}}`
///   (a lower-case version 4 UUID), `{{$timestamp}}` (Unix time in seconds), `{{$isoTimestamp}}` (ISO 8601
///   UTC with milliseconds), `{{$randomInt}}` (an integer from 0 to 1000);
/// - process environment variables, only through the explicit `{{process.env.NAME}}` (Bruno's syntax):
///   never implicitly, and only the names `ProcessEnvironment` allows; their values are secrets.
public struct VariableScope: Sendable {
    /// How many levels of references inside values are followed.
    public static let maximumDepth = 10

    /// Changing the layers drops the resolved values a dry run kept (`cachingPlainReferences`).
    public var layers: [VariableLayer] { didSet { plainReferences = nil } }
    /// The process environment, read only through `{{process.env.NAME}}`.
    public var processEnvironment: ProcessEnvironment { didSet { plainReferences = nil } }
    /// The values of plain references already resolved in this scope (`cachingPlainReferences`), or nil: none kept.
    private var plainReferences: PlainReferences?

    public init(layers: [VariableLayer], processEnvironment: ProcessEnvironment = .empty) {
        self.layers = layers
        self.processEnvironment = processEnvironment
    }

    /// The value of `name` from the highest layer that has it.
    public func value(_ name: String) -> String? {
        lookup(name)?.value
    }

    /// The value of `name` from the highest layer that has it, and whether that layer is literal.
    private func lookup(_ name: String) -> (value: String, isLiteral: Bool)? {
        // By index: `for layer in layers.reversed()` copied each layer (its name, values and secret names retained).
        var i = layers.count
        while i > 0 {
            i -= 1
            // Most layers of most scopes are empty (captures, scripts): no name to hash for them.
            if !layers[i].values.isEmpty, let value = layers[i].values[name] { return (value, layers[i].isLiteral) }
        }
        return nil
    }

    /// Resolved values of every variable marked secret in any layer, and the values of the process
    /// environment (empty values left out), for masking.
    public func secretValues() -> [String] {
        var names = Set<String>()
        for layer in layers { names.formUnion(layer.secretNames) }
        return names.compactMap { name in
            guard let (value, isLiteral) = lookup(name) else { return nil }
            let resolved = isLiteral ? value : ((try? resolve(value, field: name)) ?? value)
            return resolved.isEmpty ? nil : resolved
        } + processEnvironment.secrets
    }

    /// Replaces every reference in `template`.
    /// - Parameter field: where the template is (`url`, `headers[0].value`, `body`…), for messages.
    /// - Throws: `PreparationFailure.undefinedVariables` (every undefined name, in order) `.variableCycle` or `.variableDepth`.
    public func resolve(_ template: String, field: String) throws(PreparationFailure) -> String {
        guard Template.mayHaveReferences(template) else { return template }
        var missing: [String] = []
        let text = try render(template, chain: [], missing: &missing, field: field)
        if !missing.isEmpty { throw .undefinedVariables(names: missing, field: field) }
        return text
    }

    /// The value of the reference `{{name}}`: `resolve("{{name}}", field:)` without making and splitting
    /// that text again (`URLSubstitution` resolves each reference of a URL on its own).
    public func resolve(reference name: String, field: String) throws(PreparationFailure) -> String {
        // `{{a} }}` names `a}`, but `{{a}}}` is `{{a}}` and a `}`: that text, split again, as before.
        if name.utf8.last == UInt8(ascii: "}") { return try resolve("{{\(name)}}", field: field) }
        if let plainReferences, let value = plainReference(name, plainReferences) { return value }
        var missing: [String] = []
        var output = ""
        try render(reference: name, into: &output, chain: [], missing: &missing, field: field)
        if !missing.isEmpty { throw .undefinedVariables(names: missing, field: field) }
        return output
    }

    /// This scope, keeping the value of each plain reference it resolves with `resolve(reference:field:)` for
    /// its copies to reuse: a name that is not dynamic (`$…`) nor `process.env.…`, whose value comes from a layer
    /// as it is (a literal layer's, or one without `{{`), so it is the same at every use while the layers and the
    /// process environment stay as they are (changing either drops the values). For `run --dry-run` without
    /// scripts, which resolves `{{base}}` in each of a group's requests with the group's one scope: the lookup,
    /// the checks and the output string cost about 1,300 instructions a reference (callgrind), a kept value a
    /// comparison of names. The kept values are not locked: the scope and its copies are used by one thread.
    func cachingPlainReferences() -> VariableScope {
        var scope = self
        scope.plainReferences = PlainReferences()
        return scope
    }

    /// The value kept for the plain reference whose name has the bytes `name` (see `cachingPlainReferences`), or nil:
    /// none kept by that name (or no values kept), for `resolve(reference:field:)` to resolve as before. Compared
    /// byte for byte: a name with the bytes of a kept one is that name, and no two kept names are equal
    /// (`plainReference` keeps a name only when none equal to it is kept).
    func keptValue(ofName name: UnsafeBufferPointer<UInt8>) -> String? {
        guard let plainReferences else { return nil }
        // Read once (each read of a class's property is an access checked at run time, some 60 instructions), and in
        // place: `for kept in` copied each name and value out (retained and released them, some 200 instructions a
        // reference, callgrind).
        return plainReferences.kept.withUnsafeBufferPointer { kept in
            for i in kept.indices where kept[i].name.utf8.count == name.count {
                let same = kept[i].name.utf8.withContiguousStorageIfAvailable { $0.isEmpty || memcmp($0.baseAddress!, name.baseAddress!, $0.count) == 0 }
                if same ?? kept[i].name.utf8.elementsEqual(name) { return kept[i].value }
            }
            return nil
        }
    }

    /// The value of the plain reference `name` (see `cachingPlainReferences`), kept in `kept` on first use; nil
    /// for any other reference (resolved as before).
    private func plainReference(_ name: String, _ kept: PlainReferences) -> String? {
        if let found = kept.kept.first(where: { $0.name == name }) { return found.value }
        guard name.utf8.first != UInt8(ascii: "$"), !Self.isProcessEnvironmentName(name),
              let (value, isLiteral) = lookup(name), isLiteral || !Template.mayHaveReferences(value) else { return nil }
        // A few names: a URL template refers to one or two; past the bound, resolved each time.
        if kept.kept.count < PlainReferences.capacity {
            // A copy of its own: the layer's string is shared with the scopes of other threads (`DryRunChunks`), and
            // a reference count that two cores change at every request costs more than the copy.
            kept.kept.append((name, String(decoding: Array(value.utf8), as: UTF8.self)))
        }
        return value
    }

    private func render(_ template: String, chain: [String], missing: inout [String], field: String) throws(PreparationFailure) -> String {
        // A value without `{{` (most are) is its own text: no segments to make.
        guard Template.mayHaveReferences(template) else { return template }
        var output = ""
        for segment in Template.segments(template) {
            switch segment {
            case .text(let text):
                output += text
            case .reference(let name):
                try render(reference: name, into: &output, chain: chain, missing: &missing, field: field)
            }
        }
        return output
    }

    private func render(reference name: String, into output: inout String, chain: [String], missing: inout [String],
                        field: String) throws(PreparationFailure) {
        if let dynamic = Self.dynamicValue(name) {
            output += dynamic
        } else if Self.isProcessEnvironmentName(name) {
            let key = String(name.dropFirst("process.env.".count))
            guard processEnvironment.isReadable(key) else { throw .environmentVariableNotAllowed(name: key, field: field) }
            if let value = processEnvironment.values[key] { output += value } else if !missing.contains(name) { missing.append(name) }
        } else if let start = chain.firstIndex(of: name) {
            throw .variableCycle(names: Array(chain[start...]) + [name], field: field)
        } else if chain.count >= Self.maximumDepth {
            throw .variableDepth(names: chain + [name], field: field)
        } else if let (value, isLiteral) = lookup(name) {
            // A value without `{{` is its own text: no chain to extend (an array made for every reference).
            output += isLiteral || !Template.mayHaveReferences(value) ? value : try render(value, chain: chain + [name], missing: &missing, field: field)
        } else if !missing.contains(name) {
            missing.append(name)
        }
    }

    /// Whether `name` is `process.env.NAME`, as `String.hasPrefix` says (canonical equivalence: a combining mark
    /// after the `.`, as in `process.env.\u{301}X`, makes it another name, which `ProcessEnvironment.narrowed`
    /// and `RequestPreparation` read as such), on the bytes unless a non-ASCII byte follows the prefix.
    static func isProcessEnvironmentName(_ name: String) -> Bool {
        let prefix = "process.env.".utf8
        guard name.utf8.starts(with: prefix) else { return false }
        // An ASCII byte after the `.` (or none) extends no character: the first 12 characters are the prefix's.
        guard let next = name.utf8.dropFirst(prefix.count).first, next >= 0x80 else { return true }
        return name.hasPrefix("process.env.")
    }

    /// Postman's dynamic variables; nil for any other name.
    static func dynamicValue(_ name: String) -> String? {
        // Every dynamic name starts with `$`: other names are not compared with each.
        guard name.utf8.first == UInt8(ascii: "$") else { return nil }
        switch name {
        case "$guid", "$randomUUID": return UUID().lowercasedText
        case "$timestamp": return String(Int(Date().timeIntervalSince1970))
        case "$isoTimestamp": return RunID.iso8601(Date())
        case "$randomInt": return String(Int.random(in: 0...1000))
        default: return nil
        }
    }
}

/// The values `VariableScope.cachingPlainReferences` keeps, with their names, in the order kept.
private final class PlainReferences: @unchecked Sendable {
    static let capacity = 16
    var kept: [(name: String, value: String)] = []
}
