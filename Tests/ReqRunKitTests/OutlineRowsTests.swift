import Foundation
import Testing
import ReqRunKit

/// `Outline.rows`: the rows `reqrun list` and `reqrun ui` show, from the same visibility rule.
@Suite struct OutlineRowsTests {
    // A: r1, B (nested in A): r2; D (top level): r4.
    let b = RequestGroup(id: UUID(uuidString: "00000000-0000-4000-8000-00000000000b")!, name: "B", requests: [Request(name: "two", url: "r2")])
    var a: RequestGroup { RequestGroup(id: UUID(uuidString: "00000000-0000-4000-8000-00000000000a")!, name: "A", requests: [Request(name: "one", url: "r1")], groups: [b]) }
    let d = RequestGroup(id: UUID(uuidString: "00000000-0000-4000-8000-00000000000d")!, name: "D", requests: [Request(name: "four", url: "r4")])
    var collections: [RequestCollection] { [RequestCollection(name: "col", file: "f", groups: [a, d])] }

    /// `C col`, `G A +` (expanded), `R one #0`…, with depth as indentation.
    private func text(_ rows: [OutlineRow]) -> [String] {
        rows.map { row in
            let indent = String(repeating: " ", count: row.depth)
            switch row.kind {
            case .collection: return "C col"
            case .group(let group, _): return "\(indent)G \(group.name)\(row.expanded ? " +" : "")"
            case .request(let reference): return "\(indent)R \(reference.request.name) #\(reference.index)"
            }
        }
    }

    @Test func rowsFollowTheExpandedSetAndKeepListIndexes() {
        #expect(text(Outline(collections: collections, expansion: .saved([])).rows()) == ["C col", " G A", " G D"])
        // D's request keeps index 2 although A's two requests are hidden.
        #expect(text(Outline(collections: collections, expansion: .saved([d.id])).rows()) == ["C col", " G A", " G D +", "  R four #2"])
        let open = Outline(collections: collections, expansion: .saved([a.id, b.id]))
        #expect(text(open.rows()) == ["C col", " G A +", "  R one #0", "  G B +", "   R two #1", " G D"])
        // Each row's parent is the row of the group (or collection) holding it.
        #expect(open.rows().map(\.parent) == [nil, 0, 1, 1, 3, 0])
        // The requests shown are exactly the visible ones.
        let shown = open.rows().compactMap { if case .request(let r) = $0.kind { r.index } else { nil } }
        #expect(shown == open.visibleRequests().map(\.index))
    }

    @Test func aFilterShowsMatchesWithTheirGroupsOpenWithoutChangingTheSet() {
        let outline = Outline(collections: collections, expansion: .saved([]))
        #expect(text(outline.rows(matching: "TWO")) == ["C col", " G A +", "  G B +", "   R two #1"])
        // A group whose name matches shows as saved (collapsed here).
        #expect(text(outline.rows(matching: "d")) == ["C col", " G D"])
        #expect(text(outline.rows(matching: "nothing")) == [])
        #expect(outline.expansion == .saved([]))
    }
}
