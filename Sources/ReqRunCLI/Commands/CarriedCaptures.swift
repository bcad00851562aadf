import Foundation
import ReqRunKit

/// Captured values from one command to the next (`CaptureStore`, `EarlierCaptures`): every run and send
/// stores what it captured; `send` and `run --dry-run` use the stored values for the variables nothing
/// else provides, each announced on stderr (`token from run 20261201-… (captured by 'login')`).
enum CarriedCaptures {
    /// Sets `configuration.carriedCaptures` for `references`.
    static func apply(_ references: some Sequence<RequestReference>, to configuration: inout RunConfiguration, _ context: WorkspaceContext,
                      _ terminal: Terminal) {
        let found = EarlierCaptures.carry(into: &configuration, for: references, from: CaptureStore(directory: context.workspace.stateDirectory))
        for value in found { terminal.err(Terminal.sanitized(value.origin) + "\n") }
    }

    /// Stores what `run` captured; a store that cannot be written costs only the carry-over: a warning.
    static func remember(_ run: CompletedRun, _ context: WorkspaceContext, _ terminal: Terminal) {
        do {
            try CaptureStore(directory: context.workspace.stateDirectory).remember(run.capturedValues)
        } catch {
            terminal.warning(notKept(error))
        }
    }

    static func notKept(_ error: FileError) -> String { "captured values not kept for later sends: \(error)" }
}
