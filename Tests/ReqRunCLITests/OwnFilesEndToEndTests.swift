import Foundation
import Testing
import ReqRunKit
import TestSupport

/// reqrun's own folder and files (`.reqrun`, `.reqrun/runs`, `.reqrun/lock`, `.reqrun/state.json`, records)
/// are never followed through symbolic links, which a cloned repository can carry.
@Suite struct OwnFilesEndToEndTests {
    /// A workspace with one group `g` holding one skipped request, and a folder `outside/` beside it.
    private func workspace() throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory()
        try dir.write("ws/collections/c.json", #"{"name": "C", "groups": [{"id": "7bbd0224-3a31-4ba7-9dbb-b7138de7aaee", "name": "g", "requests": [{"name": "ws", "url": "ftp://example.invalid/"}]}]}"#)
        try FileManager.default.createDirectory(at: dir.url.appendingPathComponent("outside"), withIntermediateDirectories: true)
        return dir
    }

    private func link(_ name: String, to target: String, in dir: TemporaryDirectory) throws {
        try FileManager.default.createDirectory(at: dir.url.appendingPathComponent(name).deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir.url.appendingPathComponent(name).path, withDestinationPath: target)
    }

    private func outside(_ dir: TemporaryDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.url.appendingPathComponent("outside").path).sorted()
    }

    private func reqrun(_ arguments: [String], _ dir: TemporaryDirectory) throws -> ReqRunBinary.Output {
        try ReqRunBinary.run(arguments, in: dir.url.appendingPathComponent("ws"))
    }

    private let refusal = "is a symbolic link, and reqrun does not follow links for its own files (remove it)"

    @Test func aSymlinkedReqrunFolderIsAnErrorAndNothingIsWrittenThere() throws {
        let dir = try workspace()
        try link("ws/.reqrun", to: "../outside", in: dir)
        let expand = try reqrun(["expand", "g"], dir)
        #expect(expand.status == 74)
        #expect(expand.stderr.contains("/ws/.reqrun: it \(refusal)"), "\(expand.stderr)")
        let run = try reqrun(["run", "--all"], dir)
        #expect(run.status == 74 && run.stderr.contains("/ws/.reqrun: it \(refusal)"), "\(run.stderr)")
        #expect(try reqrun(["list"], dir).status == 74)
        #expect(try outside(dir) == [])
    }

    @Test func aSymlinkedRunsFolderGetsNoRecordAndLosesNothingToPruning() throws {
        let dir = try workspace()
        try dir.write("outside/20200101-000000-000-0001.json", "{}")
        try dir.write("outside/20200101-000000-000-0002.json", "{}")
        try FileManager.default.createDirectory(at: dir.url.appendingPathComponent("ws/.reqrun"), withIntermediateDirectories: true)
        try link("ws/.reqrun/runs", to: "../../outside", in: dir)
        let run = try reqrun(["run", "--all"], dir)
        #expect(run.status == 74)
        #expect(run.stderr.contains("/ws/.reqrun/runs: it \(refusal)"), "\(run.stderr)")
        let keep = try reqrun(["history", "--keep", "1"], dir)
        #expect(keep.status == 74 && keep.stderr.contains("/ws/.reqrun/runs: it \(refusal)"), "\(keep.stderr)")
        #expect(try outside(dir) == ["20200101-000000-000-0001.json", "20200101-000000-000-0002.json"])
    }

    @Test func aSymlinkedLockOrStateFileIsAnErrorAndItsTargetIsLeftAlone() throws {
        let dir = try workspace()
        try FileManager.default.createDirectory(at: dir.url.appendingPathComponent("ws/.reqrun"), withIntermediateDirectories: true)
        try link("ws/.reqrun/lock", to: "../../outside/created-by-lock", in: dir)
        let expand = try reqrun(["expand", "g"], dir)
        #expect(expand.status == 74 && expand.stderr.contains("/ws/.reqrun/lock: it \(refusal)"), "\(expand.stderr)")
        #expect(try outside(dir) == [])

        try FileManager.default.removeItem(at: dir.url.appendingPathComponent("ws/.reqrun/lock"))
        try dir.write("outside/state.json", #"{"expandedGroups": "[]"}"#)
        try link("ws/.reqrun/state.json", to: "../../outside/state.json", in: dir)
        let again = try reqrun(["expand", "g"], dir)
        #expect(again.status == 74 && again.stderr.contains("/ws/.reqrun/state.json: it \(refusal)"), "\(again.stderr)")
        #expect(try reqrun(["list"], dir).stderr.contains("/ws/.reqrun/state.json: it \(refusal)"))
        #expect(try dir.read("outside/state.json") == #"{"expandedGroups": "[]"}"#)
    }

    @Test func aSymlinkedRecordIsNotARecord() throws {
        let dir = try workspace()
        #expect(try reqrun(["run", "--all"], dir).status == 0)
        try dir.write("outside/secret.json", #"{"not": "a record"}"#)
        try link("ws/.reqrun/runs/20200101-000000-000-0001.json", to: "../../../outside/secret.json", in: dir)
        let history = try reqrun(["history"], dir)
        // Not read through the link: neither listed nor warned about.
        #expect(!history.stdout.contains("20200101-000000-000-0001") && !history.stderr.contains("20200101-000000-000-0001"))
        let show = try reqrun(["show", "20200101-000000-000-0001"], dir)
        #expect(show.status == 2 && show.stderr == "error: no run '20200101-000000-000-0001' (reqrun history lists them)\n", "\(show.stderr)")
        _ = try reqrun(["history", "--keep", "1"], dir)
        #expect(try dir.read("outside/secret.json") == #"{"not": "a record"}"#)
    }
}
