import Foundation
import ReqRunKit

/// `send` and `run --dry-run`: values captured by earlier recorded runs for the variables that nothing in
/// this command provides (`EarlierCaptures`), each announced on stderr (`token from run 20261201-…`).
enum CarriedCaptures {
    /// Sets `configuration.carriedCaptures`; warns about a variable whose recorded value is masked (it
    /// stays undefined: the request then fails as it would have).
    static func apply(_ references: [RequestReference], to configuration: inout RunConfiguration, _ context: WorkspaceContext,
                      _ terminal: Terminal) {
        let missing = EarlierCaptures.missing(references, configuration)
        guard !missing.isEmpty else { return }
        let earlier = EarlierCaptures.find(missing, in: RunStore(directory: context.workspace.runsDirectory))
        for found in earlier.found {
            terminal.err(Terminal.sanitized("\(found.variable) from run \(found.runID) (captured by '\(found.request)')") + "\n")
        }
        for (variable, runID) in earlier.masked {
            terminal.warning("\(variable) was captured in run \(runID) but is masked there (a secret); "
                             + "send the request that captures it first, or give --var \(variable)=VALUE")
        }
        let all = Outline(collections: context.collections, expansion: .transient([])).allRequests()
        configuration.carriedCaptures = earlier.layer(secretNames: EarlierCaptures.cookieCaptureNames(all))
    }
}
