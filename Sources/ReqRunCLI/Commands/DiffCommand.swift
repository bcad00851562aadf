import Foundation
import ReqRunKit

/// `reqrun diff RUN_A RUN_B`: per request, what changed between two runs.
enum DiffCommand {
    static let command = Command(spec: CommandSpec(
        name: "diff",
        abstract: "Compare two runs: status, expectation outcome, body hash and time of each request.",
        discussion: """
            Requests are paired by collection, group path and name. Each line shows a status change (200 → 500),
            an outcome change (passed → failed), 'body changed' when the bodies' SHA-256 differ, and the change of
            total time in percent. Unchanged requests show only their time change; a request in only one run is
            marked + (added) or - (removed).
            """,
        options: [.workspace],
        positional: .init(name: "RUN", help: "Two run ids or unique prefixes: the earlier, then the later.", repeating: true, optional: false),
        examples: ["reqrun diff 20261129-1340 20261129-1342"]
    ), run: run)

    static func run(_ arguments: ParsedArguments, _ terminal: Terminal) throws -> ExitCode {
        guard arguments.positionals.count == 2 else {
            throw UsageError(message: "expected two runs, got \(arguments.positionals.count)", command: command.spec)
        }
        let workspace = try WorkspaceContext.locate(arguments)
        let store = RunStore(directory: workspace.runsDirectory)
        let diff = RunDiff(before: try store.load(arguments.positionals[0]), after: try store.load(arguments.positionals[1]))
        terminal.line("\(Terminal.sanitized(diff.before.id)) → \(Terminal.sanitized(diff.after.id))")
        var changed = 0
        for row in diff.rows {
            // A request in only one of the runs: added or removed, nothing to compare.
            if row.before == nil || row.after == nil {
                changed += 1
                terminal.line("\(row.before == nil ? "+" : "-") \(Terminal.sanitized(row.label))  \(row.before == nil ? "added" : "removed")")
                continue
            }
            var parts: [String] = []
            if let change = row.statusChange { parts.append("status \(change)") }
            if let change = row.outcomeChange { parts.append(change) }
            if row.bodyChanged { parts.append("body changed") }
            let mark = parts.isEmpty ? " " : "~"
            if !parts.isEmpty { changed += 1 }
            if let percent = row.timeChangePercent { parts.append(String(format: "time %+.0f%%", percent)) }
            terminal.line("\(mark) \(Terminal.sanitized(row.label))  \(parts.joined(separator: ", "))")
        }
        terminal.line("\n\(changed) of \(diff.rows.count) request\(diff.rows.count == 1 ? "" : "s") changed")
        return .success
    }
}
