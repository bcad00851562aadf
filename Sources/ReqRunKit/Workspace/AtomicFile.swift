import Foundation

/// Whole-file writes that readers never see half done.
public enum AtomicFile {
    /// Writes `bytes` to `url` atomically: a temporary file in the same folder, `fsync`, `rename(2)` over
    /// the target (atomic within one file system, POSIX), then `fsync` of the folder so the rename survives
    /// a crash.
    /// - Parameter mode: permission bits of the new file, e.g. `0o600`.
    /// - Throws: `FileError` naming the file and the system's reason.
    public static func write(_ bytes: [UInt8], to url: URL, mode: mode_t) throws(FileError) {
        try write(to: url, mode: mode) { output in bytes.withUnsafeBytes { output.write($0) } }
    }

    /// Like `write(_:to:mode:)`, with the contents written by `contents` in as many pieces as it likes (a
    /// large run record streams through a small buffer rather than being built whole in memory).
    /// - Parameter durable: false skips both `fsync`s: readers still see the old file or the whole new one,
    ///   but a power failure soon after may lose the new file (or leave it empty). For files that are a log
    ///   rather than state (run records: an `fsync` of a 1,000-request record took 2–4 ms, longer than
    ///   reqrun's own work after the last response).
    public static func write(to url: URL, mode: mode_t, durable: Bool = true, contents: (Output) -> Void) throws(FileError) {
        let folder = url.deletingLastPathComponent().path
        let temporary = folder + "/.\(url.lastPathComponent).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw FileError(path: temporary, operation: "create", errno: errno) }
        let output = Output(fd: fd)
        contents(output)
        var failure = output.failedWith.map { FileError(path: temporary, operation: "write", errno: $0) }
        if failure == nil, durable, fsync(fd) != 0 { failure = FileError(path: temporary, operation: "fsync", errno: errno) }
        close(fd)
        if failure == nil, rename(temporary, url.path) != 0 { failure = FileError(path: url.path, operation: "rename onto", errno: errno) }
        if let failure {
            unlink(temporary)
            throw failure
        }
        guard durable else { return }
        let dirFD = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dirFD >= 0 { fsync(dirFD); close(dirFD) }
    }
}

extension AtomicFile {
    /// The temporary file being written: `write` appends bytes; after a failed write the rest are dropped and
    /// the whole `AtomicFile.write` throws, leaving the target untouched.
    public final class Output {
        fileprivate let fd: Int32
        fileprivate var failedWith: Int32?

        fileprivate init(fd: Int32) { self.fd = fd }

        public func write(_ bytes: UnsafeRawBufferPointer) {
            var offset = 0
            while failedWith == nil, offset < bytes.count {
                let n = Foundation.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 {
                    if errno != EINTR { failedWith = errno }
                    continue
                }
                offset += n
            }
        }
    }
}

/// A file operation that the system refused, with its `errno` text.
public struct FileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var operation: String
    public var code: Int32

    public init(path: String, operation: String, errno code: Int32) {
        self.path = path
        self.operation = operation
        self.code = code
    }

    public var description: String { "could not \(operation) \(path): \(String(cString: strerror(code)))" }
}
