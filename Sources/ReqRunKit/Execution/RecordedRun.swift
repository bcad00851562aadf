import Foundation

/// Runs requests and records the run as `reqrun run` does (same runner, masking and record, so `history`,
/// `show` and `diff` include it), then keeps its captured values for later sends (`CaptureStore`). One piece
/// for every front end that sends outside `reqrun run`: `reqrun send`, and the full-screen UI's `Enter`
/// (one request) and `r` (the visible requests).
public enum RecordedRun {
    /// What became of a run.
    public struct Outcome: Sendable {
        public var run: CompletedRun
        /// The record's file, or why it could not be written (what `RecordWriter` throws): the requests were
        /// sent all the same.
        public var file: Result<URL, any Error>
        /// Why the captured values could not be kept in `CaptureStore`, if so (only after a saved record).
        public var capturesError: FileError?
    }

    /// The selection recorded for one request sent alone: mode `send`, `named` its `Collection/Group/Name`,
    /// and the names of the `--var` values (`overrides`; values are not recorded).
    public static func selection(sending reference: RequestReference, overrides: [String: String]) -> RunSelection {
        RunSelection(mode: "send", overriddenVariables: overrides.keys.sorted(), named: [RunTarget.request(reference).displayPath])
    }

    /// Sends `references` with `Runner.run`, after removing the oldest records beyond `historyLimit - 1` (as
    /// `run` does), records the run in `workspace`'s runs as it goes (`RecordWriter`) and then keeps its captured values.
    /// - Parameters:
    ///   - scripting: runs the requests' Postman scripts (nil: none run).
    ///   - onResult: each masked result in list order, as it is done (on the calling thread or the pipeline's).
    public static func run(_ references: [RequestReference], configuration: RunConfiguration, workspace: Workspace, historyLimit: Int,
                           scripting: RequestScripting? = nil,
                           onResult: @escaping @Sendable (RequestResult) -> Void = { _ in }) -> Outcome {
        let runs = RunStore(directory: workspace.runsDirectory)
        _ = try? runs.prune(keep: max(0, historyLimit - 1))  // a link there fails the save below
        let run = Runner.run(references, configuration: configuration, workspace: workspace, scripting: scripting, recordingIn: runs,
                             onResult: onResult)
        var outcome = Outcome(run: run, file: run.file ?? .failure(RunStoreError.noRuns))
        if case .success = outcome.file {
            do throws(FileError) {
                try CaptureStore(directory: workspace.stateDirectory).remember(run.capturedValues)
            } catch {
                outcome.capturesError = error
            }
        }
        return outcome
    }

    /// Sends one request alone: `run` with `selection(sending:)` recorded and one request in flight.
    public static func send(_ reference: RequestReference, configuration: RunConfiguration, workspace: Workspace, historyLimit: Int,
                            scripting: RequestScripting? = nil,
                            onResult: @escaping @Sendable (RequestResult) -> Void = { _ in }) -> Outcome {
        var configuration = configuration
        configuration.selection = selection(sending: reference, overrides: configuration.overrides)
        configuration.parallel = 1
        return run([reference], configuration: configuration, workspace: workspace, historyLimit: historyLimit,
                   scripting: scripting, onResult: onResult)
    }
}
