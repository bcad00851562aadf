import Foundation

/// Finds the group a user means by a name, a `Parent/Child` path, an id or a unique id prefix.
public enum GroupResolver {
    /// Resolves each argument in order; duplicates collapse.
    ///
    /// Matching, first rule that finds anything wins: a full id (any case); a path of group names from the
    /// top (`Parent/Child`, optionally starting with the collection name); a group's own name; a prefix of
    /// an id (at least 4 hex digits, dashes as in the id).
    /// - Throws: `SelectionError.unknown` (with a "did you mean" hint) or `.ambiguous` (listing every match).
    public static func resolve(_ arguments: [String], in collections: [RequestCollection]) throws(SelectionError) -> [GroupEntry] {
        let entries = GroupIndex.entries(collections)
        var result: [GroupEntry] = []
        for argument in arguments {
            let matches = candidates(for: argument, in: entries)
            if matches.isEmpty {
                let names = entries.map(\.group.name) + entries.map(\.displayPath)
                throw SelectionError.unknown(argument: argument, suggestion: Suggestion.closest(to: argument, among: names))
            }
            if matches.count > 1 {
                throw SelectionError.ambiguous(argument: argument, candidates: matches.map {
                    "\($0.collectionName): \($0.displayPath) (\($0.group.id.lowercasedText))"
                })
            }
            if !result.contains(where: { $0.group.id == matches[0].group.id }) { result.append(matches[0]) }
        }
        return result
    }

    /// The groups `argument` names by the rules above (empty when none).
    static func candidates(for argument: String, in entries: [GroupEntry]) -> [GroupEntry] {
        if let id = UUID(uuidString: argument) {
            return entries.filter { $0.group.id == id }
        }
        let byPath = entries.filter { $0.displayPath == argument || "\($0.collectionName)/\($0.displayPath)" == argument }
        if !byPath.isEmpty { return byPath }
        let byName = entries.filter { $0.group.name == argument }
        if !byName.isEmpty { return byName }
        let prefix = argument.lowercased()
        if prefix.count >= 4, prefix.allSatisfy({ $0.isHexDigit || $0 == "-" }) {
            return entries.filter { $0.group.id.lowercasedText.hasPrefix(prefix) }
        }
        return []
    }
}

/// A group argument that names no group, or more than one.
public enum SelectionError: Error, Sendable, Equatable, CustomStringConvertible {
    case unknown(argument: String, suggestion: String?)
    /// A request argument that names no request, or more than one.
    case unknownRequest(argument: String, suggestion: String?)
    case ambiguousRequest(argument: String, candidates: [String])
    /// `candidates`: one line per match, `collection: path (id)`.
    case ambiguous(argument: String, candidates: [String])
    /// A `run` argument that names no collection, group or request; the closest name of each kind, if any
    /// is near enough (`Suggestion.closest`); with none, a NAME ending in `.json` is told how to run a file.
    case unknownTarget(argument: String, collection: String?, group: String?, request: String?)

    public var description: String {
        switch self {
        case .unknown(let argument, let suggestion):
            var text = "no group named '\(argument)'"
            if let suggestion { text += "; did you mean '\(suggestion)'?" }
            return text
        case .unknownTarget(let argument, let collection, let group, let request):
            var text = "no collection, group or request named '\(argument)'"
            let guesses = [("collection", collection), ("group", group), ("request", request)].compactMap { kind, name in
                name.map { "the \(kind) '\($0)'" }
            }
            if !guesses.isEmpty {
                text += "; did you mean " + (guesses.count == 1 ? guesses[0]
                    : guesses.dropLast().joined(separator: ", ") + " or " + guesses.last!) + "?"
            } else if argument.lowercased().hasSuffix(".json") {
                // Newman's `newman run FILE`: a file is not a NAME.
                text += "; to run a collection file, name it with --collection FILE and add --all"
            }
            return text
        case .unknownRequest(let argument, let suggestion):
            var text = "no request named '\(argument)'"
            if let suggestion { text += "; did you mean '\(suggestion)'?" }
            return text
        case .ambiguousRequest(let argument, let candidates):
            return "'\(argument)' matches \(candidates.count) requests; name one by its path or index:\n"
                + candidates.map { "  \($0)" }.joined(separator: "\n")
        case .ambiguous(let argument, let candidates):
            return "'\(argument)' matches \(candidates.count) groups; name one by its path or id:\n"
                + candidates.map { "  \($0)" }.joined(separator: "\n")
        }
    }
}
