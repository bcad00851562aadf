import Foundation
import Testing
import ReqRunKit
import TestSupport

/// `reqrun run --shard K/N` in separate processes and `reqrun merge` of their records, against the local nginx.
@Suite struct ShardEndToEndTests {
    /// A collection of `groups` top-level groups of uneven sizes (400 requests by default): most get 200 with a
    /// passing expectation, every 7th a 404 that misses its expectation, every 50th a refused connection.
    private func workspace(requests total: Int = 400) throws -> TemporaryDirectory {
        let base = try TestServers.nginxHTTP()
        let closed = TestServers.closedPort()
        let dir = try TemporaryDirectory()
        var groups: [String] = []
        var position = 0
        var size = 3
        while position < total {
            let count = min(size, total - position)
            let requests = (position..<position + count).map { i in
                let url = i % 50 == 49 ? "http://127.0.0.1:\(closed)/\(i)" : i % 7 == 6 ? "\(base)/missing-\(i)" : "\(base)/echo-uri/\(i)"
                return #"{"name": "r\#(i)", "url": "\#(url)", "expect": [{"status": 200}]}"#
            }
            // The second half of each group in a subgroup: it stays with its top-level group.
            let half = count / 2
            groups.append(#"{"name": "g\#(groups.count)", "requests": [\#(requests.prefix(half).joined(separator: ","))], "#
                          + #""groups": [{"name": "sub", "requests": [\#(requests.dropFirst(half).joined(separator: ","))]}]}"#)
            position += count
            size = size % 23 + 5
        }
        try dir.write("collections/big.json", #"{"name": "Big", "groups": [\#(groups.joined(separator: ","))]}"#)
        return dir
    }

    private func record(_ dir: TemporaryDirectory, _ run: String? = nil) throws -> RunRecord {
        let shown = try ReqRunBinary.run(["show", "--json"] + (run.map { [$0] } ?? []), in: dir.url)
        return try JSONDecoder().decode(RunRecord.self, from: Data(shown.stdout.utf8))
    }

    /// The run id in the `run … recorded in …` line.
    private func runID(_ output: ReqRunBinary.Output) -> String? {
        output.stdout.split(separator: "\n").last { $0.hasPrefix("run ") }.map { String($0.split(separator: " ")[1]) }
    }

    @Test func fourShardsInFourProcessesMergeIntoTheSingleRun() throws {
        let dir = try workspace()
        let single = try ReqRunBinary.run(["run", "--all", "--parallel", "8"], in: dir.url)
        #expect(single.status == 3, "\(single.stderr)")
        let whole = try record(dir)
        #expect(whole.results.count == 400)
        // Four jobs side by side, as a CI matrix runs them.
        let running = try (1...4).map { k in try ReqRunBinary.start(["run", "--all", "--parallel", "4", "--shard", "\(k)/4"], in: dir.url) }
        let outputs = running.map { $0.finish() }
        var shardIDs: [String] = []
        var sizes: [Int] = []
        for (k, output) in zip(1..., outputs) {
            let id = try #require(runID(output), "\(output.stdout)\(output.stderr)")
            shardIDs.append(id)
            let shard = try record(dir, id)
            #expect(shard.selection.shard?.k == k)
            #expect(shard.selection.shard?.n == 4)
            #expect(shard.selection.shard?.by == "group")
            #expect(shard.selection.shard?.selected == 400)
            sizes.append(shard.results.count)
            // Whole top-level groups only: none of this part's groups has a request in another part.
            let groups = Set(shard.results.map { $0.groupPath[0] })
            #expect(shard.results.count == whole.results.filter { groups.contains($0.groupPath[0]) }.count)
        }
        #expect(sizes.reduce(0, +) == 400)
        // Balanced: groups hold 3 to 27 requests, so no part is more than a group away from 100.
        #expect(sizes.allSatisfy { abs($0 - 100) <= 27 }, "\(sizes)")
        // Files (as a CI merge job downloads them) and a run id, in any order.
        let merged = try ReqRunBinary.run(["merge", ".reqrun/runs/\(shardIDs[2]).jsonl", shardIDs[0], ".reqrun/runs/\(shardIDs[3]).jsonl",
                                           ".reqrun/runs/\(shardIDs[1]).jsonl", "--report", "junit=out/merged.xml"], in: dir.url)
        #expect(merged.status == 3, "\(merged.stderr)")
        #expect(merged.stdout.contains("merged from"), "\(merged.stdout)")
        let joined = try record(dir)
        #expect(joined.id == runID(merged))
        #expect(joined.results.map(\.index) == whole.results.map(\.index))
        #expect(Set(joined.results.map(\.name)).count == 400)
        #expect(joined.results.map(\.name) == whole.results.map(\.name))
        #expect(joined.results.map(\.outcome) == whole.results.map(\.outcome))
        #expect(joined.results.map { $0.response?.status } == whole.results.map { $0.response?.status })
        #expect(joined.results.map(\.passed) == whole.results.map(\.passed))
        #expect(joined.summary == whole.summary)
        #expect(joined.selection.shard == nil)
        #expect(joined.selection.merged == MergedShards(n: 4, by: "group", runs: shardIDs))
        #expect(try dir.read("out/merged.xml").contains("tests=\"400\""))
        // history lists the merged run as one run; diff and show read it.
        let history = try ReqRunBinary.run(["history"], in: dir.url)
        let lines = history.stdout.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix(joined.id) && $0.contains("merged 4") }.count == 1, "\(history.stdout)")
        #expect(lines.filter { $0.hasPrefix(shardIDs[1]) && $0.contains("shard 2/4") }.count == 1)
        let diff = try ReqRunBinary.run(["diff", whole.id, joined.id], in: dir.url)
        #expect(diff.status == 0, "\(diff.stderr)")
        // Without RUN (or with the merged run alone) the run before the merged one is the single run, not a shard.
        for arguments in [["diff", "--ignore-time"], ["diff", joined.id, "--ignore-time"]] {
            let bare = try ReqRunBinary.run(arguments, in: dir.url)
            #expect(bare.status == 0, "\(bare.stderr)")
            #expect(bare.stdout.hasPrefix("\(whole.id) → \(joined.id)\n"), "\(arguments): \(bare.stdout.prefix(200))")
        }
        // The merged run balances the next split by measured time.
        let timed = try ReqRunBinary.run(["run", "--all", "--shard", "1/2", "--shard-timings", joined.id, "--dry-run"], in: dir.url)
        #expect(timed.status == 0, "\(timed.stderr)")
        let again = try ReqRunBinary.run(["run", "--all", "--parallel", "4", "--shard", "2/2", "--shard-timings", joined.id], in: dir.url)
        #expect(try record(dir, runID(again)).selection.shard?.timings == joined.id)
        #expect(!timed.stderr.contains("no summary line"), "\(timed.stderr)")
        // A record cut short (no summary line) still balances, with a warning saying so.
        let recordLines = try dir.read(".reqrun/runs/\(joined.id).jsonl").split(separator: "\n", omittingEmptySubsequences: true)
        try dir.write("cut/part.jsonl", recordLines.dropLast().joined(separator: "\n") + "\n")
        let cut = try ReqRunBinary.run(["run", "--all", "--shard", "1/2", "--shard-timings", "cut/part.jsonl", "--dry-run"], in: dir.url)
        #expect(cut.status == 0, "\(cut.stderr)")
        #expect(cut.stderr.contains("--shard-timings cut/part.jsonl: the record has no summary line (a run cut short); the parts are balanced by the 400 results it holds"), "\(cut.stderr)")
    }

    @Test func aBadShardIsAUsageError() throws {
        let dir = try workspace(requests: 4)
        for bad in ["0/4", "5/4", "4", "two/4", "1/0"] {
            let output = try ReqRunBinary.run(["run", "--all", "--shard", bad], in: dir.url)
            #expect(output.status == 64, "\(bad)")
            #expect(output.stderr.contains("--shard expects K/N with whole numbers 1 ≤ K ≤ N"), "\(output.stderr)")
        }
        let by = try ReqRunBinary.run(["run", "--all", "--shard", "1/2", "--shard-by", "folder"], in: dir.url)
        #expect(by.status == 64)
        #expect(by.stderr.contains("--shard-by expects group or request, got 'folder'"))
        let alone = try ReqRunBinary.run(["run", "--all", "--shard-by", "request"], in: dir.url)
        #expect(alone.stderr.contains("--shard-by goes with --shard K/N"))
        let auto = try ReqRunBinary.run(["run", "--all", "--shard", "auto"], in: dir.url, environment: ["CI_NODE_TOTAL": "3"])
        #expect(auto.status == 64)
        #expect(auto.stderr.contains("CI_NODE_INDEX=(unset), CI_NODE_TOTAL='3'"), "\(auto.stderr)")
        #expect(!dir.exists(".reqrun/runs"))
    }

    @Test func shardAutoReadsGitLabsNodeIndexAndTotal() throws {
        let dir = try workspace(requests: 4)
        let output = try ReqRunBinary.run(["run", "--all", "--shard", "auto", "--shard-by", "request"], in: dir.url,
                                          environment: ["CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "2"])
        #expect(output.status == 0, "\(output.stderr)")
        let shard = try record(dir).selection.shard
        #expect(shard == ShardRecord(k: 2, n: 2, by: "request", selected: 4, positions: [1, 3]))
    }

    /// More jobs than groups: the empty part is not a job that tested nothing by mistake. It exits 0 and records
    /// itself, so `merge` finds every part; a selection that is empty as a whole still exits 2.
    @Test func anEmptyPartOfASelectionPassesAndMerges() throws {
        let dir = try workspace(requests: 3)
        let first = try ReqRunBinary.run(["run", "--all", "--shard", "1/2"], in: dir.url)
        #expect(first.status == 0, "\(first.stderr)")
        let second = try ReqRunBinary.run(["run", "--all", "--shard", "2/2"], in: dir.url)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("No requests in shard 2/2: the 3 selected requests are in the other parts."), "\(second.stdout)")
        #expect(try record(dir).selection.shard == ShardRecord(k: 2, n: 2, by: "group", selected: 3, positions: []))
        let merged = try ReqRunBinary.run(["merge"] + [first, second].compactMap(runID), in: dir.url)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(try record(dir).results.count == 3)
        let nothing = try ReqRunBinary.run(["run", "Big/g0/sub", "--shard", "2/2"], in: dir.url)
        #expect(nothing.status == 0, "a named group that is not empty: \(nothing.stderr)")
        let empty = try TemporaryDirectory()
        try empty.write("collections/e.json", #"{"name": "E", "groups": [{"name": "g", "requests": []}]}"#)
        #expect(try ReqRunBinary.run(["run", "--all", "--shard", "2/2"], in: empty.url).status == 2)
    }

    @Test func showAndDiffOfAMergedRunWithOnlyItsPartsBeforeIt() throws {
        let dir = try workspace(requests: 3)
        let parts = try ["1/2", "2/2"].map { try ReqRunBinary.run(["run", "--all", "--shard", $0], in: dir.url) }
        let merged = try ReqRunBinary.run(["merge"] + parts.compactMap(runID), in: dir.url)
        #expect(merged.status == 0, "\(merged.stderr)")
        // show names the selection as history does.
        let shown = try ReqRunBinary.run(["show"], in: dir.url)
        #expect(shown.stdout.contains("selection: merged 2"), "\(shown.stdout)")
        let part = try ReqRunBinary.run(["show", try #require(runID(parts[1]))], in: dir.url)
        #expect(part.stdout.contains("selection: shard 2/2"), "\(part.stdout)")
        // history lists the two parts before the merged run; diff skips them, and says why it found nothing.
        let diff = try ReqRunBinary.run(["diff"], in: dir.url)
        #expect(diff.status == 2)
        #expect(diff.stderr.hasPrefix("error: no run recorded before "), "\(diff.stderr)")
        #expect(diff.stderr.contains("but its 2 parts"), "\(diff.stderr)")
    }

    @Test func aCaptureUsedInAnotherShardIsRefusedBeforeAnythingIsSent() throws {
        let base = try TestServers.nginxHTTP()
        let dir = try TemporaryDirectory()
        try dir.write("collections/c.json", #"""
            {"name": "C", "groups": [
              {"name": "auth", "requests": [{"name": "login", "url": "\#(base)/echo-uri/login", "capture": [{"var": "token", "header": "X-Method"}]}]},
              {"name": "orders", "requests": [{"name": "list", "url": "\#(base)/echo-uri/orders?t={{token}}"}]}
            ]}
            """#)
        for by in ["group", "request"] {
            let output = try ReqRunBinary.run(["run", "--all", "--shard", "1/2", "--shard-by", by], in: dir.url)
            #expect(output.status == 2, "\(output.stdout)")
            #expect(output.stderr.contains("error: request #1 'C/orders/list' (shard 2/2) uses a value captured by request #0 'C/auth/login' (shard 1/2)"),
                    "\(output.stderr)")
            #expect(output.stdout.isEmpty)
        }
        #expect(!dir.exists(".reqrun/runs"))
        // One shard holds both: nothing crosses.
        let one = try ReqRunBinary.run(["run", "--all", "--shard", "1/1"], in: dir.url)
        #expect(one.status == 0, "\(one.stderr)")
    }

    @Test func mergeRefusesIncompleteOrMismatchedShards() throws {
        let dir = try workspace(requests: 6)
        var ids: [String: String] = [:]
        for shard in ["1/3", "2/3", "3/3", "1/2"] {
            let output = try ReqRunBinary.run(["run", "--all", "--shard", shard, "--shard-by", "request"], in: dir.url)
            ids[shard] = try #require(runID(output), "\(output.stderr)")
        }
        let plain = try #require(runID(try ReqRunBinary.run(["run", "--all"], in: dir.url)))
        let before = try FileManager.default.contentsOfDirectory(atPath: dir.url.appendingPathComponent(".reqrun/runs").path).count
        let cases: [([String], String)] = [
            ([ids["1/3"]!, ids["3/3"]!], "error: shard 2 of 3 is missing"),
            ([ids["1/3"]!], "error: shards 2, 3 of 3 are missing"),
            ([ids["1/3"]!, ids["1/2"]!], "error: \(ids["1/2"]!) and \(ids["1/3"]!) are not shards of one selection: shard 1/2 against 1/3"),
            ([ids["1/3"]!, ids["2/3"]!, ids["2/3"]!, ids["3/3"]!], "error: shard 2/3 is given 2 times: \(ids["2/3"]!), \(ids["2/3"]!)"),
            ([ids["1/3"]!, plain], "error: \(plain) is not a shard (it was not run with --shard K/N)"),
            (["missing/shard.json"], "error: missing/shard.json: cannot be read: No such file or directory"),
        ]
        for (arguments, message) in cases {
            let output = try ReqRunBinary.run(["merge"] + arguments, in: dir.url)
            #expect(output.status == 2, "\(arguments)")
            #expect(output.stderr.contains(message), "\(output.stderr)")
        }
        // Nothing was saved.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.appendingPathComponent(".reqrun/runs").path).count == before)
        let usage = try ReqRunBinary.run(["merge"], in: dir.url)
        #expect(usage.status == 64)
        // A part found short while it is joined saves nothing and removes no older record: merge prunes to
        // --keep after saving, not before.
        let runsFolder = dir.url.appendingPathComponent(".reqrun/runs")
        _ = try ReqRunBinary.run(["history", "--keep", "\(before)"], in: dir.url)
        let lines = try String(contentsOf: runsFolder.appendingPathComponent(ids["1/3"]! + ".jsonl"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        let short = dir.url.appendingPathComponent("short.jsonl")
        try (([lines[0]] + [lines.last!]).joined(separator: "\n") + "\n").write(to: short, atomically: true, encoding: .utf8)
        let listed = try FileManager.default.contentsOfDirectory(atPath: runsFolder.path).sorted()
        let shortMerge = try ReqRunBinary.run(["merge", short.path, ids["2/3"]!, ids["3/3"]!], in: dir.url)
        #expect(shortMerge.status == 2)
        #expect(shortMerge.stderr.contains("short.jsonl: it has fewer results than the positions of its shard"), "\(shortMerge.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: runsFolder.path).sorted() == listed)
        // A part whose run was killed (its summary line and last result missing) is named as cut short.
        let cut = dir.url.appendingPathComponent("cut.jsonl")
        try (lines.dropLast(2).joined(separator: "\n") + "\n").write(to: cut, atomically: true, encoding: .utf8)
        let cutMerge = try ReqRunBinary.run(["merge", cut.path, ids["2/3"]!, ids["3/3"]!], in: dir.url)
        #expect(cutMerge.status == 2)
        #expect(cutMerge.stderr.contains("cut.jsonl: it has no summary line (its run was cut short) and holds 1 of the 2 results of its shard 1/3; run that shard again"), "\(cutMerge.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: runsFolder.path).sorted() == listed)
        // A merge that succeeds keeps --keep records, its own among them.
        let merged = try ReqRunBinary.run(["merge", ids["1/3"]!, ids["2/3"]!, ids["3/3"]!], in: dir.url)
        #expect(merged.status == 0, "\(merged.stderr)")
        let after = try FileManager.default.contentsOfDirectory(atPath: runsFolder.path)
        let mergedID = try #require(runID(merged), "\(merged.stdout)")
        #expect(after.count == before && after.contains(mergedID + ".jsonl") && !after.contains(listed.first!), "\(after)")
        // A bad --report shows merge's usage, not run's.
        let report = try ReqRunBinary.run(["merge", "--report", "xml=out.xml", ids["1/3"]!], in: dir.url)
        #expect(report.status == 64)
        #expect(report.stderr.contains("error: --report expects KIND=FILE") && report.stderr.contains("Usage: reqrun merge"), "\(report.stderr)")
        #expect(!report.stderr.contains("Usage: reqrun run"), "\(report.stderr)")
    }
}
