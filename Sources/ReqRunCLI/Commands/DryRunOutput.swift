import Foundation
import ReqRunKit

/// `reqrun run --dry-run [--json]`: prints, for each selected request, exactly what would be sent (method,
/// URL, header fields, content) without sending anything or recording a run.
enum DryRunOutput {
    /// Exit code 0 when every request could be prepared (skipped schemes included), 3 when one could not
    /// (an undefined variable…), as a real run would.
    ///
    /// Each entry is printed as soon as it is planned and then dropped, so what the dry run holds beyond the
    /// selection is one entry and a 64 KiB output buffer: a JSON document of 1,000,000 entries built whole,
    /// as `JSONEncoder` did, took 2.9 GB (issue 17). The JSON is the one `JSONEncoder` wrote with
    /// `[.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]`, byte for byte (`DryRunEntry.Planner.writeJSON`).
    static func run(_ references: RequestSelection, _ configuration: RunConfiguration, scripting: RequestScripting?, json: Bool,
                    _ terminal: Terminal) throws -> ExitCode {
        var planner = DryRunEntry.Planner(configuration: configuration, scripting: scripting)
        var failed = 0
        if json {
            // Planned on two threads without scripts (the output in order, the same bytes: `DryRunChunks`).
            failed = planner.writeJSON(references, threads: min(2, ProcessInfo.processInfo.activeProcessorCount), to: terminal.outBytes)
        } else {
            for reference in references {
                let entry = planner.entry(for: reference)
                if entry.error != nil, entry.skipped != true { failed += 1 }
                terminal.out(text(entry, terminal))
            }
            terminal.line("\(references.count) request\(references.count == 1 ? "" : "s") planned, \(failed) could not be prepared; nothing was sent")
        }
        return failed > 0 ? .requestError : .success
    }

    /// `# Collection / Group / name`, the request line and header fields as on the wire, a blank line, the content.
    static func text(_ entry: DryRunEntry, _ terminal: Terminal) -> String {
        var out = terminal.styled("# " + Terminal.sanitized(([entry.collection] + entry.groupPath + [entry.name]).joined(separator: " / ")), .dim) + "\n"
        for line in entry.console ?? [] { out += terminal.styled("│ " + Terminal.sanitized(line), .dim) + "\n" }
        if let error = entry.error {
            let label = entry.skipped == true ? "skipped" : "not sent"
            return out + "\(Terminal.sanitized(entry.method)) \(Terminal.sanitized(entry.url))\n" + terminal.styled("\(label): \(Terminal.sanitized(error))", .red) + "\n\n"
        }
        out += "\(Terminal.sanitized(entry.method)) \(Terminal.sanitized(entry.url))\n"
        for header in entry.headers ?? [] { out += "\(Terminal.sanitized(header.name)): \(Terminal.sanitized(header.value))\n" }
        if let auth = entry.transferAuth { out += terminal.styled("(auth: \(Terminal.sanitized(auth)))", .dim) + "\n" }
        if let body = entry.body {
            out += "\n"
            if let text = body.text { out += Terminal.sanitized(text, multiline: true) + "\n" }
            if let base64 = body.base64 { out += "(binary content, base64) \(base64)\n" }
            if let file = body.file { out += "(content of the file \(Terminal.sanitized(file)))\n" }
            for part in body.parts ?? [] {
                var line = "(part \(Terminal.sanitized(part.name))"
                if let type = part.contentType { line += ", \(Terminal.sanitized(type))" }
                line += ") " + (part.value.map { Terminal.sanitized($0, multiline: true) } ?? "file \(Terminal.sanitized(part.file ?? ""))")
                out += line + "\n"
            }
        }
        return out + "\n"
    }
}
