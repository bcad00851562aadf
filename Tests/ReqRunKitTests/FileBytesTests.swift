import Foundation
import Testing
@testable import ReqRunKit

@Suite struct FileBytesTests {
    @Test func readsWholeFilesAndNothingElse() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reqrun-filebytes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let content = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let file = folder.appendingPathComponent("c.json")
        try Data(content).write(to: file)
        #expect(try FileBytes.read(atPath: file.path, bound: .collection).get() == content)
        let empty = folder.appendingPathComponent("empty.json")
        try Data().write(to: empty)
        #expect(try FileBytes.read(atPath: empty.path, bound: .collection).get() == [])
        #expect(FileBytes.read(atPath: folder.appendingPathComponent("missing.json").path, bound: .collection) == .failure(.unreadable))
        #expect(FileBytes.read(atPath: folder.path, bound: .collection) == .failure(.unreadable))
    }

    /// A pipe (what `--collection <(…)` and `--env <(…)` give) has no size: all of it is read, first byte
    /// included, without reopening it.
    @Test func readsAPipeToItsEnd() throws {
        let content = (0..<150_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }
        let pipe = Pipe()
        let writer = Thread {
            pipe.fileHandleForWriting.write(Data(content))
            try? pipe.fileHandleForWriting.close()
        }
        writer.start()
        #expect(try FileBytes.read(atPath: "/dev/fd/\(pipe.fileHandleForReading.fileDescriptor)", bound: .collection).get() == content)
    }
}
