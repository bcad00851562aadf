import Foundation

/// A folder holding `collections/*.json` and reqrun's state in `.reqrun/`.
public struct Workspace: Sendable {
    /// The workspace folder.
    public let root: URL

    public init(root: URL) { self.root = root.standardizedFileURL }

    public var collectionsDirectory: URL { root.appendingPathComponent("collections") }
    /// `.reqrun/`: saved state, the lock and run records (mode 0700).
    public var stateDirectory: URL { root.appendingPathComponent(".reqrun") }
    /// `.reqrun/runs/`: one JSON run record per run.
    public var runsDirectory: URL { stateDirectory.appendingPathComponent("runs") }

    /// The nearest folder at or above `start` that has `collections/` or `.reqrun/` (like git finding `.git`).
    /// - Throws: `WorkspaceError.notFound` when no folder up to `/` has either.
    public static func locate(from start: URL) throws(WorkspaceError) -> Workspace {
        var folder = start.standardizedFileURL
        while true {
            for marker in ["collections", ".reqrun"] {
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: folder.appendingPathComponent(marker).path, isDirectory: &isDirectory),
                   isDirectory.boolValue {
                    return Workspace(root: folder)
                }
            }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { throw WorkspaceError.notFound(start: start.path) }
            folder = parent
        }
    }

    /// Every `*.json` file in `collections/`, sorted by file name (byte order, so the order is the same in
    /// every locale).
    /// - Throws: `WorkspaceError.noCollections` when the folder is missing.
    public func collectionFiles() throws(WorkspaceError) -> [URL] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: collectionsDirectory.path) else {
            throw WorkspaceError.noCollections(folder: displayPath(collectionsDirectory))
        }
        return names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }
            .sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
            .map { collectionsDirectory.appendingPathComponent($0) }
    }

    /// The folders collections may read files from: the workspace, then `allowing` (`--file-root DIR`).
    public func fileRoots(allowing extra: [String] = []) -> FileRoots {
        FileRoots([root.path] + extra)
    }

    /// Loads collections from `files` (default: `collectionFiles()`), then checks that group ids are unique
    /// across all of them. Body files must lie inside the workspace or a folder of `extraRoots`
    /// (`--file-root DIR`; see `FileRoots`). `workingDirectory` (`--working-dir DIR`, absolute): where relative
    /// body files resolve instead of each collection's folder (`FileScope.workingDirectory`). `rules`: the rules
    /// `--compat MODE` sets for every collection of the run (nil: not given); else `reqrun.json` sets them per file
    /// (`WorkspaceSettings.compat`), else a native collection's own `compat`. What is set is the collection's
    /// `compat`, and the part that applies when loading (`FileScope.requestRules`) is applied.
    /// - Throws: `InputError` (unreadable file, one larger than `FileSizeBound.collection`, invalid JSON, bad
    ///   field, a body file outside the roots, one
    ///   group id used twice — naming both places, an invalid `reqrun.json`), or `WorkspaceError` when there is no
    ///   `collections/` folder.
    public func loadCollections(files: [URL]? = nil, allowing extraRoots: [String] = [], workingDirectory: String? = nil,
                                rules: RequestRules? = nil) throws -> [RequestCollection] {
        let loaded = try loadCollectionsKeepingFailures(files: files, allowing: extraRoots, workingDirectory: workingDirectory, rules: rules)
        if let first = loaded.failures.first { throw first }
        return loaded.collections
    }

    /// Loads each collection of `files` (default: `collectionFiles()`) on its own: a file that does not load
    /// is one of `failures` and the others still load (so `list` can show them and `run GROUP` run one of
    /// them). Group ids are checked to be unique across the collections that loaded. A `reqrun.json` entry for a
    /// file that does not exist is a warning (`LoadedCollections.warnings`).
    /// - Throws: `InputError` for a group id used twice or an invalid `reqrun.json`, `WorkspaceError` when there
    ///   is no `collections/` folder.
    public func loadCollectionsKeepingFailures(files: [URL]? = nil, allowing extraRoots: [String] = [], workingDirectory: String? = nil,
                                               rules: RequestRules? = nil) throws -> LoadedCollections {
        let roots = fileRoots(allowing: extraRoots)
        let settings = try self.settings()
        var urls: [URL] = []
        // The same file named twice is loaded once (it would otherwise clash with its own group ids).
        for url in try files ?? collectionFiles() where !urls.contains(where: { $0.standardizedFileURL.path == url.standardizedFileURL.path }) {
            urls.append(url)
        }
        var loaded = LoadedCollections()
        let missing = settings.compat.keys.sorted().filter { !FileManager.default.fileExists(atPath: $0.hasPrefix("/") ? $0 : root.appendingPathComponent($0).path) }
        if let warning = Self.missingCompatFilesWarning(missing) { loaded.warnings.append(warning) }
        for url in urls {
            do {
                let chosen = rules ?? settings.compat[displayPath(url)]
                var collection = try loadCollection(url, roots: roots, workingDirectory: workingDirectory, rules: chosen ?? .reqrun,
                                                    regularOnly: files == nil)
                if let chosen { collection.compat = chosen }
                loaded.collections.append(collection)
            } catch {
                loaded.failures.append(error)
            }
        }
        try GroupIndex.checkUniqueIDs(loaded.collections)
        return loaded
    }

    /// One warning for the `reqrun.json` `compat` entries whose file does not exist (sorted): the entry itself
    /// for one; for more, their count and the first three (a renamed folder must not flood stderr). nil for none.
    static func missingCompatFilesWarning(_ missing: [String]) -> String? {
        guard let first = missing.first else { return nil }
        let prefix = "\(WorkspaceSettings.fileName): compat: "
        guard missing.count > 1 else { return prefix + "'\(first)' is not a collection file of the workspace (no such file)" }
        let shown = missing.prefix(3).map { "'\($0)'" }
        let named = missing.count > 3 ? shown.joined(separator: ", ") + " and \(missing.count - 3) more"
                                      : shown.dropLast().joined(separator: ", ") + " and " + shown.last!
        return prefix + "\(missing.count) entries name no collection file of the workspace (no such file): " + named
    }

    /// One collection file, its body files checked against `roots`. `regularOnly`: it is one of `collections/`
    /// (the workspace named it, not the user with `--collection`, which may name a pipe): a FIFO is refused.
    /// - Throws: `InputError` naming the file as `displayPath` shows it.
    private func loadCollection(_ url: URL, roots: FileRoots, workingDirectory: String?, rules: RequestRules,
                                regularOnly: Bool) throws(InputError) -> RequestCollection {
        let display = displayPath(url)
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
        let read = exists && !isDirectory.boolValue ? FileBytes.read(atPath: url.path, bound: .collection, regularOnly: regularOnly) : .failure(.unreadable)
        if case .failure(.tooLarge(let reason)) = read { throw InputError(file: display, location: nil, reason: reason) }
        if case .failure(let failure) = read, let reason = failure.notRegularReason { throw InputError(file: display, location: nil, reason: reason) }
        guard case .success(let bytes) = read else {
            let dangling = (try? FileManager.default.destinationOfSymbolicLink(atPath: url.path)) != nil
            let reason = !exists ? (dangling ? "is a symbolic link to a file that does not exist" : "no such file")
                : isDirectory.boolValue ? "is a folder, not a collection file" : "cannot be read"
            throw InputError(file: display, location: nil, reason: reason)
        }
        // Relative body files sit beside the real file, also behind a symlink.
        let base = url.resolvingSymlinksInPath().deletingLastPathComponent().path
        return try CollectionDecoder.decode(bytes, file: display, fileName: url.lastPathComponent, files: FileScope(base: base, roots: roots, workingDirectory: workingDirectory,
                                                                                                         requestRules: rules))
    }

    /// `url`'s path relative to the workspace when it is inside it (`collections/sample.json`), else as is.
    public func displayPath(_ url: URL) -> String {
        let path = url.standardizedFileURL.path
        let prefix = root.path.hasSuffix("/") ? root.path : root.path + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}

/// The collections of a workspace that loaded, and why each other collection file did not.
public struct LoadedCollections: Sendable {
    public var collections: [RequestCollection] = []
    /// One error per file that did not load, in file order.
    public var failures: [InputError] = []
    /// What loading noticed in the workspace's settings (a `reqrun.json` entry for no file), for stderr.
    public var warnings: [String] = []

    public init() {}
}

/// Why a workspace or its collections could not be found.
public enum WorkspaceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `hint`: what to do instead, for the command line that met it (`--collection FILE` outside a workspace).
    case notFound(start: String, hint: String? = nil)
    /// `hint`: what the command line may have meant (`reqrun run FILE.json`, Newman's `newman run FILE`).
    case noCollections(folder: String, hint: String? = nil)
    /// `--workspace DIR` (or `--file-root DIR`) names no folder.
    case noSuchFolder(option: String, String)

    public var description: String {
        switch self {
        case .notFound(let start, let hint):
            return "no workspace found at or above \(start) (a workspace is a folder with collections/ or .reqrun/; "
                + "use --workspace DIR, or make one here with 'reqrun init')" + (hint.map { "; \($0)" } ?? "")
        case .noSuchFolder(let option, let path):
            return "\(option) \(path): no such folder"
        case .noCollections(let folder, let hint):
            return "\(folder)/ does not exist or cannot be read" + (hint.map { "; \($0)" } ?? "")
        }
    }
}
