import Foundation

/// The folders a collection may read files from: `bodyFile`, a multipart part's `file` and a Postman body's
/// `src`. By default only the workspace; the user adds folders with `--file-root DIR` (repeatable), as
/// Hurl's `--file-root` does (Hurl compares the path as text; reqrun resolves symbolic links first, so a link
/// inside the workspace that points outside it is refused too).
///
/// A path written in a collection is relative to the collection file's folder, or absolute. `~` is not
/// expanded (`~/x` is a folder named `~`). The path is normalised (`.` and `..` removed), then every symbolic
/// link in it is resolved (`realpath(3)`; for a file that does not exist yet, in its nearest existing folder);
/// the result must lie in one of the roots, whose own links are resolved too. The resolved path is the one
/// the request reads, so what was checked is what is sent.
public struct FileRoots: Sendable, Equatable {
    /// Absolute paths without symbolic links, in the order given.
    public let folders: [String]

    /// Roots from absolute folder paths (their symbolic links are resolved here).
    public init(_ folders: [String]) {
        self.folders = folders.map(Self.realPath)
    }

    /// No file may be read: what a collection decoded without a workspace gets.
    public static let none = FileRoots([])

    /// Whether `path` (absolute, without symbolic links) lies in one of the roots.
    public func contains(_ path: String) -> Bool {
        folders.contains { $0 == "/" || path == $0 || path.hasPrefix($0 + "/") }
    }

    /// Where `written` points from the folder `base`, when that lies inside a root.
    /// - Returns: the resolved absolute path, or the reason it may not be read (naming the option that
    ///   allows it).
    public func resolve(_ written: String, from base: String) -> Result<String, Refusal> {
        let absolute = written.hasPrefix("/") ? written : base + "/" + written
        let resolved = Self.realPath(absolute)
        guard contains(resolved) else {
            return .failure(Refusal(written: written, resolved: resolved, roots: folders))
        }
        return .success(resolved)
    }

    /// Why a path may not be read (or a file may not be sent).
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        public var reason: String
        /// For a path outside the roots: the reason without its hint ("allow its folder with --file-root DIR"),
        /// for a command that has no `--file-root` and gives its own hint (`reqrun env show`); else `reason`.
        public var place: String
        public var description: String { reason }

        init(reason: String) { self.reason = reason; place = reason }

        init(written: String, resolved: String, roots: [String]) {
            let target = resolved == written ? "'\(written)'" : "'\(written)' (\(resolved))"
            let inside = roots.isEmpty ? "no folder may be read" : "files may be read only inside " + roots.joined(separator: ", ")
            place = "\(target) is outside the workspace: \(inside)"
            reason = place + "; allow its folder with --file-root DIR"
        }
    }

    /// `path` normalised (`.`, `..` and repeated slashes removed) with every symbolic link resolved; the
    /// part that does not exist is kept as written after the deepest folder that does.
    static func realPath(_ path: String) -> String {
        var components: [Substring] = []
        for component in path.split(separator: "/") {
            if component == "." { continue }
            if component == ".." { _ = components.popLast(); continue }
            components.append(component)
        }
        var missing: [Substring] = []
        while true {
            let prefix = "/" + components.joined(separator: "/")
            if let real = realpath(prefix, nil) {
                defer { free(real) }
                var text = String(cString: real)
                for component in missing.reversed() { text += (text.hasSuffix("/") ? "" : "/") + component }
                return text
            }
            guard let last = components.popLast() else { return "/" + missing.reversed().joined(separator: "/") }
            missing.append(last)
        }
    }
}

/// Where a collection's file paths start (the collection file's folder) and which folders they may reach.
public struct FileScope: Sendable, Equatable {
    /// The collection file's folder, absolute (the real file's, when the collection is a symbolic link).
    public var base: String
    public var roots: FileRoots
    /// `--working-dir DIR` (Newman's option), absolute: where relative body files (`bodyFile`, a multipart
    /// part's `file`, a Postman `src`) resolve instead of `base`; nil: `base`. Script files still resolve
    /// against `base`. The folder itself must lie inside `roots` (checked by the CLI).
    public var workingDirectory: String?
    /// The run's request rules, for the one that applies when a collection loads
    /// (`RequestRules.keepsEmptyQueryEntries`, in Postman URL objects).
    public var requestRules = RequestRules.reqrun

    public init(base: String, roots: FileRoots, workingDirectory: String? = nil, requestRules: RequestRules = .reqrun) {
        self.base = base
        self.roots = roots
        self.workingDirectory = workingDirectory
        self.requestRules = requestRules
    }
}

extension FileScope {
    /// The file a body part names, checked when the collection loads: inside a root (see `FileRoots`) and,
    /// when it exists, a regular file (`BodyFile.kind`). `mustExist`: a missing file is an error (reqrun's
    /// own format); else it is accepted and fails its request when sent (Postman exports often name files
    /// that are not shipped).
    /// - Returns: the resolved absolute path, or the reason it is refused.
    public func bodyFile(_ written: String, mustExist: Bool) -> Result<String, FileRoots.Refusal> {
        let path: String
        switch roots.resolve(written, from: workingDirectory ?? base) {
        case .success(let resolved): path = resolved
        case .failure(let refusal): return .failure(refusal)
        }
        var info = stat()
        guard stat(path, &info) == 0 else { return mustExist ? .failure(.init(reason: "no such file: \(path)")) : .success(path) }
        if let kind = BodyFile.kind(info.st_mode) {
            return .failure(.init(reason: "\(path) is \(kind), not a regular file; only regular files can be sent as content"))
        }
        return .success(path)
    }
}
