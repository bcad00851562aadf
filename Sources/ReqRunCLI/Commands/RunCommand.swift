import Foundation
import ReqRunKit

/// `reqrun run (--expanded | --all | NAME...)`: send requests and record the run.
enum RunCommand {
    static let command = Command(spec: CommandSpec(
        name: "run",
        abstract: "Send requests through libcurl and record the run in .reqrun/runs/.",
        discussion: """
            Choose what to run: --expanded runs the visible requests (every group above them expanded) in list
            order; NAME... runs what each name names, whatever is expanded: a group (every request in and below it;
            name, Parent/Child path, id or id prefix), else a collection (every request of it), else a request
            (#index, Group/Sub/Name path, unique name); --all runs every request. {{name}} in URL, header fields,
            body and expectations is replaced from, highest first: captures made earlier in the run, --var, the
            environment, group variables, collection variables. A request with an undefined variable fails before
            anything is sent (--dry-run takes, for it, the value an earlier run captured, as 'reqrun send' does).
            http, https, ws and wss are sent (ws:// and wss:// as WebSocket requests, their "messages" in order);
            other schemes (ftp://, file://) are recorded as skipped and do not fail the run.

            Exit codes: 0 every request passed, 1 an expectation or capture failed, 3 a request could not be sent
            or got no response, a script failed or --max-requests stopped the run (wins over 1), 2 bad input, 64
            usage, 74 a file could not be written, 130 Ctrl-C and 143 SIGTERM (the run record is still written); a
            selection with no request is 2 unless --allow-empty. --suppress-exit-code (Newman's) turns 1 and 3 into 0.
            """,
        options: [
            .init(name: "--expanded", valueName: nil, help: "Run the visible requests."),
            .init(name: "--all", valueName: nil, help: "Run every request."),
            .init(name: "--var", valueName: "NAME=VALUE", help: "Set a variable, over the environment's and collection's values.", repeatable: true),
            .init(name: "--env", valueName: "NAME|FILE", help: "Use environments/NAME.json or FILE for this run (default: the one saved with 'reqrun env use').", short: "-e"),
            .allowEnv,
            .init(name: "--report", valueName: "KIND=FILE", help: "Also write a report: junit, json, newman-json (Newman's JSON reporter), har or html (FILE - for standard output).", repeatable: true),
            .init(name: "--show-secrets", valueName: nil, help: "Show and record secrets instead of ****."),
            .init(name: "--delay", valueName: "MS", help: "Start each request MS milliseconds after the one before it started (one at a time only)."),
            .init(name: "--pause", valueName: "MS", help: "Wait MS milliseconds before sending each request."),
            .init(name: "--retry-until-pass", valueName: "N", help: "Send a request up to N more times while an expectation or capture fails."),
            .init(name: "--retry-interval", valueName: "MS", help: "With --retry-until-pass: wait MS milliseconds between attempts (default: 1000)."),
            .init(name: "--bail", valueName: nil, help: "Stop at the first failed request; the rest are recorded as not run."),
            .init(name: "--parallel", valueName: "N", help: "Keep up to N requests in flight (default: 1, one after another)."),
        ] + ShardOptions.specs + TransferOptions.specs + [
            .verbose, ConsoleDetail.quietOption,
            .init(name: "--allow-empty", valueName: nil, help: "Exit 0 when nothing is selected (default: exit 2, so a CI job that tests nothing fails)."),
            .init(name: "--suppress-exit-code", valueName: nil,
                  help: "Exit 0 when requests or scripts failed (1 and 3; as Newman's option): bad input, usage, files and signals keep theirs."),
            .init(name: "--disable-unicode", valueName: nil, help: "Write Pass and Fail for the ✓ and ✗ marks (as Newman's option)."),
            .init(name: "--export-environment", valueName: "FILE", help: "After the run, write the environment with the values scripts set (Postman format)."),
            .init(name: "--export-globals", valueName: "FILE", help: "After the run, write the globals scripts set (Postman format)."),
        ] + RunScripting.options + [
            .init(name: "--dry-run", valueName: nil, help: "Print what each request would send (method, URL, header fields, content); send nothing."),
            .init(name: "--json", valueName: nil, help: "With --dry-run: print the requests as JSON."),
            .workspace, .collection, .fileRoot, .workingDir, CompatOption.spec,
        ] + RunIterations.options,
        positional: .init(name: "NAME", help: "Groups, collections or requests to run (groups first: see the README).",
                          repeating: true, optional: true),
        examples: ["reqrun run --expanded --var httpbin=http://127.0.0.1:8080", "reqrun run httpbin.org",
                   "reqrun run 'Auth API'", "reqrun run 'Login flow/login' -v",
                   "reqrun run --all --env staging --report junit=results.xml --report html=report.html"]
    ), run: run)

    static func run(_ arguments: ParsedArguments, _ standard: Terminal) throws -> ExitCode {
        let reports = try ReportRequest.parseAll(arguments, command: command.spec)
        try ReportRequest.refuseOwnFiles(["--export-environment", "--export-globals"], arguments, command: command.spec)
        // A report on standard output gets it to itself: the console lines go to standard error.
        let output = reports.contains(where: \.toStandardOutput) && !arguments.flag("--dry-run") ? standard.onStandardError() : standard
        let terminal = arguments.flag("--disable-unicode") ? output.withPlainSymbols() : output
        let modes = [arguments.flag("--expanded"), arguments.flag("--all"), !arguments.positionals.isEmpty].filter { $0 }
        guard modes.count == 1 else {
            throw UsageError(message: modes.isEmpty ? "say what to run: --expanded, --all or NAME... (groups, collections or requests)"
                                                    : "give only one of --expanded, --all or NAME...", command: command.spec)
        }
        let overrides = try parseVariables(arguments.all("--var"))
        let detail = try ConsoleDetail.parse(arguments, command.spec)
        let parallelText = arguments.value("--parallel")
        guard parallelText.map({ Int($0).map { $0 >= 1 } ?? false }) ?? true else {
            throw UsageError(message: "--parallel expects a whole number of 1 or more, got '\(parallelText!)'", command: command.spec)
        }
        let parallel = parallelText.flatMap { Int($0) } ?? 1
        if arguments.flag("--json"), !arguments.flag("--dry-run") {
            throw UsageError(message: "--json goes with --dry-run (the run record is JSON already: see 'reqrun show --json')", command: command.spec)
        }
        let transfer = try TransferOptions.parse(arguments, command.spec)
        if parallel > 1, arguments.value("--delay") != nil {
            throw UsageError(message: "--delay paces requests one after another; it cannot be combined with --parallel", command: command.spec)
        }
        let scriptLimits = try RunScripting.limits(arguments, command: command.spec)
        let runData = try RunIterations.runData(arguments, command: command.spec)
        // A report folder that cannot be made fails the run before anything is sent.
        if !arguments.flag("--dry-run") {
            for report in reports { try report.createFolder() }
            HTTPExecutor.prepareInBackground()
        }
        defer { HTTPExecutor.awaitPreparation() }
        let rules = try CompatOption.rules(arguments, command.spec)
        let early = RunScripting.startEarly(arguments, limits: scriptLimits)
        defer { early?.finish() }
        // Only --expanded and --all need every collection: NAME... runs from those that load.
        let context = try WorkspaceContext.load(arguments, keepingBroken: !arguments.positionals.isEmpty,
                                                scriptsNotice: arguments.flag("--dry-run") ? .preRequestOnly : nil)
        let environment = try context.environment(arguments.value("--env"), terminal)
        // Made one at a time from the collections (`RequestSelection`): a copy of every request costs some
        // 600 bytes each (issue 17 §1).
        var references: RequestSelection
        var selection: RunSelection
        if arguments.flag("--all") {
            references = Outline(collections: context.collections, expansion: .transient(Outline.allGroupIDs(context.collections))).allSelection()
            selection = RunSelection(mode: "all")
        } else if arguments.flag("--expanded") {
            references = Outline(collections: context.collections, expansion: .saved(try context.savedExpansion(terminal))).visibleSelection()
            selection = RunSelection(mode: "expanded")
        } else {
            // Groups (the rules of GroupResolver), then collections, then requests: see RunTargetResolver. The
            // named groups run whatever the saved state: a transient expansion of this command only.
            let (targets, selected) = try context.resolving(terminal) { try RunTargetResolver.resolve(arguments.positionals, in: context.collections) }
            references = RequestSelection(selected)
            let groups = targets.compactMap { if case .group(let entry) = $0 { entry } else { nil } }
            selection = RunSelection(mode: groups.count == targets.count ? "groups" : "named", groups: groups.map {
                SelectedGroup(path: $0.displayPath, id: $0.group.id.lowercasedText)
            }, named: groups.count == targets.count ? nil : targets.map(\.displayPath))
        }
        selection.overriddenVariables = overrides.keys.sorted()
        // A --var that nothing uses is most likely a typo: say so rather than silently use the default.
        // Through the environment's values too: `"et": "{{region}}"` uses a --var region.
        let environmentValues = environment?.variables ?? []
        let used = overrides.isEmpty ? [] : references.reduce(into: Set<String>()) { $0.formUnion($1.referencedVariables(alsoThrough: environmentValues)) }
        for name in overrides.keys.sorted() where !used.contains(name) && !references.isEmpty {
            var message = "--var \(name) is not used by the selected requests"
            // Sorted, so that of names as near as each other the same one is named in every run (a `Set`'s
            // order changes from one process to the next); `{{}}`'s empty name is no suggestion.
            if let guess = Suggestion.closest(to: name, among: used.filter { !$0.isEmpty }.sorted()) { message += "; did you mean '\(guess)'?" }
            terminal.warning(message)
        }
        // The part this job runs (--shard K/N): after the checks above, which see the whole selection.
        try ShardOptions.apply(arguments, &references, &selection, environment: environment, overrides: overrides, context, command: command.spec,
                               warn: { terminal.warning($0) })
        let processEnvironment = readableEnvironment(arguments, references, environment, overrides)
        // Before older records are pruned: a sandbox that cannot start loses nothing.
        let scripting = try RunScripting.sandbox(for: references, limits: scriptLimits, preRequestOnly: arguments.flag("--dry-run"), early: early)
        if arguments.flag("--dry-run") {
            var planned = RunConfiguration(selection: selection, environment: environment, overrides: overrides,
                                           processEnvironment: processEnvironment, showSecrets: arguments.flag("--show-secrets"))
            planned.runData = runData
            planned.requestRules = rules ?? .reqrun
            // Nothing is sent, but the passphrases are the run's secrets all the same (a URL may hold one).
            (planned.options.clientKeyPassphrase, planned.options.clientCertificateList) =
                (transfer.options.clientKeyPassphrase, transfer.options.clientCertificateList)
            CarriedCaptures.apply(references, to: &planned, context, terminal)
            return try DryRunOutput.run(references, planned, scripting: scripting, json: arguments.flag("--json"), terminal)
        }
        // The run keeps its references (Runner, RunConsole).
        let referenceArray = Array(references)
        if references.isEmpty, let shard = selection.shard, shard.selected > 0 {
            // More jobs than pieces: this part is empty by the split, not by mistake. It is recorded and exits 0,
            // so that `merge` finds every part (see docs/sharding.md).
            terminal.line("No requests in shard \(shard.k)/\(shard.n): the \(shard.selected) selected request"
                          + (shard.selected == 1 ? " is in another part." : "s are in the other parts."))
        } else if references.isEmpty {
            let hasRequests = context.collections.contains { $0.groups.contains { $0.requestCount > 0 } }
            let why = !hasRequests ? "no requests in this workspace"
                : arguments.flag("--expanded") ? "no visible requests: no group is expanded in this workspace's .reqrun/state.json "
                    + "(a fresh clone has none); expand one with 'reqrun expand GROUP', or run --all or NAME..."
                : "no requests selected"
            // A CI job must not go green having tested nothing.
            guard arguments.flag("--allow-empty") else {
                terminal.error(why + " (--allow-empty to exit 0)")
                return .badInput
            }
            terminal.line(why.prefix(1).uppercased() + why.dropFirst() + ".")
        }
        var configuration = RunConfiguration(selection: selection, environment: environment, overrides: overrides,
                                             processEnvironment: processEnvironment, options: transfer.options,
                                             showSecrets: arguments.flag("--show-secrets"), redirects: transfer.redirects,
                                             retries: transfer.retries,
                                             delayMilliseconds: try TransferOptions.count(arguments.value("--delay"), option: "--delay", command.spec) ?? 0,
                                             bail: arguments.flag("--bail"), parallel: parallel)
        configuration.pauseMilliseconds = try TransferOptions.count(arguments.value("--pause"), option: "--pause", command.spec) ?? 0
        if let times = try TransferOptions.count(arguments.value("--retry-until-pass"), option: "--retry-until-pass", command.spec) {
            configuration.poll = PollPolicy(count: times, intervalMilliseconds: try TransferOptions.count(arguments.value("--retry-interval"), option: "--retry-interval", command.spec)
                                            ?? PollPolicy.defaultIntervalMilliseconds)
        }
        configuration.runData = runData
        configuration.requestRules = rules ?? .reqrun
        configuration.maxRequests = try TransferOptions.count(arguments.value("--max-requests"), option: "--max-requests", command.spec)
        // Older records make room for this run's before it starts, since its record is written as it goes (a
        // run that fails to save its record therefore leaves one record fewer than the limit).
        let runs = RunStore(directory: context.workspace.runsDirectory)
        let historyLimit = try context.historyLimit(terminal)
        _ = try? runs.prune(keep: historyLimit - 1)  // a link there fails the record below
        Interruption.install()
        let console = RunConsole(referenceArray, terminal, detail: detail, iterations: runData.count)
        console.followsOriginalMethod = configuration.requestRules.followsOriginalMethod
        console.followsOriginalMethodByCollection = Dictionary(referenceArray.map { ($0.collectionName, configuration.requestRules(for: $0).followsOriginalMethod) },
                                                               uniquingKeysWith: { first, _ in first })
        let started = Date()
        console.start()
        let run = Runner.run(referenceArray, configuration: configuration, workspace: context.workspace, scripting: scripting,
                             recordingIn: runs, keepResults: false) { result in
            console.show(result)
        }
        console.finish()
        let record = run.record
        // The collections and their requests are freed by the exit, not one by one (see there).
        ProcessLifetime.keepUntilExit((run, referenceArray, context))
        let file = try run.file!.get()
        CarriedCaptures.remember(run, context, terminal)
        // Wall time: with --parallel the requests' own times overlap.
        let elapsed = Int(Date().timeIntervalSince(started) * 1_000_000)
        terminal.line("\n" + ResultLines.summary(record.summary) + " in " + ResultLines.duration(elapsed))
        if let assertions = console.assertions.line { terminal.line(assertions) }
        // In a long console the few failures are buried: name the command that lists them (`show RUN --failed`).
        if record.summary.failed + record.summary.errors > 0 { terminal.line("failures: reqrun show \(record.id) --failed") }
        terminal.line(terminal.styled("run \(record.id) recorded in \(context.workspace.displayPath(file))", .dim))
        // After the summary, so a report that cannot be written does not hide how the run went; each report
        // is tried, so one failure does not cost the others (a CI job keeps what it can).
        // Reports are written from the record, read back a result at a time.
        var reportFailed = false
        if !reports.isEmpty {
            do {
                reportFailed = !ReportRequest.writeAll(reports, try runs.open(record.id), terminal, standard)
            } catch {
                terminal.error("\(error)")
                reportFailed = true
            }
        }
        reportFailed = !RunScripting.export(run.scriptVariables, environment: environment, globals: runData.globals, arguments, terminal) || reportFailed
        reportFailed = !CookieJarExport.write(run.cookies, to: transfer.newmanCookieJars, terminal) || reportFailed
        // The run's own outcome wins over a report that could not be written (74 only for a run that passed).
        if Interruption.signalNumber == SIGTERM { return .terminated }
        if Interruption.requested { return .interrupted }
        if let limit = run.requestLimitReached { terminal.error(limit) }
        let failure: ExitCode? = run.requestLimitReached != nil || record.summary.errors > 0 ? .requestError
            : record.summary.failed > 0 ? .expectationFailed : nil
        if let failure, !arguments.flag("--suppress-exit-code") { return failure }
        return reportFailed ? .ioError : .success
    }

    /// The process environment that `{{process.env.NAME}}` in `references` may read (`REQRUN_*` and
    /// `--allow-env NAME`), narrowed to the names they use: their values are the run's secrets.
    static func readableEnvironment(_ arguments: ParsedArguments, _ references: some Sequence<RequestReference>, _ environment: Environment?,
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
}
