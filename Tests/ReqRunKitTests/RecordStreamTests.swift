import Foundation
import Testing
@testable import ReqRunKit

/// Run records of format 2 (`RecordWriter`, `RecordReader`): JSON Lines written as the run goes.
@Suite struct RecordStreamTests {
    /// `.reqrun/runs` of a new workspace folder.
    private func folder() -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("reqrun-stream-\(UUID().lowercasedText)")
        try? FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        return root.appendingPathComponent(".reqrun/runs")
    }

    private func header(_ id: String = "20261201-120000-000-0001") -> RunRecord {
        RunRecord(id: id, startedAt: "2026-12-01T12:00:00.000Z", endedAt: "", reqrunVersion: "r", libcurlVersion: "",
                  workspace: "/w", environment: "dev", selection: RunSelection(mode: "all"), results: [])
    }

    private func result(_ index: Int, body: String = "ok", outcome: RequestResult.Outcome = .response) -> RequestResult {
        var result = RequestResult(index: index, collection: "C", groupPath: ["g"], groupID: "g", name: "n\(index)", method: "GET",
                                   url: "http://h/\(index)", outcome: outcome,
                                   response: outcome == .response ? ResponseRecord(status: 200, httpVersion: "1.1", headers: [], bodySize: body.utf8.count,
                                                                                   bodySHA256: "x", body: RecordedBody(prefix: Array(body.utf8), truncated: false),
                                                                                   remoteAddress: nil, remotePort: nil) : nil)
        result.captures = [CaptureResult(variable: "token", value: body, error: nil)]
        result.updateVerdict()
        return result
    }

    private func lines(_ file: URL) throws -> [String] {
        try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    @Test func aHeaderALinePerResultAndASummary() throws {
        let dir = folder()
        defer { try? FileManager.default.removeItem(at: dir.deletingLastPathComponent().deletingLastPathComponent()) }
        let store = RunStore(directory: dir)
        let writer = try RecordWriter(store: store, header: header())
        // The header is on disk before any result.
        #expect(try lines(writer.file) == [#"{"environment":"dev","format":2,"id":"20261201-120000-000-0001","line":"header","reqrunVersion":"r","selection":{"groups":[],"mode":"all","overriddenVariables":[]},"startedAt":"2026-12-01T12:00:00.000Z","workspace":"/w"}"#, ""])
        let results = [result(0), result(1, outcome: .transportError), result(2, outcome: .skipped)]
        for r in results { writer.append(r, encoded: RecordLines.result(r), maskedWith: []) }
        let file = try writer.finish(endedAt: "2026-12-01T12:00:01.000Z", libcurlVersion: "libcurl/8", lateSecrets: [], showSecrets: false)
        #expect(file.lastPathComponent == "20261201-120000-000-0001.jsonl")
        let all = try lines(file)
        #expect(all.count == 6 && all[5] == "")
        #expect(all[1].hasPrefix(#"{"attempts":1,"captures":[{"value":"ok","variable":"token"}],"collection":"C","#))
        #expect(all[1].contains(#""line":"result""#))
        #expect(all[4] == #"{"endedAt":"2026-12-01T12:00:01.000Z","libcurlVersion":"libcurl/8","line":"summary","summary":{"errors":1,"failed":0,"notRun":0,"passed":1,"responded":1,"skipped":1,"total":3}}"#)
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        let reader = try store.open(nil)
        #expect(reader.format == 2 && reader.complete)
        #expect(reader.head.summary == RunSummary(results) && reader.head.endedAt == "2026-12-01T12:00:01.000Z" && reader.head.environment == "dev")
        var read: [RequestResult] = []
        try reader.forEachResult { read.append($0) }
        #expect(read == results)
        var whole = header()
        (whole.endedAt, whole.libcurlVersion, whole.results, whole.summary) = ("2026-12-01T12:00:01.000Z", "libcurl/8", results, RunSummary(results))
        #expect(try store.load(nil) == whole)
    }

    /// A run killed before its end (SIGKILL, a power failure) leaves its header and the results flushed so
    /// far, maybe a last line cut short: they read back, with counts of what is there.
    @Test func aRecordWithoutItsSummaryReadsBack() throws {
        let dir = folder()
        defer { try? FileManager.default.removeItem(at: dir.deletingLastPathComponent().deletingLastPathComponent()) }
        let store = RunStore(directory: dir)
        let writer = try RecordWriter(store: store, header: header())
        for r in [result(0), result(1)] { writer.append(r, encoded: RecordLines.result(r), maskedWith: []) }
        writer.flush()
        let handle = try FileHandle(forWritingTo: writer.file)
        handle.seekToEndOfFile()
        handle.write(Data(RecordLines.result(result(2)).prefix(40)))
        try handle.close()
        let reader = try store.open("20261201")
        #expect(!reader.complete)
        #expect(reader.head.summary.total == 2 && reader.head.summary.passed == 2 && reader.head.endedAt == "")
        #expect(try reader.allResults().map(\.index) == [0, 1])
    }

    /// A secret learned late in the run (a token captured by one request, sent as a credential by a later one)
    /// is masked at the end in the lines written without it; the lines written with it are copied as they are.
    @Test func aLateSecretIsMaskedInTheLinesWrittenWithoutIt() throws {
        let dir = folder()
        defer { try? FileManager.default.removeItem(at: dir.deletingLastPathComponent().deletingLastPathComponent()) }
        let store = RunStore(directory: dir)
        let writer = try RecordWriter(store: store, header: header())
        let first = result(0, body: "token tok-12345")
        writer.append(first, encoded: RecordLines.result(first), maskedWith: [])
        let masked = SecretMasker(values: ["tok-12345"]).mask(result(1, body: "sent tok-12345"))
        writer.append(masked, encoded: RecordLines.result(masked), maskedWith: ["tok-12345"])
        writer.flush()
        #expect(try String(contentsOf: writer.file, encoding: .utf8).contains("tok-12345"))  // until the end: what the console showed
        try writer.finish(endedAt: "e", libcurlVersion: "l", lateSecrets: ["tok-12345"], showSecrets: false)
        let text = try String(contentsOf: writer.file, encoding: .utf8)
        #expect(!text.contains("tok-12345"))
        #expect(try store.load(nil).results.map { $0.response?.body.data } == ["token ****", "sent ****"])
        #expect(writer.captureOrigins["token"]?.value == "sent ****")
        let mode = try FileManager.default.attributesOfItem(atPath: writer.file.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        // Nothing left behind by the rewrite.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["20261201-120000-000-0001.jsonl"])
    }

    /// Records of format 1 (one JSON document, `<id>.json`) are still read, and listed with format 2 ones.
    @Test func formatOneRecordsAreStillRead() throws {
        let dir = folder()
        defer { try? FileManager.default.removeItem(at: dir.deletingLastPathComponent().deletingLastPathComponent()) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        var old = header("20261130-120000-000-0001")
        (old.endedAt, old.results) = ("e", [result(0), result(1, outcome: .invalid)])
        old.summary = RunSummary(old.results)
        try Data(old.jsonBytes()).write(to: dir.appendingPathComponent("20261130-120000-000-0001.json"))
        let store = RunStore(directory: dir)
        try store.save(header())
        #expect(try store.ids() == ["20261201-120000-000-0001", "20261130-120000-000-0001"])
        let reader = try store.open("20261130")
        #expect(reader.format == 1 && reader.head.summary == old.summary && reader.head.results.isEmpty)
        #expect(try store.load("20261130") == old)
        #expect(try store.prune(keep: 1) == ["20261130-120000-000-0001"])
        #expect(try store.ids() == ["20261201-120000-000-0001"])
    }

    /// A record whose header names another run than its file (written or renamed by hand, `../` in its id) is
    /// refused naming the file, in either format: it would show under that id and hide the runs before it from
    /// `diff`, which finds a run's predecessor by its file's name.
    @Test func aHeaderThatNamesAnotherRunIsRefused() throws {
        let dir = folder()
        defer { try? FileManager.default.removeItem(at: dir.deletingLastPathComponent().deletingLastPathComponent()) }
        let store = RunStore(directory: dir)
        try store.save(header())
        var forged = header("../../../tmp/pwn")
        forged.format = 2
        try Data(RecordLines.header(forged)).write(to: dir.appendingPathComponent("20261202-120000-000-0002.jsonl"))
        try Data(header("20261201-999999-000-0003").jsonBytes()).write(to: dir.appendingPathComponent("20261201-130000-000-0003.json"))
        #expect(throws: RunStoreError.unreadable(".reqrun/runs/20261202-120000-000-0002.jsonl",
                                                 "its header names run '../../../tmp/pwn', not 20261202-120000-000-0002 as its file's name does")) {
            try store.open(nil)
        }
        #expect(throws: RunStoreError.unreadable(".reqrun/runs/20261201-130000-000-0003.json",
                                                 "its header names run '20261201-999999-000-0003', not 20261201-130000-000-0003 as its file's name does")) {
            try store.open("20261201-13")
        }
        #expect(try store.open("20261201-12").head.id == "20261201-120000-000-0001")
    }

    /// A record file named on the command line (`merge`, `--shard-timings`) that is not one says what it is:
    /// missing (the system's words), a folder, a FIFO (opened without waiting for a writer), an empty file.
    @Test func aNamedFileThatIsNoRecordSaysWhatItIs() throws {
        let dir = folder()
        let root = dir.deletingLastPathComponent().deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: root) }
        let store = RunStore(directory: dir)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("folder.jsonl"), withIntermediateDirectories: true)
        #expect(mkfifo(root.appendingPathComponent("fifo.jsonl").path, 0o600) == 0)
        try Data().write(to: root.appendingPathComponent("empty.jsonl"))
        let path = { (name: String) in root.appendingPathComponent(name).path }
        #expect(throws: RunStoreError.notARecordFile(path("missing.jsonl"), "cannot be read: No such file or directory")) {
            try store.open(idOrFile: path("missing.jsonl"))
        }
        #expect(throws: RunStoreError.notARecordFile(path("folder.jsonl"), "is a folder, not a run record")) {
            try store.open(idOrFile: path("folder.jsonl"))
        }
        #expect(throws: RunStoreError.notARecordFile(path("fifo.jsonl"), "is a FIFO, not a run record")) {
            try store.open(idOrFile: path("fifo.jsonl"))
        }
        #expect(throws: RunStoreError.notARecordFile(path("empty.jsonl"), "is an empty file, not a run record")) {
            try store.open(idOrFile: path("empty.jsonl"))
        }
        #expect(RunStoreError.notARecordFile("f.jsonl", "is a FIFO, not a run record").description == "f.jsonl: is a FIFO, not a run record")
    }

    /// `diff` reads its two records on two threads: the rows are those of the same records compared whole,
    /// and when both records are unreadable, the earlier one's error is the one thrown.
    @Test func aDiffOfTwoRecordFilesIsTheDiffOfTheRecords() throws {
        let dir = folder()
        defer { try? FileManager.default.removeItem(at: dir.deletingLastPathComponent().deletingLastPathComponent()) }
        let store = RunStore(directory: dir)
        func write(_ id: String, _ results: [RequestResult], broken: Bool = false) throws -> URL {
            let writer = try RecordWriter(store: store, header: header(id))
            for r in results { writer.append(r, encoded: RecordLines.result(r), maskedWith: []) }
            if broken { writer.append(results[0], encoded: Array(#"{"index":"#.utf8) + [0x0A], maskedWith: []) }
            return try writer.finish(endedAt: "e", libcurlVersion: "l", lateSecrets: [], showSecrets: false)
        }
        let earlier = (0..<300).map { result($0 % 7, body: "b\($0 % 3)") }
        let later = (0..<250).map { result(($0 * 3) % 11, outcome: $0 % 5 == 0 ? .transportError : .response) }
        _ = try write("20261201-120000-000-0001", earlier)
        _ = try write("20261201-120000-000-0002", later)
        let diff = try RunDiff(before: store.open("20261201-120000-000-0001"), after: store.open("20261201-120000-000-0002"))
        let whole = RunDiff(before: try store.load("20261201-120000-000-0001"), after: try store.load("20261201-120000-000-0002"))
        #expect(diff.rows == whole.rows && diff.rows.count > 300)
        #expect(diff.rows[1].label == "C › g › n1" && diff.rows[7].label == "C › g › n0 (2)")
        _ = try write("20261201-120000-000-0003", earlier, broken: true)
        _ = try write("20261201-120000-000-0004", later, broken: true)
        #expect {
            try RunDiff(before: store.open("20261201-120000-000-0003"), after: store.open("20261201-120000-000-0004"))
        } throws: { error in
            guard case .unreadable(let file, let reason)? = error as? RunStoreError else { return false }
            return file.hasSuffix("20261201-120000-000-0003.jsonl") && reason.hasPrefix("line 302: ")
        }
    }
}
