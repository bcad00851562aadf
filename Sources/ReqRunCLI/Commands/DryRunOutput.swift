import Foundation
import ReqRunKit

/// `reqrun run --dry-run [--json]`: prints, for each selected request, exactly what would be sent (method,
/// URL, header fields, content) without sending anything or recording a run.
enum DryRunOutput {
    /// Exit code 0 when every request could be prepared (skipped schemes included), 3 when one could not
    /// (an undefined variable…), as a real run would.
    static func run(_ references: [RequestReference], _ configuration: RunConfiguration, scripting: RequestScripting?, json: Bool,
                    _ terminal: Terminal) throws -> ExitCode {
        let entries = DryRunEntry.plan(references, configuration: configuration, scripting: scripting)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            terminal.out(String(decoding: try encoder.encode(entries), as: UTF8.self) + "\n")
        } else {
            for entry in entries { terminal.out(text(entry, terminal)) }
            let failed = entries.filter { $0.error != nil && $0.skipped != true }.count
            terminal.line("\(entries.count) request\(entries.count == 1 ? "" : "s") planned, \(failed) could not be prepared; nothing was sent")
        }
        return entries.contains { $0.error != nil && $0.skipped != true } ? .requestError : .success
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
