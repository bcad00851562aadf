import PostmanSandbox
import ReqRunKit

/// `run`'s Postman scripts: the sandbox is made (and JavaScriptCore loaded) only when a selected request
/// has a script, so script-free runs start as fast as before (README, "Postman scripts").
enum RunScripting {
    /// `--script-timeout SECONDS` (fractions allowed, 0: none); default `PostmanSandbox.defaultTimeLimit`.
    static func timeLimit(_ text: String?, command: CommandSpec) throws(UsageError) -> Double {
        guard let text else { return PostmanSandbox.defaultTimeLimit }
        guard let value = Double(text), value >= 0, value.isFinite, value < 1e9 else {
            throw UsageError(message: "--script-timeout expects a number of seconds, got '\(text)'", command: command)
        }
        return value
    }

    /// The sandbox for `references`, or nil when none has a script that will run (`preRequestOnly`: a dry run,
    /// which runs no test script).
    /// - Throws: `SandboxError` when JavaScriptCore or chai is missing.
    static func sandbox(for references: [RequestReference], timeLimit: Double, preRequestOnly: Bool) throws -> RequestScripting? {
        guard references.contains(where: { $0.request.eventScripts.contains { !preRequestOnly || $0.event == .prerequest } }) else {
            return nil
        }
        return try PostmanSandbox(timeLimit: timeLimit)
    }
}
