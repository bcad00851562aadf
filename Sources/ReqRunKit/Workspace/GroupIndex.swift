import Foundation

/// One group with where it sits: its collection, the names from the top, and its field path in the file.
public struct GroupEntry: Sendable {
    public var group: RequestGroup
    /// Index of the collection in the loaded list.
    public var collectionIndex: Int
    public var collectionName: String
    /// Group names from the collection's top level down to this group.
    public var namePath: [String]
    /// The group's field path in its file, e.g. `groups[1].groups[0]`.
    public var fieldPath: String
    public var file: String

    /// `Parent/Child`, the form users type.
    public var displayPath: String { namePath.joined(separator: "/") }
}

/// Flattened views of the group trees of a workspace, in list order (depth first, file order).
public enum GroupIndex {
    /// Every group of every collection, parents before children.
    public static func entries(_ collections: [RequestCollection]) -> [GroupEntry] {
        var result: [GroupEntry] = []
        func walk(_ groups: [RequestGroup], _ c: Int, _ names: [String], _ path: String) {
            for (i, group) in groups.enumerated() {
                let fieldPath = path.isEmpty ? "groups[\(i)]" : "\(path).groups[\(i)]"
                result.append(GroupEntry(group: group, collectionIndex: c, collectionName: collections[c].name,
                                         namePath: names + [group.name], fieldPath: fieldPath, file: collections[c].file))
                walk(group.groups, c, names + [group.name], fieldPath)
            }
        }
        for (c, collection) in collections.enumerated() { walk(collection.groups, c, [], "") }
        return result
    }

    /// - Throws: `InputError` at the second group that reuses an id, naming the first one's place too.
    public static func checkUniqueIDs(_ collections: [RequestCollection]) throws(InputError) {
        var seen: [UUID: GroupEntry] = [:]
        for entry in entries(collections) {
            if let first = seen[entry.group.id] {
                if entry.group.idIsDerived && first.group.idIsDerived {
                    throw InputError(
                        file: entry.file, location: entry.group.location, fieldPath: entry.fieldPath,
                        reason: "a second group '\(entry.displayPath)' in '\(entry.collectionName)' (the first is at \(first.file):\(first.group.location)); "
                            + "groups without an 'id' are told apart by their file and path, so rename one or give it an \"id\"")
                }
                throw InputError(
                    file: entry.file, location: entry.group.location, fieldPath: entry.fieldPath,
                    reason: "group '\(entry.displayPath)' has the id \(entry.group.id.lowercasedText), which group "
                        + "'\(first.displayPath)' already uses at \(first.file):\(first.group.location) (\(first.fieldPath)); "
                        + "group ids must be unique in a workspace")
            }
            seen[entry.group.id] = entry
        }
    }
}
