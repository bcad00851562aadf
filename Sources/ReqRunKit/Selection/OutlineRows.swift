import Foundation

/// One row of the outline as `reqrun list` draws it: a collection, a group (`▸` collapsed, `▾` expanded, with
/// its request count) or a request under an expanded group.
public struct OutlineRow: Sendable {
    public enum Kind: Sendable {
        /// A collection's heading; `index` is its position in `Outline.collections`.
        case collection(index: Int)
        /// A group and its path of names from the top (`Parent/Child`).
        case group(RequestGroup, path: [String])
        /// A visible request.
        case request(RequestReference)
    }

    public var kind: Kind
    /// 0 for a collection, 1 for a top-level group or one of its requests, and so on.
    public var depth: Int
    /// Whether a group row shows open: its saved or transient expansion, or, while filtering, because
    /// something below it matches.
    public var expanded: Bool
    /// Index of the row of the group or collection holding this row (nil for a collection).
    public var parent: Int?

    /// The group's id, for a group row.
    public var groupID: UUID? {
        if case .group(let group, _) = kind { return group.id }
        return nil
    }
}

extension Outline {
    /// The rows `reqrun list` shows, in list order: each collection, its groups, and the requests of every
    /// expanded group whose groups above are expanded too (`isExpanded`). A collapsed group's requests are
    /// counted in list order all the same, so each request keeps the `index` it has in run records.
    ///
    /// - Parameter filter: when set, only requests whose name contains it (ignoring case) and groups whose
    ///   name contains it, with the groups above them shown open for this call (nothing is saved); a group
    ///   that matches shows as it is saved.
    public func rows(matching filter: String? = nil) -> [OutlineRow] {
        let needle = filter.flatMap { $0.isEmpty ? nil : $0.lowercased() }
        var rows: [OutlineRow] = []
        var index = 0
        func matches(_ text: String) -> Bool { needle.map { text.lowercased().contains($0) } ?? true }

        /// Appends the group's rows; returns whether any were appended (while filtering, none for a group
        /// with nothing matching in or below it).
        @discardableResult
        func walk(_ group: RequestGroup, chain: [RequestGroup], depth: Int, parent: Int?, collection c: Int, forced: Bool) -> Bool {
            let groupChain = chain + [group]
            let own = rows.count
            let groupMatches = needle != nil && matches(group.name)
            let showAll = needle == nil || forced || groupMatches
            rows.append(OutlineRow(kind: .group(group, path: groupChain.map(\.name)), depth: depth, expanded: isExpanded(group), parent: parent))
            // Open when saved so, or while filtering when something below matches (set below).
            let open = needle == nil || groupMatches || forced ? isExpanded(group) : true
            guard open else {
                index += group.requestCount
                return true
            }
            var any = false
            group.forEachItem(request: { request in
                if showAll || matches(request.name) {
                    rows.append(OutlineRow(kind: .request(RequestReference(index: index, collectionIndex: c, collectionName: collections[c].name,
                                                                           collectionVariables: collections[c].variables,
                                                                           collectionAuth: collections[c].auth, groups: groupChain, request: request,
                                                                           collectionRules: collections[c].compat)),
                                           depth: depth + 1, expanded: false, parent: own))
                    any = true
                }
                index += 1
            }, group: { child in
                if walk(child, chain: groupChain, depth: depth + 1, parent: own, collection: c, forced: showAll && needle != nil) { any = true }
            })
            if needle != nil, !groupMatches, !forced {
                if !any {
                    rows.removeLast(rows.count - own)
                    return false
                }
                rows[own].expanded = true
            }
            return true
        }

        for (c, collection) in collections.enumerated() {
            let own = rows.count
            rows.append(OutlineRow(kind: .collection(index: c), depth: 0, expanded: true, parent: nil))
            var any = false
            for group in collection.groups where walk(group, chain: [], depth: 1, parent: own, collection: c, forced: false) { any = true }
            if needle != nil, !any, !matches(collection.name) { rows.removeLast(rows.count - own) }
        }
        return rows
    }
}
