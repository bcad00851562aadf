import PostmanSandbox
import ReqRunKit

/// `run`'s Postman scripts: the sandbox is made (and JavaScriptCore loaded) only when a selected request
/// has a script, so script-free runs start as fast as before (README, "Postman scripts").
enum RunScripting {
    /// - Parameter timeout: `--script-timeout SECONDS` as given (default `PostmanSandbox.defaultTimeLimit`).
    /// - Throws: `UsageError` for a bad timeout; `SandboxError` when JavaScriptCore or chai is missing.
    static func sandbox(for references: [RequestReference], timeout: String?, command: CommandSpec) throws -> RequestScripting? {
        var seconds = PostmanSandbox.defaultTimeLimit
        if let timeout {
            guard let value = Double(timeout), value >= 0, value.isFinite, value < 1e9 else {
                throw UsageError(message: "--script-timeout expects a number of seconds, got '\(timeout)'", command: command)
            }
            seconds = value
        }
        guard references.contains(where: { !$0.request.eventScripts.isEmpty }) else { return nil }
        return try PostmanSandbox(timeLimit: seconds)
    }
}
