import Foundation
import ReqRunKit

/// `reqrun run (--expanded | --all | GROUP...)`: send requests and record the run.
enum RunCommand {
    static let command = Command(spec: CommandSpec(
        name: "run",
        abstract: "Send requests through libcurl and record the run in .reqrun/runs/.",
        discussion: """
            Choose what to run: --expanded runs the visible requests (every group above them expanded) in list
            order; GROUP... runs every request in and below those groups whatever is expanded; --all runs every
            request. {{name}} in URL, header fields, body and expectations is replaced from, highest first: captures
            made earlier in the run, --var, the environment, group variables, collection variables. A request with
            an undefined variable fails before anything is sent. Only http and https are sent: other schemes
            (wss://, ftp://, file://) are recorded as skipped and do not fail the run.

            Exit codes: 0 every request passed, 1 an expectation or capture failed, 3 a request could not be sent
            or got no response, a script failed or --max-requests stopped the run (wins over 1), 2 bad input, 64 usage, 74 a file could not be written, 130 Ctrl-C and
            143 SIGTERM (the run record is still written).
            """,
        options: [
            .init(name: "--expanded", valueName: nil, help: "Run the visible requests."),
            .init(name: "--all", valueName: nil, help: "Run every request."),
            .init(name: "--var", valueName: "NAME=VALUE", help: "Set a variable, over the environment's and collection's values.", repeatable: true),
            .init(name: "--env", valueName: "NAME|FILE", help: "Use environments/NAME.json or FILE for this run (default: the one saved with 'reqrun env use')."),
            .allowEnv,
            .init(name: "--report", valueName: "KIND=FILE", help: "Also write a report: junit, json, har or html (FILE - for standard output).", repeatable: true),
            .init(name: "--show-secrets", valueName: nil, help: "Show and record secrets instead of ****."),
            .init(name: "--timeout", valueName: "SECONDS", help: "Limit for each whole request (default: 30; 0: none)."),
            .init(name: "--connect-timeout", valueName: "SECONDS", help: "Limit for connecting (default: 10)."),
            .init(name: "--max-size", valueName: "BYTES", help: "Limit for each response body once decoded; K, M, G suffixes (default: 1G; 0: none)."),
            .init(name: "--no-follow", valueName: nil, help: "Do not follow redirects."),
            .init(name: "--max-redirs", valueName: "N", help: "Follow at most N redirects per request (default: 10)."),
            .init(name: "--location-trusted", valueName: nil, help: "Send credentials to other hosts on redirects too."),
            .init(name: "--retry", valueName: "N", help: "Send a request up to N more times after a transport error or a 502/503/504."),
            .init(name: "--delay", valueName: "MS", help: "Start each request MS milliseconds after the one before it started (one at a time only)."),
            .init(name: "--bail", valueName: nil, help: "Stop at the first failed request; the rest are recorded as not run."),
            .init(name: "--parallel", valueName: "N", help: "Keep up to N requests in flight (default: 1, one after another)."),
            .init(name: "--cookie-jar", valueName: "FILE", help: "Load cookies from FILE (Netscape format) and save them there after the run."),
            .init(name: "--insecure", valueName: nil, help: "Do not verify TLS certificates (like curl -k)."),
            .init(name: "--cacert", valueName: "FILE", help: "Verify TLS servers with the CA certificates in FILE (PEM)."),
            .init(name: "--cert", valueName: "FILE", help: "TLS client certificate (PEM)."),
            .init(name: "--key", valueName: "FILE", help: "TLS client key (PEM)."),
            .init(name: "--proxy", valueName: "URL", help: "Send every request through this proxy (default: http_proxy, https_proxy, no_proxy)."),
            .init(name: "--http1.1", valueName: nil, help: "Use HTTP/1.1 only."),
            .init(name: "--http2", valueName: nil, help: "Use HTTP/2 (over TLS; with prior knowledge over plain HTTP)."),
            .init(name: "--export-environment", valueName: "FILE", help: "After the run, write the environment with the values scripts set (Postman format)."),
            .init(name: "--export-globals", valueName: "FILE", help: "After the run, write the globals scripts set (Postman format)."),
            .init(name: "--script-timeout", valueName: "SECONDS", help: "Stop a Postman script that runs longer (default: 5; 0: no limit)."),
            .init(name: "--dry-run", valueName: nil, help: "Print what each request would send (method, URL, header fields, content); send nothing."),
            .init(name: "--json", valueName: nil, help: "With --dry-run: print the requests as JSON."),
            .workspace, .collection, .fileRoot,
        ] + RunIterations.options,
        positional: .init(name: "GROUP", help: "Groups whose requests to run (name, Parent/Child path, id or id prefix).",
                          repeating: true, optional: true),
        examples: ["reqrun run --expanded --var httpbin=http://127.0.0.1:8080", "reqrun run httpbin.org",
                   "reqrun run --all --env staging --report junit=results.xml --report html=report.html"]
    ), run: run)

    static func run(_ arguments: ParsedArguments, _ standard: Terminal) throws -> ExitCode {
        let reports = try arguments.all("--report").map(ReportRequest.parse)
        guard reports.filter(\.toStandardOutput).count <= 1 else {
            throw UsageError(message: "only one --report can go to standard output (-)", command: command.spec)
        }
        // A report on standard output gets it to itself: the console lines go to standard error.
        let terminal = reports.contains(where: \.toStandardOutput) && !arguments.flag("--dry-run") ? standard.onStandardError() : standard
        let modes = [arguments.flag("--expanded"), arguments.flag("--all"), !arguments.positionals.isEmpty].filter { $0 }
        guard modes.count == 1 else {
            throw UsageError(message: modes.isEmpty ? "say what to run: --expanded, --all or GROUP..."
                                                    : "give only one of --expanded, --all or GROUP...", command: command.spec)
        }
        let overrides = try parseVariables(arguments.all("--var"))
        let parallelText = arguments.value("--parallel")
        guard parallelText.map({ Int($0).map { $0 >= 1 } ?? false }) ?? true else {
            throw UsageError(message: "--parallel expects a whole number of 1 or more, got '\(parallelText!)'", command: command.spec)
        }
        let parallel = parallelText.flatMap { Int($0) } ?? 1
        if arguments.flag("--json"), !arguments.flag("--dry-run") {
            throw UsageError(message: "--json goes with --dry-run (the run record is JSON already: see 'reqrun show --json')", command: command.spec)
        }
        if let jar = arguments.value("--cookie-jar") { try CookieJarCheck.check(jar) }
        if parallel > 1, arguments.value("--delay") != nil {
            throw UsageError(message: "--delay paces requests one after another; it cannot be combined with --parallel", command: command.spec)
        }
        let scriptTimeLimit = try RunScripting.timeLimit(arguments.value("--script-timeout"), command: command.spec)
        let runData = try RunIterations.runData(arguments, command: command.spec)
        // A report folder that cannot be made fails the run before anything is sent.
        if !arguments.flag("--dry-run") {
            for report in reports { try report.createFolder() }
            HTTPExecutor.prepareInBackground()
        }
        defer { HTTPExecutor.awaitPreparation() }
        if arguments.flag("--http1.1"), arguments.flag("--http2") {
            throw UsageError(message: "give only one of --http1.1 and --http2", command: command.spec)
        }
        if arguments.flag("--no-follow"), arguments.value("--max-redirs") != nil {
            throw UsageError(message: "give only one of --no-follow and --max-redirs", command: command.spec)
        }
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        let path = { (option: String) in arguments.value(option).map { URL(fileURLWithPath: $0, relativeTo: cwd).standardizedFileURL.path } }
        var options = ExecutorOptions(
            timeoutMilliseconds: try milliseconds(arguments.value("--timeout"), option: "--timeout", default: 30_000),
            connectTimeoutMilliseconds: try milliseconds(arguments.value("--connect-timeout"), option: "--connect-timeout",
                                                         default: 10_000),
            httpVersion: arguments.flag("--http1.1") ? .http1_1 : arguments.flag("--http2") ? .http2 : .automatic,
            insecure: arguments.flag("--insecure"), caFile: path("--cacert"), clientCertificate: path("--cert"),
            clientKey: path("--key"), proxy: arguments.value("--proxy"), cookieJarFile: path("--cookie-jar").map(UserFile.pathForRenamingWriter))
        if let size = arguments.value("--max-size") { options.maxBodySize = try byteCount(size, option: "--max-size") }
        let redirects = RedirectPolicy(follow: !arguments.flag("--no-follow"),
                                       maximum: try count(arguments.value("--max-redirs"), option: "--max-redirs") ?? 10,
                                       trustLocation: arguments.flag("--location-trusted"))
        let context = try WorkspaceContext.load(arguments)
        let environment = try context.environment(arguments.value("--env"), terminal)
        let references: [RequestReference]
        var selection: RunSelection
        if arguments.flag("--all") {
            references = Outline(collections: context.collections, expansion: .transient(Outline.allGroupIDs(context.collections))).allRequests()
            selection = RunSelection(mode: "all")
        } else if arguments.flag("--expanded") {
            references = Outline(collections: context.collections, expansion: .saved(try context.savedExpansion(terminal))).visibleRequests()
            selection = RunSelection(mode: "expanded")
        } else {
            let groups = try GroupResolver.resolve(arguments.positionals, in: context.collections)
            // The named groups run whatever the saved state: a transient expansion of this command only.
            references = Outline(collections: context.collections, expansion: .transient(Set(groups.map(\.group.id))))
                .requests(underGroups: Set(groups.map(\.group.id)))
            selection = RunSelection(mode: "groups", groups: groups.map {
                SelectedGroup(path: $0.displayPath, id: $0.group.id.lowercasedText)
            })
        }
        selection.overriddenVariables = overrides.keys.sorted()
        // A --var that nothing uses is most likely a typo: say so rather than silently use the default.
        // Through the environment's values too: `"et": "{{region}}"` uses a --var region.
        let environmentValues = environment?.variables ?? []
        let used = overrides.isEmpty ? [] : references.reduce(into: Set<String>()) { $0.formUnion($1.referencedVariables(alsoThrough: environmentValues)) }
        for name in overrides.keys.sorted() where !used.contains(name) && !references.isEmpty {
            var message = "--var \(name) is not used by the selected requests"
            if let guess = Suggestion.closest(to: name, among: Array(used)) { message += "; did you mean '\(guess)'?" }
            terminal.warning(message)
        }
        let processEnvironment = readableEnvironment(arguments, references, environment, overrides)
        // Before older records are pruned: a sandbox that cannot start loses nothing.
        let scripting = try RunScripting.sandbox(for: references, timeLimit: scriptTimeLimit, preRequestOnly: arguments.flag("--dry-run"))
        if arguments.flag("--dry-run") {
            var dryRun = RunConfiguration(selection: selection, environment: environment, overrides: overrides,
                                          processEnvironment: processEnvironment, showSecrets: arguments.flag("--show-secrets"))
            dryRun.runData = runData
            return try DryRunOutput.run(references, dryRun,
                scripting: scripting, json: arguments.flag("--json"), terminal)
        }
        if references.isEmpty {
            let hasRequests = context.collections.contains { $0.groups.contains { $0.requestCount > 0 } }
            terminal.line(!hasRequests ? "No requests in this workspace."
                : arguments.flag("--expanded") ? "No visible requests: expand a group with 'reqrun expand GROUP'."
                : "No requests selected.")
        }
        var configuration = RunConfiguration(selection: selection, environment: environment, overrides: overrides,
                                             processEnvironment: processEnvironment, options: options,
                                             showSecrets: arguments.flag("--show-secrets"), redirects: redirects,
                                             retries: try count(arguments.value("--retry"), option: "--retry") ?? 0,
                                             delayMilliseconds: try count(arguments.value("--delay"), option: "--delay") ?? 0,
                                             bail: arguments.flag("--bail"), parallel: parallel)
        configuration.runData = runData
        configuration.maxRequests = try count(arguments.value("--max-requests"), option: "--max-requests")
        let headings = IterationHeadings(count: runData.count)
        // Older records make room for this run's while it runs: pruning after it took 1.3 ms at the end of a
        // 1,000-request run (listing the folder, unlinking the oldest record). A run that fails to save its
        // record therefore leaves one record fewer than the limit.
        let runs = RunStore(directory: context.workspace.runsDirectory)
        let historyLimit = try context.historyLimit(terminal)
        let pruning = DispatchGroup()
        DispatchQueue.global(qos: .utility).async(group: pruning) { _ = try? runs.prune(keep: historyLimit - 1) }  // a link there fails the save below
        Interruption.install()
        let started = Date()
        let run = Runner.run(references, configuration: configuration, workspace: context.workspace, scripting: scripting) { result in
            if let heading = headings.heading(before: result) { terminal.line(terminal.styled(heading, .bold)) }
            terminal.line(ResultLines.lines(result, terminal))
        }
        let record = run.record
        // The results, the collections and their requests are freed by the exit, not one by one (see there).
        ProcessLifetime.keepUntilExit((run, references, context))
        pruning.wait()
        let file = try runs.save(record, encodedResults: run.encodedResults)
        // Wall time: with --parallel the requests' own times overlap.
        let elapsed = Int(Date().timeIntervalSince(started) * 1_000_000)
        terminal.line("\n" + ResultLines.summary(record.summary) + " in " + ResultLines.milliseconds(elapsed))
        terminal.line(terminal.styled("run \(record.id) recorded in \(context.workspace.displayPath(file))", .dim))
        // After the summary, so a report that cannot be written does not hide how the run went; each report
        // is tried, so one failure does not cost the others (a CI job keeps what it can).
        var reportFailed = false
        // A report into /dev/stdout or /dev/fd/1 is written through a descriptor of its own: what is
        // buffered for stdout goes first.
        StandardOutput.shared.flush()
        for report in reports {
            do {
                if let bytes = try report.write(record) {
                    bytes.withUnsafeBytes { standard.outBytes($0) }
                    continue
                }
                terminal.line(terminal.styled("\(report.kind.rawValue) report written to \(Terminal.sanitized(report.path))", .dim))
            } catch {
                terminal.error("\(error)")
                reportFailed = true
            }
        }
        reportFailed = !RunScripting.export(run.scriptVariables, environment: environment, globals: runData.globals, arguments, terminal) || reportFailed
        // The run's own outcome wins over a report that could not be written (74 only for a run that passed).
        if Interruption.signalNumber == SIGTERM { return .terminated }
        if Interruption.requested { return .interrupted }
        if let limit = run.requestLimitReached {
            terminal.error(limit)
            return .requestError
        }
        if record.summary.errors > 0 { return .requestError }
        if record.summary.failed > 0 { return .expectationFailed }
        return reportFailed ? .ioError : .success
    }

    /// The process environment that `{{process.env.NAME}}` in `references` may read (`REQRUN_*` and
    /// `--allow-env NAME`), narrowed to the names they use: their values are the run's secrets.
    static func readableEnvironment(_ arguments: ParsedArguments, _ references: [RequestReference], _ environment: Environment?,
                                    _ overrides: [String: String]) -> ProcessEnvironment {
        ProcessEnvironment(ProcessInfo.processInfo.environment, allowing: Set(arguments.all("--allow-env")))
            .narrowed(to: references, alsoThrough: (environment?.variables ?? []) + overrides.map { Variable(name: $0.key, value: $0.value) })
    }

    /// `NAME=VALUE` pairs; the value may contain `=` and may be empty.
    static func parseVariables(_ pairs: [String]) throws(UsageError) -> [String: String] {
        var result: [String: String] = [:]
        for pair in pairs {
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw UsageError(message: "--var expects NAME=VALUE, got '\(pair)'", command: command.spec)
            }
            // Trimmed like the names between braces, so ` a =x` sets `a`.
            let name = pair[..<equals].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else { throw UsageError(message: "--var expects NAME=VALUE, got '\(pair)'", command: command.spec) }
            result[name] = String(pair[pair.index(after: equals)...])
        }
        return result
    }

    /// A whole number of 0 or more.
    static func count(_ text: String?, option: String) throws(UsageError) -> Int? {
        guard let text else { return nil }
        guard let value = Int(text), value >= 0 else {
            throw UsageError(message: "\(option) expects a whole number of 0 or more, got '\(text)'", command: command.spec)
        }
        return value
    }

    /// A number of bytes: digits with an optional suffix K, M or G (either case; 1024, 1024², 1024³), as curl's
    /// `--max-filesize` takes them.
    static func byteCount(_ text: String, option: String) throws(UsageError) -> Int {
        let units: [Character: Int] = ["k": 1 << 10, "m": 1 << 20, "g": 1 << 30]
        let unit = text.last.flatMap { units[Character($0.lowercased())] }
        let digits = unit == nil ? text[...] : text.dropLast()
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let number = Int(digits),
              case let (bytes, overflow) = number.multipliedReportingOverflow(by: unit ?? 1), !overflow else {
            throw UsageError(message: "\(option) expects a number of bytes (with K, M or G for KiB, MiB, GiB), got '\(text)'", command: command.spec)
        }
        return bytes
    }

    /// Seconds (fractions allowed) as milliseconds.
    static func milliseconds(_ text: String?, option: String, default value: Int) throws(UsageError) -> Int {
        guard let text else { return value }
        guard let seconds = Double(text), seconds >= 0, seconds.isFinite, seconds < 1e9 else {
            throw UsageError(message: "\(option) expects a number of seconds, got '\(text)'", command: command.spec)
        }
        // A positive limit never rounds down to 0, which libcurl reads as "no limit".
        return seconds > 0 ? max(1, Int((seconds * 1000).rounded())) : 0
    }
}
