import Foundation

/// One of reqrun's own folders (`.reqrun`, `.reqrun/runs`), opened once and then used only through its
/// descriptor (`openat(2)`, `renameat(2)`, `unlinkat(2)`, `fstatat(2)` with `AT_SYMLINK_NOFOLLOW`), so
/// neither the folder nor any file reqrun keeps in it is followed through a symbolic link. A cloned
/// repository can carry `.reqrun/runs -> /elsewhere` or `.reqrun/lock -> ~/.bashrc`; followed, they would
/// make reqrun write records elsewhere, prune files there, or create a file at the link's target. A link
/// (or anything but a folder or regular file) where reqrun expects its own is an error naming it.
public final class PrivateDirectory {
    /// The open folder (`O_DIRECTORY | O_NOFOLLOW`), closed with this value.
    let fd: Int32
    /// The folder's path, for messages.
    public let path: String

    private init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
    }

    deinit { close(fd) }

    /// Opens `url` whose last `ownComponents` path components are reqrun's own folders: the folder above them
    /// is opened as given (the user chose it, e.g. the workspace), each own one with `O_NOFOLLOW`.
    /// - Parameter create: make missing own folders (mode 0700: records may hold responses with secrets).
    /// - Returns: nil when an own folder is missing and `create` is false.
    /// - Throws: `FileError` when a folder cannot be opened or made, or an own one is a symbolic link or a file.
    public static func open(_ url: URL, ownComponents: Int, create: Bool) throws(FileError) -> PrivateDirectory? {
        var base = url.standardizedFileURL
        var names: [String] = []
        for _ in 0..<ownComponents {
            names.insert(base.lastPathComponent, at: 0)
            base = base.deletingLastPathComponent()
        }
        let baseFD = Foundation.open(base.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard baseFD >= 0 else {
            if errno == ENOENT, !create { return nil }
            throw FileError(path: base.path, operation: "open the folder", errno: errno)
        }
        var folder = PrivateDirectory(fd: baseFD, path: base.path == "/" ? "" : base.path)
        for name in names {
            guard let next = try folder.subfolder(name, create: create) else { return nil }
            folder = next
        }
        return folder
    }

    /// The path of `name` in this folder, for messages.
    public func pathOf(_ name: String) -> String { path + "/" + name }

    /// The own folder `name` inside this one, opened without following a link; nil when missing and not `create`.
    func subfolder(_ name: String, create: Bool) throws(FileError) -> PrivateDirectory? {
        while true {
            let sub = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if sub >= 0 { return PrivateDirectory(fd: sub, path: pathOf(name)) }
            let code = errno
            if code == ENOENT {
                guard create else { return nil }
                if mkdirat(fd, name, 0o700) != 0, errno != EEXIST {
                    throw FileError(path: pathOf(name), operation: "create the folder", errno: errno)
                }
                continue
            }
            throw refusal(name, operation: "open the folder", errno: code)
        }
    }

    /// What is at `name`, without following a link.
    public enum Entry: Equatable { case missing, file, folder, symbolicLink, other }

    public func entry(_ name: String) -> Entry {
        var info = stat()
        guard fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .folder
        case S_IFLNK: return .symbolicLink
        default: return .other
        }
    }

    /// The size in bytes of the regular file `name` (a link is not followed), nil when there is none.
    public func size(_ name: String) -> Int? {
        var info = stat()
        guard fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// The bytes of the regular file `name`, nil when it is missing.
    /// - Throws: `FileError` when it is a link or not a regular file (a folder says "Is a directory"), or
    ///   cannot be read.
    public func read(_ name: String) throws(FileError) -> [UInt8]? {
        // O_NONBLOCK: a FIFO planted here must not hang the open.
        let file = openat(fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard file >= 0 else {
            if errno == ENOENT { return nil }
            throw refusal(name, operation: "read", errno: errno)
        }
        defer { close(file) }
        var info = stat()
        guard fstat(file, &info) == 0 else { throw FileError(path: pathOf(name), operation: "read", errno: errno) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            if info.st_mode & S_IFMT == S_IFDIR { throw FileError(path: pathOf(name), operation: "read", errno: EISDIR) }
            throw FileError(path: pathOf(name), operation: "read", reason: "it is not a regular file")
        }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = buffer.withUnsafeMutableBytes { Foundation.read(file, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw FileError(path: pathOf(name), operation: "read", errno: errno)
            }
            if n == 0 { return bytes }
            bytes.append(contentsOf: buffer[..<n])
        }
    }

    /// Opens the regular file `name` for reading, never through a link; nil when it is missing.
    /// - Returns: the descriptor, which the caller closes.
    /// - Throws: `FileError` when it is a link or not a regular file, or cannot be opened.
    public func openForReading(_ name: String) throws(FileError) -> Int32? {
        let file = openat(fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard file >= 0 else {
            if errno == ENOENT { return nil }
            throw refusal(name, operation: "read", errno: errno)
        }
        var info = stat()
        guard fstat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            let isFolder = info.st_mode & S_IFMT == S_IFDIR
            close(file)
            if isFolder { throw FileError(path: pathOf(name), operation: "read", errno: EISDIR) }
            throw FileError(path: pathOf(name), operation: "read", reason: "it is not a regular file")
        }
        return file
    }

    /// Writes `name` atomically (`AtomicFile`, from this folder's descriptor). A symbolic link at `name` is
    /// refused rather than replaced, so it stays visible to whoever put it there.
    public func write(_ name: String, mode: mode_t, durable: Bool = true, contents: (AtomicFile.Output) -> Void) throws(FileError) {
        if entry(name) == .symbolicLink { throw refusal(name, operation: "write", errno: ELOOP) }
        try AtomicFile.write(in: fd, folder: path, name: name, mode: mode, durable: durable, contents: contents)
    }

    /// Opens (creating, mode 0600) the regular file `name` for reading and writing, never through a link.
    /// - Returns: the descriptor, which the caller closes.
    public func openForUpdate(_ name: String) throws(FileError) -> Int32 {
        let file = openat(fd, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        guard file >= 0 else { throw refusal(name, operation: "open", errno: errno) }
        var info = stat()
        if fstat(file, &info) != 0 || info.st_mode & S_IFMT != S_IFREG {
            close(file)
            throw FileError(path: pathOf(name), operation: "open", reason: "it is not a regular file")
        }
        return file
    }

    /// Removes the file (or link) `name` itself; returns whether it did.
    @discardableResult
    public func remove(_ name: String) -> Bool { unlinkat(fd, name, 0) == 0 }

    /// Hard-links `name` as `newName` in this folder (never replacing `newName`); returns whether it did.
    public func link(_ name: String, as newName: String) -> Bool { linkat(fd, name, fd, newName, 0) == 0 }

    /// Renames `name` to `newName` in this folder; returns whether it did.
    public func rename(_ name: String, to newName: String) -> Bool { renameat(fd, name, fd, newName) == 0 }

    /// The names in this folder with what each is (`readdir(3)`'s type, `fstatat` without following when the
    /// file system does not say), `.` and `..` left out.
    public func entries() -> [(name: String, entry: Entry)] {
        let copy = dup(fd)
        guard copy >= 0, let folder = fdopendir(copy) else { return [] }
        defer { closedir(folder) }
        rewinddir(folder)
        var result: [(name: String, entry: Entry)] = []
        while let item = readdir(folder) {
            let name = withUnsafeBytes(of: item.pointee.d_name) { String(cString: $0.baseAddress!.assumingMemoryBound(to: CChar.self)) }
            if name == "." || name == ".." { continue }
            switch Int32(item.pointee.d_type) {
            case Int32(DT_REG): result.append((name, .file))
            case Int32(DT_DIR): result.append((name, .folder))
            case Int32(DT_LNK): result.append((name, .symbolicLink))
            case Int32(DT_UNKNOWN): result.append((name, entry(name)))
            default: result.append((name, .other))
            }
        }
        return result
    }

    /// The error for `name` when the system refused with `code`: a symbolic link (`ELOOP` from
    /// `O_NOFOLLOW`, or `ENOTDIR` for a link where a folder should be) is named as such.
    private func refusal(_ name: String, operation: String, errno code: Int32) -> FileError {
        if (code == ELOOP || code == ENOTDIR || code == ENXIO || code == EMLINK) && entry(name) == .symbolicLink {
            return FileError(path: pathOf(name), operation: operation,
                             reason: "it is a symbolic link, and reqrun does not follow links for its own files (remove it)")
        }
        return FileError(path: pathOf(name), operation: operation, errno: code)
    }
}

extension PrivateDirectory {
    /// How old a temporary file must be to count as left behind even when a process with its pid runs
    /// (pids are reused): 10 minutes, far longer than any write of reqrun's takes.
    public static let staleTemporaryAge: TimeInterval = 600

    /// Removes the temporary files (`AtomicFile`'s `.NAME.tmp-PID-RANDOM`) that a process killed while
    /// writing (SIGKILL, a power failure) left here: those whose process is gone (`kill(PID, 0)` fails with
    /// `ESRCH`) or that are older than `staleTemporaryAge`. A write in progress in another live process is
    /// never touched: its pid is alive and its file is seconds old.
    /// - Returns: the names removed.
    @discardableResult
    public func removeStaleTemporaries(now: Date = Date()) -> [String] {
        var removed: [String] = []
        for (name, entry) in entries() where entry == .file && name.hasPrefix(".") {
            guard let marker = name.range(of: ".tmp-", options: .backwards) else { continue }
            let parts = name[marker.upperBound...].split(separator: "-")
            guard parts.count == 2, let pid = Int32(parts[0]), pid > 0, UInt32(parts[1]) != nil else { continue }
            var info = stat()
            guard fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
            let age = now.timeIntervalSince1970 - TimeInterval(info.st_mtim.tv_sec)
            let gone = kill(pid, 0) != 0 && errno == ESRCH
            if (gone || age > Self.staleTemporaryAge), remove(name) { removed.append(name) }
        }
        return removed
    }
}
