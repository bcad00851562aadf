/// How many Postman scripts (`event` entries with a non-empty script) a collection holds, by event, and the
/// one warning a command gives about them: only a command that does not run them all says so (`run`, `send`
/// and `ui` run both kinds and say nothing; `run --dry-run` runs the pre-request scripts only).
public struct PostmanScriptCount: Sendable, Equatable {
    /// `prerequest` scripts (collection, folders and requests, each counted once where it is written).
    public var preRequest: Int
    /// `test` scripts.
    public var test: Int

    public init(preRequest: Int = 0, test: Int = 0) {
        self.preRequest = preRequest
        self.test = test
    }

    /// What a command does with the scripts it loads, which decides what is worth saying.
    public enum Use: Sendable, Equatable {
        /// It shows requests without running scripts (`list`, `show --curl`): `command` as typed after `reqrun`.
        case notRun(command: String)
        /// `run --dry-run`: pre-request scripts run, test scripts do not.
        case preRequestOnly
        /// `import`: written to the native file as its `scripts`.
        case written
    }

    /// The warning for the collection `file` under `use`, or nil when there is nothing to say (no scripts, or
    /// a dry run of a collection without test scripts).
    public func notice(file: String, use: Use) -> String? {
        let total = preRequest + test
        guard total > 0 else { return nil }
        let kinds = [(preRequest, "pre-request"), (test, "test")].filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
        let found = "\(file): \(total) script\(total == 1 ? "" : "s") (\(kinds))"
        switch use {
        case .notRun(let command):
            return "\(found), not run by 'reqrun \(command)' ('reqrun run', 'send' and 'ui' run them; 'reqrun list' marks the requests that have their own)"
        case .preRequestOnly:
            guard test > 0 else { return nil }
            return "\(file): \(test) test script\(test == 1 ? "" : "s"), not run by --dry-run (pre-request scripts are)"
        case .written:
            return "\(found), written as the native format's scripts ('reqrun run', 'send' and 'ui' run them)"
        }
    }
}
