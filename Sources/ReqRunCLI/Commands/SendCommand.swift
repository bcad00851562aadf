import Foundation
import ReqRunKit

/// `reqrun send REQUEST`: one request, its response printed the way `curl -i` and HTTPie show it, recorded
/// as a run.
enum SendCommand {
    static let command = Command(spec: CommandSpec(
        name: "send",
        abstract: "Send one request, print its response and record it as a run.",
        discussion: """
            REQUEST is chosen as 'show --curl' chooses it: its list index (#3), its path (Group/Sub/Name, optionally
            starting with the collection's name) or its name. Variables resolve as in 'reqrun run'; a variable that
            nothing defines takes the value the newest recorded run captured for it (said on stderr). Prints the
            status line, the header fields and the content (JSON pretty-printed; binary content summarised);
            --body prints only the content, whole and as received, for pipes; -q prints only failed checks and
            errors (the exit code tells the rest). The run is recorded like any other
            (selection "send"): 'reqrun history', 'show' and 'diff' include it.

            Exit codes as 'reqrun run': 0 the request passed, 1 an expectation or capture failed, 3 it could not be
            sent or got no response, 2 bad input, 64 usage, 74 a file could not be written, 130 Ctrl-C, 143 SIGTERM.
            """,
        options: [
            .init(name: "--var", valueName: "NAME=VALUE", help: "Set a variable, over the environment's and collection's values.", repeatable: true),
            .init(name: "--env", valueName: "NAME|FILE", help: "Use environments/NAME.json or FILE (default: the one saved with 'reqrun env use').", short: "-e"),
            .allowEnv,
            .init(name: "--show-secrets", valueName: nil, help: "Show and record secrets instead of ****."),
            .init(name: "--body", valueName: nil, help: "Print only the response content, whole and raw (for pipes); -v output goes to stderr."),
            .verbose, .init(name: ConsoleDetail.quietOption.name, valueName: nil, help: "Print only failed checks and errors (not the response).",
                            short: ConsoleDetail.quietOption.short),
        ] + TransferOptions.specs + RunScripting.options + [.workspace, .collection, .fileRoot, .workingDir, CompatOption.spec],
        positional: .init(name: "REQUEST", help: "The request: #index, Group/Sub/Name path (optionally with the collection's name first) or name.",
                          repeating: false, optional: false),
        examples: ["reqrun send 'httpbin.org/get' --var httpbin=http://127.0.0.1:8080", "reqrun send '#3' -v",
                   "reqrun send image --body > image.png"]
    ), run: run)

    static func run(_ arguments: ParsedArguments, _ terminal: Terminal) throws -> ExitCode {
        let overrides = try RunCommand.parseVariables(arguments.all("--var"))
        var transfer = try TransferOptions.parse(arguments, command.spec)
        // -q: only what went wrong (failed checks, errors); --body still writes the content it asks for.
        let detail = try ConsoleDetail.parse(arguments, command.spec)
        HTTPExecutor.prepareInBackground()
        defer { HTTPExecutor.awaitPreparation() }
        let rules = try CompatOption.rules(arguments, command.spec)
        let context = try WorkspaceContext.load(arguments, keepingBroken: true)
        let environment = try context.environment(arguments.value("--env"), terminal)
        let outline = Outline(collections: context.collections, expansion: .transient(Outline.allGroupIDs(context.collections)))
        let reference = try context.resolving(terminal) { try RequestResolver.resolve(arguments.positionals[0], in: outline) }
        let rawBody = arguments.flag("--body")
        // Raw bytes never reach a terminal (a body can hold escape sequences): there --body shows the
        // content as the full output does, escaped or summarised.
        let streams = rawBody && isatty(1) != 1
        // With --body, stdout carries the content alone: what was sent goes to stderr, as curl -v does.
        let info = rawBody ? terminal.onStandardError() : terminal
        let stream = streams ? BodyStream(followsRedirects: reference.request.followRedirects ?? transfer.redirects.follow,
                                          mayRetry: transfer.retries > 0) : nil
        transfer.options.bodySink = stream?.sink
        var configuration = RunConfiguration(selection: RecordedRun.selection(sending: reference, overrides: overrides), environment: environment, overrides: overrides,
                                             processEnvironment: RunCommand.readableEnvironment(arguments, [reference], environment, overrides),
                                             options: transfer.options, showSecrets: arguments.flag("--show-secrets"),
                                             redirects: transfer.redirects, retries: transfer.retries)
        configuration.requestRules = rules ?? .reqrun
        CarriedCaptures.apply([reference], to: &configuration, context, terminal)
        let scripting = try RunScripting.sandbox(for: RequestSelection([reference]), limits: RunScripting.limits(arguments, command: command.spec),
                                                 preRequestOnly: false)
        Interruption.install()
        let outcome = RecordedRun.send(reference, configuration: configuration, workspace: context.workspace,
                                        historyLimit: try context.historyLimit(terminal), scripting: scripting)
        let run = outcome.run
        ProcessLifetime.keepUntilExit((run, context))
        let result = run.record.results[0]
        stream?.finish(result.response)
        if detail == .verbose {
            info.line(VerboseExchange.lines(result, info, followsOriginalMethod: configuration.requestRules(for: reference).followsOriginalMethod))
            info.line()
        }
        if let response = result.response, !streams, detail != .quiet || rawBody {
            terminal.out(rawBody ? ResponseText.content(response, terminal) : ResponseText.text(response, terminal))
        }
        let log = terminal.onStandardError()
        switch result.outcome {
        case .response where !result.passed, .skipped: log.line(ResultLines.lines(result, log))  // the failed checks
        case .transportError, .invalid, .notRun, .scriptError: terminal.error(result.error?.message ?? "not sent")
        case .response: break
        }
        if let error = outcome.capturesError { terminal.warning(CarriedCaptures.notKept(error)) }
        switch outcome.file {
        case .success(let url):
            if detail != .quiet { log.line(log.styled("run \(run.record.id) recorded in \(context.workspace.displayPath(url))", .dim)) }
        case .failure(let error):
            terminal.error("\(error)")
            return .ioError
        }
        let jarWritten = CookieJarExport.write(run.cookies, to: transfer.newmanCookieJars, log)
        if Interruption.signalNumber == SIGTERM { return .terminated }
        if Interruption.requested { return .interrupted }
        if run.record.summary.errors > 0 { return .requestError }
        if run.record.summary.failed > 0 { return .expectationFailed }
        return jarWritten ? .success : .ioError
    }
}
