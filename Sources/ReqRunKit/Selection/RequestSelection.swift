/// The requests a command selects, in list order, made one at a time from the collections instead of held as
/// copies: a `RequestReference` holds its own copy of the `Request` struct (about 600 bytes), so an array of
/// them for 1,000,000 requests took some 600 MB beyond the collections themselves (issue 17 §1).
///
/// Holds, per stretch of consecutive selected requests of one group, where they are (the group's chain from
/// the top and the position of the first in `RequestGroup.requests`): memory grows with the number of groups,
/// not of requests. `subscript` and iteration make each reference when it is asked for (a binary search over
/// the stretches for `subscript`; none for iteration). A selection made from an array of references
/// (`init(_:)`, for the named requests of `reqrun run NAME…` or a shard) holds that array.
public struct RequestSelection: RandomAccessCollection, Sendable {
    /// A group with the groups above it: what its requests' references share.
    struct Chain: Sendable {
        var collection: Int
        /// From the top down to the group holding the requests.
        var groups: [RequestGroup]
        /// `groups.last!.requests`, kept apart so that making a reference copies no group.
        var requests: [Request]
    }

    /// `count` selected requests of `chains[chain]` one after another in list order: `requests[first...]`,
    /// the first at `position` of the selection and numbered `listIndex` in the workspace.
    struct Stretch: Sendable {
        var chain: Int
        var first: Int
        var count: Int
        var position: Int
        var listIndex: Int
    }

    private enum Storage: Sendable {
        case stretches(collections: [RequestCollection], chains: [Chain], stretches: [Stretch], count: Int)
        case references([RequestReference])
    }

    private let storage: Storage

    /// The given references, in their order.
    public init(_ references: [RequestReference]) { storage = .references(references) }

    init(collections: [RequestCollection], chains: [Chain], stretches: [Stretch]) {
        storage = .stretches(collections: collections, chains: chains, stretches: stretches,
                             count: stretches.last.map { $0.position + $0.count } ?? 0)
    }

    /// The same selection in arrays of its own, for another thread (`DryRunChunks`): the buffers of the stretches, the
    /// chains and the collections, and each collection's name and variables, which every reference made retains and
    /// releases. Shared by two threads, those reference counts moved between the cores at every request (callgrind
    /// cannot show it; `perf` at 1,000,000 requests: `swift_retain` and `swift_release` twice as long).
    func unshared() -> RequestSelection {
        guard case .stretches(let collections, let chains, let stretches, _) = storage else { return self }
        let ownCollections = collections.map { collection in
            var copy = collection
            copy.groups = []  // not read by `reference`: the chains hold the groups
            copy.name = String(decoding: Array(collection.name.utf8), as: UTF8.self)
            copy.variables = collection.variables.map { $0 }
            return copy
        }
        return RequestSelection(collections: ownCollections, chains: chains.map { $0 }, stretches: stretches.map { $0 })
    }

    public var startIndex: Int { 0 }

    public var endIndex: Int {
        switch storage {
        case .stretches(_, _, _, let count): return count
        case .references(let references): return references.count
        }
    }

    /// The reference at `position` of the selection (from 0; not its list index).
    public subscript(position: Int) -> RequestReference {
        switch storage {
        case .references(let references):
            return references[position]
        case .stretches(let collections, let chains, let stretches, _):
            precondition(position >= 0 && position < endIndex, "RequestSelection index out of range")
            let low = Self.stretchIndex(of: position, stretches)
            return Self.reference(stretches[low], position - stretches[low].position, collections, chains)
        }
    }

    private static func reference(_ stretch: Stretch, _ offset: Int, _ collections: [RequestCollection],
                                  _ chains: [Chain]) -> RequestReference {
        let chain = chains[stretch.chain]
        let collection = collections[chain.collection]
        return RequestReference(index: stretch.listIndex + offset, collectionIndex: chain.collection, collectionName: collection.name,
                                collectionVariables: collection.variables, collectionAuth: collection.auth,
                                groups: chain.groups, request: chain.requests[stretch.first + offset],
                                collectionRules: collection.compat)
    }

    /// Whether a selected request satisfies `predicate`, asked of each request where it is in its group's array: no
    /// reference is made (each would copy the request and its group chain), and no request is copied (the slice's
    /// `contains(where:)` copied each one out, retaining its fields: `perf`, `run --all --dry-run --json` on 1,000,000
    /// requests, 2.2 % of the samples in `Request`'s copy under it).
    public func containsRequest(where predicate: (Request) -> Bool) -> Bool {
        switch storage {
        case .references(let references):
            return references.contains { predicate($0.request) }
        case .stretches(_, let chains, let stretches, _):
            return stretches.contains { stretch in
                chains[stretch.chain].requests.withUnsafeBufferPointer { requests in
                    for i in stretch.first..<(stretch.first + stretch.count) where predicate(requests[i]) { return true }
                    return false
                }
            }
        }
    }

    /// The requests of the stretch that holds `position` (consecutive selected requests of one group), where they
    /// are: the group's array (`RequestGroup.requests`), the offsets in it from `position`'s request to the stretch's
    /// last, the list index of `position`'s request and the stretch's group chain (`chain`, the same for the
    /// stretches of one group); nil for a selection of references (`init(_:)`). For `DryRunEntry.Planner.writeElements`,
    /// which reads each request in place instead of making its reference (`subscript`: some 900 instructions a
    /// request with the reference's destruction, callgrind).
    func requests(at position: Int) -> (requests: [Request], offsets: Range<Int>, listIndex: Int, chain: Int)? {
        guard case .stretches(_, let chains, let stretches, _) = storage else { return nil }
        precondition(position >= 0 && position < endIndex, "RequestSelection index out of range")
        let stretch = stretches[Self.stretchIndex(of: position, stretches)]
        let offset = position - stretch.position
        return (chains[stretch.chain].requests, (stretch.first + offset)..<(stretch.first + stretch.count), stretch.listIndex + offset,
                stretch.chain)
    }

    /// The index of the last stretch that starts at or before `position`.
    private static func stretchIndex(of position: Int, _ stretches: [Stretch]) -> Int {
        var low = 0, high = stretches.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if stretches[middle].position <= position { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// Walks the stretches in order, without the search of `subscript`.
    public struct Iterator: IteratorProtocol {
        fileprivate let selection: RequestSelection
        fileprivate var stretch = 0
        fileprivate var offset = 0
        fileprivate var position = 0

        public mutating func next() -> RequestReference? {
            switch selection.storage {
            case .references(let references):
                guard position < references.count else { return nil }
                position += 1
                return references[position - 1]
            case .stretches(let collections, let chains, let stretches, _):
                while stretch < stretches.count, offset == stretches[stretch].count { stretch += 1; offset = 0 }
                guard stretch < stretches.count else { return nil }
                offset += 1
                return RequestSelection.reference(stretches[stretch], offset - 1, collections, chains)
            }
        }
    }

    public func makeIterator() -> Iterator { Iterator(selection: self) }
}
