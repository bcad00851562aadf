import Foundation
import Testing
import ReqRunKit
import TestSupport

/// Runs whose record is streamed (issue 17 §1): memory that does not grow with the run, `show --failed`,
/// iterations in `show`, records of format 1 still read, and the record written as the run goes.
@Suite struct BigRunEndToEndTests {
    /// A workspace of `count` GETs of nginx's `/` in groups of 1,000.
    private func workspace(_ count: Int) throws -> TemporaryDirectory {
        let nginx = try TestServers.nginxHTTP()
        let dir = try TemporaryDirectory()
        let groups = stride(from: 0, to: count, by: 1000).map { start in
            #"{"name": "g\#(start / 1000)", "requests": ["# + (start..<min(count, start + 1000)).map { #"{"name": "r\#($0)", "url": "\#(nginx)/?i=\#($0)"}"# }
                .joined(separator: ",") + "]}"
        }
        try dir.write("collections/big.json", #"{"name": "Big", "groups": [\#(groups.joined(separator: ","))]}"#)
        return dir
    }

    /// Peak resident memory in KiB of `reqrun ARGUMENTS`: `ru_maxrss` of the child as GNU time reads it
    /// (`wait4`; issue 17 §3 asks for `getrusage` of the child). Not spawned straight from the test process:
    /// Linux keeps the larger of the old and the new memory's high-water marks across `exec`, so a child of
    /// this process would report the test process's own peak.
    private func peakKiB(_ arguments: [String], in dir: TemporaryDirectory) throws -> Int {
        try PeakMemory.kibibytes(arguments, in: dir.url)
    }

    /// Before format 2 a run kept every result to its end: about 5.6 KB a request. Then each request still
    /// left about 100 bytes behind (libcurl's list of cookie files on a reused handle, one word per position
    /// in three arrays of the run): 1,000 requests run 100 times took 10 MiB more than once, 1,000,000 requests
    /// 146 MiB. Now memory does not grow with the run: the same 1,000 requests run 100 times (`--iterations`,
    /// so the collection in memory is the same) take about what one time takes, under issue 17's 64 MiB (the
    /// release build grows by 0.5 MiB here, the debug build by 0.8 MiB; before, the release build by 10 MiB).
    /// The growth allowed is 6 MiB, not less: with `--parallel` up to `ResultPipeline.maxHandedOver` results may
    /// wait for the second thread when the machine is busy (2.4 MiB seen at load 6–7 with the debug build), and
    /// 6 MiB still catches a leak of 63 bytes a request, such as the 100 bytes that took 10 MiB.
    @Test func memoryStaysFlatOverAHundredThousandRequests() throws {
        let small = try workspace(1_000)
        let base = try peakKiB(["run", "--all", "--parallel", "16"], in: small)
        let peak = try peakKiB(["run", "--all", "--parallel", "16", "--iterations", "100"], in: small)
        #expect(peak < 64 * 1024 && peak - base < 6 * 1024, "1,000 requests: \(base) KiB, 100 × 1,000: \(peak) KiB")
        let shown = try ReqRunBinary.run(["show", "--failed", "--json"], in: small.url)
        let record = try JSONDecoder().decode(RunRecord.self, from: Data(shown.stdout.utf8))
        #expect(record.summary.total == 100_000 && record.summary.passed == 100_000 && record.results.isEmpty)
    }

    /// 20,000 distinct requests: the growth over 1,000 is the collection's (under 2 KiB a request), not the
    /// results' (5.6 KB a request before format 2); the record lists them in order.
    @Test func aBigCollectionGrowsOnlyByItself() throws {
        let small = try workspace(1_000), big = try workspace(20_000)
        let base = try peakKiB(["run", "--all", "--parallel", "16"], in: small)
        let peak = try peakKiB(["run", "--all", "--parallel", "16"], in: big)
        #expect(peak - base < 19_000 * 2, "1,000 requests: \(base) KiB, 20,000: \(peak) KiB")
        let record = try RecordFiles.newest(in: big.url)
        #expect(record.results.count == 20_000 && record.summary.passed == 20_000)
        #expect(record.results.map(\.index) == Array(0..<20_000))
    }

    @Test func showFailedListsOnlyWhatFailedWithItsIteration() throws {
        let nginx = try TestServers.nginxHTTP()
        let dir = try TemporaryDirectory()
        try dir.write("collections/c.json", """
            {"name": "C", "groups": [{"name": "g", "requests": [
              {"name": "fine", "url": "\(nginx)/"},
              {"name": "wrong", "url": "\(nginx)/", "expect": [{"status": 201}]}]}]}
            """)
        #expect(try ReqRunBinary.run(["run", "--all", "--iterations", "2"], in: dir.url).status == 1)
        let shown = try ReqRunBinary.run(["show", "--failed"], in: dir.url)
        #expect(shown.status == 0)
        #expect(!shown.stdout.contains("C › g › fine"))
        #expect(shown.stdout.contains("C › g › wrong  (iteration 1)") && shown.stdout.contains("C › g › wrong  (iteration 2)"))
        #expect(try ReqRunBinary.run(["show"], in: dir.url).stdout.contains("C › g › fine  (iteration 2)"))
        let json = try JSONDecoder().decode(RunRecord.self, from: Data(try ReqRunBinary.run(["show", "--failed", "--json"], in: dir.url).stdout.utf8))
        #expect(json.results.map(\.name) == ["wrong", "wrong"] && json.summary.total == 4)
    }

    /// `show` decodes only what it prints: not the header fields and body sent (`request`), which it does not
    /// print (`show --json` does). A record whose sent header field is not one (here a number for its name)
    /// is shown; `show --json` names the field.
    @Test func showDecodesOnlyWhatItPrints() throws {
        let nginx = try TestServers.nginxHTTP()
        let dir = try TemporaryDirectory()
        try dir.write("collections/c.json", #"{"name": "C", "groups": [{"name": "g", "requests": [{"name": "r", "url": "\#(nginx)/"}]}]}"#)
        #expect(try ReqRunBinary.run(["run", "--all"], in: dir.url).status == 0)
        let runs = dir.url.appendingPathComponent(".reqrun/runs")
        let file = runs.appendingPathComponent(try #require(try FileManager.default.contentsOfDirectory(atPath: runs.path).first))
        let text = try String(contentsOf: file, encoding: .utf8)
        let sent = try #require(text.range(of: #""request":{"bodySize":0,"headers":[{"name":"Host""#))
        try text.replacingCharacters(in: sent, with: #""request":{"bodySize":0,"headers":[{"name":7"#).write(to: file, atomically: true, encoding: .utf8)
        let shown = try ReqRunBinary.run(["show"], in: dir.url)
        #expect(shown.status == 0 && shown.stdout.contains("C › g › r") && shown.stdout.contains("HTTP/1.1 200"), "\(shown.stdout)\(shown.stderr)")
        let json = try ReqRunBinary.run(["show", "--json"], in: dir.url)
        #expect(json.status != 0 && json.stderr.contains("request.headers[0].name"), "\(json.stderr)")
    }

    /// A record written by reqrun before format 2 (`<id>.json`, one document) is still listed, shown and
    /// compared with a new one.
    @Test func formatOneRecordsAreStillShownAndCompared() throws {
        let dir = try workspace(3)
        #expect(try ReqRunBinary.run(["run", "--all"], in: dir.url).status == 0)
        var old = try RecordFiles.newest(in: dir.url)
        old.id = "20200101-000000-000-0001"
        old.results[1].response?.status = 500
        try dir.write(".reqrun/runs/\(old.id).json", String(decoding: old.jsonBytes(), as: UTF8.self))
        let history = try ReqRunBinary.run(["history"], in: dir.url)
        #expect(history.stdout.contains(old.id))
        #expect(try ReqRunBinary.run(["show", old.id], in: dir.url).stdout.contains("run \(old.id)"))
        let diff = try ReqRunBinary.run(["diff", old.id, String(try #require(history.stdout.split(separator: "\n").dropFirst().first?.prefix(24)))],
                                        in: dir.url)
        #expect(diff.stdout.contains("Big › g0 › r1  status 500 → 200"), "\(diff.stdout)")
    }

    /// The header line is on disk while the run goes: a run stopped by SIGTERM leaves a complete record.
    @Test func theRecordIsWrittenAsTheRunGoes() throws {
        let dir = try workspace(20_000)
        let running = try ReqRunBinary.start(["run", "--all"], in: dir.url)
        var header: String?
        for _ in 0..<100 where header == nil {
            Thread.sleep(forTimeInterval: 0.05)
            let runs = dir.url.appendingPathComponent(".reqrun/runs")
            if let name = try? FileManager.default.contentsOfDirectory(atPath: runs.path).first(where: { $0.hasSuffix(".jsonl") }) {
                header = try? String(contentsOf: runs.appendingPathComponent(name), encoding: .utf8).split(separator: "\n").first.map(String.init)
            }
        }
        running.send(signal: SIGTERM)
        let output = running.finish()
        #expect(output.status == 143)
        #expect(header?.contains(#""line":"header""#) == true)
        let record = try RecordFiles.newest(in: dir.url)
        #expect(record.results.count == 20_000 && record.summary.notRun > 0 && record.endedAt != "")
    }
}
