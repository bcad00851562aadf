import Foundation
import ReqRunKit

/// `reqrun show [RUN]`: one run record, as text or JSON.
enum ShowCommand {
    static let command = Command(spec: CommandSpec(
        name: "show",
        abstract: "Show a recorded run (default: the last).",
        options: [.init(name: "--json", valueName: nil, help: "Print the run record as stored."), .workspace],
        positional: .init(name: "RUN", help: "A run id or a unique prefix of one (see 'reqrun history').",
                          repeating: false, optional: true)
    ), run: run)

    static func run(_ arguments: ParsedArguments, _ terminal: Terminal) throws -> ExitCode {
        let workspace = try WorkspaceContext.locate(arguments)
        let record = try RunStore(directory: workspace.runsDirectory).load(arguments.positionals.first)
        if arguments.flag("--json") {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            terminal.out(String(decoding: try encoder.encode(record), as: UTF8.self) + "\n")
            return .success
        }
        terminal.line(terminal.styled("run \(record.id)", .bold) + "  \(record.startedAt) → \(record.endedAt)  selection: \(record.selection.mode)")
        for result in record.results {
            terminal.line()
            terminal.line(ResultLines.lines(result, terminal))
            terminal.line("  " + terminal.styled((["\(result.collection)"] + result.groupPath + [result.name]).map { Terminal.sanitized($0) }
                .joined(separator: " › "), .dim))
            if let timings = result.timings {
                terminal.line("  timings (ms): namelookup \(ms(timings.namelookup))  connect \(ms(timings.connect))  "
                              + "appconnect \(ms(timings.appconnect))  pretransfer \(ms(timings.pretransfer))  "
                              + "starttransfer \(ms(timings.starttransfer))  total \(ms(timings.total))")
            }
            guard let response = result.response else { continue }
            terminal.line("  HTTP/\(response.httpVersion) \(response.status)  from \(response.remoteAddress ?? "?"):\(response.remotePort.map(String.init) ?? "?")")
            for header in response.headers {
                terminal.line("  " + Terminal.sanitized("\(header.name): \(header.value)"))
            }
            terminal.line("  body: \(response.bodySize) bytes, sha256 \(response.bodySHA256)")
            if response.body.encoding == "utf8", !response.body.data.isEmpty {
                let text = Terminal.sanitized(response.body.data, multiline: true)
                terminal.line(text.split(separator: "\n", omittingEmptySubsequences: false).map { "  | \($0)" }.joined(separator: "\n"))
                if response.body.truncated { terminal.line("  | … (\(RunRecord.bodyLimit) of \(response.bodySize) bytes kept)") }
            } else if response.body.encoding == "base64" {
                terminal.line("  (binary content: the record keeps it as base64)")
            }
        }
        terminal.line()
        terminal.line(ResultLines.summary(record.summary))
        return .success
    }

    private static func ms(_ microseconds: Int) -> String { String(format: "%.1f", Double(microseconds) / 1000) }
}
