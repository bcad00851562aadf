import Foundation
import Testing
import ReqRunKit
import TestSupport

/// `reqrun merge` reads its shards a result at a time: its memory does not grow with the results (issue 17 §1).
@Suite struct MergeMemoryEndToEndTests {
    /// Peak resident memory of `reqrun ARGUMENTS` in `directory`, in KiB (`getrusage(RUSAGE_CHILDREN)` of a
    /// Python parent that runs only it).
    private func peakKiB(_ arguments: [String], in directory: URL) throws -> (status: Int32, kib: Int) {
        let script = "import resource, subprocess, sys\n"
            + "status = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode\n"
            + "print(status, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script, ReqRunBinary.url.path] + arguments
        process.currentDirectoryURL = directory
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let fields = output.split(separator: " ").map { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1 }
        return (Int32(fields.first ?? -1), fields.count > 1 ? fields[1] : -1)
    }

    @Test func mergeOfLargeShardsStaysSmall() throws {
        let dir = try TemporaryDirectory()
        try dir.write("collections/c.json", #"{"name": "C", "requests": []}"#)
        let store = RunStore(directory: dir.url.appendingPathComponent(".reqrun/runs"))
        // 4 shards × 100 results, each with a 60 KB text body: 24 MB of results.
        let body = Array(String(repeating: "0123456789abcdef", count: 3_750).utf8)
        let perShard = 100, n = 4
        for k in 1...n {
            var selection = RunSelection(mode: "all")
            let positions = (0..<perShard).map { $0 * n + k - 1 }
            selection.shard = ShardRecord(k: k, n: n, by: "request", selected: perShard * n, positions: positions)
            var record = RunRecord(id: "20261201-10000\(k)-000-000\(k)", startedAt: "2026-12-01T10:00:00.000Z", endedAt: "2026-12-01T10:01:00.000Z",
                                   reqrunVersion: "r", libcurlVersion: "l", workspace: dir.url.path, selection: selection, results: [])
            record.results = positions.map { p in
                var result = RequestResult(index: p, collection: "C", groupPath: [], groupID: "C", name: "r\(p)", method: "GET", url: "http://h/\(p)",
                                           outcome: .response,
                                           response: ResponseRecord(status: 200, httpVersion: "1.1", headers: [], bodySize: body.count, bodySHA256: "x",
                                                                    body: RecordedBody(prefix: body, truncated: false), remoteAddress: nil, remotePort: nil))
                result.updateVerdict()
                return result
            }
            record.summary = RunSummary(record.results)
            try store.save(record)
        }
        let ids = (1...n).map { "20261201-10000\($0)-000-000\($0)" }
        let baseline = try peakKiB(["history"], in: dir.url)
        let merge = try peakKiB(["merge"] + ids, in: dir.url)
        #expect(baseline.status == 0 && merge.status == 0)
        // Holding the results would take 24 MB more than reading them one at a time.
        #expect(merge.kib < baseline.kib + 12 * 1024, "merge \(merge.kib) KiB, history \(baseline.kib) KiB")
        let merged = try ReqRunBinary.run(["show", "--json"], in: dir.url)
        let record = try JSONDecoder().decode(RunRecord.self, from: Data(merged.stdout.utf8))
        #expect(record.results.map(\.index) == Array(0..<perShard * n))
        #expect(record.selection.merged?.runs == ids)
    }
}
