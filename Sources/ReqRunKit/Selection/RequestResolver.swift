/// Finds the request a user means: its list index (`#3` or `3`), its path (`Group/Sub/Name`, optionally
/// starting with the collection name), or its name.
public enum RequestResolver {
    /// - Throws: `SelectionError.unknownRequest` (with a hint) or `.ambiguousRequest` (listing each match).
    public static func resolve(_ argument: String, in outline: Outline) throws(SelectionError) -> RequestReference {
        let all = outline.allSelection()
        let number = argument.hasPrefix("#") ? Int(argument.dropFirst()) : Int(argument)
        if let number, let match = all.first(where: { $0.index == number }) { return match }
        func path(_ r: RequestReference) -> String { (r.groupPath + [r.request.name]).joined(separator: "/") }
        var matches = all.filter { path($0) == argument || "\($0.collectionName)/\(path($0))" == argument }
        if matches.isEmpty { matches = all.filter { $0.request.name == argument } }
        if matches.count == 1 { return matches[0] }
        if matches.isEmpty {
            let names = all.map(\.request.name) + all.map(path)
            throw .unknownRequest(argument: argument, suggestion: Suggestion.closest(to: argument, among: names))
        }
        throw .ambiguousRequest(argument: argument, candidates: matches.map { "\($0.collectionName): \(path($0)) (#\($0.index))" })
    }
}
