import Foundation
import Testing
import ReqRunKit
import TestSupport

/// Temporary files that a process killed while writing (SIGKILL) leaves in `.reqrun/` and `.reqrun/runs/`.
@Suite struct StaleTemporaryFileTests {
    /// The pid of a process that has ended.
    private func deadPID() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    /// Creates `name` in `folder`, last modified `age` seconds ago.
    private func leave(_ name: String, in folder: URL, age: TimeInterval = 0) throws {
        let url = folder.appendingPathComponent(name)
        try Data("{\"half".utf8).write(to: url)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-age)], ofItemAtPath: url.path)
    }

    @Test func aStateWriteRemovesTheTemporaryFilesOfDeadOrLongGoneWriters() throws {
        let dir = try TemporaryDirectory()
        let folder = dir.url.appendingPathComponent(".reqrun")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let dead = try deadPID()
        let live = getpid()
        try leave(".state.json.tmp-\(dead)-1234", in: folder)
        try leave(".state.json.tmp-\(live)-5678", in: folder)                  // a write in progress: kept
        try leave(".state.json.tmp-\(live)-9999", in: folder, age: 3_600)     // an hour old: a reused pid
        try leave("notes.tmp-\(dead)-1", in: folder)                           // not one of reqrun's names
        try StateStore(directory: folder).update { $0.insert(UUID()) }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names == [".state.json.tmp-\(live)-5678", "lock", "notes.tmp-\(dead)-1", "state.json"])
    }

    @Test func pruningRemovesTheTemporaryFilesOfRecordWritesThatDied() throws {
        let dir = try TemporaryDirectory()
        let runs = dir.url.appendingPathComponent(".reqrun/runs")
        try FileManager.default.createDirectory(at: runs, withIntermediateDirectories: true)
        let dead = try deadPID()
        try leave(".20261201-090000-000-0001.json.tmp-\(dead)-42", in: runs)
        try leave(".20261201-090000-000-0002.json.tmp-\(getpid())-43", in: runs)
        _ = try RunStore(directory: runs).prune(keep: 10)
        #expect(try FileManager.default.contentsOfDirectory(atPath: runs.path) == [".20261201-090000-000-0002.json.tmp-\(getpid())-43"])
    }
}
