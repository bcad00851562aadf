import Foundation

/// Files the user names on the command line (`--report KIND=FILE`, `import --to PATH`, `--cookie-jar FILE`):
/// one rule for all of them.
///
/// A missing path or a regular file is replaced atomically (`AtomicFile`: readers see the old file or the
/// whole new one). Anything else the user named is opened and written through, as a shell's `>` does: a
/// character device (`/dev/null`), a FIFO, a socket, and a symbolic link (`/dev/stdout`, `/dev/fd/63` from
/// `>(jq .)`, a link into another folder). Renaming over those would replace them: run as root, a rename
/// over `/dev/null` leaves a regular file there for every other program, and a FIFO's reader waits forever.
/// A folder is an error.
public enum UserFile {
    /// Writes `bytes` to `path` by the rule above.
    /// - Parameter mode: permission bits of a file created, e.g. `0o644`.
    /// - Throws: `FileError` naming the path and the system's reason ("Is a directory" for a folder).
    public static func write(_ bytes: [UInt8], toPath path: String, mode: mode_t) throws(FileError) {
        try write(toPath: path, mode: mode) { output in bytes.withUnsafeBytes { output.write($0) } }
    }

    /// Like `write(_:toPath:mode:)`, the contents written by `contents` in as many pieces as it likes (a
    /// report of a 100,000-request run goes out through a small buffer rather than built whole).
    public static func write(toPath path: String, mode: mode_t, contents: (AtomicFile.Output) -> Void) throws(FileError) {
        var info = stat()
        let missing = lstat(path, &info) != 0
        if missing, errno != ENOENT { throw FileError(path: path, operation: "write", errno: errno) }
        if missing || (info.st_mode & S_IFMT) == S_IFREG {
            try AtomicFile.write(to: URL(fileURLWithPath: path), mode: mode, contents: contents)
            return
        }
        guard (info.st_mode & S_IFMT) != S_IFDIR else { throw FileError(path: path, operation: "write", errno: EISDIR) }
        // A link is followed; the file it leads to is truncated only when it is a regular one (a device or a
        // FIFO ignores O_TRUNC anyway).
        var target = stat()
        let truncate = stat(path, &target) == 0 && (target.st_mode & S_IFMT) == S_IFREG ? O_TRUNC : 0
        let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | truncate, mode)
        guard fd >= 0 else { throw FileError(path: path, operation: "open", errno: errno) }
        let output = AtomicFile.Output(fd: fd)
        contents(output)
        close(fd)
        if let code = output.failedWith { throw FileError(path: path, operation: "write", errno: code) }
    }

    /// The path to hand to a writer that itself renames a temporary file over a regular file (libcurl's
    /// cookie jar: `Curl_fopen` renames over whatever `stat(2)` calls a regular file, links included): a
    /// symbolic link that leads to a regular file becomes the file's real path, so the link stays a link.
    /// Any other path is returned as given.
    public static func pathForRenamingWriter(_ path: String) -> String {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK,
              stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
              let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
