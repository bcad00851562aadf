import Foundation

/// What one `reqrun run` argument names: a group, a collection or a request.
public enum RunTarget: Sendable {
    case group(GroupEntry)
    /// A collection's name; every collection of that name.
    case collection(String)
    case request(RequestReference)

    /// How the target is recorded (`RunSelection.named`): the group's path, the collection's name, the
    /// request's `Collection/Group/Name`.
    public var displayPath: String {
        switch self {
        case .group(let entry): return entry.displayPath
        case .collection(let name): return name
        case .request(let reference): return ([reference.collectionName] + reference.groupPath + [reference.request.name]).joined(separator: "/")
        }
    }
}

/// Finds what `reqrun run NAME…` means by each argument. Rules, in order; the first kind that matches wins:
/// 1. a group, by `GroupResolver`'s rules (full id, path, name, id prefix), so every argument that named a
///    group before still does;
/// 2. a collection, by its name;
/// 3. a request, by `RequestResolver`'s rules (list index `#3`, path `Group/Sub/Name` optionally starting
///    with the collection's name, unique name).
public enum RunTargetResolver {
    /// - Returns: the targets in argument order (duplicates collapse) and their requests in list order,
    ///   each once.
    /// - Throws: `SelectionError.unknownTarget` with the closest collection, group and request names;
    ///   `.ambiguous` or `.ambiguousRequest` when a group or request name matches several.
    public static func resolve(_ arguments: [String], in collections: [RequestCollection])
        throws(SelectionError) -> (targets: [RunTarget], references: [RequestReference]) {
        let entries = GroupIndex.entries(collections)
        let outline = Outline(collections: collections, expansion: .transient(Outline.allGroupIDs(collections)))
        var targets: [RunTarget] = []
        var groupIDs: Set<UUID> = []
        var collectionNames: Set<String> = []
        var requestIndices: Set<Int> = []
        for argument in arguments {
            let groups = GroupResolver.candidates(for: argument, in: entries)
            if groups.count == 1 {
                if groupIDs.insert(groups[0].group.id).inserted { targets.append(.group(groups[0])) }
                continue
            }
            if groups.count > 1 { _ = try GroupResolver.resolve([argument], in: collections) }  // throws .ambiguous
            if collections.contains(where: { $0.name == argument }) {
                if collectionNames.insert(argument).inserted { targets.append(.collection(argument)) }
                continue
            }
            do {
                let reference = try RequestResolver.resolve(argument, in: outline)
                if requestIndices.insert(reference.index).inserted { targets.append(.request(reference)) }
            } catch .unknownRequest {
                let requests = outline.allSelection()
                let requestNames = requests.map(\.request.name) + requests.map { ($0.groupPath + [$0.request.name]).joined(separator: "/") }
                throw .unknownTarget(argument: argument,
                                     collection: Suggestion.closest(to: argument, among: collections.map(\.name)),
                                     group: Suggestion.closest(to: argument, among: entries.map(\.group.name) + entries.map(\.displayPath)),
                                     request: Suggestion.closest(to: argument, among: requestNames))
            }
        }
        let references = outline.allSelection().filter { reference in
            requestIndices.contains(reference.index) || collectionNames.contains(reference.collectionName)
                || reference.groups.contains { groupIDs.contains($0.id) }
        }
        return (targets, references)
    }
}
