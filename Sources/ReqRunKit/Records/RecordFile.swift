import Foundation

extension RunStore {
    /// A record named on the command line (`reqrun merge`, `--shard-timings`): a file when it has a `/` or ends
    /// in `.json` or `.jsonl` (a record copied from another job, e.g. a CI artifact), else a run id or unique
    /// prefix in this store. Either format is read, format 1 within `FileSizeBound.runRecord` (`RecordReader`).
    /// - Throws: `RunStoreError` when the file is too large or unreadable, or no run has that id.
    public func open(idOrFile argument: String) throws -> RecordReader {
        // A run id has neither a slash nor an extension.
        guard argument.contains("/") || argument.hasSuffix(".json") || argument.hasSuffix(".jsonl") else { return try open(argument) }
        // O_NONBLOCK: a FIFO given here must not hang the open.
        let descriptor = Foundation.open(argument, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        var info = stat()
        guard descriptor >= 0, fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            if descriptor >= 0 { close(descriptor) }
            throw RunStoreError.unreadable(argument, "cannot be read (missing, a folder or no permission)")
        }
        return try RecordReader(descriptor: descriptor, file: argument)
    }

    /// `open(idOrFile:)`, read whole.
    public func load(idOrFile argument: String) throws -> RunRecord {
        try open(idOrFile: argument).record()
    }
}
