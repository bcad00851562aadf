/// What loading one Postman collection noticed but did not refuse, summed up in a few warnings per
/// collection (the CLI prints them on stderr): auth sent without credentials, parts of requests left out; and
/// the scripts found, which the CLI mentions only on a command that does not run them (`PostmanScriptCount`).
struct PostmanWarnings {
    /// Scripts found, by event (`prerequest`, `test`).
    var scripts: [String: Int] = [:]
    /// Auth types reqrun does not compute, by type; those requests go without authentication.
    var unsupportedAuth: [String: Int] = [:]
    /// One-off notes, each with its field path.
    var notes: [String] = []

    /// The scripts found, by event.
    var scriptCount: PostmanScriptCount {
        PostmanScriptCount(preRequest: scripts["prerequest"] ?? 0, test: scripts["test"] ?? 0)
    }

    /// The warnings but the scripts' (`scriptCount`), each starting with `file: `.
    func messages(file: String) -> [String] {
        var result: [String] = []
        for (type, count) in unsupportedAuth.sorted(by: { $0.key < $1.key }) {
            result.append("\(file): auth type '\(type)' is not supported: \(count) request\(count == 1 ? " is" : "s are") sent without authentication")
        }
        result += notes.map { "\(file): \($0)" }
        return result
    }
}
