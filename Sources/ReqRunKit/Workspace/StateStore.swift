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
    private func snapshot() throws(FileError) -> [String: String] {
        let path = stateFile.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return [:] }
        if !isDirectory.boolValue, FileSizeBound.state.refusal(path: path) == nil, let data = FileManager.default.contents(atPath: path),
           case .success(let values) = Self.parse(data), values[Self.expandedGroupsKey].map({ Set<UUID>(rawValue: $0) != nil }) ?? true {
            return values
        }
        do {
            return try transaction { $0 }
        } catch {
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
        try withLock { () throws(FileError) -> T in
            let original = try readValues()
            var values = original
            if let raw = values[Self.expandedGroupsKey] {
                if let ids = Set<UUID>(rawValue: raw) {
                    values[Self.expandedGroupsKey] = ids.rawValue
                } else {
                    try moveAside(reason: "its '\(Self.expandedGroupsKey)' value is not a JSON array of UUID strings")
                    values[Self.expandedGroupsKey] = nil
                }
            }
            let result = body(&values)
            let fileMissing = !FileManager.default.fileExists(atPath: stateFile.path)
            if values != original || (fileMissing && !values.isEmpty) {
                try writeValues(values)
            }
            return result
        }
    }

    // MARK: - File format

    /// Reads `state.json`; a missing file is an empty state. Unreadable content is moved aside.
    private func readValues() throws(FileError) -> [String: String] {
        let path = stateFile.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return [:] }
        let reason: String
        if isDirectory.boolValue {
            reason = "it is a folder, not a file"
        } else if let refusal = FileSizeBound.state.refusal(path: path) {
            reason = "it " + refusal
        } else {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw FileError(path: path, operation: "read", errno: errno)
            }
            switch Self.parse(data) {
            case .success(let values): return values
            case .failure(let problem): reason = problem.reason
            }
        }
        try moveAside(reason: reason)
        return [:]
    }

    private struct Unreadable: Error { var reason: String }

    /// A JSON object of strings, or why the content is not one.
    private static func parse(_ data: Data) -> Result<[String: String], Unreadable> {
        let root: JSONNode
        do {
            root = try JSONParser.parse(Array(data))
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
    private func writeValues(_ values: [String: String]) throws(FileError) {
        var text = "{\n"
        for (i, key) in values.keys.sorted().enumerated() {
            text += "  "
            JSONNode.appendQuoted(key, to: &text)
            text += ": "
            JSONNode.appendQuoted(values[key]!, to: &text)
            text += i == values.count - 1 ? "\n" : ",\n"
        }
        text += "}\n"
        try AtomicFile.write(Array(text.utf8), to: stateFile, mode: 0o600)
    }

    /// Renames the unreadable state file to a backup beside it and records one warning.
    private func moveAside(reason: String) throws(FileError) {
        // The run-id form (time and random digits) keeps two moves in one millisecond from colliding, and
        // link(2) refuses to replace an existing file, so no earlier backup is ever overwritten.
        let backup = directory.appendingPathComponent("state.json.unreadable-\(RunID.make(Date()))")
        let moved = link(stateFile.path, backup.path) == 0 ? unlink(stateFile.path) == 0 : rename(stateFile.path, backup.path) == 0
        guard moved, !FileManager.default.fileExists(atPath: stateFile.path) else {
            throw FileError(path: stateFile.path, operation: "move aside", errno: errno)
        }
        // A syntax error's "line:column: reason" goes right after the file name, as in every other message.
        let located = reason.first?.isNumber == true ? "\(displayPrefix)state.json:\(reason)" : "\(displayPrefix)state.json: \(reason)"
        warnings.append("\(located); the file could not be read, so it was moved to \(displayPrefix)\(backup.lastPathComponent) "
                        + "and the state starts empty")
    }

    // MARK: - Locking

    /// Creates `.reqrun` (mode 0700) if needed and runs `body` holding an exclusive lock on `.reqrun/lock`.
    private func withLock<T>(_ body: () throws(FileError) -> T) throws(FileError) -> T {
        try Self.createPrivateDirectory(directory)
        let lockPath = directory.appendingPathComponent("lock").path
        let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw FileError(path: lockPath, operation: "open", errno: errno) }
        defer { close(fd) }  // closing the descriptor releases the lock
        while flock(fd, LOCK_EX) != 0 {
            if errno != EINTR { throw FileError(path: lockPath, operation: "lock", errno: errno) }
        }
        return try body()
    }

    /// Creates `url` with mode 0700 (its content may include responses with secrets) if it does not exist.
    public static func createPrivateDirectory(_ url: URL) throws(FileError) {
        if mkdir(url.path, 0o700) != 0 && errno != EEXIST {
            throw FileError(path: url.path, operation: "create the folder", errno: errno)
        }
    }
}
