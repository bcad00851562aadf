import Foundation

extension RunStore {
    /// A record named on the command line (`reqrun merge`, `--shard-timings`): a file when it has a `/` or ends in `.json`
    /// (a record copied from another job, e.g. a CI artifact), else a run id or unique prefix in this store.
    /// Files are read within `FileSizeBound.runRecord`, as `load` reads the store's own.
    /// - Throws: `RunStoreError` when the file is too large or unreadable, or no run has that id.
    public func load(idOrFile argument: String) throws -> RunRecord {
        // A run id has neither a slash nor an extension.
        guard argument.contains("/") || argument.hasSuffix(".json") else { return try load(argument) }
        switch FileBytes.read(atPath: argument, bound: .runRecord) {
        case .success(let bytes): return try Self.decode(bytes, file: argument)
        case .failure(.tooLarge(let reason)): throw RunStoreError.tooLarge(argument, reason)
        case .failure(.unreadable): throw RunStoreError.unreadable(argument, "cannot be read (missing, a folder or no permission)")
        }
    }
}
