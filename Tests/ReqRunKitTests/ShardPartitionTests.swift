import Foundation
import Testing
@testable import ReqRunKit

/// How `--shard K/N` splits a selection (`ShardPartition`).
@Suite struct ShardPartitionTests {
    private let configuration = RunConfiguration(selection: RunSelection(mode: "all"))

    /// One collection with top-level groups of the given sizes (the second request of each group sits in a subgroup).
    private func references(_ sizes: [Int], captures: [Int: String] = [:], uses: [Int: String] = [:]) -> [RequestReference] {
        var position = 0
        let groups = sizes.enumerated().map { g, size in
            var requests: [Request] = []
            for _ in 0..<size {
                var request = Request(name: "r\(position)", url: "http://h/\(position)" + (uses[position].map { "?t={{\($0)}}" } ?? ""))
                if let variable = captures[position] {
                    request.captures = [Capture(variable: variable, source: .header("X-T"), fieldPath: "capture")]
                }
                requests.append(request)
                position += 1
            }
            let inner = requests.count > 1 ? [RequestGroup(id: UUID(), name: "sub", requests: Array(requests.dropFirst()))] : []
            return RequestGroup(id: UUID(), name: "g\(g)", requests: Array(requests.prefix(1)), groups: inner)
        }
        let collection = RequestCollection(name: "C", file: "c.json", groups: groups)
        return Outline(collections: [collection], expansion: .transient(Outline.allGroupIDs([collection]))).allRequests()
    }

    @Test func parsesKOfNAndRefusesTheRest() {
        #expect(ShardSpec.parse("3/4") == ShardSpec(k: 3, n: 4))
        #expect(ShardSpec.parse("1/1") == ShardSpec(k: 1, n: 1))
        for bad in ["0/4", "5/4", "4", "1/0", "-1/4", "a/b", "1/4/2", "/4", "1/", "", " 1/4", "١/٤"] {
            #expect(ShardSpec.parse(bad) == nil, "\(bad)")
        }
        #expect(ShardSpec.fromCI(["CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "3"]) == ShardSpec(k: 2, n: 3))
        #expect(ShardSpec.fromCI(["CI_NODE_INDEX": "2"]) == nil)
        #expect(ShardSpec.fromCI(["CI_NODE_INDEX": "4", "CI_NODE_TOTAL": "3"]) == nil)
    }

    @Test func wholeGroupsStayTogetherAndThePartsAreBalanced() throws {
        let refs = references([5, 1, 3, 2, 2, 3])
        let parts = try ShardPartition.parts(refs, n: 2, by: .group, configuration: configuration)
        // Each top-level group (with its subgroup) in one part.
        var start = 0
        for size in [5, 1, 3, 2, 2, 3] {
            #expect(Set(parts[start..<start + size]).count == 1)
            start += size
        }
        // Longest first: 5→0, 3→1, 3→1 (6), 2→0 (7), 2→1 (8)... loads 8 and 8.
        #expect(parts.filter { $0 == 0 }.count == 8)
        #expect(parts.filter { $0 == 1 }.count == 8)
        // Stable: the same selection gives the same parts.
        #expect(try ShardPartition.parts(refs, n: 2, by: .group, configuration: configuration) == parts)
    }

    @Test func byRequestSplitsEvenlyAndEveryPositionHasOnePart() throws {
        let refs = references([7, 3])
        let parts = try ShardPartition.parts(refs, n: 3, by: .request, configuration: configuration)
        #expect(parts.count == 10)
        #expect((0..<3).map { part in parts.filter { $0 == part }.count } == [4, 3, 3])
    }

    @Test func moreParsThanGroupsLeavesSomePartsEmpty() throws {
        let parts = try ShardPartition.parts(references([2, 2]), n: 4, by: .group, configuration: configuration)
        #expect(parts == [0, 0, 1, 1])
    }

    @Test func aHugeNCostsNoMoreThanTheUnits() throws {
        // Only the parts that can get a unit are kept: 10^18 parts neither allocate nor scan 10^18 loads.
        let parts = try ShardPartition.parts(references([2, 2, 1]), n: 1_000_000_000_000_000_000, by: .group, configuration: configuration)
        #expect(parts == [0, 0, 1, 1, 2])
        #expect(ShardPartition.assign([1, 3, 2], n: Int.max) == [2, 0, 1])
        #expect(ShardPartition.assign([1, 3, 2], n: 2) == [1, 0, 1])
        #expect(ShardPartition.assign([], n: Int.max) == [])
    }

    @Test func measuredDurationsBalanceTheParts() throws {
        let refs = references([1, 1, 1, 1])
        // One slow request weighs as much as the three others together.
        let parts = try ShardPartition.parts(refs, n: 2, by: .request, durations: [900, 300, 300, 300], configuration: configuration)
        #expect(parts == [0, 1, 1, 1])
        // Unknown durations weigh the mean of the known ones (here 900, 300, so 600).
        #expect(ShardPartition.requestWeights(count: 3, durations: [900, 300, nil]) == [900, 300, 600])
    }

    @Test func durationsAreMatchedByGroupAndName() {
        let refs = references([2, 1])
        let results = refs.enumerated().map { position, reference in
            var result = RequestResult(index: reference.index, collection: "C", groupPath: reference.groupPath,
                                       groupID: reference.groups.last!.id.lowercasedText, name: reference.request.name,
                                       method: "GET", url: "http://h/", outcome: .response)
            result.timings = Timings(namelookup: 0, connect: 0, appconnect: 0, pretransfer: 0, starttransfer: 0, total: 100 * (position + 1))
            return result
        }
        let record = RunRecord(id: "x", startedAt: "", endedAt: "", reqrunVersion: "", libcurlVersion: "", workspace: "/",
                               selection: RunSelection(mode: "all"), results: Array(results.dropLast()))
        #expect(ShardPartition.durations(of: refs, in: record) == [100, 200, nil])
    }

    @Test func aCaptureUsedInAnotherPartIsRefusedNamingBoth() throws {
        // Request 0 (group 0) captures token, request 3 (group 2) uses it: with requests as units they part.
        let refs = references([1, 1, 2], captures: [0: "token"], uses: [3: "token"])
        #expect(throws: ShardPartition.CrossingCapture(dependent: 3, dependentPart: 2, capturer: 0, capturerPart: 1)) {
            try ShardPartition.parts(refs, n: 2, by: .request, configuration: configuration)
        }
        // Inside one group it stays in one part.
        let together = references([3, 1], captures: [0: "token"], uses: [2: "token"])
        #expect(try ShardPartition.parts(together, n: 2, by: .group, configuration: configuration) == [0, 0, 0, 1])
    }
}

/// The `shard` and `merged` fields of a record's selection, and `ShardMerge` on records made by hand.
@Suite struct ShardRecordTests {
    private func record(_ id: String, shard: ShardRecord?, names: [String]) -> RunRecord {
        var selection = RunSelection(mode: "all")
        selection.shard = shard
        return RunRecord(id: id, startedAt: "2026-12-01T10:00:0\(id.count).000Z", endedAt: "2026-12-01T10:01:0\(id.count).000Z",
                         reqrunVersion: "r", libcurlVersion: "l", workspace: "/w", selection: selection,
                         results: names.map { RequestResult(index: Int($0.dropFirst())!, collection: "C", groupPath: ["g"], groupID: "g",
                                                            name: $0, method: "GET", url: "u", outcome: .response) })
    }

    @Test func theWriterAndCodableAgreeOnShardFields() throws {
        var merged = record("m", shard: nil, names: ["r0"])
        merged.selection.merged = MergedShards(n: 2, by: "request", runs: ["a", "b"])
        for record in [record("a", shard: ShardRecord(k: 1, n: 2, by: "group", selected: 3, positions: [0, 2], timings: "t"), names: ["r0", "r2"]),
                       merged] {
            let bytes = record.jsonBytes()
            #expect(try JSONDecoder().decode(RunRecord.self, from: Data(bytes)) == record)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            #expect(try JSONSerialization.jsonObject(with: Data(bytes)) as? NSDictionary
                    == JSONSerialization.jsonObject(with: encoder.encode(record)) as? NSDictionary)
        }
    }

    @Test func mergePutsResultsBackInSelectionOrder() throws {
        let one = record("a", shard: ShardRecord(k: 1, n: 2, by: "request", selected: 4, positions: [1, 3]), names: ["r1", "r3"])
        let two = record("bb", shard: ShardRecord(k: 2, n: 2, by: "request", selected: 4, positions: [0, 2]), names: ["r0", "r2"])
        let merged = try ShardMerge.merge([.init(source: "2", record: two), .init(source: "1", record: one)], id: "m", workspace: "/m")
        #expect(merged.results.map(\.name) == ["r0", "r1", "r2", "r3"])
        #expect(merged.summary.total == 4 && merged.summary.passed == 4)
        #expect(merged.selection.merged == MergedShards(n: 2, by: "request", runs: ["a", "bb"]))
        #expect(merged.startedAt == one.startedAt && merged.endedAt == two.endedAt)
        // Shards recorded with different environments are not one run (issue 17).
        var staging = two
        staging.environment = "staging"
        #expect(throws: ShardError.mismatch("2", "1", "recorded with environment 'staging' against no environment")) {
            try ShardMerge.merge([.init(source: "1", record: one), .init(source: "2", record: staging)], id: "m", workspace: "/m")
        }
        // Positions that do not cover the selection are refused.
        let short = record("bb", shard: ShardRecord(k: 2, n: 2, by: "request", selected: 4, positions: [0, 1]), names: ["r0", "r1"])
        #expect(throws: ShardError.inconsistent("2", "request 2 of the selection is in another shard too")) {
            try ShardMerge.merge([.init(source: "1", record: one), .init(source: "2", record: short)], id: "m", workspace: "/m")
        }
    }

    @Test func headersThatLieAreRefusedNamingTheFile() throws {
        let one = record("a", shard: ShardRecord(k: 1, n: 2, by: "request", selected: 4, positions: [1, 3]), names: ["r1", "r3"])
        let two = record("bb", shard: ShardRecord(k: 2, n: 2, by: "request", selected: 4, positions: [0, 2]), names: ["r0", "r2"])
        func merge(_ shards: ShardRecord...) throws(ShardError) {
            _ = try ShardMerge.merge(shards.enumerated().map { i, shard in
                var part = i == 0 ? one : two
                part.selection.shard = shard
                return .init(source: "f\(i + 1)", record: part)
            }, id: "m", workspace: "/m")
        }
        // N of 0 or below, K outside 1...N, a negative selection: each used to trap (1...0, a negative count).
        for (k, n, selected) in [(0, 0, 4), (1, -1, 4), (3, 2, 4), (1, 1, -1)] {
            #expect(throws: ShardError.inconsistent("f1", "its shard \(k)/\(n) of a selection of \(selected) requests is not a part (1 ≤ K ≤ N, a selection of 0 or more)")) {
                try merge(ShardRecord(k: k, n: n, by: "request", selected: selected, positions: []))
            }
        }
        // A huge N lists the first missing shards and how many, at once.
        let n = 1_000_000_000_000
        #expect(throws: ShardError.missing([2, 3, 4, 5, 6, 7, 8, 9, 10, 11], count: n - 1, n: n)) {
            try merge(ShardRecord(k: 1, n: n, by: "request", selected: 4, positions: [1, 3]))
        }
        #expect(ShardError.missing([2, 3], count: 5, n: 6).description == "shards 2, 3, … (5 in all) of 6 are missing")
        #expect(ShardError.missing([2], count: 1, n: 2).description == "shard 2 of 2 is missing")
        // A selection larger than the parts hold is refused before it sizes anything (10^12 owners).
        let big = 1_000_000_000_000
        #expect(throws: ShardError.inconsistent("f1", "the shards hold 4 results of a selection of \(big) requests")) {
            try merge(ShardRecord(k: 1, n: 2, by: "request", selected: big, positions: [1, 3]),
                      ShardRecord(k: 2, n: 2, by: "request", selected: big, positions: [0, 2]))
        }
        // A position outside the selection, and positions that do not match the results, each said as it is.
        #expect(throws: ShardError.inconsistent("f1", "its shard holds position 7, outside its selection of 4 requests")) {
            try merge(ShardRecord(k: 1, n: 2, by: "request", selected: 4, positions: [1, 7]))
        }
        #expect(throws: ShardError.inconsistent("f1", "its summary counts 2 results against the 1 positions of its shard")) {
            try merge(ShardRecord(k: 1, n: 2, by: "request", selected: 4, positions: [1]))
        }
    }
}
