import Foundation

/// A workspace's saved state: `.reqrun/state.json`, a JSON object of key → raw-value string, the way
/// SwiftUI's `@SceneStorage` keeps each value under a string key. The expanded set lives under
/// `expandedGroups` (see `ExpandedGroupsCodec.swift`).
///
/// Safety rules: every read-modify-write holds an exclusive `flock(2)` on `.reqrun/lock`, so two processes
/// never lose each other's change; writes are atomic (`AtomicFile`); content that cannot be read is never
/// overwritten: it is moved to `state.json.unreadable-<UTC time>` first, and a warning names both files.
public final class StateStore {
    /// The key of the expanded set, the seed's `@SceneStorage("expandedGroups")`.
    public static let expandedGroupsKey = "expandedGroups"

    /// The `.reqrun` folder.
    public let directory: URL
    /// How files are named in warnings (relative to the workspace).
    private let displayPrefix: String
    /// Warnings produced so far (unreadable content moved aside); the CLI prints them on stderr.
    public private(set) var warnings: [String] = []

    public var stateFile: URL { directory.appendingPathComponent("state.json") }

    /// - Parameters:
    ///   - directory: the workspace's `.reqrun` folder (created on first write, mode 0700).
    ///   - displayPrefix: what to print before file names in warnings, e.g. `.reqrun/`.
    public init(directory: URL, displayPrefix: String = ".reqrun/") {
        self.directory = directory
        self.displayPrefix = displayPrefix
    }

    /// The saved expanded set; empty for a new workspace (every group collapsed, the seed's default) or
    /// when the saved raw value is unreadable (then moved aside with a warning).
    /// - Throws: `FileError` when the folder exists but cannot be locked or read.
    public func expandedGroups() throws(FileError) -> Set<UUID> {
        Set<UUID>(rawValue: try snapshot()[Self.expandedGroupsKey] ?? "[]") ?? []
    }

    /// Reads the expanded set, lets `change` modify it, and saves it if it changed, all under the lock.
    /// - Returns: the set after `change`.
    /// - Throws: `FileError` when the state cannot be locked, read or written; nothing is lost then.
    @discardableResult
    public func update(_ change: (inout Set<UUID>) -> Void) throws(FileError) -> Set<UUID> {
        try transaction { values in
            var ids = Set<UUID>(rawValue: values[Self.expandedGroupsKey] ?? "[]") ?? []
            let before = ids
            change(&ids)
            if ids != before { values[Self.expandedGroupsKey] = ids.rawValue }
            return ids
        }
    }

    /// The saved value of `key` (e.g. `environment`), or nil.
    public func string(forKey key: String) throws(FileError) -> String? {
        try snapshot()[key]
    }

    /// The saved values, read without the lock and without writing: writers replace the file by
    /// `rename(2)`, so a reader sees a whole old or a whole new file. Only when the content is unreadable
    /// does it take the lock to move it aside (and warn once); if even that is impossible (a read-only
    /// folder), it warns and carries on with an empty state, never failing a read-only command.
    /// - Throws: `FileError` when `.reqrun` or `state.json` is a symbolic link (`PrivateDirectory`).
    private func snapshot() throws(FileError) -> [String: String] {
        guard let folder = try PrivateDirectory.open(directory, ownComponents: 1, create: false) else { return [:] }
        do {
            if case .values(let values) = try Self.readValues(folder),
               values[Self.expandedGroupsKey].map({ Set<UUID>(rawValue: $0) != nil }) ?? true {
                return values
            }
        } catch {
            if error.reason != nil { throw error }  // a link where reqrun's own file should be
            // Otherwise (no permission to read…) the locked read below says why, or moves the file aside.
        }
        do {
            return try transaction { $0 }
        } catch {
            if error.reason != nil { throw error }  // a link where reqrun's own file should be
            warnings.append("\(displayPrefix)state.json could not be read, and could not be moved aside (\(error)); using an empty state")
            return [:]
        }
    }

    /// Saves `value` under `key`, or removes the key for nil.
    public func setString(_ value: String?, forKey key: String) throws(FileError) {
        try transaction { $0[key] = value }
    }

    /// Runs `body` on the saved key → value map under the lock and writes the map back if it changed.
    /// Content that cannot be read is moved aside first (see the type's documentation); an `expandedGroups`
    /// value that `Set<UUID>(rawValue:)` rejects is dropped, after the file was moved aside, and the other
    /// keys are written back. A value not in canonical form (unsorted ids) is rewritten sorted.
    private func transaction<T>(_ body: (inout [String: String]) -> T) throws(FileError) -> T {
        try withLock { (folder) throws(FileError) -> T in
            var original: [String: String] = [:]
            switch try Self.readValues(folder) {
            case .values(let values): original = values
            case .unreadable(let reason): try moveAside(in: folder, reason: reason)
            }
            var values = original
            if let raw = values[Self.expandedGroupsKey] {
                if let ids = Set<UUID>(rawValue: raw) {
                    values[Self.expandedGroupsKey] = ids.rawValue
                } else {
                    try moveAside(in: folder, reason: "its '\(Self.expandedGroupsKey)' value is not a JSON array of UUID strings")
                    values[Self.expandedGroupsKey] = nil
                }
            }
            let result = body(&values)
            let fileMissing = folder.entry(Self.fileName) == .missing
            if values != original || (fileMissing && !values.isEmpty) {
                try writeValues(values, in: folder)
            }
            return result
        }
    }

    // MARK: - File format

    private static let fileName = "state.json"

    private enum Content { case values([String: String]), unreadable(String) }

    /// Reads `state.json` from `.reqrun`; a missing file is an empty state.
    /// - Throws: `FileError` when it is a symbolic link or cannot be read.
    private static func readValues(_ folder: PrivateDirectory) throws(FileError) -> Content {
        if folder.entry(fileName) == .folder { return .unreadable("it is a folder, not a file") }
        if let size = folder.size(fileName), let refusal = FileSizeBound.state.refusal(size: size) { return .unreadable("it " + refusal) }
        guard let bytes = try folder.read(fileName) else { return .values([:]) }
        switch parse(bytes) {
        case .success(let values): return .values(values)
        case .failure(let problem): return .unreadable(problem.reason)
        }
    }

    private struct Unreadable: Error { var reason: String }

    /// A JSON object of strings, or why the content is not one.
    private static func parse(_ bytes: [UInt8]) -> Result<[String: String], Unreadable> {
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            return .failure(Unreadable(reason: "\(error.location): \(error.reason)"))
        }
        guard case .object(let members) = root.value else {
            return .failure(Unreadable(reason: "it holds \(root.kindDescription), not an object"))
        }
        var values: [String: String] = [:]
        for member in members {
            guard case .string(let s) = member.value.value else {
                return .failure(Unreadable(reason: "the value of '\(member.key)' at \(member.value.location) is not a string"))
            }
            values[member.key] = s
        }
        return .success(values)
    }

    /// `state.json` as pretty JSON with sorted keys, one key a line, stable under version control.
    private func writeValues(_ values: [String: String], in folder: PrivateDirectory) throws(FileError) {
        var text = "{\n"
        for (i, key) in values.keys.sorted().enumerated() {
            text += "  "
            JSONNode.appendQuoted(key, to: &text)
            text += ": "
            JSONNode.appendQuoted(values[key]!, to: &text)
            text += i == values.count - 1 ? "\n" : ",\n"
        }
        text += "}\n"
        try folder.write(Self.fileName, mode: 0o600) { output in Array(text.utf8).withUnsafeBytes { output.write($0) } }
    }

    /// Renames the unreadable state file to a backup beside it and records one warning.
    private func moveAside(in folder: PrivateDirectory, reason: String) throws(FileError) {
        // The run-id form (time and random digits) keeps two moves in one millisecond from colliding, and
        // link(2) refuses to replace an existing file, so no earlier backup is ever overwritten.
        let backup = "state.json.unreadable-\(RunID.make(Date()))"
        let name = Self.fileName
        let moved = folder.link(name, as: backup) ? folder.remove(name) : folder.rename(name, to: backup)
        guard moved, folder.entry(name) == .missing else {
            throw FileError(path: stateFile.path, operation: "move aside", errno: errno)
        }
        // A syntax error's "line:column: reason" goes right after the file name, as in every other message.
        let located = reason.first?.isNumber == true ? "\(displayPrefix)state.json:\(reason)" : "\(displayPrefix)state.json: \(reason)"
        warnings.append("\(located); the file could not be read, so it was moved to \(displayPrefix)\(backup) "
                        + "and the state starts empty")
    }

    // MARK: - Locking

    /// Creates `.reqrun` (mode 0700) if needed and runs `body` on it holding an exclusive lock on
    /// `.reqrun/lock`. Holding the lock, it first removes the temporary files of state writes that a killed
    /// process left behind (`PrivateDirectory.removeStaleTemporaries`).
    private func withLock<T>(_ body: (PrivateDirectory) throws(FileError) -> T) throws(FileError) -> T {
        guard let folder = try PrivateDirectory.open(directory, ownComponents: 1, create: true) else {
            throw FileError(path: directory.path, operation: "create the folder", errno: ENOENT)
        }
        let fd = try folder.openForUpdate("lock")
        defer { close(fd) }  // closing the descriptor releases the lock
        while flock(fd, LOCK_EX) != 0 {
            if errno != EINTR { throw FileError(path: folder.pathOf("lock"), operation: "lock", errno: errno) }
        }
        folder.removeStaleTemporaries()
        return try body(folder)
    }
}
