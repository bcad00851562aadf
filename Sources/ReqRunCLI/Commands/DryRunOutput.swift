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
    /// `[.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]`, byte for byte (`DryRunEntry.write`).
    static func run(_ references: some Collection<RequestReference>, _ configuration: RunConfiguration, scripting: RequestScripting?, json: Bool,
                    _ terminal: Terminal) throws -> ExitCode {
        var planner = DryRunEntry.Planner(configuration: configuration, scripting: scripting)
        var failed = 0
        func next(_ reference: RequestReference) -> DryRunEntry {
            let entry = planner.entry(for: reference)
            if entry.error != nil, entry.skipped != true { failed += 1 }
            return entry
        }
        if json {
            var w = JSONWriter(encoderLayout: true, sink: terminal.outBytes)
            w.array(references) { w, reference in next(reference).write(&w) }
            w.finishToSink()
        } else {
            for reference in references { terminal.out(text(next(reference), terminal)) }
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

extension DryRunEntry {
    /// The entry as `JSONEncoder` encoded it (`Codable`, keys sorted, nil fields left out) into `w`, a writer
    /// in `encoderLayout`; the keys below are in that sorted order.
    func write(_ w: inout JSONWriter) {
        w.object { w in
            if let body {
                w.field("body", object: { w in
                    w.field("base64", body.base64)
                    w.field("file", body.file)
                    if let parts = body.parts {
                        w.field("parts", parts) { w, part in
                            w.object { w in
                                w.field("contentType", part.contentType)
                                w.field("file", part.file)
                                w.field("name", part.name)
                                w.field("value", part.value)
                            }
                        }
                    }
                    w.field("text", body.text)
                })
            }
            w.field("collection", collection)
            if let console { w.field("console", console) { w, line in w.string(line) } }
            w.field("error", error)
            w.field("groupPath", groupPath) { w, name in w.string(name) }
            if let headers {
                w.field("headers", headers) { w, header in
                    w.object { w in
                        w.field("name", header.name)
                        w.field("value", header.value)
                        w.field("valueBase64", header.valueBase64)
                    }
                }
            }
            w.field("index", index)
            w.field("method", method)
            w.field("name", name)
            if let skipped { w.field("skipped", skipped) }
            w.field("transferAuth", transferAuth)
            w.field("url", url)
        }
    }
}
