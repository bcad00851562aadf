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

    /// A large file is read whole into a buffer advised for huge pages (`MADV_HUGEPAGE`: the mapping's
    /// `VmFlags` in `/proc/self/smaps` show `hg`), so that where the kernel has transparent huge pages for
    /// `madvise` the read faults far fewer pages in. Whether the kernel then finds huge pages is its own
    /// affair (memory fragmentation), so the advice is what is checked, not the count of faults.
    @Test func aLargeFileIsReadWholeIntoABufferAdvisedForHugePages() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reqrun-filebytes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let size = 24 << 20 | 12_345
        var content = [UInt8](repeating: 0x61, count: size)
        for i in stride(from: 0, to: size, by: 4_093) { content[i] = UInt8(truncatingIfNeeded: i >> 12) }
        let file = folder.appendingPathComponent("big.json")
        try Data(content).write(to: file)
        let read = try FileBytes.read(atPath: file.path, bound: .collection).get()
        #expect(read == content)
        let middle = read.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress!) + UInt(size / 2) }
        #expect(Self.mappingFlags(containing: middle).contains("hg"))
    }

    /// The `VmFlags` of the mapping of this process that holds `address` (`proc(5)`, `/proc/pid/smaps`).
    private static func mappingFlags(containing address: UInt) -> [Substring] {
        // Read to its end: a file of /proc has no size to read by.
        guard let data = FileHandle(forReadingAtPath: "/proc/self/smaps")?.readDataToEndOfFile() else { return [] }
        let smaps = String(decoding: data, as: UTF8.self)
        var inside = false
        for line in smaps.split(separator: "\n") {
            if let dash = line.firstIndex(of: "-"), let space = line.firstIndex(of: " "), dash < space,
               let low = UInt(line[..<dash], radix: 16), let high = UInt(line[line.index(after: dash)..<space], radix: 16) {
                inside = low <= address && address < high
            } else if inside, line.hasPrefix("VmFlags:") {
                return line.dropFirst("VmFlags:".count).split(separator: " ")
            }
        }
        return []
    }
}
