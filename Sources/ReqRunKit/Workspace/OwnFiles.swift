import Foundation

extension Workspace {
    /// The names reqrun keeps in `.reqrun/` (DESIGN.md, "Writing files"): the saved state, the lock, the
    /// values captured earlier and the run records' folder. Their temporary files (`.NAME.tmp-…`) and the
    /// backups of an unreadable state (`state.json.unreadable-…`) start with one of them.
    public static let ownFileNames = ["state.json", "lock", "captures.json", "runs"]

    /// Whether writing `path` (relative to `base`) would write one of reqrun's own files in this workspace's
    /// `.reqrun/`: the path is compared after the symbolic links of its existing part are resolved, so
    /// `out/x.json` with `out` a link to `.reqrun/runs` is one too.
    /// - Returns: the own file as the workspace shows it (`.reqrun/state.json`), or nil.
    public func ownFile(_ path: String, relativeTo base: URL) -> String? {
        let target = Self.resolvedPath(URL(fileURLWithPath: path, relativeTo: base).standardizedFileURL.path)
        let state = Self.resolvedPath(stateDirectory.path)
        guard target.hasPrefix(state + "/") else { return nil }
        let inside = target.dropFirst(state.count + 1)
        guard let first = inside.split(separator: "/").first else { return nil }
        let name = first.hasPrefix(".") ? first.dropFirst() : first
        // `state.json.unreadable-…`, `.captures.json.tmp-…`; `runs.html` is no own file.
        guard Self.ownFileNames.contains(where: { name == $0 || ($0.hasSuffix(".json") && name.hasPrefix($0 + ".")) }) else { return nil }
        return ".reqrun/" + inside
    }

    /// `path` with the symbolic links of its longest existing prefix resolved (`realpath(3)`), the rest
    /// appended as it is.
    static func resolvedPath(_ path: String) -> String {
        var existing = path
        var rest: [String] = []
        while existing != "/", !existing.isEmpty {
            if let resolved = realpath(existing, nil) {
                defer { free(resolved) }
                return ([String(cString: resolved)] + rest.reversed()).joined(separator: "/").replacingOccurrences(of: "//", with: "/")
            }
            let url = URL(fileURLWithPath: existing)
            rest.append(url.lastPathComponent)
            existing = url.deletingLastPathComponent().path
        }
        return path
    }
}
