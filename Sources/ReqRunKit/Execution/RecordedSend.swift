import Foundation

/// One request sent as a run of its own and recorded (`reqrun send`): the same runner, masking and record
/// as `reqrun run`, so `history`, `show` and `diff` include it, and its captures kept for later sends.
public enum RecordedSend {
    /// What became of a send.
    public struct Outcome: Sendable {
        public var run: CompletedRun
        /// The record's file, or why it could not be written (what `RunStore.save` throws): the request was
        /// sent all the same.
        public var file: Result<URL, any Error>
        /// Why the captured values could not be kept in `CaptureStore`, if so (only after a saved record).
        public var capturesError: FileError?
    }

    /// Sends `reference` with `configuration` (`Runner.run`), saves the record in `workspace`'s runs (first
    /// removing the oldest records beyond `historyLimit - 1`) and then its captured values (`CaptureStore`).
    /// - Parameter scripting: runs the request's Postman scripts (nil: none run).
    public static func send(_ reference: RequestReference, configuration: RunConfiguration, workspace: Workspace, historyLimit: Int,
                            scripting: RequestScripting? = nil, onResult: @escaping @Sendable (RequestResult) -> Void = { _ in }) -> Outcome {
        let runs = RunStore(directory: workspace.runsDirectory)
        _ = try? runs.prune(keep: max(0, historyLimit - 1))  // a link there fails the save below
        let run = Runner.run([reference], configuration: configuration, workspace: workspace, scripting: scripting, onResult: onResult)
        var outcome = Outcome(run: run, file: Result { try runs.save(run.record, encodedResults: run.encodedResults) })
        if case .success = outcome.file {
            do throws(FileError) {
                try CaptureStore(directory: workspace.stateDirectory).remember(run.capturedValues)
            } catch {
                outcome.capturesError = error
            }
        }
        return outcome
    }
}
