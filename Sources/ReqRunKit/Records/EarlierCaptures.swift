import Foundation

/// Values that earlier recorded runs captured, for a command that sends requests without the ones that
/// capture them (`reqrun send`, `reqrun run --dry-run`): a token captured by `login` in the last run is
/// used by `send profile` instead of failing with "undefined variable".
///
/// Only for variables that no layer defines (collection, group, environment, `--var`) and that no earlier
/// request of the same command captures: those still win, as in a run. The values come from
/// `CaptureStore` (the newest value of each variable, with the run that captured it). They are data: the
/// layer is literal, like a run's own captures, so a `{{…}}` inside one is sent as written. A value that was
/// a secret stays one: masked in output and records wherever it is used.
public enum EarlierCaptures {
    /// The variables `references` use that would be undefined when they are sent in order: not defined by
    /// any layer of `configuration` and not captured by an earlier one of them. Sorted. Pure.
    public static func missing(_ references: some Sequence<RequestReference>, _ configuration: RunConfiguration) -> [String] {
        let layerValues = (configuration.environment?.variables ?? []) + configuration.overrides.map { Variable(name: $0.key, value: $0.value) }
        var capturedEarlier: Set<String> = []
        var missing: Set<String> = []
        // What depends only on the request's group (its id is unique in a workspace), made once for the
        // requests of a group, not for each (a scope builds a dictionary per layer): the values references
        // are followed through, each name's references through them, and whether the scope defines a name.
        var group: (id: UUID, values: [Variable], scope: VariableScope, following: [String: Set<String>], defined: [String: Bool])?
        for reference in references {
            let id = reference.groups.last?.id ?? UUID()
            if group?.id != id {
                group = (id, reference.collectionVariables + reference.groups.flatMap(\.variables) + layerValues,
                         Runner.scope(for: reference, configuration, captured: VariableLayer.captures()), [:], [:])
            }
            var used: Set<String> = []
            for name in reference.directReferences() {
                if let names = group!.following[name] { used.formUnion(names); continue }
                let names = RequestReference.following([name], through: group!.values)
                group!.following[name] = names
                used.formUnion(names)
            }
            for name in used where !name.hasPrefix("$") && !name.hasPrefix("process.env.") && !capturedEarlier.contains(name) {
                let defined = group!.defined[name] ?? (group!.scope.value(name) != nil)
                group!.defined[name] = defined
                if !defined { missing.insert(name) }
            }
            capturedEarlier.formUnion(reference.request.captures.map(\.variable))
        }
        return missing.sorted()
    }

    /// The stored values of `names` that `store` has, by name.
    public static func find(_ names: [String], in store: CaptureStore) -> [CapturedValue] {
        guard !names.isEmpty else { return [] }
        let stored = store.load()
        return names.sorted().compactMap { stored[$0] }
    }

    /// Sets `configuration.carriedCaptures` to the stored values of the variables `references` would miss
    /// (`missing`, then the store's values of those names): what `reqrun send`, `run --dry-run` and the
    /// full-screen UI's `Enter` do before sending. Reads `store` first and walks `references` only when it holds
    /// a value: with nothing stored nothing can be carried, and `missing` gathers the names of every template
    /// of every request (about a fifth of a 100,000-request dry run's instructions, issue 17).
    /// - Returns: the values used, sorted by name, to announce (`CapturedValue.origin`).
    @discardableResult
    public static func carry(into configuration: inout RunConfiguration, for references: some Sequence<RequestReference>,
                             from store: CaptureStore) -> [CapturedValue] {
        let stored = store.load()
        let found = stored.isEmpty ? [] : missing(references, configuration).compactMap { stored[$0] }
        configuration.carriedCaptures = layer(found)
        return found
    }

    /// `values` as a literal layer (`source` `capture in run ID`), their secrets as secret names; nil for none.
    public static func layer(_ values: [CapturedValue]) -> VariableLayer? {
        guard !values.isEmpty else { return nil }
        let runs = Set(values.map(\.run)).sorted()
        return VariableLayer(source: runs.count == 1 ? "capture in run \(runs[0])" : "captures of earlier runs",
                             values: Dictionary(values.map { ($0.variable, $0.value) }, uniquingKeysWith: { $1 }),
                             secretNames: Set(values.filter(\.secret).map(\.variable)), isLiteral: true)
    }
}
