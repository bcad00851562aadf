import Foundation

/// Whole-file writes that readers never see half done.
public enum AtomicFile {
    /// Writes `bytes` to `url` atomically: a temporary file in the same folder, `fsync`, `rename(2)` over
    /// the target (atomic within one file system, POSIX), then `fsync` of the folder so the rename survives
    /// a crash.
    /// - Parameter mode: permission bits of the new file, e.g. `0o600`.
    /// - Throws: `FileError` naming the file and the system's reason.
    public static func write(_ bytes: [UInt8], to url: URL, mode: mode_t) throws(FileError) {
        let folder = url.deletingLastPathComponent().path
        let temporary = folder + "/.\(url.lastPathComponent).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw FileError(path: temporary, operation: "create", errno: errno) }
        var failure: FileError?
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = Foundation.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = FileError(path: temporary, operation: "write", errno: errno)
                    return
                }
                offset += n
            }
        }
        if failure == nil, fsync(fd) != 0 { failure = FileError(path: temporary, operation: "fsync", errno: errno) }
        close(fd)
        if failure == nil, rename(temporary, url.path) != 0 { failure = FileError(path: url.path, operation: "rename onto", errno: errno) }
        if let failure {
            unlink(temporary)
            throw failure
        }
        let dirFD = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dirFD >= 0 { fsync(dirFD); close(dirFD) }
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
