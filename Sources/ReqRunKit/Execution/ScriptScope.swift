/// Where the values scripts set go among a request's variable layers, and what scripts see of them; shared by
/// the run and `--dry-run`.
extension Runner {
    /// The layers of `scope(fileLayers:_:captured:)` with, when `scripts` is not nil, the values scripts set
    /// in Newman's precedence (globals < collection < environment < data < local), all literal:
    /// `globals (script)` below everything, `collection (script)` just above the collection's variables,
    /// `environment (script)` just above the environment (below `--var`), `pm.variables` on top.
    /// The data row of `iteration` and the globals file come in too (`RunData.apply`).
    static func scope(fileLayers: [VariableLayer], _ configuration: RunConfiguration, captured: VariableLayer,
                      scripts: ScriptVariables?, collectionKey: Int, iteration: Int = 0) -> VariableScope {
        var scope = scriptScope(fileLayers: fileLayers, configuration, captured: captured, scripts: scripts, collectionKey: collectionKey)
        configuration.runData.apply(to: &scope, iteration: iteration)
        if let unset = scripts?.unsetGlobals, !unset.isEmpty, let globals = scope.layers.firstIndex(where: { $0.source.hasPrefix("globals '") }) {
            removeValues(unset, from: &scope.layers[globals])
        }
        return scope
    }

    /// A file's values that scripts unset or cleared (`ScriptVariables.unsetEnvironment`, …) are gone from its
    /// layer, so `{{name}}` resolves from the layers below, as in Newman, where `unset` removes the variable.
    private static func removeValues(_ names: Set<String>, from layer: inout VariableLayer) {
        for name in names { layer.values[name] = nil }
    }

    private static func scriptScope(fileLayers: [VariableLayer], _ configuration: RunConfiguration, captured: VariableLayer,
                                    scripts: ScriptVariables?, collectionKey: Int) -> VariableScope {
        guard let scripts else { return scope(fileLayers: fileLayers, configuration, captured: captured) }
        var layers = fileLayers
        if let unset = scripts.unsetCollections[collectionKey], !unset.isEmpty, !layers.isEmpty { removeValues(unset, from: &layers[0]) }
        layers.insert(VariableLayer(source: "collection (script)", values: scripts.collections[collectionKey] ?? [:], isLiteral: true),
                      at: min(1, layers.count))
        layers.insert(VariableLayer(source: "globals (script)", values: scripts.globals, isLiteral: true), at: 0)
        var scope = scope(fileLayers: layers, configuration, captured: captured)
        // Above the environment's layer when there is one, else just below `--var`.
        let environment = scope.layers.firstIndex { $0.source.hasPrefix("environment") } ?? (layers.count - 1)
        if !scripts.unsetEnvironment.isEmpty, configuration.environment != nil { removeValues(scripts.unsetEnvironment, from: &scope.layers[environment]) }
        scope.layers.insert(VariableLayer(source: "environment (script)", values: scripts.environment, isLiteral: true), at: environment + 1)
        scope.layers.append(VariableLayer(source: "pm.variables", values: scripts.local, isLiteral: true))
        return scope
    }

    /// What the scripts of `reference` see of its variables besides what scripts set.
    static func scriptContext(_ reference: RequestReference, _ configuration: RunConfiguration, captured: VariableLayer,
                              iteration: Int = 0) -> ScriptContext {
        var groupValues = VariableList()
        for group in reference.groups { for variable in group.variables { groupValues[variable.name] = variable.value } }
        // `--var` and captures (reqrun's own layers, no Postman order): by name.
        var upper = configuration.overrides
        upper.merge(captured.values) { $1 }
        var context = ScriptContext(requestName: reference.request.name, requestID: reference.request.id, collectionKey: reference.collectionIndex,
                             collectionValues: VariableList(reference.collectionVariables.map { ($0.name, $0.value) }),
                             groupValues: groupValues,
                             environmentValues: VariableList((configuration.environment?.variables ?? []).map { ($0.name, $0.value) }),
                             upperValues: VariableList(upper.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))
            .iteration(iteration, of: configuration.runData)
        context.location = [reference.collectionName] + reference.groups.filter { !$0.standsForCollection }.map(\.name) + [reference.request.name]
        return context
    }
}
