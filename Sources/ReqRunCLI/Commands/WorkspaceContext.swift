import Foundation
import ReqRunKit

/// The workspace and collections a command works on, from `--workspace` and `--collection`.
struct WorkspaceContext {
    let workspace: Workspace
    let collections: [RequestCollection]
    /// The workspace and the `--file-root` folders: what collections and the workspace's environments may read.
    let fileRoots: FileRoots

    var store: StateStore { StateStore(directory: workspace.stateDirectory) }

    /// Locates the workspace from `--workspace` or the current folder, without loading collections.
    static func locate(_ arguments: ParsedArguments) throws -> Workspace {
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        guard let dir = arguments.value("--workspace") else {
            do { return try Workspace.locate(from: cwd) } catch WorkspaceError.notFound(let start, _) {
                throw WorkspaceError.notFound(start: start, hint: noWorkspaceHint(arguments))
            }
        }
        let url = URL(fileURLWithPath: dir, relativeTo: cwd)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw WorkspaceError.noSuchFolder(option: "--workspace", dir)
        }
        return Workspace(root: url)
    }

    /// For a Newman user's `reqrun run FILE.json` or `run --collection FILE` outside a workspace (`newman run
    /// FILE` runs from any folder): `--workspace .` makes the current folder the workspace, whose `.reqrun/`
    /// then holds the run records. nil for other command lines.
    static func noWorkspaceHint(_ arguments: ParsedArguments) -> String? {
        if !arguments.all("--collection").isEmpty {
            return "to run only the --collection files from this folder, add '--workspace .' (its .reqrun/ keeps the run records)"
        }
        guard arguments.positionals.contains(where: { $0.hasSuffix(".json") }) else { return nil }
        return "to run a collection file, name it with --collection FILE and add --all (and '--workspace .' to run it from this folder)"
    }

    /// Collection files that did not load, when loaded with `keepingBroken` (`list` shows them with the rest;
    /// `resolving` reports them).
    var failures: [InputError] = []

    /// Locates the workspace and loads its collections. Loading comes first in every command, so a
    /// command that fails on input has touched nothing in `.reqrun/`. What loading noticed (a header field
    /// left out, an auth type not computed…) is printed on `terminal`'s stderr as warnings.
    /// - Parameter scriptsNotice: what the command does with Postman scripts, when it does not run them all
    ///   (`list`, `show --curl`, `run --dry-run`): each Postman collection with scripts it leaves unrun is one
    ///   warning more (`PostmanScriptCount.notice`). nil (`run`, `send`, `ui`, `expand`): nothing is said of them.
    /// - Parameter keepingBroken: false for a command that needs every collection (`run --all`, `run
    ///   --expanded`): a file that does not load fails it, with every such file's error
    ///   (`CollectionLoadFailures`, exit 2). True for one that needs only what it names (`list`, `run NAME`,
    ///   `send`, `expand GROUP`): the others load, and the broken ones are in `failures`.
    static func load(_ arguments: ParsedArguments, warningsTo terminal: Terminal = .standard(), keepingBroken: Bool = false,
                     scriptsNotice: PostmanScriptCount.Use? = nil) throws -> WorkspaceContext {
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        let workspace = try locate(arguments)
        let files = arguments.all("--collection").map { URL(fileURLWithPath: $0, relativeTo: cwd) }
        let extraRoots = try fileRoots(arguments)
        let loaded: LoadedCollections
        do {
            loaded = try workspace.loadCollectionsKeepingFailures(files: files.isEmpty ? nil : files, allowing: extraRoots,
                                                                  workingDirectory: try workingDirectory(arguments, roots: workspace.fileRoots(allowing: extraRoots)),
                                                                  rules: CompatOption.loadingRules(arguments))
        } catch WorkspaceError.noCollections(let folder, nil) where arguments.positionals.contains(where: { $0.hasSuffix(".json") }) {
            // `reqrun run FILE.json --workspace .` in a folder without collections/ (Newman's `newman run FILE`).
            throw WorkspaceError.noCollections(folder: folder, hint: "to run a collection file, name it with --collection FILE and add --all")
        }
        if !keepingBroken, !loaded.failures.isEmpty { throw CollectionLoadFailures(failures: loaded.failures) }
        loaded.warnings.forEach(terminal.warning)
        for collection in loaded.collections {
            if let scriptsNotice, let notice = collection.postmanScripts?.notice(file: collection.file, use: scriptsNotice) { terminal.warning(notice) }
            collection.warnings.forEach(terminal.warning)
        }
        return WorkspaceContext(workspace: workspace, collections: loaded.collections, fileRoots: workspace.fileRoots(allowing: extraRoots),
                                failures: loaded.failures)
    }

    /// Resolves the names a command was given with `body`, among the collections that loaded. With broken
    /// collections, a name found there runs and each broken file is a warning; a name not found may be in a
    /// broken file, so the error is theirs (`CollectionLoadFailures`), not "no group named …".
    func resolving<T>(_ terminal: Terminal, _ body: () throws -> T) throws -> T {
        guard !failures.isEmpty else { return try body() }
        let value: T
        do { value = try body() } catch is SelectionError { throw CollectionLoadFailures(failures: failures) }
        for failure in failures { terminal.warning("\(failure) (this collection is left out)") }
        return value
    }

    /// `--file-root DIR` folders (relative to the current folder), which must exist. An empty value (an unset
    /// shell variable) is no folder, not the current one.
    static func fileRoots(_ arguments: ParsedArguments) throws(WorkspaceError) -> [String] {
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        return try arguments.all("--file-root").map { (dir: String) throws(WorkspaceError) -> String in
            guard !dir.isEmpty else { throw WorkspaceError.noSuchFolder(option: "--file-root", "''") }
            let url = URL(fileURLWithPath: dir, relativeTo: cwd)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw WorkspaceError.noSuchFolder(option: "--file-root", dir)
            }
            return url.path
        }
    }

    /// `--working-dir DIR` (relative to the current folder), resolved: it must be a folder inside the workspace
    /// or a `--file-root` folder, so it reaches no file the file roots would refuse. nil when not given.
    static func workingDirectory(_ arguments: ParsedArguments, roots: FileRoots) throws -> String? {
        guard let dir = arguments.value("--working-dir") else { return nil }
        let cwd = FileManager.default.currentDirectoryPath
        guard !dir.isEmpty else { throw WorkspaceError.noSuchFolder(option: "--working-dir", "''") }
        let resolved: String
        switch roots.resolve(dir, from: cwd) {
        case .success(let path): resolved = path
        case .failure(let refusal): throw InputError(file: "--working-dir", location: nil, reason: refusal.reason)
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw WorkspaceError.noSuchFolder(option: "--working-dir", dir)
        }
        return resolved
    }

    /// The environment for a run: `--env NAME|FILE`, else the one saved with `reqrun env use`, else none.
    /// Only `--env FILE`, which the user typed, may lie outside `fileRoots`: `environments/NAME.json` and the
    /// saved one come from the workspace, which a repository carries.
    func environment(_ option: String?, _ terminal: Terminal) throws -> Environment? {
        let store = self.store
        defer { store.warnings.forEach(terminal.warning) }
        return try Self.environment(option, in: workspace, roots: fileRoots, store: store)
    }

    /// The environment `option` names (`--env`, `env show NAME`; a file relative to the current folder), else
    /// the one saved in `store` (relative to the workspace), else nil: one rule for every command that reads
    /// one, so that `env show` prints only what `run` would use. A name and the saved one must lie in `roots`;
    /// a file the user typed need not.
    /// - Parameter outsideHint: the error's hint for a file outside `roots` (`Workspace.loadEnvironment`).
    /// - Throws: `InputError` as `Workspace.loadEnvironment`; what reading `store` throws.
    static func environment(_ option: String?, in workspace: Workspace, roots: FileRoots, store: StateStore,
                            outsideHint: String = Workspace.runOutsideHint) throws -> Environment? {
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        if let option {
            return try workspace.loadEnvironment(option, relativeTo: cwd, within: Workspace.isEnvironmentPath(option) ? nil : roots,
                                                 outsideHint: outsideHint)
        }
        guard let saved = try store.string(forKey: EnvCommand.stateKey) else { return nil }
        return try workspace.loadEnvironment(saved, relativeTo: workspace.root, within: roots, outsideHint: outsideHint)
    }

    /// How many run records to keep: saved with `reqrun history --keep N`, else `RunStore.defaultLimit`.
    func historyLimit(_ terminal: Terminal) throws -> Int {
        guard let saved = try store.string(forKey: HistoryCommand.limitKey) else { return RunStore.defaultLimit }
        guard let limit = Int(saved), limit > 0 else {
            terminal.warning(".reqrun/state.json: historyLimit '\(saved)' is not a whole number of 1 or more; keeping \(RunStore.defaultLimit) runs "
                             + "(set it with 'reqrun history --keep N')")
            return RunStore.defaultLimit
        }
        return limit
    }

    /// The saved expanded set, printing the store's warnings (an unreadable state moved aside).
    func savedExpansion(_ terminal: Terminal) throws -> Set<UUID> {
        let store = self.store
        let ids = try store.expandedGroups()
        store.warnings.forEach(terminal.warning)
        return ids
    }
}

/// Collection files that did not load, for a command that needs every collection: one `error:` line each
/// (`ReqRunCommand.report`), exit 2.
struct CollectionLoadFailures: Error {
    var failures: [InputError]
}
