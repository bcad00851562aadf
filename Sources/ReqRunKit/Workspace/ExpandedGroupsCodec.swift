import Foundation

/// The seed's state-restoration codec: the expanded set as a `RawRepresentable` whose raw value is a JSON
/// array string, exactly what `@SceneStorage("expandedGroups")` stores in a SwiftUI app.
///
/// Improvements on the article's version: ids are encoded *sorted* (uppercase `uuidString`, the order of
/// `String` comparison), so the same set gives the same bytes in every process although `Set` iterates in
/// a per-process seeded order; and it encodes a sorted `[String]` rather than `self`, which avoids Apple
/// Foundation's recursion through `rawValue` for types that are both `Codable` and `RawRepresentable`.
extension Set: @retroactive RawRepresentable where Element == UUID {
    /// Reads a JSON array of UUID strings (either case; duplicates collapse).
    /// Returns nil for anything else: invalid JSON, another JSON type, an element that is not a UUID string.
    public init?(rawValue: String) {
        guard let root = try? JSONParser.parse(Array(rawValue.utf8)), case .array(let items) = root.value else {
            return nil
        }
        var ids = Set<UUID>()
        for item in items {
            guard case .string(let text) = item.value, let id = UUID(uuidString: text) else { return nil }
            ids.insert(id)
        }
        self = ids
    }

    /// A compact JSON array of the ids' `uuidString`s in ascending order, e.g. `["6DF2…","7BBD…"]`.
    public var rawValue: String {
        var text = "["
        for (i, id) in map(\.uuidString).sorted().enumerated() {
            if i > 0 { text += "," }
            JSONNode.appendQuoted(id, to: &text)
        }
        return text + "]"
    }
}
