/// Tells a Postman file from a native one, by its content rather than its name.
///
/// Sources: the Postman Collection Format schemas v2.0.0 and v2.1.0
/// (`https://schema.getpostman.com/json/collection/v2.1.0/collection.json`), whose `info.schema` holds that
/// address, and Newman, which also accepts a collection without `info` whose top level has `item` (the
/// "SDK" shape of postman-collection's `Collection` constructor). A Postman environment export is an object
/// with a `values` array of `{"key", "value", "enabled" | "disabled"}` (and usually `_postman_variable_scope`).
enum PostmanFormat {
    /// The collection formats reqrun reads from Postman.
    enum Version: Sendable, Equatable {
        case v2_0, v2_1
        /// No `info.schema`: recognised by its shape (`item` at the top level, no `groups`).
        case shape
        /// A v1 export (`requests` with `order` or `folders`), converted by `PostmanV1Converter`.
        case v1
    }

    /// The Postman version of a collection, or nil for anything else (a native collection).
    static func collectionVersion(_ root: JSONNode) -> Version? {
        guard case .object(let members) = root.value else { return nil }
        func member(_ key: String) -> JSONNode? { members.first { $0.key == key }?.value }
        if let info = member("info"), case .object(let infoMembers) = info.value,
           let schemaNode = infoMembers.first(where: { $0.key == "schema" })?.value, case .string(let schema) = schemaNode.value {
            if schema.contains("/v2.1") { return .v2_1 }
            if schema.contains("/v2.0") || schema.contains("/v2/") { return .v2_0 }
            if schema.contains("/v1") { return .v1 }
            if schema.contains("getpostman.com") || schema.contains("postman.com") { return .v2_1 }
        }
        if member("groups") != nil { return nil }
        if let item = member("item"), case .array = item.value { return .shape }
        if member("info") != nil { return .shape }
        if let requests = member("requests"), case .array = requests.value, member("order") != nil || member("folders") != nil { return .v1 }
        return nil
    }

    /// True for a Postman environment export: an object whose `values` is an array. A native environment is
    /// an object of name → string or `{"value", "secret"}`, where an array value is an error anyway.
    static func isEnvironment(_ root: JSONNode) -> Bool {
        guard case .object(let members) = root.value,
              let values = members.first(where: { $0.key == "values" })?.value, case .array = values.value else { return false }
        return true
    }
}
