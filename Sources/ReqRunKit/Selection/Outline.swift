import Foundation

/// Where one command's expanded set comes from — the seed's first lesson, as two clear cases rather than
/// an optional store whose `nil` means something hidden.
public enum Expansion: Sendable, Equatable {
    /// Owned outside the command, by the workspace: the saved set (`StateStore`), like a `DisclosureGroup`
    /// given an `isExpanded` binding. `reqrun list`, `reqrun run --expanded`.
    case saved(Set<UUID>)
    /// Owned by this command alone and never saved, like a `DisclosureGroup`'s own `@State`:
    /// `reqrun list --all` expands everything for one listing without touching the saved state.
    case transient(Set<UUID>)

    /// The expanded group ids.
    public var expanded: Set<UUID> {
        switch self {
        case .saved(let ids), .transient(let ids): return ids
        }
    }

    /// `"saved"` or `"transient"`, as in `reqrun list --json`.
    public var source: String {
        switch self {
        case .saved: return "saved"
        case .transient: return "transient"
        }
    }
}

/// A request with its place in the workspace, in list order.
public struct RequestReference: Sendable {
    /// Position in list order across the whole workspace, from 0.
    public var index: Int
    public var collectionIndex: Int
    public var collectionName: String
    /// Collection variables (lowest precedence when resolving `{{name}}`).
    public var collectionVariables: [Variable]
    /// The collection's auth, inherited when neither the request nor its groups set one.
    public var collectionAuth: Auth?
    /// Groups from the top down to the one holding the request.
    public var groups: [RequestGroup]
    public var request: Request
    /// The request rules of its collection (`RequestCollection.compat`); nil: the run's.
    public var collectionRules: RequestRules? = nil

    /// Group names from the top, e.g. `["httpbin.org"]`.
    public var groupPath: [String] { groups.map(\.name) }
}

/// The workspace's collections seen through an expanded set: what is visible and what a selection holds.
///
/// Pure: no I/O. A request is *visible* when every group above it is expanded.
public struct Outline: Sendable {
    public let collections: [RequestCollection]
    public let expansion: Expansion

    public init(collections: [RequestCollection], expansion: Expansion) {
        self.collections = collections
        self.expansion = expansion
    }

    /// Every group id in the workspace (what `--all` expands).
    public static func allGroupIDs(_ collections: [RequestCollection]) -> Set<UUID> {
        Set(GroupIndex.entries(collections).map(\.group.id))
    }

    public func isExpanded(_ group: RequestGroup) -> Bool { expansion.expanded.contains(group.id) }

    /// The visible requests in list order (`reqrun run --expanded`).
    public func visibleRequests() -> [RequestReference] {
        references { groups in groups.allSatisfy(isExpanded) }
    }

    /// Every request in or below the given groups, whatever the expansion (`reqrun run GROUP…`).
    public func requests(underGroups ids: Set<UUID>) -> [RequestReference] {
        references { groups in groups.contains { ids.contains($0.id) } }
    }

    /// Every request in the workspace (`reqrun run --all`).
    public func allRequests() -> [RequestReference] { references { _ in true } }

    /// Walks requests in list order (a group's `items`: its own requests, then its nested groups, unless
    /// `itemOrder` interleaves them) keeping those whose chain of groups passes `include`; `index` numbers all requests, kept or not, so it is stable.
    private func references(_ include: ([RequestGroup]) -> Bool) -> [RequestReference] {
        var result: [RequestReference] = []
        result.reserveCapacity(collections.reduce(0) { $0 + $1.groups.reduce(0) { $0 + $1.requestCount } })
        var index = 0
        func walk(_ groups: [RequestGroup], chain: [RequestGroup], _ c: Int) {
            for group in groups {
                let groupChain = chain + [group]
                let keep = include(groupChain)
                // Item by item, without building the group's `items` array (a copy of each request).
                group.forEachItem(request: { request in
                    if keep {
                        result.append(RequestReference(index: index, collectionIndex: c, collectionName: collections[c].name,
                                                       collectionVariables: collections[c].variables,
                                                       collectionAuth: collections[c].auth,
                                                       groups: groupChain, request: request, collectionRules: collections[c].compat))
                    }
                    index += 1
                }, group: { child in walk([child], chain: groupChain, c) })
            }
        }
        for (c, collection) in collections.enumerated() { walk(collection.groups, chain: [], c) }
        return result
    }
}
