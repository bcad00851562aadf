import Foundation

extension RunStore {
    /// A record named on the command line (`reqrun merge`, `--shard-timings`): a file when it has a `/` or ends
    /// in `.json` or `.jsonl` (a record copied from another job, e.g. a CI artifact), else a run id or unique
    /// prefix in this store. Either format is read, format 1 within `FileSizeBound.runRecord` (`RecordReader`).
    /// - Throws: `RunStoreError.notARecordFile` when the file is missing, unreadable, not a regular file or
    ///   empty; `.tooLarge`, `.unreadable` when it is too large or not a record; `.unknownRun` when no run has that id.
    public func open(idOrFile argument: String) throws -> RecordReader {
        // A run id has neither a slash nor an extension.
        guard argument.contains("/") || argument.hasSuffix(".json") || argument.hasSuffix(".jsonl") else { return try open(argument) }
        // O_NONBLOCK: a FIFO given here must not hang the open.
        let descriptor = Foundation.open(argument, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw RunStoreError.notARecordFile(argument, "cannot be read: \(String(cString: strerror(errno)))")
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw RunStoreError.notARecordFile(argument, "is \(Self.kind(of: info.st_mode)), not a run record")
        }
        guard info.st_size > 0 else {
            close(descriptor)
            throw RunStoreError.notARecordFile(argument, "is an empty file, not a run record")
        }
        return try RecordReader(descriptor: descriptor, file: argument)
    }

    /// What a file that is not a regular file is, for a message: "a folder", "a FIFO"...
    static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: return "a folder"
        case S_IFIFO: return "a FIFO"
        case S_IFSOCK: return "a socket"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        default: return "not a regular file"
        }
    }

    /// `open(idOrFile:)`, read whole.
    public func load(idOrFile argument: String) throws -> RunRecord {
        try open(idOrFile: argument).record()
    }
}
