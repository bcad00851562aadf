import Foundation

/// One request sent as a run of its own and recorded (`reqrun send`): the same runner, masking and record
/// as `reqrun run`, so `history`, `show` and `diff` include it.
public enum RecordedSend {
    /// Sends `reference` with `configuration` (`Runner.run`) and saves the record in `workspace`'s runs,
    /// first removing the oldest records beyond `historyLimit - 1`.
    /// - Returns: the finished run, and the record's file or why it could not be written (what
    ///   `RunStore.save` throws: the request was sent all the same).
    public static func send(_ reference: RequestReference, configuration: RunConfiguration, workspace: Workspace, historyLimit: Int,
                            onResult: @escaping @Sendable (RequestResult) -> Void = { _ in }) -> (run: CompletedRun, file: Result<URL, any Error>) {
        let runs = RunStore(directory: workspace.runsDirectory)
        _ = try? runs.prune(keep: max(0, historyLimit - 1))  // a link there fails the save below
        let run = Runner.run([reference], configuration: configuration, workspace: workspace, onResult: onResult)
        return (run, Result { try runs.save(run.record, encodedResults: run.encodedResults) })
    }
}
