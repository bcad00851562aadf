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

    /// Its group path and name joined by `/`, e.g. `httpbin.org/get`, as errors name a request.
    public var pathText: String { (groupPath + [request.name]).joined(separator: "/") }
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
    public func visibleRequests() -> [RequestReference] { Array(visibleSelection()) }

    /// The visible requests in list order, made one at a time (`RequestSelection`).
    public func visibleSelection() -> RequestSelection {
        selection { groups in groups.allSatisfy(isExpanded) }
    }

    /// Every request in or below the given groups, whatever the expansion (`reqrun run GROUP…`).
    public func requests(underGroups ids: Set<UUID>) -> [RequestReference] {
        Array(selection { groups in groups.contains { ids.contains($0.id) } })
    }

    /// Every request in the workspace (`reqrun run --all`).
    public func allRequests() -> [RequestReference] { Array(allSelection()) }

    /// Every request in the workspace, made one at a time (`RequestSelection`).
    public func allSelection() -> RequestSelection { selection { _ in true } }

    /// Walks requests in list order (a group's `items`: its own requests, then its nested groups, unless
    /// `itemOrder` interleaves them) keeping those whose chain of groups passes `include`; `index` numbers all
    /// requests, kept or not, so it is stable. Copies no request: the selection says where each one is.
    private func selection(_ include: ([RequestGroup]) -> Bool) -> RequestSelection {
        var chains: [RequestSelection.Chain] = []
        var stretches: [RequestSelection.Stretch] = []
        var index = 0, position = 0
        func walk(_ groups: [RequestGroup], chain: [RequestGroup], _ c: Int) {
            for group in groups {
                let groupChain = chain + [group]
                let keep = include(groupChain)
                let chain = chains.count
                if keep { chains.append(RequestSelection.Chain(collection: c, groups: groupChain, requests: group.requests)) }
                // Consecutive requests of the group (all of them, unless `itemOrder` puts groups between).
                var nextRequest = 0, nextGroup = 0
                func requests(_ count: Int) {
                    guard count > 0 else { return }
                    if keep {
                        stretches.append(RequestSelection.Stretch(chain: chain, first: nextRequest, count: count,
                                                                  position: position, listIndex: index))
                        position += count
                    }
                    index += count
                    nextRequest += count
                }
                guard let itemOrder = group.itemOrder else {
                    requests(group.requests.count)
                    walk(group.groups, chain: groupChain, c)
                    continue
                }
                var pending = 0
                for kind in itemOrder {
                    switch kind {
                    case .request: pending += 1
                    case .group:
                        requests(pending)
                        pending = 0
                        walk([group.groups[nextGroup]], chain: groupChain, c)
                        nextGroup += 1
                    }
                }
                requests(pending)
            }
        }
        for (c, collection) in collections.enumerated() { walk(collection.groups, chain: [], c) }
        return RequestSelection(collections: collections, chains: chains, stretches: stretches)
    }
}
