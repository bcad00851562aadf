import Foundation
import ReqRunKit

/// Runs Postman pre-request and test scripts with postman-sandbox's API on JavaScriptCore.
///
/// One context for the run (`JavaScriptEngine`), with Debian's chai (`libjs-chai`, read from
/// `chaiPath` at start) and the prelude (`SandboxPrelude`). For each request and event: `__reqrun.begin`
/// with the request, the response and the variable scopes as JSON; each script in Newman's order
/// (collection, folders, request), stopping at the first that fails; `__reqrun.end`, whose JSON gives the
/// assertions, console lines, scopes and request changes back.
public final class PostmanSandbox: RequestScripting {
    /// Where Debian's `libjs-chai` installs chai (`dpkg -L libjs-chai`).
    public static let chaiPath = "/usr/share/javascript/chai/chai.js"
    /// `--script-timeout`'s default, in seconds.
    public static let defaultTimeLimit = 5.0
    /// How much the process may grow while one script runs before it is stopped: 256 MiB (`ScriptWatchdog`).
    public static let defaultMemoryLimit = 256 << 20

    private let engine: JavaScriptEngine
    /// Modules already defined in the context (`SandboxModules`).
    private var definedModules: Set<String> = []
    /// The modules each script text asks for (`SandboxModules.requested`), found once per text: the scan
    /// cost about 120,000 instructions a script run.
    private var requestedModules: [String: [String]] = [:]
    private let begin, enter, leave, end: JavaScriptEngineFunction

    /// Loads JavaScriptCore, chai and the prelude.
    /// - Parameters:
    ///   - timeLimit: seconds each script may run (0: no limit).
    ///   - memoryLimit: bytes the process may grow by while one script runs (0: no bound).
    /// - Throws: `SandboxError.unavailable` when JavaScriptCore or chai cannot be loaded.
    public init(timeLimit: Double = PostmanSandbox.defaultTimeLimit, memoryLimit: Int = PostmanSandbox.defaultMemoryLimit) throws(SandboxError) {
        engine = try JavaScriptEngine(timeLimit: timeLimit, memoryLimit: memoryLimit)
        guard let chai = FileManager.default.contents(atPath: Self.chaiPath) else {
            throw .unavailable("cannot read \(Self.chaiPath): scripts need Debian's libjs-chai (chai's expect)")
        }
        do {
            // chai's bundled type-detect looks for `self` or `global` when it loads; the prelude deletes it again.
            try engine.evaluate("globalThis.global = globalThis;", name: "reqrun-sandbox.js")
            try engine.evaluate(String(decoding: chai, as: UTF8.self), name: Self.chaiPath)
            try engine.evaluate(SandboxPrelude.source, name: "reqrun-sandbox.js")
        } catch {
            throw .unavailable("the script sandbox did not start: \(error.message)")
        }
        guard let begin = engine.globalFunction("__reqrun", "begin"), let enter = engine.globalFunction("__reqrun", "enter"),
              let leave = engine.globalFunction("__reqrun", "leave"), let end = engine.globalFunction("__reqrun", "end") else {
            throw .unavailable("the script sandbox did not start: __reqrun is missing")
        }
        (self.begin, self.enter, self.leave, self.end) = (.init(begin), .init(enter), .init(leave), .init(end))
    }

    /// How many distinct script texts the run's context has compiled so far (each once).
    public var compiledScriptCount: Int { engine.compiledCount }

    public func preRequest(_ scripts: [Script], request: inout Request, context: ScriptContext,
                           variables: inout ScriptVariables) -> ScriptOutcome {
        var changes: SandboxOutput?
        let outcome = run(scripts, event: .prerequest, request: request, response: nil, context: context, variables: &variables,
                          changes: &changes)
        if let method = changes?.method, !method.isEmpty { request.method = method }
        if let url = changes?.url { request.url = url }
        if let headers = changes?.headers { request.headers = headers }
        if let body = changes?.body { request.body = .text(body) }
        return outcome
    }

    public func test(_ scripts: [Script], request: Request, response: ResponseView, context: ScriptContext,
                     variables: inout ScriptVariables) -> ScriptOutcome {
        var changes: SandboxOutput?
        return run(scripts, event: .test, request: request, response: response, context: context, variables: &variables, changes: &changes)
    }

    private func run(_ scripts: [Script], event: Script.Event, request: Request, response: ResponseView?, context: ScriptContext,
                     variables: inout ScriptVariables, changes: inout SandboxOutput?) -> ScriptOutcome {
        let collectionBase = context.collectionValues, environmentBase = context.environmentValues, globalsBase = context.globalValues
        // A request's first event starts from a clean global object.
        var input = SandboxInput(fresh: event == .prerequest || !request.eventScripts.contains { $0.event == .prerequest }, event: event)
        input.request(name: context.requestName, id: context.requestID ?? "", method: request.method, url: request.url,
                      headers: request.headers, body: request.body)
        if let response {
            input.response(code: response.status, reason: HTTPReason.phrase(response.status), headers: response.headers,
                           body: response.text, responseTime: response.totalMicroseconds / 1000, responseSize: response.bodySize)
        }
        input.iteration(context.iteration, of: context.iterationCount, data: context.iterationData)
        input.scopes([
            ("globals", globalsBase.merging(variables.globals) { $1 }),
            ("collection", collectionBase.merging(variables.collections[context.collectionKey] ?? [:]) { $1 }),
            ("environment", environmentBase.merging(variables.environment) { $1 }),
            ("local", variables.local), ("groups", context.groupValues), ("upper", context.upperValues),
        ])
        var outcome = ScriptOutcome()
        for script in scripts {
            let requested = requestedModules[script.source] ?? SandboxModules.requested(in: script.source)
            requestedModules[script.source] = requested
            for name in requested where !definedModules.contains(name) {
                // A module that cannot be read stays undefined: `require` then says which package it needs.
                guard case .success(let definition) = SandboxModules.definition(name) else { continue }
                do {
                    try engine.evaluate(definition, name: "require('\(name)')")
                    definedModules.insert(name)
                } catch {
                    outcome.error = "\(script.place): require('\(name)') failed to load: \(error.message)"
                    return outcome
                }
            }
        }
        guard case .success = begin.call(engine, [input.finish()]) else {
            outcome.error = "the script sandbox failed to start the \(event.rawValue) scripts"
            return outcome
        }
        for script in scripts {
            // `pm.execution.skipRequest()` in an earlier script: the request's later scripts do not run.
            if case .success("skip") = engine.call(enter.function, arguments: [script.place]) { break }
            let result: Result<String, JavaScriptEngine.Failure>
            do {
                result = engine.call(try engine.compile(script.source, name: script.place), arguments: [])
            } catch {
                result = .failure(error)
            }
            if case .failure(let failure) = result {
                outcome.error = Self.message(failure, script, timeLimit: engine.timeLimit, memoryLimit: engine.memoryLimit)
                break
            }
            engine.call(leave.function, arguments: [])
        }
        guard case .success(let text) = end.call(engine, []), let output = SandboxOutput(text) else {
            outcome.error = outcome.error ?? "the script sandbox failed to finish the \(event.rawValue) scripts"
            return outcome
        }
        outcome.assertions = output.assertions
        outcome.console = output.console
        outcome.skipRequest = output.skip
        if output.nextSet { outcome.nextRequest = output.next.map(NextRequest.request) ?? .stop }
        // Only what differs from the files' values is kept: those stay in their own layers.
        variables.globals = Self.changed(output.scopes["globals"] ?? [:], from: globalsBase)
        variables.collections[context.collectionKey] = Self.changed(output.scopes["collection"] ?? [:], from: collectionBase)
        variables.environment = Self.changed(output.scopes["environment"] ?? [:], from: environmentBase)
        variables.local = output.scopes["local"] ?? [:]
        changes = output
        return outcome
    }

    /// `collections/shop.json: item[3].event[1] (test) 4:12: TypeError: …`; the time limit in words.
    static func message(_ failure: JavaScriptEngine.Failure, _ script: Script, timeLimit: Double, memoryLimit: Int) -> String {
        if failure.outOfMemory {
            return "\(script.place): the script used more than \(memoryLimit >> 20) MiB of memory and was stopped"
        }
        if failure.timedOut {
            return "\(script.place): the script ran for more than \(timeLimit.formatted()) s and was stopped (--script-timeout)"
        }
        var position = ""
        if let line = failure.line { position = failure.column.map { " \(line):\($0)" } ?? " \(line)" }
        return "\(script.place)\(position): \(failure.message)"
    }

    private static func changed(_ values: [String: String], from base: [String: String]) -> [String: String] {
        values.filter { base[$0.key] != $0.value }
    }
}

/// A prelude function looked up once.
struct JavaScriptEngineFunction {
    let function: OpaquePointer

    init(_ function: OpaquePointer) { self.function = function }

    func call(_ engine: JavaScriptEngine, _ arguments: [String]) -> Result<String, JavaScriptEngine.Failure> {
        engine.call(function, arguments: arguments)
    }
}
