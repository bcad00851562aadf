import Foundation
import ReqRunKit

/// `reqrun merge RECORD...`: join the records of a sharded run (`run --shard K/N`) into one run.
enum MergeCommand {
    static let command = Command(spec: CommandSpec(
        name: "merge",
        abstract: "Join the run records of the shards of one run (run --shard K/N) into one recorded run.",
        discussion: """
            Each RECORD is a record file (a path with a / or ending in .jsonl or .json, e.g. a CI artifact) or a run id
            of this workspace. The records must be the shards of one selection: the same N, --shard-by, selection,
            --shard-timings and environment, every K from 1 to N once. The merged run has every result in list order, the counts
            summed and the shards' run ids (selection.merged); it is saved in .reqrun/runs/ like a run ('reqrun
            history', 'show', 'diff' and --shard-timings read it), and --report writes reports from it.

            Exit codes as for 'reqrun run': 0 every request passed, 1 an expectation or capture failed, 3 a request
            could not be sent or got no response, 2 the records are not the shards of one run (nothing is saved),
            74 a file could not be written.
            """,
        options: [
            .init(name: "--report", valueName: "KIND=FILE", help: "Also write a report of the merged run: junit, json, newman-json (Newman's JSON reporter), har or html (FILE - for standard output).", repeatable: true),
            .workspace,
        ],
        positional: .init(name: "RECORD", help: "The shards' run records: files or run ids.", repeating: true, optional: false),
        examples: ["reqrun merge shards/*/*.jsonl --report junit=results.xml",
                   "reqrun merge 20261201-101500-123-4f2a 20261201-101500-456-9c1b"]
    ), run: run)

    static func run(_ arguments: ParsedArguments, _ standard: Terminal) throws -> ExitCode {
        let reports = try ReportRequest.parseAll(arguments, command: command.spec)
        guard !arguments.positionals.isEmpty else {
            throw UsageError(message: "give the run records of the shards to merge (files or run ids)", command: command.spec)
        }
        let terminal = reports.contains(where: \.toStandardOutput) ? standard.onStandardError() : standard
        let workspace = try WorkspaceContext.locate(arguments)
        let runs = RunStore(directory: workspace.runsDirectory)
        // Each shard is read a result at a time (its head first, to check them all before writing).
        let readers = try arguments.positionals.map { try runs.open(idOrFile: $0) }
        let parts = zip(arguments.positionals, readers).map { ShardMerge.Part(source: $0, head: $1.head, resultCount: $1.head.summary.total, complete: $1.complete) }
        let plan = try ShardMerge.plan(parts, id: RunID.make(Date()), workspace: workspace.root.path)
        for report in reports { try report.createFolder() }
        let context = WorkspaceContext(workspace: workspace, collections: [], fileRoots: workspace.fileRoots(allowing: []))
        let keep = try context.historyLimit(terminal)
        let (record, file) = try ShardMerge.write(plan, from: readers, to: runs)
        // Pruned once the merged run is saved, not before as `run` makes room: a part found short while it is
        // joined saves nothing, and must not cost the oldest record either.
        try runs.prune(keep: keep, sparing: record.id)
        terminal.line(ResultLines.summary(record.summary) + " in \(parts.count) \(parts.count == 1 ? "shard" : "shards")")
        terminal.line(terminal.styled("run \(record.id) merged from \(parts.map { Terminal.sanitized($0.record.id) }.joined(separator: ", ")) recorded in \(workspace.displayPath(file))", .dim))
        let reportsWritten = try reports.isEmpty || ReportRequest.writeAll(reports, try runs.open(record.id), terminal, standard)
        if record.summary.errors > 0 { return .requestError }
        if record.summary.failed > 0 { return .expectationFailed }
        return reportsWritten ? .success : .ioError
    }
}
