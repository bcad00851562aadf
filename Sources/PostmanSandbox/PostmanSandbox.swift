import Foundation
import ReqRunKit

/// Runs Postman pre-request and test scripts with postman-sandbox's API on JavaScriptCore.
///
/// One context for the run of one collection (`JavaScriptEngine`; `CollectionSandboxes` makes one per collection), with Debian's chai (`libjs-chai`, read from
/// `chaiPath` at start), the CommonJS loader behind `require` (`SandboxLoader`, reading files through the
/// native `__reqrunLoad`: `SandboxModules`), the legacy sandbox's methods (`SandboxLegacy`) and the prelude
/// (`SandboxPrelude`). For each request and event: `__reqrun.run` (`begin` with the request, the response
/// and the variable scopes as JSON, the jar's cookies when a script names them, `enter` of the first script,
/// and that script, in one call); each further script in Newman's order (collection, folders, request),
/// stopping at the first that fails; each followed by `__reqrun.after` (what it queued with
/// `pm.sendRequest` and its timers, `SandboxTimers`, else its `leave` and the next script's `enter`, or after the last `end`, whose JSON
/// gives the assertions, console lines, scopes and request changes back). Two calls into JavaScriptCore for
/// a request with one script rather than seven: each call starts and stops JavaScriptCore's watchdog timer
/// (a wake-up of its timer thread) besides the call itself. `after` stays a call of its own: the promise
/// jobs a script leaves run when its call returns, before `after` looks at the queue and ends the event.
public final class PostmanSandbox: RequestScripting {
    /// Where Debian's `libjs-chai` installs chai (`dpkg -L libjs-chai`).
    public static let chaiPath = "/usr/share/javascript/chai/chai.js"
    /// `--script-timeout`'s default, in seconds.
    public static let defaultTimeLimit = 5.0
    /// How much the process may grow while one script runs before it is stopped: 256 MiB (`ScriptWatchdog`).
    public static let defaultMemoryLimit = 256 << 20

    let engine: JavaScriptEngine
    /// `__reqrun.run` (the start and a request's first script in one call) and `end`.
    private let run, end: JavaScriptEngineFunction
    /// After each script: `pm.sendRequest`'s queue, else the next step (`SandboxSendRequest`); the answers.
    let after, answer: JavaScriptEngineFunction
    /// Runs the earliest pending timer (`SandboxTimers`).
    let fire: JavaScriptEngineFunction
    /// What the context holds since the last event whose `end` was read: `begin` keeps the scopes,
    /// `pm.info`'s iteration and the response's body and header fields between requests, so only those that differ are sent again (text and parse of
    /// every scope for every request were a large part of a scripted request's fixed cost). Nil (send all)
    /// until the first `end`, and from the start of each event until its `end` is read: an event that
    /// failed on the way may have left anything in the context.
    private var held: Held?

    /// See `held`.
    private struct Held {
        /// The scopes in `SandboxInput.scopes`'s names, as text in order (what `end` gave back, else what was sent).
        static let names = ["globals", "collection", "environment", "local", "groups", "upper"]
        var scopes: [VariableList]
        var info: (Int, Int)
        /// The response's body as the last `stage` got it ("" without a response or for one with a NUL) and its
        /// header fields (nil: no response): the same again (a server's responses to one request often are, the
        /// `Date` field changing once a second) is not written and sent again.
        var body: String
        var fields: [HeaderField]?
    }

    /// Sets, once per process, what happens when a script outlives what the time and memory bounds can stop:
    /// a chain of promise jobs that never ends, each job short (JavaScriptCore starts its time limit again at
    /// each), or a script still running a second after Ctrl-C or SIGTERM. `handler` is called on a thread of its
    /// own while the script still runs on the run's thread, so it should end the process; without a handler
    /// such a script runs on (`UnstoppableScriptMonitor`).
    public static func whenAScriptCannotBeStopped(_ handler: @escaping @Sendable (UnstoppableScript) -> Void) {
        UnstoppableScriptMonitor.handler.withLock { $0 = handler }
    }

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
            try engine.evaluate(SandboxChaiGuard.source, name: "reqrun-chai-guard.js")
            engine.defineNativeFunction("__reqrunLoad") { arguments in
                SandboxModules.load(arguments.first ?? "", from: arguments.count > 1 ? arguments[1] : "")
            }
            try engine.evaluate(SandboxLoader.source, name: "reqrun-require.js")
            try engine.evaluate(SandboxLegacy.source, name: "reqrun-legacy.js")
            try engine.evaluate(SandboxRequestAPI.assertions, name: "reqrun-assertions.js")
            try engine.evaluate(SandboxPrelude.source, name: "reqrun-sandbox.js")
            try engine.evaluate(SandboxSendRequest.source, name: "reqrun-send-request.js")
            try engine.evaluate(SandboxCookies.source, name: "reqrun-cookies.js")
            try engine.evaluate(SandboxRequestAPI.source, name: "reqrun-request.js")
            try engine.evaluate(SandboxExecution.source, name: "reqrun-execution.js")
            try engine.evaluate(SandboxRequestAuth.source, name: "reqrun-request-auth.js")
            engine.defineNativeFunction("__reqrunNow") { _ in SandboxTimers.clock() }
            try engine.evaluate(SandboxTimers.source, name: "reqrun-timers.js")
        } catch {
            throw .unavailable("the script sandbox did not start: \(error.message)")
        }
        // The machinery out of the scripts' reach: no global names it once the sources have loaded (a script that
        // could read or replace `__reqrun.end` could forge its own results or another event's state).
        guard let machinery = engine.takeGlobal("__reqrun"), let run = engine.function("run", in: machinery),
              let end = engine.function("end", in: machinery) else {
            throw .unavailable("the script sandbox did not start: __reqrun is missing")
        }
        (self.run, self.end) = (.init(run), .init(end))
        guard let after = engine.function("after", in: machinery), let answer = engine.function("answer", in: machinery),
              let rejected = engine.function("rejected", in: machinery) else {
            throw .unavailable("the script sandbox did not start: pm.sendRequest is missing")
        }
        (self.after, self.answer) = (.init(after), .init(answer))
        guard let fire = engine.function("fire", in: machinery) else {
            throw .unavailable("the script sandbox did not start: the timers are missing")
        }
        self.fire = .init(fire)
        engine.rejected = rejected
    }

    /// How many distinct script texts the run's context has compiled so far (each once).
    public var compiledScriptCount: Int { engine.compiledCount }
    /// How many calls into JavaScript the run's context has made (scripts and the sandbox's own steps).
    public var javaScriptCallCount: Int { engine.callCount }

    public func preRequest(_ scripts: [Script], request: inout Request, context: ScriptContext,
                           variables: inout ScriptVariables) -> ScriptOutcome {
        var changes: SandboxOutput?
        var outcome = run(scripts, event: .prerequest, request: request, response: nil, context: context, variables: &variables,
                          changes: &changes)
        if let method = changes?.method, !method.isEmpty { request.method = method }
        if let url = changes?.url { request.url = url }
        if let headers = changes?.headers { request.headers = headers }
        if let body = changes?.body { request.body = .text(body) }
        if let failure = changes?.authError, outcome.error == nil {
            outcome.error = "pm.request.auth: the auth a pre-request script set could not be read: \(failure)"
        }
        // pm.request.auth changed: null when removed (sent without auth), nil from an object without a type (inherits).
        if let changes, changes.authChanged, outcome.error == nil {
            if let node = changes.auth, case .object = node.value {
                switch PostmanScriptAuth.decode(node, api: "pm.request.auth") {
                case .success(let auth): request.auth = auth
                case .failure(let refusal): outcome.error = refusal.reason
                }
            } else {
                request.auth = Auth.none
            }
        }
        return outcome
    }

    public func test(_ scripts: [Script], request: Request, response: ResponseView?, context: ScriptContext,
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
        // The response's body and header fields beside the JSON: the body not quoted and parsed again, the
        // fields parsed only when a script reads them.
        var body = "", headers = ""
        if let response {
            body = response.text
            let nul = JavaScriptEngine.hasNUL(body)
            input.response(code: response.status, reason: HTTPReason.phrase(response.status), body: nul ? body : nil,
                           responseTime: response.totalMicroseconds / 1000, responseSize: response.bodySize)
            if nul { body = "" }
        }
        // What JavaScript still holds from the last event whose end was read is not sent again (`Held`).
        let known = held
        held = nil
        let sentBody = body
        if let known, known.body.sameUTF8(body) {
            input.same("Body")
            body = ""
        }
        if let known, Self.sameFields(known.fields, response?.headers) {
            input.same("Headers")
        } else if let response {
            headers = SandboxInput.headersJSON(response.headers)
        }
        let info = (context.iteration, context.iterationCount)
        input.iteration(known.map { $0.info == info } == true ? nil : info, data: context.iterationData, json: context.iterationDataJSON)
        input.location(context.location)
        // `defineProperty` and `defineProperties` (`Object.`, `Reflect.`): the ways to add a global that is not enumerable;
        // with `__defineGetter__` and `__defineSetter__`, the ways to make one of the sandbox's globals an accessor.
        let named = namedInTexts(scripts)
        if named.defines { input.definesGlobals() }
        // Each scope in Postman's order (`ScriptVariables.order`): what a script sees of it in `toObject()`.
        let collectionScope = ScriptVariables.Scope.collection(context.collectionKey)
        let globalsIn = ScriptVariables.present(globalsBase, variables.globals, unset: variables.unsetGlobals, order: variables.order[.globals])
        let collectionIn = ScriptVariables.present(collectionBase, variables.collections[context.collectionKey] ?? [:],
                                                   unset: variables.unsetCollections[context.collectionKey] ?? [], order: variables.order[collectionScope])
        let environmentIn = ScriptVariables.present(environmentBase, variables.environment, unset: variables.unsetEnvironment,
                                                    order: variables.order[.environment])
        let localIn = ScriptVariables.present([:], variables.local, unset: [], order: variables.order[.local])
        let scopes = [globalsIn, collectionIn, environmentIn, localIn, context.groupValues, context.upperValues]
        input.scopes(Held.names.indices.compactMap { index in
            known?.scopes[index] == scopes[index] ? nil : (Held.names[index], scopes[index])
        })
        var outcome = ScriptOutcome()
        _ = engine.takeJobsStopped()
        // pm.request.auth: the auth that applies (`SandboxRequestAuth`); the jar's cookies only for scripts that
        // name them (reading the store costs an easy handle and a list of the jar).
        let auth = request.auth.map { SandboxRequestAuth.json($0) } ?? ""
        var cookies = ""
        if let response, let transport = context.transport, named.cookies {
            cookies = SandboxCookies.json(transport.cookies(for: response.finalURL.isEmpty ? request.url : response.finalURL))
        }
        let arguments = [input.finish(), scripts.first?.place ?? "", auth, cookies, body, headers]
        // `end`'s JSON when the last script's `after` gave it.
        var ended: String?
        // "skip": `pm.execution.skipRequest()` in an earlier script; the request's later scripts do not run.
        var step = ""
        for (index, script) in scripts.enumerated() where step != "skip" {
            var result: Result<String, JavaScriptEngine.Failure>
            let deadline = engine.timeLimit > 0 ? ContinuousClock.now + .milliseconds(Int(engine.timeLimit * 1000)) : nil
            var compiled: Result<OpaquePointer, JavaScriptEngine.Failure>
            do { compiled = .success(try engine.compile(script.source, name: script.place)) } catch { compiled = .failure(error) }
            if index == 0 {
                // The sandbox's start and the first script in one call (`__reqrun.run`).
                switch engine.call(run.function, arguments: arguments, passing: try? compiled.get(), passesFunction: true) {
                case .success("!start"):
                    outcome.error = "the script sandbox failed to start the \(event.rawValue) scripts"
                    return outcome
                case .success(let started):
                    step = started
                    if step == "skip" { continue }
                    result = compiled.map { _ in "" }
                case .failure(let failure):
                    result = .failure(failure)
                }
            } else {
                result = compiled.flatMap { engine.call($0, arguments: []) }
            }
            // The first exception of a timer's callback: the script's error once its event has ended (`SandboxTimers`).
            var late: JavaScriptEngine.Failure?
            if case .success = result {
                result = settle(script, next: index + 1 < scripts.count ? scripts[index + 1].place : nil, transport: context.transport,
                                deadline: deadline, late: &late)
            }
            switch result {
            case .failure(let failure):
                outcome.error = Self.message(late ?? failure, script, timeLimit: engine.timeLimit, memoryLimit: engine.memoryLimit)
            case .success(let text):
                if text.utf8.first == UInt8(ascii: "{") { ended = text } else { step = text }
                if let reason = engine.takeJobsStopped() {
                    let failure = JavaScriptEngine.Failure(message: "", timedOut: reason == .time, outOfMemory: reason == .memory,
                                                           interrupted: reason == .interrupted)
                    outcome.error = Self.message(failure, script, timeLimit: engine.timeLimit, memoryLimit: engine.memoryLimit)
                }
                if outcome.error == nil, let late {
                    outcome.error = Self.message(late, script, timeLimit: engine.timeLimit, memoryLimit: engine.memoryLimit)
                }
            }
            if outcome.error != nil { break }
        }
        if scripts.isEmpty, case .success("!start") = engine.call(run.function, arguments: arguments, passesFunction: true) {
            outcome.error = "the script sandbox failed to start the \(event.rawValue) scripts"
            return outcome
        }
        let finished = ended.map { Result<String, JavaScriptEngine.Failure>.success($0) } ?? end.call(engine, [])
        guard case .success(let text) = finished, let output = SandboxOutput(text) else {
            outcome.error = outcome.error ?? "the script sandbox failed to finish the \(event.rawValue) scripts"
            return outcome
        }
        outcome.assertions = output.assertions
        outcome.console = output.console
        outcome.skipRequest = output.skip
        if output.nextSet { outcome.nextRequest = output.next.map(NextRequest.request) ?? .stop }
        // Only what differs from the files' values is kept: those stay in their own layers. A scope `end` left
        // out was not changed by the scripts: it is what was sent.
        let globalsOut = output.scopes["globals"] ?? globalsIn, collectionOut = output.scopes["collection"] ?? collectionIn
        let environmentOut = output.scopes["environment"] ?? environmentIn
        (variables.globals, variables.unsetGlobals) = Self.changed(globalsOut, from: globalsBase)
        (variables.collections[context.collectionKey], variables.unsetCollections[context.collectionKey]) = Self.changed(collectionOut, from: collectionBase)
        (variables.environment, variables.unsetEnvironment) = Self.changed(environmentOut, from: environmentBase)
        for (scope, name) in [(ScriptVariables.Scope.globals, "globals"), (collectionScope, "collection"), (.environment, "environment"), (.local, "local")] {
            if let values = output.scopes[name] { variables.order[scope] = values.names }
        }
        if let local = output.scopes["local"] { variables.local = local.values }
        held = Held(scopes: Held.names.indices.map { output.scopes[Held.names[$0]] ?? scopes[$0] }, info: info, body: sentBody,
                    fields: response?.headers)
        changes = output
        return outcome
    }

    /// What `run` looks for in an event's script texts: `defines`, a way to add a global that is not enumerable or
    /// to make one of the sandbox's an accessor (`defineProperty`, `defineProperties`, `__defineGetter__`,
    /// `__defineSetter__`); `cookies`, the jar's cookies read. Kept for the last texts looked at: a run's requests
    /// mostly share their scripts, and comparing the texts costs less than searching them (three byte searches of
    /// case 6's script, about 4,400 instructions a request: callgrind).
    private func namedInTexts(_ scripts: [Script]) -> (defines: Bool, cookies: Bool) {
        if let last = lastNamed, last.sources.count == scripts.count,
           zip(last.sources, scripts).allSatisfy({ $0.sameUTF8($1.source) }) {
            return last.named
        }
        let named = (defines: scripts.contains { $0.source.containsUTF8("defineProp") || $0.source.containsUTF8("__define") },
                     cookies: scripts.contains { $0.source.containsUTF8("cookies") })
        lastNamed = (scripts.map(\.source), named)
        return named
    }

    /// Whether two responses' header fields are the same bytes in the same order (both nil: no response), without
    /// `==`'s Unicode equivalence (about 6,300 instructions for eight fields: callgrind): a field that changed only
    /// in its normal form is sent again, as a script reads its bytes.
    private static func sameFields(_ a: [HeaderField]?, _ b: [HeaderField]?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return a.count == b.count && zip(a, b).allSatisfy { $0.name.sameUTF8($1.name) && $0.value.sameUTF8($1.value) }
    }

    /// See `namedInTexts`.
    private var lastNamed: (sources: [String], named: (defines: Bool, cookies: Bool))?

    /// `collections/shop.json: item[3].event[1] (test) 4:12: TypeError: …`; the time limit in words.
    static func message(_ failure: JavaScriptEngine.Failure, _ script: Script, timeLimit: Double, memoryLimit: Int) -> String {
        if failure.outOfMemory {
            return "\(script.place): the script used more than \(Self.size(memoryLimit)) of memory and was stopped (--script-memory)"
        }
        if failure.interrupted { return "\(script.place): the script was stopped: the run was \(Interruption.reason)" }
        if failure.timedOut {
            return "\(script.place): the script ran for more than \(timeLimit.formatted()) s and was stopped (--script-timeout)"
        }
        var position = ""
        if let line = failure.line { position = failure.column.map { " \(line):\($0)" } ?? " \(line)" }
        return "\(script.place)\(position): \(failure.message)"
    }

    /// `256 MiB`, `512 KiB`, `1000 bytes`: the largest unit that gives a whole number.
    static func size(_ bytes: Int) -> String {
        for (shift, unit) in [(30, "GiB"), (20, "MiB"), (10, "KiB")] where bytes >= 1 << shift && bytes % (1 << shift) == 0 {
            return "\(bytes >> shift) \(unit)"
        }
        return "\(bytes) bytes"
    }

    /// A scope as the scripts left it, against the file's values: the values that differ from the file's
    /// (or are not in it), and the file's names that are gone (`unset`, `clear`).
    private static func changed(_ values: VariableList, from base: VariableList) -> (set: [String: String], unset: Set<String>) {
        (values.values.filter { base[$0.key] != $0.value }, Set(base.names.filter { values[$0] == nil }))
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
