import Foundation
import ReqRunKit

/// `run`'s data-driven options, as Newman's `-n`, `-d` and `-g` (also their short spellings here): `--iterations N`, `--iteration-data FILE`
/// (CSV with a header row or a JSON array of objects), `--globals FILE` (a Postman globals export).
enum RunIterations {
    static let options: [CommandSpec.Option] = [
        .init(name: "--iteration-data", valueName: "FILE", help: "Run the selection once per row of FILE (CSV with a header row, or a JSON array of objects).", short: "-d"),
        .init(name: "--iterations", valueName: "N", help: "Run the selection N times (default: one per data row, else 1).", short: "-n"),
        .init(name: "--globals", valueName: "FILE", help: "Start pm.globals from FILE (a Postman globals export), the lowest variable layer.", short: "-g"),
        .init(name: "--max-requests", valueName: "N", help: "Send at most N requests in the run, then stop with exit 3 (default: 10000 when a script calls setNextRequest; 0: none)."),
    ]

    /// The options' values; files are read relative to the current directory.
    /// - Throws: `UsageError` for a bad `--iterations`, `InputError` for a file that cannot be read or decoded.
    static func runData(_ arguments: ParsedArguments, command: CommandSpec) throws -> RunData {
        var data = RunData()
        if let text = arguments.value("--iterations") {
            guard let count = Int(text), count >= 1, count <= 1_000_000 else {
                throw UsageError(message: "--iterations expects a whole number from 1 to 1000000, got '\(text)'", command: command)
            }
            data.requestedCount = count
        }
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        if let path = arguments.value("--iteration-data") { data.data = try IterationData.load(path, relativeTo: cwd) }
        if let path = arguments.value("--globals") { data.globals = try RunData.loadGlobals(path, relativeTo: cwd) }
        return data
    }

}

/// `Iteration 2/3`, printed before the first result of each iteration of an iterated run (as Newman does).
/// Results come one at a time, in order (`Runner.run`'s `onResult`).
final class IterationHeadings: @unchecked Sendable {
    private let count: Int
    private var previous: Int?

    init(count: Int) { self.count = count }

    /// The heading to print before `result`, or nil.
    func heading(before result: RequestResult) -> String? {
        guard let iteration = result.iteration, iteration != previous else { return nil }
        previous = iteration
        return "\(iteration == 0 ? "" : "\n")Iteration \(iteration + 1)/\(count)"
    }
}
