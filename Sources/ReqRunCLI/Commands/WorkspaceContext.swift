import Foundation
import ReqRunKit

/// The workspace and collections a command works on, from `--workspace` and `--collection`.
struct WorkspaceContext {
    let workspace: Workspace
    let collections: [RequestCollection]

    var store: StateStore { StateStore(directory: workspace.stateDirectory) }

    /// Locates the workspace and loads its collections. Loading comes first in every command, so a
    /// command that fails on input has touched nothing in `.reqrun/`.
    static func load(_ arguments: ParsedArguments) throws -> WorkspaceContext {
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        let workspace: Workspace
        if let dir = arguments.value("--workspace") {
            let url = URL(fileURLWithPath: dir, relativeTo: cwd)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw UsageError(message: "--workspace \(dir): no such folder", command: nil)
            }
            workspace = Workspace(root: url)
        } else {
            workspace = try Workspace.locate(from: cwd)
        }
        let files = arguments.all("--collection").map { URL(fileURLWithPath: $0, relativeTo: cwd) }
        let collections = try workspace.loadCollections(files: files.isEmpty ? nil : files)
        return WorkspaceContext(workspace: workspace, collections: collections)
    }

    /// The saved expanded set, printing the store's warnings (an unreadable state moved aside).
    func savedExpansion(_ terminal: Terminal) throws -> Set<UUID> {
        let store = self.store
        let ids = try store.expandedGroups()
        store.warnings.forEach(terminal.warning)
        return ids
    }
}
