import Foundation
import Testing
@testable import ReqRunKit

/// `DryRunEntry.Planner.writeJSON` writes a request that needs no masking straight from its prepared form,
/// without making its `DryRunEntry` (issue 17 §1): the bytes must be those of the entries `entry(for:)`
/// makes, written one by one, for requests of each kind that takes one path or the other.
@Suite struct DryRunPlannerTests {
    let group = RequestGroup(id: UUID(), name: "G \"quoted\"", variables: [Variable(name: "path", value: "a?b#c")], requests: [
        Request(name: "plain", url: "{{base}}/items/{{path}}?q={{path}}"),
        Request(name: "own agent", method: "POST", url: "{{base}}/post", headers: [HeaderField(name: "user-agent", value: "mine")],
                body: .json("{\"k\":\"{{path}}\"}")),
        Request(name: "bearer", url: "{{base}}/bearer", auth: .bearer(token: "{{token}}")),
        Request(name: "secret in URL", url: "{{base}}/s/{{key}}"),
        Request(name: "digest", url: "{{base}}/digest", auth: .digest(username: "ada", password: "pw")),
        Request(name: "undefined", url: "{{base}}/{{nothing}}"),
        Request(name: "other scheme", url: "ftp://example.com/f"),
        Request(name: "form", method: "POST", url: "{{base}}/form", body: .form([Parameter(name: "a", value: "{{path}}")])),
    ])
    let nested = RequestGroup(id: UUID(), name: "N", requests: [Request(url: "{{base}}/nested")])

    private func configuration() -> RunConfiguration {
        let environment = Environment(name: "e", file: "e.json", variables: [Variable(name: "token", value: "t0k3n-secret"),
                                                                           Variable(name: "key", value: "k3y-secret")],
                                      secretNames: ["key"])
        return RunConfiguration(selection: RunSelection(mode: "all"), environment: environment)
    }

    private func written(_ body: (inout JSONWriter) -> Void) -> [UInt8] {
        var out: [UInt8] = []
        var w = JSONWriter(bufferSize: 256, encoderLayout: true) { out.append(contentsOf: $0) }
        body(&w)
        w.finishToSink()
        return out
    }

    @Test func theEntriesWrittenFromPreparedRequestsAreTheEntriesBytes() throws {
        var outer = group
        outer.groups = [nested]
        let collections = [RequestCollection(name: "C", file: "c.json", variables: [Variable(name: "base", value: "http://127.0.0.1:9")],
                                             groups: [outer])]
        let selection = Outline(collections: collections, expansion: .transient(Outline.allGroupIDs(collections))).allSelection()
        #expect(selection.count == 9)
        var planner = DryRunEntry.Planner(configuration: configuration())
        var failed = 0
        let direct = written { w in failed = planner.writeJSON(selection, to: &w) }
        var entryPlanner = DryRunEntry.Planner(configuration: configuration())
        let entries = selection.map { entryPlanner.entry(for: $0) }
        let expected = written { w in w.array(entries) { w, entry in entry.write(&w) } }
        #expect(direct == expected, "\(String(decoding: direct, as: UTF8.self))")
        #expect(failed == 1 && entries.filter { $0.error != nil && $0.skipped != true }.count == 1)
        // Both paths were taken: the bearer token and the secret variable are masked, the others are not.
        let text = String(decoding: direct, as: UTF8.self)
        #expect(!text.contains("t0k3n-secret") && !text.contains("k3y-secret") && text.contains("/items/a%3Fb%23c?q=a?b%23c"))
    }

    /// `writeJSON(_:threads:chunkSize:to:)`: chunks planned on other threads, the same bytes and count as one
    /// thread's `writeJSON(_:to:)`, for chunk sizes that cut groups anywhere; Newman's literal `{{…}}` warnings (one
    /// per name, at its first request) in several chunks, a chunk starting and ending with one.
    @Test(arguments: [1, 2, 3, 5, 8, 13])
    func chunksPlannedOnOtherThreadsAreTheSameBytes(chunkSize: Int) throws {
        func groupOf(_ g: Int) -> RequestGroup {
            RequestGroup(id: UUID(), name: "g\(g)", variables: g % 2 == 0 ? [] : [Variable(name: "path", value: "odd\(g)")],
                         requests: (0..<7).map { r in
                // Names warned of in several chunks: `w\(g % 3)` again in later groups, `r\(r)` new in the first ones.
                r % 3 == 0 ? Request(name: "lit", url: "{{base}}/{{w\(g % 3)}}/{{r\(r)}}") : group.requests[(g + r) % group.requests.count]
            })
        }
        var collection = RequestCollection(name: "N", file: "n.json", variables: [Variable(name: "base", value: "http://127.0.0.1:9")],
                                           groups: (0..<6).map(groupOf))
        collection.compat = .newman
        let collections = [collection, RequestCollection(name: "C", file: "c.json", variables: [Variable(name: "base", value: "http://127.0.0.1:9")],
                                                         groups: [group, nested])]
        let selection = Outline(collections: collections, expansion: .transient(Outline.allGroupIDs(collections))).allSelection()
        #expect(selection.count == 51)
        var one = DryRunEntry.Planner(configuration: configuration())
        var failedOne = 0
        let expected = written { w in failedOne = one.writeJSON(selection, to: &w) }
        for threads in [2, 3] {
            var planner = DryRunEntry.Planner(configuration: configuration())
            var out: [UInt8] = []
            let failed = planner.writeJSON(selection, threads: threads, chunkSize: chunkSize) { out.append(contentsOf: $0) }
            #expect(out == expected, "\(String(decoding: out, as: UTF8.self))")
            #expect(failed == failedOne)
        }
        let text = String(decoding: expected, as: UTF8.self)
        // `w1`, sent as text by six requests in two groups, is warned of at the first only.
        #expect(text.components(separatedBy: "w1").count - 1 == 6 + 1)
        for name in ["w0", "w1", "w2", "r0", "r3", "r6", "path"] {
            #expect(text.components(separatedBy: RequestRules.literalWarning(name)).count - 1 == 1, "\(name)")
        }
    }

    /// The members an entry shares with the entries of its group (`DryRunFragments`: collection, group path, header
    /// fields, method) are written again when any of them changes, byte for byte: canonically equivalent values
    /// (`é` and `e` with U+0301, equal as `String`s) are other bytes, and a request with a body or `transferAuth`
    /// between two that share them is written whole.
    @Test(arguments: [1, 4, 512])
    func entriesFromAGroupsSharedBytesAreTheEntriesBytes(chunkSize: Int) throws {
        let composed = "caf\u{e9}", decomposed = "cafe\u{301}"
        func requests(_ g: Int) -> [Request] {
            [Request(name: "a\(g)", url: "{{base}}/a"),
             Request(name: "b \"q\" \\ \u{1}", url: "{{base}}/b?x=1"),
             Request(name: "h1", url: "{{base}}/h", headers: [HeaderField(name: "X-V", value: composed)]),
             Request(name: "h2", url: "{{base}}/h", headers: [HeaderField(name: "X-V", value: decomposed)]),
             Request(name: "h3", url: "{{base}}/h", headers: [HeaderField(name: "X-V", value: decomposed)]),
             Request(name: "h4", url: "{{base}}/h", headers: [HeaderField(name: "X-V", value: decomposed), HeaderField(name: "X-W", value: "")]),
             Request(name: "m", method: "POST", url: "{{base}}/m"),
             Request(name: "body", method: "POST", url: "{{base}}/b", body: .text("x")),
             Request(name: "after body", method: "POST", url: "{{base}}/m"),
             Request(name: "own agent", url: "{{base}}/u", headers: [HeaderField(name: "User-Agent", value: "mine")]),
             Request(name: "digest", url: "{{base}}/d", auth: .digest(username: "ada", password: "pw")),
             Request(url: "{{base}}/unnamed/\(g)")]
        }
        let variables = [Variable(name: "base", value: "http://127.0.0.1:9")]
        var inner = RequestGroup(id: UUID(), name: composed, requests: requests(2))
        inner.groups = [RequestGroup(id: UUID(), name: decomposed, requests: requests(3))]
        let collections = [
            RequestCollection(name: composed, file: "a.json", variables: variables,
                              groups: [RequestGroup(id: UUID(), name: "g", requests: requests(0)), inner]),
            RequestCollection(name: decomposed, file: "b.json", variables: variables, groups: [RequestGroup(id: UUID(), name: "g", requests: requests(1))]),
        ]
        let selection = Outline(collections: collections, expansion: .transient(Outline.allGroupIDs(collections))).allSelection()
        #expect(selection.count == 48)
        var entryPlanner = DryRunEntry.Planner(configuration: configuration())
        let entries = selection.map { entryPlanner.entry(for: $0) }
        let expected = written { w in w.array(entries) { w, entry in entry.write(&w) } }
        var planner = DryRunEntry.Planner(configuration: configuration())
        let direct = written { w in _ = planner.writeJSON(selection, to: &w) }
        #expect(direct == expected, "\(String(decoding: direct, as: UTF8.self))")
        var threaded = DryRunEntry.Planner(configuration: configuration())
        var out: [UInt8] = []
        _ = threaded.writeJSON(selection, threads: 2, chunkSize: chunkSize) { out.append(contentsOf: $0) }
        #expect(out == expected)
    }
}
