import ReqRunKit

/// `reqrun history`: recorded runs, newest first.
enum HistoryCommand {
    static let command = Command(spec: CommandSpec(
        name: "history",
        abstract: "List recorded runs, newest first, with their counts.",
        discussion: "A workspace keeps its newest \(RunStore.defaultLimit) run records; --keep N changes that (saved in .reqrun/state.json) and removes older ones now.",
        options: [.init(name: "--keep", valueName: "N", help: "Keep the newest N run records from now on (default: \(RunStore.defaultLimit))."),
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
        terminal.line("RUN                       STARTED                   SELECTION  TOTAL  PASSED  FAILED  ERRORS  SKIPPED")
        for id in ids {
            let record: RunRecord
            do {
                record = try store.load(id)
            } catch {
                // One unreadable record does not hide the others.
                terminal.warning("\(error)")
                continue
            }
            let s = record.summary
            // A record is a file like any other (a cloned repository can carry one): its text is escaped.
            terminal.line([pad(record.id, 25), pad(record.startedAt, 25), pad(selectionLabel(record.selection), 10),
                           pad(String(s.total), 6), pad(String(s.passed), 7), pad(String(s.failed), 7), pad(String(s.errors), 7),
                           String(s.skipped)]
                .joined(separator: " "))
        }
        return .success
    }

    /// The selection mode, or `shard K/N` for a part of a sharded run and `merged N` for a merged one.
    static func selectionLabel(_ selection: RunSelection) -> String {
        if let shard = selection.shard { return "shard \(shard.k)/\(shard.n)" }
        if let merged = selection.merged { return "merged \(merged.n)" }
        return selection.mode
    }

    private static func pad(_ text: String, _ width: Int) -> String { Terminal.padded(Terminal.sanitized(text), width) }
}
