import Foundation
import Testing
@testable import ReqRunKit

/// `DryRunEntry.Planner.writeElements` writes a request without details nor header fields from where it is in its
/// group's array (`writePlain`), without its reference, `PreparedRequest` or `Plan` (issue 17 §1, S10): only when the
/// entry is the one `plan` makes, byte for byte; every other request is planned as before.
@Suite struct DryRunPlainTests {
    static let base = [Variable(name: "base", value: "http://127.0.0.1:9"), Variable(name: "host", value: "127.0.0.1:9"),
                       Variable(name: "amp", value: "a&b#c"), Variable(name: "nested", value: "{{base}}/n")]

    /// Requests of each kind: those `writePlain` writes (`true`) and those it leaves to `plan` (`false`).
    static let kinds: [(Request, Bool)] = [
        (Request(name: "plain", url: "{{base}}/items/1"), true),
        (Request(name: "quoted \"n\" \\ \u{1}", url: "{{base}}/q"), true),
        (Request(url: "{{base}}/unnamed"), true),
        (Request(name: "post", method: "POST", url: "{{base}}/p"), true),
        (Request(name: "no references", url: "http://127.0.0.1:9/literal"), true),
        (Request(name: "host reference", url: "http://{{host}}/h"), true),
        (Request(name: "IPv6", url: "http://[::1]:9/v6"), true),
        (Request(name: "HTTPS upper case", url: "HTTPS://127.0.0.1:9/s"), true),
        (Request(name: "query value encoded", url: "{{base}}/e?x={{amp}}"), true),
        (Request(name: "value with a reference", url: "{{nested}}/x"), true),
        (Request(name: "space", url: "{{base}}/a b"), false),
        (Request(name: "non-ASCII", url: "{{base}}/caf\u{e9}"), false),
        (Request(name: "user information", url: "http://ada:pw@{{host}}/u"), false),
        (Request(name: "no scheme", url: "{{host}}/s"), false),
        (Request(name: "other scheme", url: "ftp://127.0.0.1:9/f"), false),
        (Request(name: "WebSocket", url: "ws://127.0.0.1:9/ws"), false),
        (Request(name: "undefined", url: "{{base}}/{{nothing}}"), false),
        (Request(name: "process environment", url: "{{base}}/{{process.env.HOME}}"), false),
        (Request(name: "port out of range", url: "http://127.0.0.1:99999/p"), false),
        (Request(name: "no host", url: "http:///p"), false),
        (Request(name: "header", url: "{{base}}/h", headers: [HeaderField(name: "X-A", value: "1")]), false),
        (Request(name: "query", url: "{{base}}/q", query: [Parameter(name: "a", value: "b")]), false),
        (Request(name: "own auth", url: "{{base}}/a", auth: .bearer(token: "t0k3n")), false),
        (Request(name: "body", method: "POST", url: "{{base}}/b", body: .text("x")), false),
        (Request(name: "not a token", method: "GE T", url: "{{base}}/m"), false),
    ]

    private func configuration(userAgent: String? = nil, secret: Bool = false) -> RunConfiguration {
        let environment = Environment(name: "e", file: "e.json", variables: [Variable(name: "key", value: "k3y-secret")],
                                      secretNames: secret ? ["key"] : [])
        var configuration = RunConfiguration(selection: RunSelection(mode: "all"), environment: environment)
        if let userAgent { configuration.options.userAgent = userAgent }
        return configuration
    }

    private func selection(_ collections: [RequestCollection]) -> RequestSelection {
        Outline(collections: collections, expansion: .transient(Outline.allGroupIDs(collections))).allSelection()
    }

    /// Each kind written in place or declined as listed, in a group `plainGroup` allows.
    @Test func aRequestIsWrittenInPlaceOnlyWhenItsEntryIsThePlannedOne() throws {
        let collections = [RequestCollection(name: "C", file: "c.json", variables: Self.base,
                                             groups: [RequestGroup(id: UUID(), name: "g", requests: Self.kinds.map(\.0))])]
        let references = selection(collections)
        var planner = DryRunEntry.Planner(configuration: configuration())
        let plainGroup = planner.plainGroup(references[0])
        let group = try #require(plainGroup)
        let requests = collections[0].groups[0].requests
        for (i, (request, plain)) in Self.kinds.enumerated() {
            var fragments = DryRunFragments()
            var bytes: [UInt8] = []
            var w = JSONWriter(bufferSize: 4096, encoderLayout: true, elementsAtDepth: 1) { bytes.append(contentsOf: $0) }
            let written = requests.withUnsafeBufferPointer { DryRunEntry.Planner.writePlain($0.baseAddress! + i, index: i, group, &fragments, to: &w) }
            w.flushToSink()
            #expect(written == plain, "\(request.name)")
            #expect(written == !bytes.isEmpty, "\(request.name)")
        }
    }

    /// Groups whose requests are all planned by `plan`: an auth from the group or the collection (not `none`), a
    /// secret in the scope; `none` and no auth allow them.
    @Test func aGroupWithAuthOrSecretsIsPlannedRequestByRequest() throws {
        let request = Request(url: "{{base}}/a")
        let collections = [
            RequestCollection(name: "C", file: "c.json", variables: Self.base, groups: [
                RequestGroup(id: UUID(), name: "none", auth: Auth.none, requests: [request]),
                RequestGroup(id: UUID(), name: "bearer", auth: .bearer(token: "t"), requests: [request]),
                RequestGroup(id: UUID(), name: "inherits", requests: [request]),
            ]),
            RequestCollection(name: "D", file: "d.json", variables: Self.base, auth: .basic(username: "u", password: "p"),
                              groups: [RequestGroup(id: UUID(), name: "inherits basic", requests: [request]),
                                       RequestGroup(id: UUID(), name: "none below basic", auth: Auth.none, requests: [request])]),
        ]
        let references = selection(collections)
        var planner = DryRunEntry.Planner(configuration: configuration())
        #expect((0..<5).map { planner.plainGroup(references[$0]) != nil } == [true, false, true, false, true])
        var secret = DryRunEntry.Planner(configuration: configuration(secret: true))
        #expect(secret.plainGroup(references[0]) == nil)
    }

    /// The whole output, in place and planned mixed in chunks that cut stretches anywhere, on two threads and one, and
    /// from a selection of references (planned request by request): the bytes of the entries `entry(for:)` makes, with
    /// and without the `User-Agent` reqrun adds, without and with a secret, Newman's literal `{{…}}` warnings between.
    @Test(arguments: [1, 3, 7, 512])
    func writtenInPlaceAndPlannedAreTheEntriesBytes(chunkSize: Int) throws {
        let requests = Self.kinds.map(\.0)
        var newman = RequestCollection(name: "N", file: "n.json", variables: Self.base, groups: [
            RequestGroup(id: UUID(), name: "n", requests: requests + [Request(name: "lit", url: "{{base}}/{{lit}}")] + requests)])
        newman.compat = .newman
        var outer = RequestGroup(id: UUID(), name: "outer", requests: requests)
        outer.groups = [RequestGroup(id: UUID(), name: "inner", auth: Auth.none, requests: requests.reversed())]
        let collections = [
            RequestCollection(name: "C", file: "c.json", variables: Self.base, groups: [
                outer, RequestGroup(id: UUID(), name: "bearer", auth: .bearer(token: "t0k3n"), requests: requests)]),
            newman,
        ]
        let all = selection(collections)
        for (userAgent, secret) in [(nil, false), ("", false), ("agent/1", true)] as [(String?, Bool)] {
            var entryPlanner = DryRunEntry.Planner(configuration: configuration(userAgent: userAgent, secret: secret))
            let entries = all.map { entryPlanner.entry(for: $0) }
            var expected: [UInt8] = []
            var w = JSONWriter(bufferSize: 256, encoderLayout: true) { expected.append(contentsOf: $0) }
            w.array(entries) { w, entry in entry.write(&w) }
            w.finishToSink()
            for selection in [all, RequestSelection(Array(all))] {
                for threads in [1, 2] {
                    var planner = DryRunEntry.Planner(configuration: configuration(userAgent: userAgent, secret: secret))
                    var out: [UInt8] = []
                    _ = planner.writeJSON(selection, threads: threads, chunkSize: chunkSize) { out.append(contentsOf: $0) }
                    #expect(out == expected, "threads \(threads), user agent \(userAgent ?? "default"), secret \(secret)")
                }
            }
        }
    }

    /// On one thread (`writeJSON(_:threads:chunkSize:to:)` with one thread, or a selection of one chunk), the bytes of
    /// `writeJSON(_:to:)`, an empty selection's `[`, two line feeds and `]` included.
    @Test func oneThreadWritesTheBytesOfTheArray() throws {
        let requests = Self.kinds.map(\.0)
        for collections in [[], [RequestCollection(name: "C", file: "c.json", variables: Self.base,
                                                   groups: [RequestGroup(id: UUID(), name: "g", requests: requests)])]] {
            let all = selection(collections)
            var one = DryRunEntry.Planner(configuration: configuration())
            var expected: [UInt8] = []
            var w = JSONWriter(bufferSize: 256, encoderLayout: true) { expected.append(contentsOf: $0) }
            let failedOne = one.writeJSON(all, to: &w)
            w.finishToSink()
            for threads in [1, 2] {
                var planner = DryRunEntry.Planner(configuration: configuration())
                var out: [UInt8] = []
                let failed = planner.writeJSON(all, threads: threads) { out.append(contentsOf: $0) }
                #expect(out == expected && failed == failedOne, "\(String(decoding: out, as: UTF8.self))")
            }
        }
        #expect(String(decoding: { var out: [UInt8] = []; var p = DryRunEntry.Planner(configuration: configuration())
            _ = p.writeJSON(selection([]), threads: 1) { out.append(contentsOf: $0) }; return out }(), as: UTF8.self) == "[\n\n]\n")
    }

    /// `RequestSelection.requests(at:)`: the stretch holding a position, from it on, read where it is; nil for a
    /// selection of references.
    @Test func aStretchIsReadFromAnyOfItsPositions() throws {
        let a = (0..<3).map { Request(name: "a\($0)", url: "a\($0)") }, b = (0..<2).map { Request(name: "b\($0)", url: "b\($0)") }
        var top = RequestGroup(id: UUID(), name: "top", requests: a)
        top.groups = [RequestGroup(id: UUID(), name: "below", requests: b)]
        let all = selection([RequestCollection(name: "C", file: "c.json", groups: [top])])
        for position in 0..<5 {
            let stretch = try #require(all.requests(at: position))
            let names = stretch.offsets.map { stretch.requests[$0].name }
            #expect(names == all[position...].prefix(stretch.offsets.count).map(\.request.name))
            #expect(stretch.listIndex == all[position].index)
            #expect(names.count == (position < 3 ? 3 - position : 5 - position))
        }
        #expect(RequestSelection(Array(all)).requests(at: 0) == nil)
    }
}
