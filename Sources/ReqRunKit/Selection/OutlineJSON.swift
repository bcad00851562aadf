import Foundation

/// `reqrun list --json`: the outline as the JSON of an `OutlineTree` (documented in the README), written
/// straight from the collections as they are walked, without building the tree.
///
/// The tree held a node of every request (about 90 bytes each) for the length of the listing: on
/// 1,000,000 requests some 90 MB more than the collection itself, which issue 17 §1 asks `list` to do
/// without. The bytes are those the tree's writer wrote (`OutlineJSONTests`): keys in sorted order, two-space
/// indentation (`JSONWriter`), an absent id left out, and each request's `index` in list order across the
/// workspace — so a group's nested groups, which sort before its `requests`, are written knowing where each
/// one's requests start.
extension Outline {
    /// The listing as pretty JSON ending in a line feed, as one array (tests; `list` streams it).
    public func jsonBytes(workspace: Workspace) -> [UInt8] {
        var w = JSONWriter()
        write(&w, workspace: workspace.root.path)
        return w.finish()
    }

    /// The same bytes as `jsonBytes(workspace:)`, passed to `sink` in order through a 64 KiB buffer (on
    /// 100,000 requests the text is 20 MB, whose growing buffer had cost thousands of page faults).
    public func writeJSON(workspace: Workspace, to sink: @escaping (UnsafeRawBufferPointer) -> Void) {
        var w = JSONWriter(sink: sink)
        write(&w, workspace: workspace.root.path)
        w.finishToSink()
    }

    private func write(_ w: inout JSONWriter, workspace: String) {
        var first = 0
        w.object { w in
            w.field("collections", collections) { w, collection in
                var next = first
                w.object { w in
                    w.field("file", collection.file)
                    w.field("groups", collection.groups) { w, group in
                        writeGroup(group, &w, first: next, parentPath: nil, visible: true, parentsExpanded: true)
                        next += group.requestCount
                    }
                    w.field("id", collection.id)
                    w.field("name", collection.name)
                    w.field("requestCount", next - first)
                }
                first = next
            }
            w.field("expansion", expansion.source)
            w.field("workspace", workspace)
        }
    }

    /// - Parameters:
    ///   - first: the list-order index of the group's first request (in or below it).
    ///   - visible: whether the group's row shows (every group above is expanded).
    private func writeGroup(_ group: RequestGroup, _ w: inout JSONWriter, first: Int, parentPath: String?,
                            visible: Bool, parentsExpanded: Bool) {
        let expanded = isExpanded(group)
        let childrenVisible = parentsExpanded && expanded
        let path = parentPath.map { $0 + "/" + group.name } ?? group.name
        // Where each nested group's requests start and, when `itemOrder` interleaves the items, each request's
        // index; otherwise the requests come first, request i at `first + i`.
        var groupStarts: [Int] = []
        groupStarts.reserveCapacity(group.groups.count)
        var requestIndexes: [Int]? = nil
        var next = first
        if group.itemOrder == nil {
            next += group.requests.count
            for child in group.groups {
                groupStarts.append(next)
                next += child.requestCount
            }
        } else {
            var indexes: [Int] = []
            indexes.reserveCapacity(group.requests.count)
            group.forEachItem(request: { _ in
                indexes.append(next)
                next += 1
            }, group: { child in
                groupStarts.append(next)
                next += child.requestCount
            })
            requestIndexes = indexes
        }
        w.object { w in
            w.field("expanded", expanded)
            w.field("groups", group.groups.indices) { w, i in
                writeGroup(group.groups[i], &w, first: groupStarts[i], parentPath: path, visible: childrenVisible,
                           parentsExpanded: childrenVisible)
            }
            w.field("id", group.id.lowercasedText)
            w.field("idIsDerived", group.idIsDerived)
            w.field("name", group.name)
            w.field("path", path)
            w.field("requestCount", next - first)
            w.field("requests", group.requests.indices) { w, i in
                let request = group.requests[i]
                w.object { w in
                    w.field("id", request.id)
                    w.field("index", requestIndexes?[i] ?? first + i)
                    w.field("method", request.method)
                    w.field("name", request.name)
                    if let scripts = request.scripts { w.field("skippedScripts", scripts.events) { w, s in w.string(s) } }
                    w.field("url", request.url)
                    w.field("visible", childrenVisible)
                }
            }
            w.field("visible", visible)
        }
    }
}
