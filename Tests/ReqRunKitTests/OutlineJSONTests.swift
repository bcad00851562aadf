import Foundation
import Testing
@testable import ReqRunKit

/// `list --json` is written from the collections as it walks them (issue 17 §1), with the bytes the
/// `OutlineTree` writer wrote before.
@Suite struct OutlineJSONTests {
    static func uuid(_ n: Int) -> UUID { UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", n))! }

    /// Nested groups, a collapsed group above an expanded one, requests and groups interleaved
    /// (`itemOrder`), scripts, empty groups and collections, and text that needs escaping.
    static var sample: Outline {
        let deep = RequestGroup(id: uuid(3), name: "deep", requests: [Request(url: "y")])
        let inner = RequestGroup(id: uuid(2), idIsDerived: true, name: "in \"q\"", requests: [Request(url: "x")], groups: [deep])
        let outer = RequestGroup(id: uuid(1), name: "out", requests: [
            Request(id: "r1", name: "n \"q\" ü\ttab\u{1}", method: "POST", url: "{{u}}/ü"),
            Request(url: "u", scripts: SkippedScripts(events: ["prerequest", "test"])),
        ], groups: [inner])
        let sub = RequestGroup(id: uuid(5), name: "sub", requests: [Request(url: "s1"), Request(url: "s2")])
        let mixed = RequestGroup(id: uuid(4), name: "mixed", requests: [Request(url: "a"), Request(url: "b")], groups: [sub],
                                 itemOrder: [.request, .group, .request])
        let empty = RequestGroup(id: uuid(6), name: "empty")
        let collections = [RequestCollection(name: "C", id: "c1", file: "collections/c.json", groups: [outer, mixed, empty]),
                           RequestCollection(name: "D", file: "d.json", groups: [])]
        return Outline(collections: collections, expansion: .saved([uuid(1), uuid(3), uuid(4), uuid(5), uuid(6)]))
    }

    /// What the `OutlineTree` writer wrote for `sample` before `list` stopped making the tree (its output at
    /// 89e51a3), byte for byte.
    static let sampleJSON = #"""
        {
          "collections": [
            {
              "file": "collections/c.json",
              "groups": [
                {
                  "expanded": true,
                  "groups": [
                    {
                      "expanded": false,
                      "groups": [
                        {
                          "expanded": true,
                          "groups": [],
                          "id": "00000000-0000-4000-8000-000000000003",
                          "idIsDerived": false,
                          "name": "deep",
                          "path": "out/in \"q\"/deep",
                          "requestCount": 1,
                          "requests": [
                            {
                              "index": 3,
                              "method": "GET",
                              "name": "y",
                              "url": "y",
                              "visible": false
                            }
                          ],
                          "visible": false
                        }
                      ],
                      "id": "00000000-0000-4000-8000-000000000002",
                      "idIsDerived": true,
                      "name": "in \"q\"",
                      "path": "out/in \"q\"",
                      "requestCount": 2,
                      "requests": [
                        {
                          "index": 2,
                          "method": "GET",
                          "name": "x",
                          "url": "x",
                          "visible": false
                        }
                      ],
                      "visible": true
                    }
                  ],
                  "id": "00000000-0000-4000-8000-000000000001",
                  "idIsDerived": false,
                  "name": "out",
                  "path": "out",
                  "requestCount": 4,
                  "requests": [
                    {
                      "id": "r1",
                      "index": 0,
                      "method": "POST",
                      "name": "n \"q\" ü\ttab\u0001",
                      "url": "{{u}}/ü",
                      "visible": true
                    },
                    {
                      "index": 1,
                      "method": "GET",
                      "name": "u",
                      "skippedScripts": [
                        "prerequest",
                        "test"
                      ],
                      "url": "u",
                      "visible": true
                    }
                  ],
                  "visible": true
                },
                {
                  "expanded": true,
                  "groups": [
                    {
                      "expanded": true,
                      "groups": [],
                      "id": "00000000-0000-4000-8000-000000000005",
                      "idIsDerived": false,
                      "name": "sub",
                      "path": "mixed/sub",
                      "requestCount": 2,
                      "requests": [
                        {
                          "index": 5,
                          "method": "GET",
                          "name": "s1",
                          "url": "s1",
                          "visible": true
                        },
                        {
                          "index": 6,
                          "method": "GET",
                          "name": "s2",
                          "url": "s2",
                          "visible": true
                        }
                      ],
                      "visible": true
                    }
                  ],
                  "id": "00000000-0000-4000-8000-000000000004",
                  "idIsDerived": false,
                  "name": "mixed",
                  "path": "mixed",
                  "requestCount": 4,
                  "requests": [
                    {
                      "index": 4,
                      "method": "GET",
                      "name": "a",
                      "url": "a",
                      "visible": true
                    },
                    {
                      "index": 7,
                      "method": "GET",
                      "name": "b",
                      "url": "b",
                      "visible": true
                    }
                  ],
                  "visible": true
                },
                {
                  "expanded": true,
                  "groups": [],
                  "id": "00000000-0000-4000-8000-000000000006",
                  "idIsDerived": false,
                  "name": "empty",
                  "path": "empty",
                  "requestCount": 0,
                  "requests": [],
                  "visible": true
                }
              ],
              "id": "c1",
              "name": "C",
              "requestCount": 8
            },
            {
              "file": "d.json",
              "groups": [],
              "name": "D",
              "requestCount": 0
            }
          ],
          "expansion": "saved",
          "workspace": "/w"
        }
        """#

    @Test func theBytesAreThoseTheTreeWrote() {
        let bytes = Self.sample.jsonBytes(workspace: Workspace(root: URL(fileURLWithPath: "/w")))
        #expect(String(decoding: bytes, as: UTF8.self) == Self.sampleJSON + "\n")
    }

    /// A generated workspace of nested, interleaved and collapsed groups says what its `OutlineTree` says.
    @Test func aGeneratedWorkspaceSaysWhatItsTreeSays() throws {
        var serial = 100
        func group(_ depth: Int, _ seed: Int) -> RequestGroup {
            serial += 1
            let requests = (0..<(seed % 4)).map { Request(id: $0 % 2 == 0 ? "r\(serial)-\($0)" : nil, url: "u\(serial)/\($0)",
                                                           scripts: $0 == 2 ? SkippedScripts(events: ["test"]) : nil) }
            let groups = depth < 3 ? (0..<(seed % 3)).map { group(depth + 1, seed * 7 + $0) } : []
            let order: [RequestGroup.ItemKind]? = seed % 2 == 0 || groups.isEmpty ? nil
                : Array(repeating: .group, count: groups.count) + Array(repeating: .request, count: requests.count)
            return RequestGroup(id: Self.uuid(serial), idIsDerived: seed % 5 == 0, name: "g\(serial)", requests: requests, groups: groups,
                                itemOrder: order)
        }
        let collections = (0..<3).map { c in RequestCollection(name: "C\(c)", file: "c\(c).json", groups: (0..<4).map { group(0, c * 4 + $0 + 1) }) }
        let expanded = Set(GroupIndex.entries(collections).map(\.group.id).filter { $0.uuidString.last.map { "02468".contains($0) } ?? false })
        let outline = Outline(collections: collections, expansion: .saved(expanded))
        let workspace = Workspace(root: URL(fileURLWithPath: "/w"))
        let tree = OutlineTree(outline, workspace: workspace)
        #expect(tree.collections.reduce(0) { $0 + $1.requestCount } > 30)
        #expect(try JSONDecoder().decode(OutlineTree.self, from: Data(outline.jsonBytes(workspace: workspace))) == tree)
    }

    /// Found in review: groups nested 31 deep or more (the collection format allows any depth) made
    /// `list --json` stop on JSONWriter's 64-level precondition (SIGILL). Each level is indented two more
    /// spaces, also past the 64 levels of its separator literal.
    @Test func deeplyNestedGroupsAreWrittenAtAnyDepth() throws {
        var group = RequestGroup(id: Self.uuid(100), name: "g100", requests: [Request(url: "deepest")])
        for n in (1..<100).reversed() { group = RequestGroup(id: Self.uuid(n), name: "g\(n)", groups: [group]) }
        let outline = Outline(collections: [RequestCollection(name: "C", file: "c.json", groups: [group])],
                              expansion: .transient(Outline.allGroupIDs([RequestCollection(name: "C", file: "c.json", groups: [group])])))
        let bytes = outline.jsonBytes(workspace: Workspace(root: URL(fileURLWithPath: "/w")))
        var node = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        node = try #require((node["collections"] as? [[String: Any]])?.first)
        for n in 1...100 {
            node = try #require((node["groups"] as? [[String: Any]])?.first)
            #expect(node["name"] as? String == "g\(n)")
        }
        #expect(((node["requests"] as? [[String: Any]])?.first?["url"] as? String) == "deepest")
        // Pretty: the deepest request's url line is indented two spaces a level.
        let line = try #require(String(decoding: bytes, as: UTF8.self).split(separator: "\n").first { $0.contains("\"deepest\"") })
        #expect(line.prefix { $0 == " " }.count == 2 * 205)
    }

}
