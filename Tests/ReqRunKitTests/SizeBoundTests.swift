import Foundation
import Testing
import TestSupport
@testable import ReqRunKit

/// Every loader refuses a file above its documented bound before reading it whole, naming the file, its
/// size and the bound. Files are sparse (`ftruncate`), so they take no disk space and no time.
@Suite struct SizeBoundTests {
    private func sparse(_ url: URL, size: Int) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: url.path, contents: Data("{".utf8)))
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: UInt64(size))
        try handle.close()
    }

    @Test func collectionsAndEnvironmentsAboveTheirBoundsAreRefused() throws {
        let dir = try TemporaryDirectory()
        try sparse(dir.url.appendingPathComponent("collections/big.json"), size: 256 << 20 + 1)
        let collection = try #require(throws: InputError.self) { try Workspace(root: dir.url).loadCollections() }
        #expect(collection.description == "collections/big.json: is 256.0 MiB (268435457 bytes), more than a collection may have (256 MiB)")
        try sparse(dir.url.appendingPathComponent("environments/big.json"), size: 20 << 20)
        let environment = try #require(throws: InputError.self) { try Workspace(root: dir.url).loadEnvironment("big", relativeTo: dir.url) }
        #expect(environment.description == "environments/big.json: is 20 MiB (20971520 bytes), more than an environment may have (16 MiB)")
    }

    /// A pipe has no size: it is read up to the bound, and refused past it.
    @Test func aPipeIsReadUpToTheBound() throws {
        let pipe = Pipe()
        let writer = Thread {
            pipe.fileHandleForWriting.write(Data(repeating: 0x20, count: 300_000))
            try? pipe.fileHandleForWriting.close()
        }
        writer.start()
        let bound = FileSizeBound(bytes: 100_000, kind: "a test file")
        #expect(FileBytes.read(atPath: "/dev/fd/\(pipe.fileHandleForReading.fileDescriptor)", bound: bound)
                == .failure(.tooLarge("is more than 97.7 KiB, the most a test file may have")))
    }

    @Test func stateFilesAndRunRecordsAboveTheirBoundsAreRefused() throws {
        let dir = try TemporaryDirectory()
        let state = dir.url.appendingPathComponent(".reqrun/state.json")
        try sparse(state, size: 17 << 20)
        let store = StateStore(directory: dir.url.appendingPathComponent(".reqrun"))
        #expect(try store.expandedGroups() == [])
        // Moved aside, never lost, with a warning naming the size and the bound.
        #expect(store.warnings.count == 1)
        #expect(store.warnings.first?.hasPrefix(".reqrun/state.json: it is 17 MiB (17825792 bytes), more than the state file may have (16 MiB); "
                                                + "the file could not be read, so it was moved to .reqrun/state.json.unreadable-") == true)
        #expect(!FileManager.default.fileExists(atPath: state.path))
        let id = "20261201-091500-000-abcd"
        try sparse(dir.url.appendingPathComponent(".reqrun/runs/\(id).json"), size: 1 << 30 + 1)
        let error = try #require(throws: RunStoreError.self) { try RunStore(directory: dir.url.appendingPathComponent(".reqrun/runs")).load(nil) }
        #expect(error.description == ".reqrun/runs/\(id).json: is 1.0 GiB (1073741825 bytes), more than a run record may have (1 GiB)")
    }
}
