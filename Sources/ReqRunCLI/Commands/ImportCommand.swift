import Foundation
import ReqRunKit

/// `reqrun import FILE [--to PATH] [--force]`: converts a Postman collection to reqrun's native format.
enum ImportCommand {
    static let command = Command(spec: CommandSpec(
        name: "import",
        abstract: "Convert a Postman collection (v1, v2.0 or v2.1) to reqrun's collection format.",
        discussion: """
            Writes the collection as reqrun's JSON format, by default to collections/NAME.json in the workspace,
            where NAME is FILE's name without .postman_collection.json, .json.postman_collection (v1) or .json. Every group id is written out,
            so groups keep their ids and expansion. Scripts are written as the native format's scripts; requests that followed a subfolder come before it, as the native format lists a group's
            requests first. An existing file is never overwritten without --force. The converted collection is
            loaded before it is written: when the workspace could not load it (a body file that is not there, a
            group id another collection uses), nothing is written and import exits 2; written elsewhere (--to PATH
            outside collections/), it is written with a warning. Reading Postman files directly needs no import:
            put them in collections/.
            """,
        options: [
            .init(name: "--to", valueName: "PATH", help: "Where to write (default: collections/NAME.json in the workspace)."),
            .init(name: "--force", valueName: nil, help: "Overwrite PATH if it exists."),
            .workspace, .fileRoot,
        ],
        positional: .init(name: "FILE", help: "The Postman collection to convert.", repeating: false, optional: false),
        examples: ["reqrun import ~/Downloads/Shop.postman_collection.json", "reqrun import shop.json --to collections/shop-api.json"]
    ), run: run)

    static func run(_ arguments: ParsedArguments, _ terminal: Terminal) throws -> ExitCode {
        guard arguments.positionals.count == 1, let path = arguments.positionals.first else {
            throw UsageError(message: "give one Postman collection FILE to import", command: command.spec)
        }
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        let source = URL(fileURLWithPath: path, relativeTo: cwd).standardizedFileURL
        if let reason = FileSizeBound.collection.refusal(path: source.path) { throw InputError(file: path, location: nil, reason: reason) }
        guard let data = FileManager.default.contents(atPath: source.path) else {
            throw InputError(file: path, location: nil, reason: FileManager.default.fileExists(atPath: source.path) ? "cannot be read" : "no such file")
        }
        guard PostmanDecoder.recognises(Array(data)) else {
            throw InputError(file: path, location: nil, reason: "not a Postman collection (v1, v2.0 or v2.1); reqrun collections need no import")
        }
        // Its body files must lie where the workspace's collections may read (the workspace, --file-root DIR):
        // the converted collection could not load otherwise.
        let extraRoots = try WorkspaceContext.fileRoots(arguments)
        let workspace = try? WorkspaceContext.locate(arguments)
        let roots = workspace?.fileRoots(allowing: extraRoots) ?? FileRoots(extraRoots)
        let collection = try CollectionDecoder.decode(Array(data), file: path, fileName: source.lastPathComponent,
                                                      files: FileScope(base: source.deletingLastPathComponent().path, roots: roots))
        if let notice = collection.postmanScripts?.notice(file: path, use: .written) { terminal.warning(notice) }
        collection.warnings.forEach(terminal.warning)
        let target: URL
        if let to = arguments.value("--to") {
            target = URL(fileURLWithPath: to, relativeTo: cwd).standardizedFileURL
            if let own = workspace?.ownFile(to, relativeTo: cwd) {
                throw UsageError(message: "--to \(Terminal.sanitized(to)) would overwrite reqrun's own \(Terminal.sanitized(own)); choose another PATH", command: command.spec)
            }
        } else {
            let workspace = try WorkspaceContext.locate(arguments)
            target = workspace.collectionsDirectory.appendingPathComponent(defaultName(source.lastPathComponent))
            // A link there came with the folder, not from the user: dangling, writing would create the file it
            // names anywhere; with --force, replace that file.
            var info = stat()
            if lstat(target.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK {
                throw UsageError(message: "\(Terminal.sanitized(target.path)) is a symbolic link; import does not write through a link it did not get with "
                                 + "--to PATH (remove it, or name it with --to)", command: command.spec)
            }
        }
        guard target.path != source.path else {
            throw UsageError(message: "the converted file would replace \(path); choose another PATH with --to", command: command.spec)
        }
        if FileManager.default.fileExists(atPath: target.path), !arguments.flag("--force") {
            throw UsageError(message: "\(target.path) already exists; use --force to overwrite it", command: command.spec)
        }
        let result = PostmanImport.prepare(collection)
        let bytes = Array(CollectionEncoder.encode(result.collection).utf8)
        // The converted file is loaded before it is written: one that would not load (a body file not
        // shipped with the export, a group id another collection uses) is refused when the workspace would
        // load it, and written with a warning elsewhere (--to PATH outside collections/).
        let display = workspace?.displayPath(target) ?? target.path
        let loads: Result<RequestCollection, Error> = Result {
            let converted = try CollectionDecoder.decode(bytes, file: display, fileName: target.lastPathComponent,
                                                         files: FileScope(base: target.deletingLastPathComponent().path, roots: roots))
            if let workspace, isCollection(target, of: workspace) {
                let others = (try? workspace.collectionFiles())?.filter { $0.standardizedFileURL.path != target.path } ?? []
                try GroupIndex.checkUniqueIDs(try workspace.loadCollectionsKeepingFailures(files: others, allowing: extraRoots).collections + [converted])
            }
            return converted
        }
        if case .failure(let error) = loads {
            guard let workspace, isCollection(target, of: workspace) else {
                try write(bytes, to: target)
                terminal.warning("the converted collection will not load until this is fixed: \(error)")
                return finish(result, collection, source, target, terminal)
            }
            throw InputError(file: Terminal.sanitized(path), location: nil, reason: "not imported, since the converted collection would not load in this "
                             + "workspace (nothing was written): \(error); "
                             + (isCollection(source, of: workspace) ? "move \(Terminal.sanitized(source.lastPathComponent)) out of collections/ first, since both define the same groups"
                                                                    : "write it outside collections/ with --to PATH to fix it there"))
        }
        try write(bytes, to: target)
        return finish(result, collection, source, target, terminal)
    }

    private static func write(_ bytes: [UInt8], to target: URL) throws {
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try UserFile.write(bytes, toPath: target.path, mode: 0o644)
    }

    /// Whether the workspace loads `file` as one of its collections (`collections/*.json`).
    static func isCollection(_ file: URL, of workspace: Workspace) -> Bool {
        file.deletingLastPathComponent().standardizedFileURL.path == workspace.collectionsDirectory.standardizedFileURL.path
            && file.lastPathComponent.hasSuffix(".json") && !file.lastPathComponent.hasPrefix(".")
    }

    private static func finish(_ result: PostmanImport.Result, _ collection: RequestCollection, _ source: URL, _ target: URL, _ terminal: Terminal) -> ExitCode {
        let count = result.collection.groups.reduce(0) { $0 + $1.requestCount }
        terminal.line("imported \(count) request\(count == 1 ? "" : "s") of '\(Terminal.sanitized(collection.name))' to \(Terminal.sanitized(target.path))")
        if result.movedRequests > 0 {
            terminal.warning("\(result.movedRequests) request(s) that followed a subfolder now come before it (the native format lists a group's requests first)")
        }
        return .success
    }

    /// `Shop.postman_collection.json` → `Shop.json`; `shop.json` → `shop.json`.
    static func defaultName(_ fileName: String) -> String {
        // `.json.postman_collection`: how the Postman app named v1 exports.
        for suffix in [".postman_collection.json", ".json.postman_collection", ".json"] where fileName.hasSuffix(suffix) {
            return String(fileName.dropLast(suffix.count)) + ".json"
        }
        return fileName + ".json"
    }
}
