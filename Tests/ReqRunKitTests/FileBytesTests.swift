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

    /// A large file is read whole, and, where the kernel has transparent huge pages for `madvise` (or always),
    /// into them: far fewer page faults than one per 4 KiB of the file.
    @Test func aLargeFileIsReadWholeIntoHugePagesWhereTheKernelHasThem() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reqrun-filebytes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let size = 24 << 20 | 12_345
        var content = [UInt8](repeating: 0x61, count: size)
        for i in stride(from: 0, to: size, by: 4_093) { content[i] = UInt8(truncatingIfNeeded: i >> 12) }
        let file = folder.appendingPathComponent("big.json")
        try Data(content).write(to: file)
        var before = rusage(), after = rusage()
        getrusage(__rusage_who_t(1) /* RUSAGE_THREAD */, &before)
        let read = try FileBytes.read(atPath: file.path, bound: .collection).get()
        getrusage(__rusage_who_t(1) /* RUSAGE_THREAD */, &after)
        #expect(read == content)
        let mode = (try? String(contentsOfFile: "/sys/kernel/mm/transparent_hugepage/enabled", encoding: .utf8)) ?? ""
        guard mode.contains("[madvise]") || mode.contains("[always]") else { return }
        #expect(after.ru_minflt - before.ru_minflt < size / 4096 / 2, "\(after.ru_minflt - before.ru_minflt) faults")
    }
}
