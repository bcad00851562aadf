import Foundation

/// Whole-file writes that readers never see half done.
public enum AtomicFile {
    /// Writes `bytes` to `url` atomically: a temporary file in the same folder, `fsync`, `rename(2)` over
    /// the target (atomic within one file system, POSIX), then `fsync` of the folder so the rename survives
    /// a crash. For reqrun's own files only: files the user names go through `UserFile.write`, which does not
    /// rename over a device, a FIFO or a symbolic link.
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
        let folderFD = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folderFD >= 0 else { throw FileError(path: folder, operation: "open the folder", errno: errno) }
        defer { close(folderFD) }
        try write(in: folderFD, folder: folder, name: url.lastPathComponent, mode: mode, durable: durable, contents: contents)
    }

    /// The temporary file's name prefix for `name`: `.NAME.tmp-` followed by `PID-RANDOM`.
    public static func temporaryPrefix(_ name: String) -> String { ".\(name).tmp-" }

    /// The one implementation: the temporary file `.NAME.tmp-PID-RANDOM` is created with `openat(2)` in the
    /// folder open as `folderFD` (`O_EXCL`, so never through an existing file or link), and `renameat(2)`
    /// puts it in place. Working from a descriptor lets `PrivateDirectory` write inside a folder it opened
    /// without following links.
    /// - Parameter folder: the folder's path, for messages.
    static func write(in folderFD: Int32, folder: String, name: String, mode: mode_t, durable: Bool,
                      contents: (Output) -> Void) throws(FileError) {
        let temporary = temporaryPrefix(name) + "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = openat(folderFD, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard fd >= 0 else { throw FileError(path: folder + "/" + temporary, operation: "create", errno: errno) }
        let output = Output(fd: fd)
        contents(output)
        var failure = output.failedWith.map { FileError(path: folder + "/" + temporary, operation: "write", errno: $0) }
        if failure == nil, durable, fsync(fd) != 0 { failure = FileError(path: folder + "/" + temporary, operation: "fsync", errno: errno) }
        close(fd)
        if failure == nil, renameat(folderFD, temporary, folderFD, name) != 0 {
            failure = FileError(path: folder + "/" + name, operation: "rename onto", errno: errno)
        }
        if let failure {
            unlinkat(folderFD, temporary, 0)
            throw failure
        }
        if durable { fsync(folderFD) }
    }
}

extension AtomicFile {
    /// The file being written: `write` appends bytes; after a failed write the rest are dropped and the
    /// whole `AtomicFile.write` (or `UserFile.write`) throws.
    public final class Output {
        fileprivate let fd: Int32
        fileprivate(set) var failedWith: Int32?

        init(fd: Int32) { self.fd = fd }

        /// Makes the write fail with `code` (what was read to copy could not be): nothing is renamed into place.
        public func fail(_ code: Int32) { if failedWith == nil { failedWith = code } }

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

/// A file operation that the system refused, with its `errno` text (or reqrun's own reason).
public struct FileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var operation: String
    public var code: Int32
    /// Replaces the system's text when reqrun itself refused (e.g. a symbolic link where it follows none).
    public var reason: String?

    public init(path: String, operation: String, errno code: Int32) {
        self.path = path
        self.operation = operation
        self.code = code
    }

    public init(path: String, operation: String, reason: String) {
        self.init(path: path, operation: operation, errno: 0)
        self.reason = reason
    }

    public var description: String { "could not \(operation) \(path): \(reason ?? String(cString: strerror(code)))" }
}
