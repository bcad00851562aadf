import Foundation

/// The workspace's settings that travel with it: `reqrun.json` at the workspace root, meant to be committed
/// with `collections/` (unlike `.reqrun/state.json`, which is one checkout's saved state beside its run records
/// and captured secrets, and which CI never sees). One field so far:
///
/// ```json
/// {"compat": {"collections/legacy.postman_collection.json": "newman"}}
/// ```
///
/// `compat`: collection file → `"newman"` or `"reqrun"` (`RequestRules.named`), the rules that collection's
/// requests follow, for a file (a Postman export) that should not be edited; it wins over a native collection's
/// own `compat`, and `--compat MODE` wins over both for a run. A file is named by its path relative to the
/// workspace root with `/` (as `list` and messages show it), or by its absolute path when outside the workspace.
public struct WorkspaceSettings: Sendable, Equatable {
    /// Collection file (as `Workspace.displayPath` shows it) → the rules it follows.
    public var compat: [String: RequestRules] = [:]

    public init(compat: [String: RequestRules] = [:]) {
        self.compat = compat
    }

    /// The file's name in the workspace root.
    public static let fileName = "reqrun.json"

    /// Reads `bytes` of the settings file shown as `file`.
    /// - Throws: `InputError` with line, column and field path: invalid JSON, an unknown field, a mode other
    ///   than `newman` and `reqrun`, an empty file name.
    public static func decode(_ bytes: [UInt8], file: String) throws(InputError) -> WorkspaceSettings {
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw InputError(file: file, location: error.location, reason: error.reason)
        }
        let reader = try FieldReader(file: file, node: root, path: "")
        try reader.rejectUnknownKeys(["compat"])
        var settings = WorkspaceSettings()
        guard let node = reader.optional("compat") else { return settings }
        let compat = try FieldReader(file: file, node: node, path: reader.childPath("compat"))
        for member in compat.members {
            guard !member.key.isEmpty else {
                throw InputError(file: file, location: member.keyLocation, fieldPath: compat.childPath(member.key), reason: "a collection file name may not be empty")
            }
            guard case .string(let mode) = member.value.value, let rules = RequestRules.named(mode) else {
                let reason: String
                if case .string(let mode) = member.value.value {
                    reason = RequestRules.unknownModeReason(mode)
                } else {
                    reason = RequestRules.unknownModeReason(member.value.kindDescription, isWord: false)
                }
                throw InputError(file: file, location: member.value.location, fieldPath: compat.childPath(member.key), reason: reason)
            }
            settings.compat[member.key] = rules
        }
        return settings
    }
}

extension Workspace {
    /// `reqrun.json` in the workspace root.
    public var settingsFile: URL { root.appendingPathComponent(WorkspaceSettings.fileName) }

    /// The workspace's settings; empty when there is no `reqrun.json`.
    /// - Throws: `InputError` when the file cannot be read (or is larger than an environment may be) or is not
    ///   valid settings; when it is not a regular file (a FIFO would block `open(2)`) or, its symbolic links
    ///   resolved, lies outside the workspace: it comes with a cloned repository, as `environments/NAME.json`.
    public func settings() throws(InputError) -> WorkspaceSettings {
        let path = settingsFile.path
        guard FileManager.default.fileExists(atPath: path) else { return WorkspaceSettings() }
        let workspace = FileRoots([root.path]), real = FileRoots.realPath(path)
        guard workspace.contains(real) else {
            throw InputError(file: WorkspaceSettings.fileName, location: nil, reason: "'\(path)' (\(real)) is outside the workspace: "
                             + "settings are read only from a file inside \(workspace.folders[0])")
        }
        switch FileBytes.read(atPath: path, bound: .environment, regularOnly: true) {
        case .success(let bytes): return try WorkspaceSettings.decode(bytes, file: WorkspaceSettings.fileName)
        case .failure(.tooLarge(let reason)): throw InputError(file: WorkspaceSettings.fileName, location: nil, reason: reason)
        case .failure(let failure): throw InputError(file: WorkspaceSettings.fileName, location: nil, reason: failure.notRegularReason ?? "cannot be read")
        }
    }
}
