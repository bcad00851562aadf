import Foundation

/// A file whose bytes are sent as content (`bodyFile`, a multipart file part). Only regular files: reading a
/// FIFO, a terminal or `/dev/stdin` on a silent pipe blocks in `read(2)` where neither `--timeout` nor
/// SIGTERM reaches, and opening a FIFO blocks until a writer comes. Checked when the collection loads
/// (`FileScope.bodyFile`) and again when the file is opened, since it may have been replaced meanwhile.
enum BodyFile {
    /// What a file of this `st_mode` is (`a FIFO`…), or nil for a regular file.
    static func kind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "a folder"
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        default: return "not a plain file"
        }
    }

    /// Opens `path` for reading without blocking (`O_NONBLOCK`: opening a FIFO would wait for a writer) and
    /// without following a symbolic link in its last component (the path was resolved when the collection
    /// loaded; a link there now is a replacement), and checks with `fstat(2)` that it is a regular file.
    /// - Returns: the open descriptor (blocking again: a regular file never blocks), which the caller closes;
    ///   or why it cannot be sent.
    static func open(_ path: String) -> Result<Int32, BodyFileError> {
        let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return .failure(BodyFileError(path: path, reason: String(cString: strerror(errno)))) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            return .failure(BodyFileError(path: path, reason: reason))
        }
        if let kind = kind(info.st_mode) {
            close(fd)
            return .failure(BodyFileError(path: path, reason: "is \(kind), not a regular file; only regular files can be sent as content"))
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return .success(fd)
    }

    /// The first `limit` bytes (every byte when nil) of the body file at `path`, opened as `open` opens it, for
    /// a signature's content hash made before the transfer (EdgeGrid, OAuth 1.0a's `oauth_body_hash`); nil when
    /// it cannot be sent (a FIFO put there since the collection loaded would block a plain read), and the
    /// transfer then fails with the reason.
    static func contents(_ path: String, upTo limit: Int? = nil) -> [UInt8]? {
        guard case .success(let fd) = open(path) else { return nil }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        let data = try? limit.map { try handle.read(upToCount: $0) } ?? handle.readToEnd()
        return Array((data ?? nil) ?? Data())
    }
}

/// A body file that cannot be sent.
struct BodyFileError: Error, Sendable, CustomStringConvertible {
    var path: String
    var reason: String
    var description: String { "\(path): \(reason)" }
}
