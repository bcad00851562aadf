import Foundation

/// Values that earlier recorded runs captured, for a command that sends requests without the ones that
/// capture them (`reqrun send`, `reqrun run --dry-run`): a token captured by `login` in the last run is
/// used by `send profile` instead of failing with "undefined variable".
///
/// Only for variables that no layer defines (collection, group, environment, `--var`) and that no earlier
/// request of the same command captures: those still win, as in a run. The values come from the run
/// records, so they are data (the layer is literal, like a run's own captures) and a value the record
/// masked (a secret, `****`) is not usable: it is reported in `masked` instead.
public struct EarlierCaptures: Sendable, Equatable {
    /// One value found: the variable, its value and the run (id) and request (name) that captured it.
    public struct Found: Sendable, Equatable {
        public var variable: String
        public var value: String
        public var runID: String
        public var request: String
    }

    /// Found values, by variable name order.
    public var found: [Found]
    /// Variables whose newest recorded value is masked, with the run id that masked it.
    public var masked: [(variable: String, runID: String)]

    public static func == (lhs: EarlierCaptures, rhs: EarlierCaptures) -> Bool {
        lhs.found == rhs.found && lhs.masked.elementsEqual(rhs.masked) { $0 == $1 }
    }

    /// How many of the newest records are searched.
    public static let searchedRuns = 20

    /// The variables `references` use that would be undefined when they are sent in order: not defined by
    /// any layer of `configuration` and not captured by an earlier one of them. Sorted. Pure.
    public static func missing(_ references: [RequestReference], _ configuration: RunConfiguration) -> [String] {
        let layerValues = (configuration.environment?.variables ?? []) + configuration.overrides.map { Variable(name: $0.key, value: $0.value) }
        var capturedEarlier: Set<String> = []
        var missing: Set<String> = []
        for reference in references {
            let used = reference.referencedVariables(alsoThrough: layerValues)
            let unresolved = used.filter { !$0.hasPrefix("$") && !$0.hasPrefix("process.env.") && !capturedEarlier.contains($0) }
            if !unresolved.isEmpty {
                let scope = Runner.scope(for: reference, configuration, captured: VariableLayer.captures())
                missing.formUnion(unresolved.filter { scope.value($0) == nil })
            }
            capturedEarlier.formUnion(reference.request.captures.map(\.variable))
        }
        return missing.sorted()
    }

    /// Searches the newest `searchedRuns` records of `store`, newest first, for the last value each of
    /// `names` was captured with. A record that cannot be read is passed over.
    public static func find(_ names: [String], in store: RunStore) -> EarlierCaptures {
        var wanted = Set(names)
        var result = EarlierCaptures(found: [], masked: [])
        guard !wanted.isEmpty, let ids = try? store.ids() else { return result }
        for id in ids.prefix(searchedRuns) where !wanted.isEmpty {
            guard let record = try? store.load(id) else { continue }
            // Later results of a run capture over earlier ones, as in the run itself.
            for variable in wanted.sorted() {
                let last = record.results.reversed().lazy.compactMap { result in
                    result.captures.last { $0.variable == variable && $0.value != nil }.map { (result.name, $0.value!) }
                }.first
                guard let (request, value) = last else { continue }
                wanted.remove(variable)
                if value.contains(SecretMasker.mask) {
                    result.masked.append((variable, record.id))
                } else {
                    result.found.append(Found(variable: variable, value: value, runID: record.id, request: request))
                }
            }
        }
        result.found.sort { $0.variable < $1.variable }
        result.masked.sort { $0.variable < $1.variable }
        return result
    }

    /// The found values as a literal layer (`source` `capture in run ID`); `secretNames` are masked in
    /// output like any secret (a variable captured from a cookie, which a run treats as a credential).
    public func layer(secretNames: Set<String>) -> VariableLayer? {
        guard !found.isEmpty else { return nil }
        let runs = Set(found.map(\.runID)).sorted()
        return VariableLayer(source: runs.count == 1 ? "capture in run \(runs[0])" : "captures of earlier runs",
                             values: Dictionary(found.map { ($0.variable, $0.value) }, uniquingKeysWith: { $1 }),
                             secretNames: secretNames.intersection(found.map(\.variable)), isLiteral: true)
    }

    /// Variables that some request of `collections` captures from a cookie: secrets whoever uses them.
    public static func cookieCaptureNames(_ references: [RequestReference]) -> Set<String> {
        Set(references.flatMap { reference in
            reference.request.captures.compactMap { if case .cookie = $0.source { $0.variable } else { nil } }
        })
    }
}
