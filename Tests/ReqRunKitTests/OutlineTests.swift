import Foundation
import Testing
import ReqRunKit

@Suite struct OutlineTests {
    // A: r1, B (nested in A): r2, C (nested in B): r3; D (top level): r4.
    let c = RequestGroup(id: UUID(), name: "C", requests: [Request(url: "r3")])
    var b: RequestGroup { RequestGroup(id: UUID(uuidString: "00000000-0000-4000-8000-00000000000b")!, name: "B", requests: [Request(url: "r2")], groups: [c]) }
    var a: RequestGroup { RequestGroup(id: UUID(uuidString: "00000000-0000-4000-8000-00000000000a")!, name: "A", requests: [Request(url: "r1")], groups: [b]) }
    let d = RequestGroup(id: UUID(), name: "D", requests: [Request(url: "r4")])
    var collections: [RequestCollection] { [RequestCollection(name: "col", file: "f", groups: [a, d])] }

    private func urls(_ refs: [RequestReference]) -> [String] { refs.map(\.request.url) }

    @Test func requestIsVisibleOnlyWhenEveryGroupAboveIsExpanded() {
        #expect(urls(Outline(collections: collections, expansion: .saved([])).visibleRequests()) == [])
        #expect(urls(Outline(collections: collections, expansion: .saved([a.id])).visibleRequests()) == ["r1"])
        // B expanded under a collapsed A: nothing of B shows.
        #expect(urls(Outline(collections: collections, expansion: .saved([b.id, c.id])).visibleRequests()) == [])
        #expect(urls(Outline(collections: collections, expansion: .saved([a.id, b.id])).visibleRequests()) == ["r1", "r2"])
        #expect(urls(Outline(collections: collections, expansion: .saved([a.id, b.id, c.id, d.id])).visibleRequests())
                == ["r1", "r2", "r3", "r4"])
    }

    @Test func itemsFollowItemOrderOrRequestsThenGroups() {
        func names(_ group: RequestGroup) -> [String] {
            var visited: [String] = []
            group.forEachItem(request: { visited.append($0.url) }, group: { visited.append($0.name) })
            #expect(group.items.map { item in
                switch item {
                case .request(let request): return request.url
                case .group(let group): return group.name
                }
            } == visited)
            return visited
        }
        #expect(names(a) == ["r1", "B"])
        var interleaved = RequestGroup(id: UUID(), name: "P", requests: [Request(url: "x"), Request(url: "y")], groups: [c, d])
        interleaved.itemOrder = [.group, .request, .group, .request]
        #expect(names(interleaved) == ["C", "x", "D", "y"])
        #expect(names(RequestGroup(id: UUID(), name: "E")) == [])
    }

    /// `RequestSelection` says where each request is; a group whose requests stand between nested groups
    /// (`itemOrder`, as a Postman folder) keeps its own requests after each nested group, by subscript and by
    /// iteration alike.
    @Test func selectionFollowsItemOrderAcrossNestedGroups() {
        var p = RequestGroup(id: UUID(), name: "P", requests: [Request(url: "x"), Request(url: "y")], groups: [c, d])
        p.itemOrder = [.group, .request, .group, .request]
        let outline = Outline(collections: [RequestCollection(name: "col", file: "f", groups: [p, a])], expansion: .saved([p.id, d.id]))
        let all = outline.allSelection()
        let expected = ["r3", "x", "r4", "y", "r1", "r2", "r3"]
        #expect(all.map(\.request.url) == expected && all.indices.map { all[$0].request.url } == expected)
        #expect(all.map(\.groupPath) == [["P", "C"], ["P"], ["P", "D"], ["P"], ["A"], ["A", "B"], ["A", "B", "C"]])
        #expect(all.map(\.index) == Array(0..<7))
        let visible = outline.visibleSelection()
        #expect(visible.map(\.request.url) == ["x", "r4", "y"] && visible.map(\.index) == [1, 2, 3] && visible[2].request.url == "y")
    }

    /// `containsRequest` asks the selected requests only, where they are, in stretches and in arrays of references.
    @Test func selectionAsksOnlyItsOwnRequests() {
        let outline = Outline(collections: collections, expansion: .saved([a.id]))
        let visible = outline.visibleSelection()
        #expect(visible.map(\.request.url) == ["r1"])
        #expect(visible.containsRequest { $0.url == "r1" } && !visible.containsRequest { $0.url == "r2" })
        let all = outline.allSelection()
        #expect(all.containsRequest { $0.url == "r4" } && !all.containsRequest { $0.url == "r5" })
        let named = RequestSelection(outline.requests(underGroups: [b.id]))
        #expect(named.containsRequest { $0.url == "r3" } && !named.containsRequest { $0.url == "r1" })
    }

    @Test func groupSelectionIgnoresExpansionAndKeepsListOrder() {
        let outline = Outline(collections: collections, expansion: .saved([]))
        #expect(urls(outline.requests(underGroups: [b.id])) == ["r2", "r3"])
        #expect(urls(outline.requests(underGroups: [d.id, b.id])) == ["r2", "r3", "r4"])
        #expect(outline.requests(underGroups: [d.id]).map(\.index) == [3])
        #expect(urls(outline.allRequests()) == ["r1", "r2", "r3", "r4"])
    }

    @Test func treeFlagsExpandedAndVisible() {
        let tree = OutlineTree(Outline(collections: collections, expansion: .transient([a.id])), workspace: Workspace(root: URL(fileURLWithPath: "/w")))
        #expect(tree.expansion == "transient")
        let treeA = tree.collections[0].groups[0]
        #expect(treeA.expanded && treeA.visible && treeA.requests[0].visible)
        let treeB = treeA.groups[0]
        #expect(!treeB.expanded && treeB.visible && !treeB.requests[0].visible && treeB.path == "A/B")
        let treeC = treeB.groups[0]
        #expect(!treeC.visible && treeC.requests[0].index == 2)
        #expect(tree.collections[0].requestCount == 4)
    }
}

@Suite struct GroupResolverTests {
    let shared = UUID(uuidString: "11111111-2222-4333-8444-555555555555")!
    var collections: [RequestCollection] {
        [RequestCollection(name: "One", file: "a", groups: [
            RequestGroup(id: UUID(uuidString: "7bbd0224-3a31-4ba7-9dbb-b7138de7aaee")!, name: "httpbin.org",
                         groups: [RequestGroup(id: shared, name: "auth")]),
            RequestGroup(id: UUID(uuidString: "6df253c4-3c91-4712-a398-605c67b1e5b5")!, name: "echo",
                         groups: [RequestGroup(id: UUID(uuidString: "99999999-2222-4333-8444-555555555555")!, name: "auth")]),
        ])]
    }

    private func resolve(_ arguments: [String]) throws(SelectionError) -> [String] {
        try GroupResolver.resolve(arguments, in: collections).map(\.displayPath)
    }

    @Test func resolvesNamesPathsIDsAndPrefixes() throws {
        #expect(try resolve(["httpbin.org"]) == ["httpbin.org"])
        #expect(try resolve(["httpbin.org/auth"]) == ["httpbin.org/auth"])
        #expect(try resolve(["One/echo/auth"]) == ["echo/auth"])
        #expect(try resolve(["6DF253C4-3C91-4712-A398-605C67B1E5B5"]) == ["echo"])
        #expect(try resolve(["7bbd"]) == ["httpbin.org"])
        #expect(try resolve(["echo", "6df2"]) == ["echo"])
    }

    @Test func unknownNameSuggestsTheClosest() {
        #expect(throws: SelectionError.unknown(argument: "httpbn.org", suggestion: "httpbin.org")) { try resolve(["httpbn.org"]) }
        #expect(throws: SelectionError.unknown(argument: "zzz", suggestion: nil)) { try resolve(["zzz"]) }
    }

    @Test func sameNameInTwoPlacesListsEachCandidate() throws {
        let error = try #require(throws: SelectionError.self) { try resolve(["auth"]) }
        #expect(error == .ambiguous(argument: "auth", candidates: [
            "One: httpbin.org/auth (11111111-2222-4333-8444-555555555555)",
            "One: echo/auth (99999999-2222-4333-8444-555555555555)",
        ]))
        // An id prefix shared by two groups is ambiguous too.
        #expect(throws: SelectionError.self) { try resolve(["-2222"]) }
    }
}

@Suite struct OutlineTreeJSONTests {
    @Test func streamedJSONEqualsTheWholeText() throws {
        // Large enough for several 64 KiB chunks, with a name that needs escaping and non-ASCII text.
        let requests = (0..<3000).map { Request(id: "r\($0)", name: "req \"\($0)\" ü", method: "GET", url: "{{base}}/items/\($0)") }
        let group = RequestGroup(id: UUID(), name: "G", requests: requests)
        let outline = Outline(collections: [RequestCollection(name: "C", file: "c.json", groups: [group])], expansion: .saved([group.id]))
        let workspace = Workspace(root: URL(fileURLWithPath: "/w"))
        var chunks: [[UInt8]] = []
        outline.writeJSON(workspace: workspace) { chunks.append(Array($0)) }
        #expect(chunks.count > 1)
        #expect(chunks.allSatisfy { $0.count <= 65_536 })
        let whole = outline.jsonBytes(workspace: workspace)
        #expect(whole.count > 200_000)
        #expect(chunks.flatMap { $0 } == whole)
        #expect(try JSONDecoder().decode(OutlineTree.self, from: Data(whole)).collections[0].groups[0].requests[2999].url == "{{base}}/items/2999")
    }

    @Test func writerAgreesWithCodable() throws {
        let inner = RequestGroup(id: UUID(), idIsDerived: true, name: "in \"q\"", requests: [Request(id: "r", name: "n", method: "POST", url: "{{u}}/ü")])
        let outer = RequestGroup(id: UUID(), name: "out", requests: [Request(url: "u")], groups: [inner])
        let collections = [RequestCollection(name: "C", id: "c1", file: "collections/c.json", groups: [outer]),
                           RequestCollection(name: "D", file: "d.json", groups: [])]
        let outline = Outline(collections: collections, expansion: .saved([outer.id]))
        let workspace = Workspace(root: URL(fileURLWithPath: "/w"))
        let tree = OutlineTree(outline, workspace: workspace)
        let bytes = outline.jsonBytes(workspace: workspace)
        #expect(try JSONDecoder().decode(OutlineTree.self, from: Data(bytes)) == tree)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        #expect(try JSONSerialization.jsonObject(with: Data(bytes)) as? NSDictionary
                == JSONSerialization.jsonObject(with: encoder.encode(tree)) as? NSDictionary)
    }
}
