import Foundation
import PostmanSandbox
import ReqRunKit
import Synchronization

/// `run`'s Postman scripts: the sandbox is made (and JavaScriptCore loaded) only when a selected request
/// has a script, so script-free runs start as fast as before (README, "Postman scripts").
enum RunScripting {
    /// `--script-timeout` and `--script-memory`, on `run`, `send` and `ui`.
    static let options: [CommandSpec.Option] = [
        .init(name: "--script-timeout", valueName: "SECONDS", help: "Stop a Postman script that runs longer (default: 5; 0: no limit)."),
        .init(name: "--script-memory", valueName: "BYTES",
              help: "Stop a Postman script during which reqrun grows by more; K, M, G suffixes (default: 256M; 0: no bound)."),
    ]

    /// The sandbox's bounds for each script: seconds and bytes (0: none).
    struct Limits {
        var time = PostmanSandbox.defaultTimeLimit
        var memory = PostmanSandbox.defaultMemoryLimit
    }

    /// `--script-timeout SECONDS` (fractions allowed, 0: none; default `PostmanSandbox.defaultTimeLimit`) and
    /// `--script-memory BYTES` (with `--max-size`'s suffixes, 0: none; default `PostmanSandbox.defaultMemoryLimit`).
    static func limits(_ arguments: ParsedArguments, command: CommandSpec) throws(UsageError) -> Limits {
        var limits = Limits()
        if let text = arguments.value("--script-timeout") {
            guard let value = Double(text), value >= 0, value.isFinite, value < 1e9 else {
                throw UsageError(message: "--script-timeout expects a number of seconds, got '\(text)'", command: command)
            }
            limits.time = value
        }
        if let text = arguments.value("--script-memory") {
            limits.memory = try TransferOptions.byteCount(text, option: "--script-memory", command)
        }
        return limits
    }

    /// Writes `--export-environment` and `--export-globals` (mode 0600: they may hold secrets), each tried;
    /// false when one could not be written (said on stderr).
    static func export(_ variables: ScriptVariables, environment: Environment?, globals: Environment?, _ arguments: ParsedArguments, _ terminal: Terminal) -> Bool {
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        var ok = true
        for (option, bytes) in [("--export-environment", { PostmanVariablesExport.environment(environment, scripts: variables) }),
                                ("--export-globals", { PostmanVariablesExport.globals(variables, file: globals) })] {
            guard let path = arguments.value(option) else { continue }
            do {
                try UserFile.write(bytes(), toPath: URL(fileURLWithPath: path, relativeTo: cwd).standardizedFileURL.path, mode: 0o600)
                terminal.line(terminal.styled("\(option.dropFirst(9)) written to \(path)", .dim))
            } catch {
                terminal.error("\(error)")
                ok = false
            }
        }
        return ok
    }

    /// The sandbox for `references`, or nil when none has a script that will run (`preRequestOnly`: a dry run,
    /// which runs no test script).
    /// - Throws: `SandboxError` when JavaScriptCore or chai is missing.
    /// The requests are asked where they are (`RequestSelection.containsRequest`), without making a reference to
    /// each: that walk was 3 % of `run --all --dry-run` on 100,000 requests (callgrind).
    /// - Parameter early: the sandbox `startEarly` started, taken (waited for) when a selected request has a script.
    static func sandbox(for references: RequestSelection, limits: Limits, preRequestOnly: Bool, early: EarlySandbox? = nil) throws -> RequestScripting? {
        guard references.containsRequest(where: { $0.eventScripts.contains { !preRequestOnly || $0.event == .prerequest } }) else {
            return nil
        }
        endsTheProcessWhenAScriptCannotBeStopped()
        let made = try early?.take()?.get() ?? CollectionSandboxes(timeLimit: limits.time, memoryLimit: limits.memory)
        // Its contexts are freed by the exit: releasing the last one tears JavaScriptCore's heap down, 5–8 ms
        // at the end of every scripted run (`JSC_logGC=1`: "shutdown").
        ProcessLifetime.keepUntilExit(made)
        return made
    }

    /// For `run --all` (not `--dry-run`, not `--shard`), before the collections load: the sandbox is then made on
    /// a thread of its own from the moment the load decodes a Postman script (`ScriptLoadSignal`), so JavaScriptCore's
    /// and chai's start (25–45 ms) overlaps the rest of the load and the selection. Such a run selects every
    /// request, so a collection with a script means a selected request with one (`--max-requests` aside); any
    /// other run makes its sandbox once its selection is known, as before. The run still waits for the start
    /// before anything is sent or saved (`sandbox(for:)`), so a missing JavaScriptCore or chai fails it as before.
    /// The caller calls `finish()` before the process exits, whatever happened: exiting while JavaScriptCore
    /// starts on another thread is not safe.
    static func startEarly(_ arguments: ParsedArguments, limits: Limits) -> EarlySandbox? {
        guard arguments.flag("--all"), !arguments.flag("--dry-run"), arguments.value("--shard") == nil else { return nil }
        let early = EarlySandbox(limits: limits)
        endsTheProcessWhenAScriptCannotBeStopped()
        ScriptLoadSignal.onFirstScript { early.start() }
        return early
    }

    /// `run` and `send`: a script that outlives what `--script-timeout` and `--script-memory` can stop (an
    /// endless chain of promise jobs), or that still runs a second after Ctrl-C or SIGTERM, ends the process
    /// with an `error:` line and exit code 3 (128 + the signal's number after one) rather than hang a CI job.
    /// The run's record then ends at its last write, as after a kill (`RecordWriter`). Not for `ui`, whose
    /// screen a process that ends from another thread would leave as it was.
    static func endsTheProcessWhenAScriptCannotBeStopped() {
        PostmanSandbox.whenAScriptCannotBeStopped { unstoppable in
            let line = "error: \(unstoppable.message); reqrun exits: the run's record ends where it was last written\n"
            line.utf8CString.withUnsafeBufferPointer { _ = write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
            _exit(unstoppable.signal.map { 128 + $0 } ?? ExitCode.requestError.rawValue)
        }
    }
}

extension RunScripting {
    /// For `reqrun ui`: nil when no request of `collections` has a script, else a sandbox made on the first
    /// script that runs. The UI starts without loading JavaScriptCore and chai (25–45 ms) and without
    /// listing every request of the workspace; a send that needs a sandbox that cannot be made fails with why.
    static func lazySandbox(for collections: [RequestCollection], limits: Limits) -> RequestScripting? {
        func hasScripts(_ group: RequestGroup) -> Bool {
            group.requests.contains { !$0.eventScripts.isEmpty } || group.groups.contains(where: hasScripts)
        }
        guard collections.contains(where: { $0.groups.contains(where: hasScripts) }) else { return nil }
        return LazySandbox { try PostmanSandbox(timeLimit: limits.time, memoryLimit: limits.memory) }
    }
}

/// The sandbox of `RunScripting.startEarly`: made on a thread of its own once `start()` is called.
final class EarlySandbox: Sendable {
    /// `CollectionSandboxes` is used by one thread at a time: the one that makes it, then (after `made`'s lock
    /// and the group's wait) the run's. JavaScriptCore's C API takes the context group's lock in each call;
    /// a group made with `JSContextGroupCreate` has its own atom table, not the making thread's.
    private struct Made: @unchecked Sendable { var result: Result<CollectionSandboxes, SandboxError> }

    private let limits: RunScripting.Limits
    private let group = DispatchGroup()
    private let made = Mutex<Made?>(nil)

    init(limits: RunScripting.Limits) { self.limits = limits }

    /// Starts making the sandbox (once: from `ScriptLoadSignal`'s handler).
    func start() {
        group.enter()
        // A thread of its own, with the main thread's stack size: chai's evaluation runs on it (JavaScriptCore
        // takes its stack limit from the thread it runs on).
        let thread = Thread { [self] in
            let result = Result { () throws(SandboxError) in
                try CollectionSandboxes(timeLimit: limits.time, memoryLimit: limits.memory)
            }
            made.withLock { $0 = Made(result: result) }
            group.leave()
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// The sandbox made, or why it could not be, after waiting for it; nil when it was not started.
    func take() -> Result<CollectionSandboxes, SandboxError>? {
        group.wait()
        return made.withLock { made in
            defer { made = nil }
            return made?.result
        }
    }

    /// Waits for a start still running and drops the handler of one not yet started.
    func finish() {
        ScriptLoadSignal.cancel()
        group.wait()
        // A sandbox no request used is freed by the exit, as the run's are (`RunScripting.sandbox(for:)`).
        ProcessLifetime.keepUntilExit(self)
    }
}

/// A `RequestScripting` that makes the real one the first time a script runs.
private final class LazySandbox: RequestScripting {
    private let make: () throws -> RequestScripting
    private var made: Result<RequestScripting, any Error>?

    init(_ make: @escaping () throws -> RequestScripting) { self.make = make }

    private var sandbox: Result<RequestScripting, any Error> {
        if let made { return made }
        let result = Result { try make() }
        made = result
        return result
    }

    func preRequest(_ scripts: [Script], request: inout Request, context: ScriptContext, variables: inout ScriptVariables) -> ScriptOutcome {
        switch sandbox {
        case .success(let scripting): return scripting.preRequest(scripts, request: &request, context: context, variables: &variables)
        case .failure(let error): return Self.failed(error)
        }
    }

    func test(_ scripts: [Script], request: Request, response: ResponseView?, context: ScriptContext,
              variables: inout ScriptVariables) -> ScriptOutcome {
        switch sandbox {
        case .success(let scripting): return scripting.test(scripts, request: request, response: response, context: context, variables: &variables)
        case .failure(let error): return Self.failed(error)
        }
    }

    private static func failed(_ error: any Error) -> ScriptOutcome {
        var outcome = ScriptOutcome()
        outcome.error = "\(error)"
        return outcome
    }
}
