import Foundation
import ReqRunKit

/// `reqrun history`: recorded runs, newest first.
enum HistoryCommand {
    static let command = Command(spec: CommandSpec(
        name: "history",
        abstract: "List recorded runs, newest first, with their counts.",
        discussion: "A workspace keeps its newest \(RunStore.defaultLimit) run records; --keep N changes that (saved in .reqrun/state.json) and removes older ones now.",
        options: [.init(name: "--keep", valueName: "N", help: "Keep the newest N run records from now on (default: \(RunStore.defaultLimit))."),
                  .init(name: "--json", valueName: nil, help: "Print the runs as a JSON array."),
                  .workspace]
    ), run: run)

    /// The state key of the number of run records kept.
    static let limitKey = "historyLimit"

    static func run(_ arguments: ParsedArguments, _ terminal: Terminal) throws -> ExitCode {
        let workspace = try WorkspaceContext.locate(arguments)
        let store = RunStore(directory: workspace.runsDirectory)
        if let text = arguments.value("--keep") {
            guard let keep = Int(text), keep > 0 else {
                throw UsageError(message: "--keep expects a whole number of 1 or more, got '\(text)'", command: command.spec)
            }
            let state = StateStore(directory: workspace.stateDirectory)
            try state.setString(String(keep), forKey: limitKey)
            state.warnings.forEach(terminal.warning)
            let removed = try store.prune(keep: keep)
            terminal.line("keeping the newest \(keep) runs\(removed.isEmpty ? "" : "; removed \(removed.count)")")
            return .success
        }
        let ids = try store.ids()
        guard !ids.isEmpty else {
            terminal.line("No runs recorded yet.")
            return .success
        }
        var records: [RunRecord] = []
        for id in ids {
            do {
                // The header and summary lines only (a format 2 record is never read whole here).
                records.append(try store.open(id).head)
            } catch {
                // One unreadable record does not hide the others.
                terminal.warning("\(error)")
            }
        }
        if arguments.flag("--json") {
            terminal.out(json(records))
            return .success
        }
        terminal.line("RUN                       STARTED                   DURATION  ENVIRONMENT   SELECTION                       TOTAL  PASSED  FAILED  ERRORS  SKIPPED")
        for record in records {
            let s = record.summary
            // A record is a file like any other (a cloned repository can carry one): its text is escaped.
            terminal.line([pad(record.id, 25), pad(record.startedAt, 25), pad(duration(record).map(ResultLines.duration) ?? "?", 9),
                           pad(RunConsole.truncated(record.environment ?? "-", 13), 13), pad(RunConsole.truncated(selection(record), 31), 31),
                           pad(String(s.total), 6), pad(String(s.passed), 7), pad(String(s.failed), 7), pad(String(s.errors), 7),
                           String(s.skipped)]
                .joined(separator: " "))
        }
        return .success
    }

    /// What the run ran, by name: `expanded`, `all`, the group paths, what each NAME named, or `send` and
    /// the request; `shard K/N` for a part of a sharded run and `merged N` for a merged one.
    static func selection(_ record: RunRecord) -> String {
        // A part of a sharded run, or a merged one.
        if let shard = record.selection.shard { return "shard \(shard.k)/\(shard.n)" }
        if let merged = record.selection.merged { return "merged \(merged.n)" }
        if let named = record.selection.named, !named.isEmpty {
            return (record.selection.mode == "send" ? "send " : "") + named.joined(separator: ", ")
        }
        if !record.selection.groups.isEmpty { return record.selection.groups.map(\.path).joined(separator: ", ") }
        return record.selection.mode
    }

    /// Microseconds from `startedAt` to `endedAt`, nil when either cannot be read.
    static func duration(_ record: RunRecord) -> Int? {
        let format = ISO8601DateFormatter()
        format.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        guard let start = format.date(from: record.startedAt), let end = format.date(from: record.endedAt) else { return nil }
        return Int(end.timeIntervalSince(start) * 1_000_000)
    }

    /// `[{"id", "startedAt", "endedAt", "durationMs", "environment", "selection": {"mode", "groups", "named"},
    /// "summary": {...}}]`, newest first.
    static func json(_ records: [RunRecord]) -> String {
        var writer = JSONWriter()
        writer.array(records) { w, record in
            w.object { w in
                w.field("id", record.id)
                w.field("startedAt", record.startedAt)
                w.field("endedAt", record.endedAt)
                w.field("durationMs", duration(record).map { $0 / 1000 })
                w.field("environment", record.environment)
                w.key("selection")
                w.object { w in
                    w.field("mode", record.selection.mode)
                    w.field("groups", record.selection.groups) { w, group in w.string(group.path) }
                    if let named = record.selection.named { w.field("named", named) { w, name in w.string(name) } }
                    w.field("overriddenVariables", record.selection.overriddenVariables) { w, name in w.string(name) }
                }
                w.key("summary")
                w.object { w in
                    let s = record.summary
                    w.field("total", s.total); w.field("passed", s.passed); w.field("failed", s.failed)
                    w.field("errors", s.errors); w.field("skipped", s.skipped); w.field("notRun", s.notRun)
                }
            }
        }
        return String(decoding: writer.finish(), as: UTF8.self) + "\n"
    }

    private static func pad(_ text: String, _ width: Int) -> String { Terminal.padded(Terminal.sanitized(text), width) }
}
