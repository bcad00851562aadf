import Foundation

/// The tree `reqrun list --json` prints (documented in the README): every collection, group and request,
/// with ids and the `expanded` / `visible` flags of the outline it was made from.
///
/// `list` writes the same JSON straight from the outline (`Outline.writeJSON(workspace:to:)`) without making
/// this tree; it stays the shape to decode that JSON into (`Codable`), and what it should say.
public struct OutlineTree: Codable, Sendable, Equatable {
    public var workspace: String
    /// `saved` (the workspace's expanded set) or `transient` (`--all`: this listing only).
    public var expansion: String
    public var collections: [CollectionNode]

    public struct CollectionNode: Codable, Sendable, Equatable {
        public var name: String
        public var id: String?
        public var file: String
        public var requestCount: Int
        public var groups: [GroupNode]
    }

    public struct GroupNode: Codable, Sendable, Equatable {
        /// Lower-case UUID.
        public var id: String
        /// True when the id was derived from the file name and group path (no `id` in the file).
        public var idIsDerived: Bool
        public var name: String
        /// `Parent/Child`.
        public var path: String
        public var expanded: Bool
        /// Whether the group's row shows: every group above it is expanded.
        public var visible: Bool
        /// Requests in this group and below.
        public var requestCount: Int
        public var requests: [RequestNode]
        public var groups: [GroupNode]
    }

    public struct RequestNode: Codable, Sendable, Equatable {
        /// Position in list order across the workspace, from 0 (as in run records).
        public var index: Int
        public var id: String?
        public var name: String
        public var method: String
        /// The URL template, `{{name}}` unresolved.
        public var url: String
        /// Every group above it is expanded.
        public var visible: Bool
        /// Events (`prerequest`, `test`) whose scripts the request has of its own (run by `reqrun run`).
        public var skippedScripts: [String]?
    }

    public init(_ outline: Outline, workspace: Workspace) {
        self.workspace = workspace.root.path
        self.expansion = outline.expansion.source
        var index = 0
        func node(_ group: RequestGroup, parents: [String], parentVisible: Bool, parentsExpanded: Bool) -> GroupNode {
            let expanded = outline.isExpanded(group)
            let childrenVisible = parentsExpanded && expanded
            let path = parents + [group.name]
            // Indexes follow list order, which interleaves requests and nested groups when `itemOrder` says so.
            var requests: [RequestNode] = [], groups: [GroupNode] = []
            requests.reserveCapacity(group.requests.count)
            group.forEachItem(request: { request in
                requests.append(RequestNode(index: index, id: request.id, name: request.name, method: request.method,
                                            url: request.url, visible: childrenVisible,
                                            skippedScripts: request.scripts?.events))
                index += 1
            }, group: { child in
                groups.append(node(child, parents: path, parentVisible: childrenVisible, parentsExpanded: childrenVisible))
            })
            return GroupNode(id: group.id.lowercasedText, idIsDerived: group.idIsDerived, name: group.name,
                             path: path.joined(separator: "/"), expanded: expanded, visible: parentVisible,
                             requestCount: group.requestCount, requests: requests, groups: groups)
        }
        collections = outline.collections.map { collection in
            CollectionNode(name: collection.name, id: collection.id, file: collection.file,
                           requestCount: collection.groups.reduce(0) { $0 + $1.requestCount },
                           groups: collection.groups.map { node($0, parents: [], parentVisible: true, parentsExpanded: true) })
        }
    }
}
