import Foundation

/// Run records in `.reqrun/runs/`: one file per run, mode 0600 (responses may hold secrets): `<run id>.jsonl`
/// (format 2, JSON Lines written as the run goes, `RecordWriter`), or `<run id>.json` (format 1, one JSON
/// document, reqrun before format 2; still read), without `fsync` (they are a log: see `AtomicFile.write`'s
/// `durable`; the saved state keeps its `fsync`s). The folder and its parent (`.reqrun`) are reqrun's own and are never
/// followed through symbolic links, nor is a record file (`PrivateDirectory`): a link there is an error.
public struct RunStore: Sendable {
    public let directory: URL

    public init(directory: URL) { self.directory = directory }

    /// The folder, opened without following links (nil when it does not exist and `create` is false).
    private func folder(create: Bool) throws(FileError) -> PrivateDirectory? {
        try PrivateDirectory.open(directory, ownComponents: 2, create: create)
    }

    /// The file name of a record: `<id>.jsonl` for format 2 (JSON Lines, `RecordWriter`), `<id>.json` for format 1.
    public static func fileName(_ id: String, format: Int) -> String { id + (format == 2 ? ".jsonl" : ".json") }

    /// Writes `record` whole as a format 2 record (`RecordWriter`: what `reqrun merge` joined; a run streams
    /// its own as it goes).
    /// - Returns: the file written.
    /// - Throws: `FileError` when the folder or file cannot be written, or one of them is a symbolic link.
    @discardableResult
    public func save(_ record: RunRecord) throws(FileError) -> URL {
        let writer = try RecordWriter(store: self, header: record)
        for result in record.results { writer.append(result, encoded: RecordLines.result(result), maskedWith: []) }
        return try writer.finish(endedAt: record.endedAt, libcurlVersion: record.libcurlVersion, lateSecrets: [], showSecrets: false)
    }

    /// How many run records a workspace keeps unless `reqrun history --keep N` saved another number.
    public static let defaultLimit = 100

    /// Removes the oldest records beyond the newest `keep` (only regular files named like run ids count),
    /// and the temporary files of record writes that a killed process left behind
    /// (`PrivateDirectory.removeStaleTemporaries`). A run prunes to one fewer than its limit before it saves
    /// its own record, so that record is never the one removed, even when a clock that went backwards makes
    /// it look the oldest.
    /// - Returns: the ids removed.
    /// - Throws: `FileError` when `.reqrun` or `.reqrun/runs` is a symbolic link.
    /// - Parameter sparing: a record saved already that counts among the `keep` and is never removed (`merge`
    ///   prunes after saving its run, whatever the clock says of its id).
    @discardableResult
    public func prune(keep: Int, sparing: String? = nil) throws(FileError) -> [String] {
        guard let folder = try folder(create: false) else { return [] }
        let others = Self.ids(in: folder).filter { $0 != sparing }
        let old = Array(others.dropFirst(max(0, sparing == nil ? keep : keep - 1)))
        for id in old {
            folder.remove(Self.fileName(id, format: 2))
            folder.remove(Self.fileName(id, format: 1))
        }
        folder.removeStaleTemporaries()
        return old
    }

    /// Run ids, newest first (ids sort by start time).
    /// - Throws: `FileError` when `.reqrun` or `.reqrun/runs` is a symbolic link.
    public func ids() throws(FileError) -> [String] {
        guard let folder = try folder(create: false) else { return [] }
        return Self.ids(in: folder)
    }

    /// The regular files named `<run id>.jsonl` or `<run id>.json` (a symbolic link is not a record: it is
    /// never followed).
    private static func ids(in folder: PrivateDirectory) -> [String] {
        // readdir(3) rather than FileManager: the file type comes with each entry (no stat per file), and
        // pruning lists the folder after every run (0.7 ms for 100 records with FileManager, perf).
        folder.entries().compactMap { name, entry in
            guard entry == .file else { return nil }
            let id = name.hasSuffix(".jsonl") ? name.dropLast(6) : name.hasSuffix(".json") ? name.dropLast(5) : name[...]
            return id.count < name.count && RunID.isRunID(String(id)) ? String(id) : nil
        }.sorted(by: >)
    }

    /// Loads one record whole by id, a unique id prefix, or nil for the newest.
    /// - Throws: `RunStoreError` when there is none, the prefix is ambiguous, or the file cannot be decoded.
    public func load(_ idOrPrefix: String?) throws -> RunRecord {
        try open(idOrPrefix).record()
    }

    /// Opens one record by id, a unique id prefix, or nil for the newest, to read in pieces.
    /// - Parameter counting: see `RecordReader.init`.
    /// - Throws: `RunStoreError` when there is none, the prefix is ambiguous, or the file cannot be read.
    public func open(_ idOrPrefix: String?, counting: Bool = true) throws -> RecordReader {
        guard let folder = try folder(create: false) else { throw idOrPrefix.map { RunStoreError.unknownRun($0) } ?? RunStoreError.noRuns }
        let all = Self.ids(in: folder)
        let id: String
        if let idOrPrefix {
            let matches = all.filter { $0.hasPrefix(idOrPrefix) }
            guard !matches.isEmpty else { throw RunStoreError.unknownRun(idOrPrefix) }
            guard matches.count == 1 || matches.contains(idOrPrefix) else {
                throw RunStoreError.ambiguousRun(idOrPrefix, matches)
            }
            id = matches.contains(idOrPrefix) ? idOrPrefix : matches[0]
        } else {
            guard let newest = all.first else { throw RunStoreError.noRuns }
            id = newest
        }
        return try open(id: id, in: folder, counting: counting)
    }

    /// The record of `id`, format 2 first.
    private func open(id: String, in folder: PrivateDirectory, counting: Bool) throws -> RecordReader {
        for format in [2, 1] {
            let name = Self.fileName(id, format: format)
            guard let descriptor = try folder.openForReading(name) else { continue }
            let reader = try RecordReader(descriptor: descriptor, file: ".reqrun/runs/\(name)", counting: counting)
            // `history`, `show` and `diff` name and order runs by their file's name; a header that names
            // another run (a record written or renamed by hand, `../` in it) would show as that run and hide
            // the runs before it from `diff`.
            guard reader.head.id == id else {
                throw RunStoreError.unreadable(".reqrun/runs/\(name)", "its header names run '\(reader.head.id)', not \(id) as its file's name does")
            }
            return reader
        }
        throw RunStoreError.unknownRun(id)
    }

    /// A record from its JSON; `file` names it in errors.
    /// - Throws: `RunStoreError.unreadable` for a format other than 1, bad JSON or a missing field.
    static func decode(_ bytes: [UInt8], file: String) throws(RunStoreError) -> RunRecord {
        if case .success(let format) = Self.format(Data(bytes)), format != 1 {
            throw RunStoreError.unreadable(file, "record format \(format) is not supported by reqrun \(reqrunVersion) (it reads formats 1 and 2)")
        }
        do throws(RecordFields.Failure) {
            return try RunRecord(recordJSON: bytes)
        } catch {
            throw RunStoreError.unreadable(file, error.reason)
        }
    }

    /// The record's `format` number, when the file is a JSON object that has one.
    static func format(_ data: Data) -> Result<Int, JSONSyntaxError> {
        do {
            let root = try JSONParser.parse(Array(data))
            if case .object(let members) = root.value, let node = members.first(where: { $0.key == "format" })?.value,
               case .number(let text) = node.value, let value = Int(text) {
                return .success(value)
            }
            return .success(1)
        } catch {
            return .failure(error)
        }
    }
}

public enum RunStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    case noRuns
    case unknownRun(String)
    case ambiguousRun(String, [String])
    case unreadable(String, String)
    /// The record is larger than `FileSizeBound.runRecord` (file, reason).
    case tooLarge(String, String)
    /// A record file named on the command line that is not one to read (file, reason): missing or not
    /// readable (the system's words), a folder, a FIFO or another kind of file, or an empty file.
    case notARecordFile(String, String)
    /// `diff` with fewer than two runs: the run (id) has none recorded before it; `skippedParts`, for a merged
    /// run, is how many of the records before it are its own parts, which `diff` does not compare it with.
    case noEarlierRun(String, skippedParts: Int = 0)

    public var description: String {
        switch self {
        case .noRuns: return "no runs recorded yet in this workspace (reqrun run … records one)"
        case .unknownRun(let id): return "no run '\(id)' (reqrun history lists them)"
        case .ambiguousRun(let id, let matches): return "'\(id)' matches \(matches.count) runs: \(matches.joined(separator: ", "))"
        case .tooLarge(let file, let reason), .notARecordFile(let file, let reason): return "\(file): \(reason)"
        case .noEarlierRun(let id, 0): return "no run recorded before \(id) to compare it with (reqrun history lists them)"
        case .noEarlierRun(let id, let parts):
            return "no run recorded before \(id) to compare it with but its \(parts) parts, which hold its own results (a merged run is compared with the previous merged or single run; name two runs to compare others)"
        case .unreadable(let file, let reason):
            // A syntax error starts with "line:column:", which goes right after the file name.
            if let colon = reason.firstIndex(of: ":"), reason[..<colon].allSatisfy(\.isNumber), !reason[..<colon].isEmpty {
                return "\(file):\(reason)"
            }
            return "\(file): not a run record this version can read: \(reason)"
        }
    }
}
