import ReqRunKit

/// `reqrun history`: recorded runs, newest first.
enum HistoryCommand {
    static let command = Command(spec: CommandSpec(
        name: "history",
        abstract: "List recorded runs, newest first, with their counts.",
        options: [.workspace]
    ), run: run)

    static func run(_ arguments: ParsedArguments, _ terminal: Terminal) throws -> ExitCode {
        let context = try WorkspaceContext.load(arguments)
        let store = RunStore(directory: context.workspace.runsDirectory)
        let ids = store.ids()
        guard !ids.isEmpty else {
            terminal.line("No runs recorded yet.")
            return .success
        }
        terminal.line("RUN                       STARTED                   SELECTION  TOTAL  RESPONDED  FAILED  SKIPPED")
        for id in ids {
            let record = try store.load(id)
            let s = record.summary
            terminal.line([pad(record.id, 25), pad(record.startedAt, 25), pad(record.selection.mode, 10),
                           pad(String(s.total), 6), pad(String(s.responded), 10), pad(String(s.failed), 7), String(s.skipped)]
                .joined(separator: " "))
        }
        return .success
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.padding(toLength: max(width, text.count), withPad: " ", startingAt: 0)
    }
}
