import Foundation
import Testing
@testable import ReqRunKit

/// `ShardMerge.write`: the merge streamed from the parts' files, a result at a time.
@Suite struct ShardMergeStreamTests {
    private func store() throws -> (RunStore, URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("reqrun-merge-\(UUID().lowercasedText)")
        let dir = root.appendingPathComponent(".reqrun/runs")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return (RunStore(directory: dir), root)
    }

    /// Part `k` of 3 of a 9-request selection split by request (positions k-1, k+2, k+5), saved in `store`.
    private func part(_ k: Int, _ store: RunStore, positions: [Int]? = nil) throws -> RunRecord {
        let positions = positions ?? [k - 1, k + 2, k + 5]
        var selection = RunSelection(mode: "all")
        selection.shard = ShardRecord(k: k, n: 3, by: "request", selected: 9, positions: positions)
        var record = RunRecord(id: "20261201-10000\(k)-000-000\(k)", startedAt: "2026-12-01T10:00:0\(k).000Z", endedAt: "2026-12-01T10:01:0\(k).000Z",
                               reqrunVersion: "r", libcurlVersion: "l", workspace: "/w", selection: selection, results: [])
        record.results = positions.map { p in
            var result = RecordJSONRoundTripTests.fullResult()
            (result.index, result.name, result.passed) = (p, "r\(p)", p % 4 != 0)
            return result
        }
        record.summary = RunSummary(record.results)
        try store.save(record)
        return record
    }

    @Test func theStreamedMergeIsTheMergeInMemory() throws {
        let (store, root) = try store()
        defer { try? FileManager.default.removeItem(at: root) }
        let parts = try [2, 3, 1].map { try part($0, store) }
        let whole = try ShardMerge.merge(parts.map { .init(source: $0.id, record: $0) }, id: "20261201-110000-000-0000", workspace: "/m")
        #expect(whole.results.map(\.name) == (0..<9).map { "r\($0)" })
        let readers = try parts.map { try store.open($0.id) }
        let plan = try ShardMerge.plan(zip(parts, readers).map { .init(source: $0.id, head: $1.head, resultCount: $1.head.summary.total) },
                                       id: whole.id, workspace: "/m")
        let (head, file) = try ShardMerge.write(plan, from: readers, to: store)
        #expect(file.lastPathComponent == "\(whole.id).jsonl")
        #expect(head.summary == whole.summary && head.summary.failed == 3)
        var saved = try store.load(whole.id)
        saved.format = whole.format
        #expect(saved == whole)
    }

    @Test func aPartOutOfOrderOrShortIsRefusedAndNothingIsSaved() throws {
        let (store, root) = try store()
        defer { try? FileManager.default.removeItem(at: root) }
        let one = try part(1, store), two = try part(2, store)
        let three = try part(3, store, positions: [8, 2, 5])
        let heads = [one, two, three].map { ShardMerge.Part(source: $0.id, head: $0, resultCount: 3) }
        #expect(throws: ShardError.inconsistent(three.id, "its results are not in list order (request 3 after request 9)")) {
            try ShardMerge.plan(heads, id: "m", workspace: "/m")
        }
        // A part whose file has fewer results than its head says: found while writing, and the merged file removed.
        let fine = try part(3, store)
        let file = store.directory.appendingPathComponent("\(fine.id).jsonl")
        var lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
        lines.remove(at: 2)
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file)
        let readers = try [one, two, fine].map { try store.open($0.id) }
        let plan = try ShardMerge.plan([one, two, fine].map { .init(source: $0.id, head: $0, resultCount: 3) }, id: "20261201-110000-000-0000", workspace: "/m")
        #expect(throws: ShardError.inconsistent(fine.id, "it has fewer results than the positions of its shard")) {
            try ShardMerge.write(plan, from: readers, to: store)
        }
        #expect(try store.ids().contains("20261201-110000-000-0000") == false)
    }
}
