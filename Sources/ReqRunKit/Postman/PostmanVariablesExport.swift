import Foundation

/// What `--export-environment FILE` and `--export-globals FILE` write (Newman's options of the same names):
/// a Postman environment or globals export, `{"id", "name", "values": [{"key", "value", "type", "enabled"}],
/// "_postman_variable_scope", "_postman_exported_at", "_postman_exported_using"}`, with the values the
/// run's scripts left. The environment file itself is never modified.
public enum PostmanVariablesExport {
    /// The environment's variables in Postman's order (`ScriptVariables.order`: the file's, then those
    /// scripts added, a variable unset and set again last; the file's order when no script changed the
    /// scope) with the values scripts set; the export's `id` and `name` kept. A secret stays `type` `secret` (its value is written: the user asked for it), and
    /// so is a variable whose script-set value is secret (`ScriptVariables.secretNames`).
    public static func environment(_ environment: Environment?, scripts: ScriptVariables) -> [UInt8] {
        render(id: environment?.postmanID, name: environment?.postmanName ?? environment?.name ?? "environment", scope: "environment",
               values: merged(environment?.variables ?? [], scripts.environment, unset: scripts.unsetEnvironment,
                              order: scripts.order[.environment]), secretNames: (environment?.secretNames ?? []).union(scripts.secretNames))
    }

    /// The globals file's variables (`--globals`) and those scripts added, in Postman's order as for
    /// `environment`, with the values scripts set.
    public static func globals(_ scripts: ScriptVariables, file: Environment? = nil) -> [UInt8] {
        render(id: file?.postmanID, name: file?.postmanName ?? file?.name ?? "globals", scope: "globals", values: merged(file?.variables ?? [], scripts.globals, unset: scripts.unsetGlobals, order: scripts.order[.globals]),
               secretNames: (file?.secretNames ?? []).union(scripts.secretNames))
    }

    /// The scope as the run left it (Newman exports the scope's list: `VariableScope.toJSON`), in its order
    /// (`ScriptVariables.present`).
    private static func merged(_ base: [Variable], _ set: [String: String], unset: Set<String>, order: [String]?) -> [(String, String)] {
        ScriptVariables.present(VariableList(base.map { ($0.name, $0.value) }), set, unset: unset, order: order).map { ($0.name, $0.value) }
    }

    /// `id` and `name`: the export's own when the file had them (Newman writes back the scope it loaded),
    /// else a new UUID and the file's name.
    static func render(id: String?, name: String, scope: String, values: [(String, String)], secretNames: Set<String>) -> [UInt8] {
        var w = JSONWriter(capacity: 256 + 64 * values.count)
        w.object { w in
            w.field("_postman_exported_at", RunID.iso8601(Date()))
            w.field("_postman_exported_using", "reqrun/\(reqrunVersion)")
            w.field("_postman_variable_scope", scope)
            w.field("id", id ?? UUID().lowercasedText)
            w.field("name", name)
            w.field("values", values) { w, pair in
                w.object { w in
                    w.field("enabled", true)
                    w.field("key", pair.0)
                    w.field("type", secretNames.contains(pair.0) ? "secret" : "default")
                    w.field("value", pair.1)
                }
            }
        }
        return w.finish()
    }
}
