import Foundation
import ReqRunKit

/// One line of the right pane: escaped text and how it is drawn.
struct StyledLine {
    var text: String
    var style: Screen.Style

    init(_ text: String, _ style: Screen.Style = .plain) {
        self.text = text
        self.style = style
    }
}

/// What the right pane shows, as lines (escaped: every text from a collection, a record or a server goes
/// through `escapingTerminalControls`).
enum DetailLines {
    /// The selected request as it would be sent: method and URL with variables resolved, header fields,
    /// content, auth kind (`DryRunEntry.plan`, secrets masked), then its expectations. `carried`: the values
    /// earlier runs captured that `configuration` holds (`EarlierCaptures.carry`), each said where it is from.
    static func request(_ reference: RequestReference, _ configuration: RunConfiguration, carried: [CapturedValue] = []) -> [StyledLine] {
        let entry = DryRunEntry.plan([reference], configuration: configuration)[0]
        var lines = [StyledLine("\(entry.method) \(entry.url)".escapingTerminalControls(), .bold),
                     StyledLine(([reference.collectionName] + reference.groupPath + [reference.request.name])
                        .map { $0.escapingTerminalControls() }.joined(separator: " › "), .dim)]
        lines += carried.map { StyledLine($0.origin.escapingTerminalControls(), .dim) }
        if let error = entry.error {
            lines.append(StyledLine((entry.skipped == true ? "not sent: " : "cannot be sent: ") + error.escapingTerminalControls(),
                                    entry.skipped == true ? .dim : .red))
        }
        lines.append(StyledLine("auth: " + authKind(reference.effectiveAuth) + (entry.transferAuth.map { " (\($0.escapingTerminalControls()))" } ?? "")))
        lines.append(StyledLine(""))
        lines.append(StyledLine("Header fields", .bold))
        let headers = entry.headers ?? reference.request.headers
        if headers.isEmpty { lines.append(StyledLine("  (none)", .dim)) }
        for header in headers { lines.append(StyledLine("  " + "\(header.name): \(header.value)".escapingTerminalControls())) }
        if let body = entry.body {
            lines.append(StyledLine(""))
            lines.append(StyledLine("Body", .bold))
            if let text = body.text {
                lines += DisplayText.lines(PrettyJSON.format(text) ?? text).map { StyledLine("  " + $0) }
            } else if let file = body.file {
                lines.append(StyledLine("  (the file \(file.escapingTerminalControls()))"))
            } else if let parts = body.parts {
                for part in parts {
                    lines.append(StyledLine("  " + "\(part.name) = \(part.value ?? part.file.map { "@\($0)" } ?? "")".escapingTerminalControls()))
                }
            } else if body.base64 != nil {
                lines.append(StyledLine("  (binary content)", .dim))
            }
        }
        if !reference.request.expectations.isEmpty {
            lines.append(StyledLine(""))
            lines.append(StyledLine("Expectations", .bold))
            lines.append(StyledLine("  \(reference.request.expectations.count) to check on the response", .dim))
        }
        lines.append(StyledLine(""))
        lines.append(StyledLine("Enter sends it · c curl command · h earlier results", .dim))
        return lines
    }

    /// `none`, `basic`, `bearer`, `API key`, `digest`, `AWS Signature v4`, `OAuth 1.0a`, `Hawk`, `NTLM`,
    /// `OAuth 2.0`, `JWT`, `ASAP`, `Akamai EdgeGrid`.
    static func authKind(_ auth: Auth?) -> String {
        switch auth {
        case nil, .none?: return "none"
        case .basic?: return "basic"
        case .bearer?: return "bearer"
        case .apiKey(_, _, let inQuery)?: return inQuery ? "API key (query)" : "API key (header field)"
        case .digest?: return "digest"
        case .awsSigV4?: return "AWS Signature v4"
        case .oauth1?: return "OAuth 1.0a"
        case .hawk?: return "Hawk"
        case .ntlm?: return "NTLM"
        case .oauth2?: return "OAuth 2.0"
        case .jwt?: return "JWT"
        case .asap?: return "ASAP"
        case .edgegrid?: return "Akamai EdgeGrid"
        }
    }

    /// A response: status line, time and size, failed expectations and captures, header fields, the body
    /// (JSON indented), the record it went into.
    static func response(_ result: RequestResult, recordedAs runID: String?) -> [StyledLine] {
        var lines = [StyledLine("\(result.method) \(result.url)".escapingTerminalControls(), .bold)]
        if let response = result.response {
            let style: Screen.Style = response.status >= 400 ? .yellow : .green
            lines.append(StyledLine("\(response.status) \(response.reasonPhrase)".escapingTerminalControls()
                                    + "  \(milliseconds(result.timings?.total ?? 0))  \(bytes(response.bodySize))  HTTP/\(response.httpVersion.escapingTerminalControls())"
                                    + (result.redirects.isEmpty ? "" : "  ↪ \(result.redirects.count) redirect\(result.redirects.count == 1 ? "" : "s")"),
                                    style))
            lines.append(StyledLine(result.passed ? "✓ passed" : "✗ failed", result.passed ? .green : .red))
        } else {
            lines.append(StyledLine((result.outcome == .skipped ? "skipped: " : "✗ ") + (result.error?.message ?? "no response").escapingTerminalControls(),
                                    result.outcome == .skipped ? .dim : .red))
        }
        for expectation in result.expectations where !expectation.passed {
            lines.append(StyledLine("  ✗ " + expectation.description.escapingTerminalControls(), .red))
            lines.append(StyledLine("      expected: " + expectation.expected.escapingTerminalControls()))
            lines.append(StyledLine("      actual:   " + expectation.actual.escapingTerminalControls()))
        }
        for capture in result.captures { if let error = capture.error { lines.append(StyledLine("  ✗ " + error.escapingTerminalControls(), .red)) } }
        if let response = result.response {
            lines.append(StyledLine(""))
            lines.append(StyledLine("Header fields", .bold))
            for header in response.headers { lines.append(StyledLine("  " + "\(header.name): \(header.value)".escapingTerminalControls())) }
            lines.append(StyledLine(""))
            lines.append(StyledLine("Body (\(bytes(response.bodySize)))", .bold))
            if let text = response.body.displayText {
                lines += DisplayText.lines(PrettyJSON.format(text) ?? text).map { StyledLine("  " + $0) }
                if response.body.truncated { lines.append(StyledLine("  … (the record keeps the first \(RunRecord.bodyLimit) bytes)", .dim)) }
            } else {
                lines.append(StyledLine("  (binary content, \(bytes(response.bodySize)): the record keeps it as base64)", .dim))
            }
        }
        if let runID { lines += [StyledLine(""), StyledLine("recorded as run \(runID.escapingTerminalControls()) (reqrun show \(runID.escapingTerminalControls()))", .dim)] }
        return lines
    }

    /// One line per result: `✓ GET url  200  12 ms  312 B`.
    static func resultLine(_ result: RequestResult) -> StyledLine {
        let head = "\(result.method) \(result.url)".escapingTerminalControls()
        switch result.outcome {
        case .response,
             .scriptError where result.response != nil:
            let response = result.response!
            let error = result.outcome == .scriptError ? "  " + (result.error?.message ?? "").escapingTerminalControls() : ""
            return StyledLine("\(result.passed ? "✓" : "✗") \(head)  \(response.status)  \(milliseconds(result.timings?.total ?? 0))  \(bytes(response.bodySize))" + error,
                              result.passed ? .green : .red)
        case .skipped, .notRun:
            return StyledLine("- \(head)  " + (result.error?.message ?? "").escapingTerminalControls(), .dim)
        case .transportError, .invalid, .scriptError:
            return StyledLine("✗ \(head)  " + (result.error?.message ?? "").escapingTerminalControls(), .red)
        }
    }

    /// Earlier results of `reference` in the run records, newest first (at most `limit` records read).
    static func history(_ reference: RequestReference, workspace: Workspace) -> [StyledLine] {
        var lines = [StyledLine("Earlier results of " + reference.request.name.escapingTerminalControls(), .bold)]
        let store = RunStore(directory: workspace.runsDirectory)
        let ids = (try? store.ids()) ?? []
        var found = 0
        for id in ids {
            // A result at a time: a long run's record is never whole in memory.
            guard let record = try? store.open(id) else { continue }
            for result in record.results() where result.collection == reference.collectionName && result.groupPath == reference.groupPath
                && result.name == reference.request.name {
                var line = resultLine(result)
                line.text = "\(record.head.startedAt.escapingTerminalControls())  " + line.text
                lines.append(line)
                found += 1
            }
        }
        if found == 0 { lines.append(StyledLine(ids.isEmpty ? "No runs recorded yet." : "Not in the \(ids.count) recorded runs.", .dim)) }
        return lines
    }

    static let help: [StyledLine] = [
        StyledLine("Keys", .bold),
        StyledLine("  ↑ ↓  k j     move (in the right pane: scroll)"),
        StyledLine("  →            expand a collapsed group, or move to its first row"),
        StyledLine("  ←            collapse an expanded group, or move to the group above"),
        StyledLine("  Space        expand or collapse (saved at once, as 'reqrun expand' does)"),
        StyledLine("  Enter        send the request (recorded as a run)"),
        StyledLine("  Esc          cancel the send in flight; clear the filter"),
        StyledLine("  Tab          switch between the tree and the right pane"),
        StyledLine("  PgUp PgDn    page up and down"),
        StyledLine("  /            filter the tree by name (Enter keeps it, Esc clears it)"),
        StyledLine("  r            run every visible request (reqrun run --expanded)"),
        StyledLine("  e            choose the environment (saved as 'reqrun env use')"),
        StyledLine("  h            this request's earlier results from the run records"),
        StyledLine("  c            the equivalent curl command (reqrun show --curl)"),
        StyledLine("  ?            these keys"),
        StyledLine("  q            quit"),
    ]

    static func milliseconds(_ microseconds: Int) -> String {
        microseconds < 1000 ? "\(Double(microseconds / 100) / 10) ms" : "\(microseconds / 1000) ms"
    }

    static func bytes(_ count: Int) -> String {
        count < 1024 ? "\(count) B" : count < 1_048_576 ? "\((Double(count) / 102.4).rounded() / 10) KiB" : "\((Double(count) / 104_857.6).rounded() / 10) MiB"
    }
}
