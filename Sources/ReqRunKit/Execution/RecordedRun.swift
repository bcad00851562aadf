import Foundation

/// Runs requests and saves the run record, as `reqrun run` does: one call for a front end that sends a
/// single request (the full-screen UI's `Enter`, `reqrun send`) or a few (the UI's `r`).
public enum RecordedRun {
    /// The selection recorded for one request sent alone: mode `request`, with the group that holds it and
    /// the names of the `--var` values (`overrides`; values are not recorded).
    public static func selection(sending reference: RequestReference, overrides: [String: String]) -> RunSelection {
        RunSelection(mode: "request", groups: [SelectedGroup(path: reference.groupPath.joined(separator: "/"),
                                                             id: reference.groups.last!.id.lowercasedText)],
                     overriddenVariables: overrides.keys.sorted())
    }

    /// Sends `references` with `Runner.run` (secrets masked unless `configuration.showSecrets`), makes room
    /// for the record by removing the oldest beyond `historyLimit - 1` (as `run` does), and saves it.
    /// - Parameter onResult: each masked result in list order, as it is done (called on the calling thread
    ///   or the pipeline's).
    /// - Returns: the finished run and the record file written.
    /// - Throws: `FileError` when the record cannot be saved (the run itself has happened then).
    public static func run(_ references: [RequestReference], configuration: RunConfiguration, workspace: Workspace,
                           historyLimit: Int, onResult: @escaping @Sendable (RequestResult) -> Void = { _ in }) throws -> (run: CompletedRun, file: URL) {
        let runs = RunStore(directory: workspace.runsDirectory)
        _ = try? runs.prune(keep: max(0, historyLimit - 1))  // a link there fails the save below
        let run = Runner.run(references, configuration: configuration, workspace: workspace, onResult: onResult)
        let file = try runs.save(run.record, encodedResults: run.encodedResults)
        return (run, file)
    }

    /// Sends one request alone (`selection(sending:)` is recorded) and saves the record.
    /// - Returns: its result, the record and the file written.
    public static func send(_ reference: RequestReference, configuration: RunConfiguration, workspace: Workspace,
                            historyLimit: Int) throws -> (result: RequestResult, record: RunRecord, file: URL) {
        var configuration = configuration
        configuration.selection = selection(sending: reference, overrides: configuration.overrides)
        configuration.parallel = 1
        let (run, file) = try run([reference], configuration: configuration, workspace: workspace, historyLimit: historyLimit)
        return (run.record.results[0], run.record, file)
    }
}
