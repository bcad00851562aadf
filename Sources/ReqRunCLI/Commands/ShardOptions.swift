import Foundation
import ReqRunKit

/// `run --shard K/N|auto [--shard-by group|request] [--shard-timings RUN]`: run one of N parts of the
/// selection (`ShardPartition`), for CI jobs side by side; `reqrun merge` joins their records.
enum ShardOptions {
    static let specs: [CommandSpec.Option] = [
        .init(name: "--shard", valueName: "K/N|auto", help: "Run only the K-th of N parts of the selection (auto: GitLab's CI_NODE_INDEX/CI_NODE_TOTAL)."),
        .init(name: "--shard-by", valueName: "group|request", help: "With --shard: keep top-level groups together (default) or split by request."),
        .init(name: "--shard-timings", valueName: "RUN", help: "With --shard: balance the parts by the durations of RUN (a run id or record file, e.g. a merged run)."),
    ]

    /// Narrows `references` to the part `--shard` names and records it in `selection.shard`; without
    /// `--shard` changes nothing.
    /// - Throws: `UsageError` for a bad K/N, `ShardError.crossingCapture` when a capture would cross parts,
    ///   `RunStoreError` when the `--shard-timings` record cannot be read. `warn` gets a warning for a record
    ///   without its summary line.
    static func apply(_ arguments: ParsedArguments, _ selected: inout RequestSelection, _ selection: inout RunSelection,
                      environment: Environment?, overrides: [String: String], _ context: WorkspaceContext,
                      command: CommandSpec, warn: (String) -> Void) throws {
        guard let text = arguments.value("--shard") else {
            for option in ["--shard-by", "--shard-timings"] where arguments.value(option) != nil {
                throw UsageError(message: "\(option) goes with --shard K/N", command: command)
            }
            return
        }
        let byText = arguments.value("--shard-by") ?? ShardSpec.Unit.group.rawValue
        guard let by = ShardSpec.Unit(rawValue: byText) else {
            throw UsageError(message: "--shard-by expects group or request, got '\(byText)'", command: command)
        }
        let spec: ShardSpec
        if text == "auto" {
            let environment = ProcessInfo.processInfo.environment
            guard let found = ShardSpec.fromCI(environment, by: by) else {
                let values = ["CI_NODE_INDEX", "CI_NODE_TOTAL"].map { "\($0)=" + (environment[$0].map { "'\($0)'" } ?? "(unset)") }
                throw UsageError(message: "--shard auto reads CI_NODE_INDEX and CI_NODE_TOTAL (GitLab CI's parallel: N), got \(values.joined(separator: ", ")); elsewhere give --shard K/N",
                                 command: command)
            }
            spec = found
        } else {
            guard let parsed = ShardSpec.parse(text, by: by) else {
                throw UsageError(message: "--shard expects K/N with whole numbers 1 ≤ K ≤ N (e.g. 2/4) or auto, got '\(text)'", command: command)
            }
            spec = parsed
        }
        let references = Array(selected)
        var durations: [Double?]?
        var timingsRun: String?
        if let run = arguments.value("--shard-timings") {
            // A result at a time: a long earlier run is never whole in memory.
            let reader = try RunStore(directory: context.workspace.runsDirectory).open(idOrFile: run)
            let results = reader.results()
            durations = ShardPartition.durations(of: references, results: results)
            if let error = results.error { throw error }
            // A record without its summary line (a run killed, a file cut short) still balances by what it
            // holds, as the docs say; but the user should know the parts rest on part of a run.
            if !reader.complete {
                warn("--shard-timings \(run): the record has no summary line (a run cut short); the parts are balanced by the \(reader.head.summary.total) results it holds")
            }
            timingsRun = reader.head.id
        }
        let configuration = RunConfiguration(selection: selection, environment: environment, overrides: overrides)
        let parts: [Int]
        do {
            parts = try ShardPartition.parts(references, n: spec.n, by: spec.by, durations: durations, configuration: configuration)
        } catch {
            let all = references
            let name = { (position: Int) in "#\(all[position].index) '" + Terminal.sanitized(([all[position].collectionName] + all[position].groupPath + [all[position].request.name]).joined(separator: "/")) + "'" }
            throw ShardError.crossingCapture(dependent: name(error.dependent), dependentPart: error.dependentPart,
                                             capturer: name(error.capturer), capturerPart: error.capturerPart, n: spec.n, by: spec.by)
        }
        let positions = parts.indices.filter { parts[$0] == spec.k - 1 }
        selection.shard = ShardRecord(k: spec.k, n: spec.n, by: spec.by.rawValue, selected: references.count, positions: positions,
                                      timings: timingsRun)
        selected = RequestSelection(positions.map { references[$0] })
    }
}
