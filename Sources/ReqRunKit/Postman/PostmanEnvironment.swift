/// A Postman environment export as an `Environment`.
///
/// Shape: `{"id", "name", "values": [{"key", "value", "type": "default" | "secret" | "text", "enabled"}],
/// "_postman_variable_scope": "environment"}`; v2.1 exports may write `"disabled": true` instead of
/// `"enabled": false`.
///
/// As Newman does (its test `disabled-and-duplicate-variables`): disabled values are skipped, and of
/// duplicate keys the last enabled value wins (a later disabled duplicate does not hide an earlier enabled
/// one). A value of `type` `secret` is a secret, masked in output. Non-string values (numbers, booleans)
/// are used as their JSON text.
enum PostmanEnvironment {
    static func decode(_ root: JSONNode, name: String, file: String) throws(InputError) -> Environment {
        let reader = try FieldReader(file: file, node: root, path: "")
        let entries = try reader.postmanEntries("values")
        let secrets = Set(entries.filter { $0.reader.postmanText("type") == "secret" }.compactMap(\.key))
        return Environment(name: name, file: file, variables: PostmanFields.variables(entries), secretNames: secrets,
                           postmanID: reader.postmanText("id"), postmanName: reader.postmanText("name"))
    }
}
