import Foundation

/// Reading a whole file straight into a byte array, within a size bound.
///
/// `FileManager.contents(atPath:)` gives `Data`, and the parser wants `[UInt8]`: the copy between them
/// touched the file's size in fresh pages a second time (about 1,900 page faults, 8 % of `list --all --json`'s
/// on a 7.7 MB collection, `perf record -e page-faults`).
public enum FileBytes {
    /// Why a file was not read.
    public enum Failure: Error, Equatable {
        /// It cannot be opened or read (missing, a folder, no permission).
        case unreadable
        /// It is larger than the bound: `FileSizeBound.refusal`'s reason.
        case tooLarge(String)
        /// It had to be a regular file and is not: what it is (`a FIFO (named pipe)`, `a folder`: `BodyFile.kind`).
        case notRegular(String)

        /// `is a FIFO (named pipe), not a regular file` for `notRegular`; nil for the others, whose wording
        /// each caller chooses.
        var notRegularReason: String? {
            if case .notRegular(let kind) = self { return "is \(kind), not a regular file" }
            return nil
        }
    }

    /// The file's bytes, or why they were not read: a file larger than `bound` is refused before it is read
    /// (by its `fstat` size), a pipe as soon as more than `bound` bytes came.
    /// - Parameter regularOnly: for a file the workspace names (`collections/*.json`, `environments/NAME.json`,
    ///   `reqrun.json`, a collection's script file), which a cloned repository may make a FIFO or a device: it is
    ///   opened with `O_NONBLOCK` (opening a FIFO waits for a writer otherwise, open(2)) and refused unless
    ///   `fstat` calls it a regular file. False for a file the user named, which may be a pipe (`--env <(…)`).
    /// - Parameter followingLinks: false for a path already resolved and checked (`realpath(3)`: a module file
    ///   `require()` reads): `O_NOFOLLOW`, so a link put there since is not followed (`unreadable`).
    public static func read(atPath path: String, bound: FileSizeBound, regularOnly: Bool = false,
                            followingLinks: Bool = true) -> Result<[UInt8], Failure> {
        let fd = open(path, O_RDONLY | O_CLOEXEC | (regularOnly ? O_NONBLOCK : 0) | (followingLinks ? 0 : O_NOFOLLOW))
        guard fd >= 0 else { return .failure(.unreadable) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(.unreadable) }
        // O_NONBLOCK changes nothing for a regular file's reads.
        if regularOnly, let kind = BodyFile.kind(info.st_mode) { return .failure(.notRegular(kind)) }
        if let refusal = bound.refusal(size: Int(info.st_size)) { return .failure(.tooLarge(refusal)) }
        // One byte more than the size, so that a file that grew since `fstat` is noticed.
        let room = max(Int(info.st_size), 0) + 1
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: room) { buffer, count in
            count = 0
            askForHugePages(buffer)
            while count < room {
                let n = Glibc.read(fd, buffer.baseAddress! + count, room - count)
                if n < 0 && errno == EINTR { continue }
                if n < 0 { failed = true; return }
                if n == 0 { return }
                count += n
            }
        }
        if failed { return .failure(.unreadable) }
        guard bytes.count == room else { return .success(bytes) }
        // More may follow: a file that grew while being read, or a pipe (`--collection <(…)`), whose size
        // says nothing. Read on from the same descriptor: reopening a pipe would lose what was read.
        var all = bytes
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return .failure(.unreadable) }
            if n == 0 { return .success(all) }
            all.append(contentsOf: chunk[..<n])
            if all.count > bound.bytes {
                return .failure(.tooLarge("is more than \(FileSizeBound.describe(bound.bytes)), the most \(bound.kind) may have"))
            }
        }
    }

    /// Buffers at least this large (in bytes) are backed by huge pages where the kernel can.
    static let hugePageSize = 8 << 20

    /// Asks the kernel to back the 2 MiB pages inside `buffer` with huge pages (`madvise(2)` `MADV_HUGEPAGE`,
    /// for transparent huge pages set to `madvise`, as Debian's kernel is): the `read(2)` into a fresh buffer
    /// faults a page in at each 4 KiB otherwise (some 19,000 faults, with their zeroing and locking, for a
    /// 78 MB collection). Only whole 2 MiB pages inside the buffer are named, so nothing beyond it is mapped.
    /// A hint: a kernel without them, or one that refuses, reads the same bytes into small pages.
    private static func askForHugePages(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        guard buffer.count >= hugePageSize, let base = buffer.baseAddress else { return }
        let huge = 2 << 20
        let start = (Int(bitPattern: base) + huge - 1) & ~(huge - 1)
        let end = (Int(bitPattern: base) + buffer.count) & ~(huge - 1)
        guard end > start, let pointer = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(pointer, end - start, 14 /* MADV_HUGEPAGE */)
    }
}
