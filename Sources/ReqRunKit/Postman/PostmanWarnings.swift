/// What loading one Postman collection noticed but did not refuse, summed up in a few warnings per
/// collection (the CLI prints them on stderr): scripts (run by `run` only), checks translated, auth sent without
/// credentials, parts of requests left out.
struct PostmanWarnings {
    /// Scripts found, by event (`prerequest`, `test`).
    var scripts: [String: Int] = [:]
    /// Auth types reqrun does not compute, by type; those requests go without authentication.
    var unsupportedAuth: [String: Int] = [:]
    /// One-off notes, each with its field path.
    var notes: [String] = []

    /// The warnings, each starting with `file: `.
    func messages(file: String) -> [String] {
        var result: [String] = []
        let total = scripts.values.reduce(0, +)
        if total > 0 {
            let kinds = [("prerequest", "pre-request"), ("test", "test")].compactMap { key, label in
                scripts[key].map { "\($0) \(label)" }
            }
            let text = "\(file): \(total) script\(total == 1 ? "" : "s") (\(kinds.joined(separator: ", "))), run by 'reqrun run' (pre-request scripts also by --dry-run)"
            result.append(text + "; 'reqrun list' marks the requests that had scripts")
        }
        for (type, count) in unsupportedAuth.sorted(by: { $0.key < $1.key }) {
            result.append("\(file): auth type '\(type)' is not supported: \(count) request\(count == 1 ? " is" : "s are") sent without authentication")
        }
        result += notes.map { "\(file): \($0)" }
        return result
    }
}
