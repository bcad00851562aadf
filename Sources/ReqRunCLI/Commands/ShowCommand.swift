import Foundation
import ReqRunKit

/// `reqrun show [RUN]`: one run record, as text or JSON.
enum ShowCommand {
    static let command = Command(spec: CommandSpec(
        name: "show",
        abstract: "Show a recorded run (default: the last), or with --curl an equivalent curl command for a request.",
        discussion: """
            --curl REQUEST prints a shell-quoted curl command that sends what 'reqrun run' would send for one
            request (variables resolved, auth applied, default options), to paste into a bug report. REQUEST is the
            request's list index (#3), its path (Group/Sub/Name, optionally starting with the collection name) or its
            name. Secrets show as **** unless --show-secrets.
            """,
        options: [.init(name: "--json", valueName: nil, help: "Print the run record as one JSON document (format 1's shape, whichever format its file has)."),
                  .init(name: "--failed", valueName: nil, help: "Only the requests that failed: a missed check, an error or a script error."),
                  .init(name: "--curl", valueName: "REQUEST", help: "Print an equivalent curl command for this request instead."),
                  .init(name: "--var", valueName: "NAME=VALUE", help: "With --curl: set a variable.", repeatable: true),
                  .init(name: "--env", valueName: "NAME|FILE", help: "With --curl: the environment to use.", short: "-e"),
                  .init(name: "--show-secrets", valueName: nil, help: "With --curl: print secrets instead of ****."),
                  .allowEnv,
                  .workspace, .collection, .fileRoot],
        positional: .init(name: "RUN", help: "A run id or a unique prefix of one (see 'reqrun history').",
                          repeating: false, optional: true)
    ), run: run)

    static func run(_ arguments: ParsedArguments, _ terminal: Terminal) throws -> ExitCode {
        if let target = arguments.value("--curl") {
            guard arguments.positionals.isEmpty else {
                throw UsageError(message: "give either RUN or --curl REQUEST, not both", command: command.spec)
            }
            return try curl(target, arguments, terminal)
        }
        let workspace = try WorkspaceContext.locate(arguments)
        // Read a result at a time: a 100,000-request record is never whole in memory.
        let reader = try RunStore(directory: workspace.runsDirectory).open(arguments.positionals.first)
        let record = reader.head
        let failedOnly = arguments.flag("--failed")
        if arguments.flag("--json") {
            let results = reader.results(failedOnly: failedOnly)
            var head = record
            head.format = 1
            head.writeJSON(results: results, to: terminal.outBytes)
            if let error = results.error { throw error }
            return .success
        }
        // A record is a file like any other (a cloned repository can carry one): its text is escaped too.
        let safe = { (text: String) in Terminal.sanitized(text) }
        terminal.line(terminal.styled("run \(safe(record.id))", .bold) + "  \(safe(record.startedAt)) → \(safe(record.endedAt.isEmpty ? "?" : record.endedAt))  selection: \(safe(HistoryCommand.selection(record)))"
                      + (reader.complete ? "" : "  (incomplete: the run ended without its summary)"))
        // What was sent is not printed: not decoded either.
        let results = reader.results(failedOnly: failedOnly, sent: false)
        // The results' lines go into one byte buffer, written out every 64 KiB (and before an error is thrown):
        // not a locked append to the output per result, nor a `String` appended piece by piece (`String`'s
        // appends were a fifth of `show`'s instructions, callgrind).
        var text: [UInt8] = []
        text.reserveCapacity(1 << 17)
        func flush(atLeast limit: Int) {
            guard text.count >= limit else { return }
            text.withUnsafeBytes { terminal.outBytes($0) }
            text.removeAll(keepingCapacity: true)
        }
        defer { flush(atLeast: 0) }
        func put(_ part: String) { text.append(contentsOf: part.utf8) }
        func putSafe(_ part: String) { text.append(contentsOf: Terminal.sanitized(part).utf8) }
        func line(_ part: String = "") {
            put(part)
            text.append(0x0A)
        }
        let (dim, plain) = terminal.colorOut ? ("\u{1B}[\(Terminal.Style.dim.rawValue)m", "\u{1B}[0m") : ("", "")  // `styled(_, .dim)`
        while let result = try results.nextResult() {
            flush(atLeast: 1 << 16)
            line()
            line(ResultLines.lines(result, terminal))
            put("  ")
            put(dim)
            putSafe(result.collection)
            for part in result.groupPath {
                put(" › ")
                putSafe(part)
            }
            put(" › ")
            putSafe(result.name)
            if let iteration = result.iteration {
                put("  (iteration ")
                put(String(iteration + 1))
                put(")")
            }
            line(plain)
            if let timings = result.timings {
                line("  " + VerboseExchange.timingsLine(timings))
            }
            guard let response = result.response else { continue }
            put("  HTTP/")
            putSafe(response.httpVersion)
            put(" ")
            put(String(response.status))
            put("  from ")
            putSafe(response.remoteAddress ?? "?")
            put(":")
            line(response.remotePort.map(String.init) ?? "?")
            for header in response.headers {
                // Escaping is scalar by scalar: the name and value escaped apart are the line escaped whole.
                put("  ")
                putSafe(header.name)
                put(": ")
                putSafe(header.value)
                text.append(0x0A)
            }
            put("  body: ")
            put(String(response.bodySize))
            put(" bytes, sha256 ")
            putSafe(response.bodySHA256)
            text.append(0x0A)
            if let decoded = response.body.displayText, !decoded.isEmpty {
                // Each line of the body after `  | `; a line feed is one character of its own (a carriage
                // return before it is escaped), so splitting the bytes splits the characters.
                put("  | ")
                var body = Terminal.sanitized(decoded, multiline: true)
                body.withUTF8 { bytes in
                    var rest = bytes[...]
                    while let feed = rest.firstIndex(of: 0x0A) {
                        text.append(contentsOf: rest[...feed])
                        put("  | ")
                        rest = rest[(feed + 1)...]
                    }
                    text.append(contentsOf: rest)
                }
                text.append(0x0A)
                if response.body.truncated { line("  | … (\(RunRecord.bodyLimit) of \(response.bodySize) bytes kept)") }
            } else if response.body.encoding == "base64" {
                line("  (binary content: the record keeps it as base64)")
            }
            if let webSocket = result.webSocket { line(conversation(webSocket)) }
        }
        flush(atLeast: 0)
        terminal.line()
        terminal.line(ResultLines.summary(record.summary))
        return .success
    }

    /// `--curl REQUEST`: the request prepared exactly as `run` would, as a curl command line.
    private static func curl(_ target: String, _ arguments: ParsedArguments, _ terminal: Terminal) throws -> ExitCode {
        let overrides = try RunCommand.parseVariables(arguments.all("--var"))
        // As `send`: a request of a collection that loads is shown beside one that does not (a warning each).
        let context = try WorkspaceContext.load(arguments, keepingBroken: true, scriptsNotice: .notRun(command: "show --curl"))
        let environment = try context.environment(arguments.value("--env"), terminal)
        let outline = Outline(collections: context.collections, expansion: .transient(Outline.allGroupIDs(context.collections)))
        let reference = try context.resolving(terminal) { try RequestResolver.resolve(target, in: outline) }
        let configuration = RunConfiguration(selection: RunSelection(mode: "all"), environment: environment, overrides: overrides,
                                             processEnvironment: RunCommand.readableEnvironment(arguments, [reference], environment, overrides),
                                             showSecrets: arguments.flag("--show-secrets"))
        switch CurlCommand.commandLine(for: reference, configuration: configuration) {
        case .failure(.webSocket):
            terminal.error("'\(Terminal.sanitized(reference.request.name))' \(CurlCommand.Refusal.webSocket)")
            return .requestError
        case .failure(.preparation(let message, let name)):
            terminal.error("cannot build request '\(Terminal.sanitized(name))': \(message)")
            return .requestError
        case .success(let line):
            terminal.line(line)
            return .success
        }
    }

    /// A WebSocket conversation, one line per frame: `  → 4.6 ms text 5 B  hello` (`←` received), data
    /// escaped and cut at 200 characters.
    private static func conversation(_ record: WebSocketRecord) -> String {
        var lines = record.messages.map { message in
            let arrow = message.direction == "send" ? "→" : "←"
            var line = String(format: "  %@ %.1f ms %@ %d B", arrow, message.offset, Terminal.sanitized(message.type), message.size)
            if let code = message.closeCode { line += " \(code)" }
            let data = message.data.encoding == "base64" ? "base64 " + message.data.data : message.data.data
            if !data.isEmpty { line += "  " + Terminal.sanitized(data.count > 200 ? String(data.prefix(200)) + "…" : data) }
            return line
        }
        if record.omitted > 0 { lines.append("  … \(record.omitted) more messages not recorded") }
        return lines.joined(separator: "\n")
    }

    private static func ms(_ microseconds: Int) -> String { String(format: "%.1f", Double(microseconds) / 1000) }
}
