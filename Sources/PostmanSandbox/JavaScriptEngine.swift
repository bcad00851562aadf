internal import CJavaScriptCore
import Foundation
import Synchronization

/// One JavaScriptCore context for a whole run, on the C API loaded with `dlopen` (`shim.h`).
///
/// Scripts are compiled once per distinct text (`JSObjectMakeFunction`: the text is the body of a function,
/// as postman-sandbox wraps each script) and the function objects are kept for the run. Every call into
/// JavaScript is bounded by `timeLimit` seconds of execution (`JSContextGroupSetExecutionTimeLimit`): a
/// script still running then is stopped by JSC with an uncatchable exception. The context has only
/// ECMAScript's built-ins plus what the prelude adds: no file system, process, environment or network
/// (the C API exposes none).
final class JavaScriptEngine {
    /// The soname dlopen'ed: Debian's `libjavascriptcoregtk-4.1-0`.
    static let library = "libjavascriptcoregtk-4.1.so.0"

    private var api = RRJSC()
    private let group: JSContextGroupRef
    private let context: JSGlobalContextRef
    /// Compiled scripts by text (its UTF-8 bytes: `ScriptText`), protected from collection for the run.
    private var compiled: [ScriptText: JSObjectRef] = [:]
    /// A script's text as a key, by its UTF-8 bytes, not by `String ==`'s Unicode equivalence: two texts that
    /// differ only in their normal form are different programs to JavaScript (`'é'` precomposed and with a
    /// combining accent are different strings there), and hashing bytes costs less than normalising.
    private struct ScriptText: Hashable {
        let text: String
        static func == (a: ScriptText, b: ScriptText) -> Bool { a.text.sameUTF8(b.text) }
        func hash(into hasher: inout Hasher) {
            var text = text
            text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        }
    }
    /// The entry of `compiled` found or made last (see `compile`).
    private var lastCompiled: (source: String, function: JSObjectRef)?
    /// Functions made by `defineNativeFunction`, protected and registered for the run.
    private var natives: [JSObjectRef] = []
    /// How many lines `JSObjectMakeFunction` puts before the body (measured once, so positions are the script's).
    private var lineOffset = 0
    /// `stackText(e)`: a thrown Error's own `stack` text, read without running the script's code (see `place`).
    private var stackText: JSObjectRef?
    /// Objects taken out of the global object (`takeGlobal`), protected for the run.
    private var taken: [JSObjectRef] = []
    /// The empty string as a value, made and protected at the first call that passes one: most of
    /// `__reqrun.run`'s six arguments are empty for most requests (no auth, no cookies, the body and header
    /// fields the same as the last response's), and each made again cost a string, a value and a release
    /// (about 3,000 instructions, most of it JavaScriptCore's API lock: callgrind).
    private var emptyString: JSValueRef?
    /// What a top-level `await` script's rejection is handed to (`__reqrun.rejected`, set by the sandbox once
    /// it has taken `__reqrun`); nil: the rejection is not reported.
    var rejected: JSObjectRef?
    /// Decides in the time-limit callback whether a call has run or allocated too much.
    private let watchdog: ScriptWatchdog
    /// Ends the process when a call outlives what `watchdog` can stop (a chain of promise jobs).
    private let monitor: UnstoppableScriptMonitor
    var timeLimit: Double { watchdog.timeLimit }
    var memoryLimit: Int { watchdog.memoryLimit }

    /// A thrown JavaScript value: its text (`TypeError: …`) and where, in the script's own lines.
    struct Failure: Error {
        var message: String
        var line: Int?
        var column: Int?
        var timedOut: Bool
        /// Stopped by the memory bound (`ScriptWatchdog`).
        var outOfMemory = false
        /// Stopped because the run was interrupted (`Interruption`).
        var interrupted = false
    }

    /// - Throws: `SandboxError.unavailable` when the library cannot be loaded.
    /// - Parameter memoryLimit: bytes the process may grow by during one call (0: no bound).
    init(timeLimit: Double, memoryLimit: Int) throws(SandboxError) {
        if let error = rr_jsc_load(Self.library, &api) {
            throw .unavailable("cannot load \(Self.library) (\(String(cString: error))): scripts need Debian's libjavascriptcoregtk-4.1-0")
        }
        watchdog = ScriptWatchdog(timeLimit: timeLimit, memoryLimit: memoryLimit)
        monitor = UnstoppableScriptMonitor(timeLimit: timeLimit, memoryLimit: memoryLimit)
        group = api.JSContextGroupCreate()!
        context = api.JSGlobalContextCreateInGroup(group, nil)!
        if timeLimit > 0 || memoryLimit > 0 { armWatchdog() }
        stackText = makeStackText()
        // The probe throws on its first line: whatever is reported beyond 1 is the wrapper's.
        if case .failure(let failure) = call(try? compile("null.x", name: "probe"), arguments: []), let line = failure.line {
            lineOffset = line - 1
        }
    }

    /// Asks for the time-limit callback in `ScriptWatchdog.slice` seconds. JSC calls it once per limit: to be
    /// called again, the callback sets the limit again before returning false (as WebKit's own
    /// testExecutionTimeLimit does).
    private func armWatchdog() {
        api.JSContextGroupSetExecutionTimeLimit(group, ScriptWatchdog.slice, { _, info in
            let engine = Unmanaged<JavaScriptEngine>.fromOpaque(info!).takeUnretainedValue()
            if engine.watchdog.shouldStop() { return true }
            engine.armWatchdog()
            return false
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        monitor.stop()
        if let stackText { api.JSValueUnprotect(context, stackText) }
        if let emptyString { api.JSValueUnprotect(context, emptyString) }
        for object in taken { api.JSValueUnprotect(context, object) }
        for function in compiled.values { api.JSValueUnprotect(context, function) }
        for function in natives {
            NativeFunctions.remove(function)
            api.JSValueUnprotect(context, function)
        }
        api.JSGlobalContextRelease(context)
        api.JSContextGroupRelease(group)
    }

    /// How many distinct script texts have been compiled in this context.
    var compiledCount: Int { compiled.count }
    /// How many calls into JavaScript (`call`) this context has made.
    private(set) var callCount = 0

    /// Runs `source` as a global script (chai, the prelude).
    func evaluate(_ source: String, name: String) throws(Failure) {
        let script = string(source), url = string(name)
        defer { api.JSStringRelease(script); api.JSStringRelease(url) }
        var exception: JSValueRef?
        watchdog.arm()
        monitor.enter()
        _ = api.JSEvaluateScript(context, script, nil, url, 1, &exception)
        monitor.leave()
        if let exception { throw failure(exception, compiling: true) }
    }

    /// The function whose body is `source`, compiled on first use (`name`, its place, made only then).
    /// - Throws: the syntax error, with its line in `source`.
    func compile(_ source: String, name makeName: @autoclosure () -> String) throws(Failure) -> JSObjectRef {
        // The text compiled last first: a run's requests mostly share their scripts, and comparing its bytes
        // costs less than hashing it for the dictionary (about 1,300 instructions for case 6's 250-byte script:
        // callgrind).
        if let last = lastCompiled, last.source.sameUTF8(source) { return last.function }
        if let function = compiled[ScriptText(text: source)] {
            lastCompiled = (source, function)
            return function
        }
        let name = makeName()
        let body = string(source), url = string(name)
        defer { api.JSStringRelease(body); api.JSStringRelease(url) }
        var exception: JSValueRef?
        guard let function = api.JSObjectMakeFunction(context, nil, 0, nil, body, url, 1, &exception) else {
            let syntaxError = failure(exception, compiling: true)
            // `await` at the top level: postman-sandbox runs such a script as the body of an async function.
            if source.contains("await"), let function = try? compileAsync(source, name: name) { return function }
            throw syntaxError
        }
        api.JSValueProtect(context, function)
        compiled[ScriptText(text: source)] = function
        lastCompiled = (source, function)
        return function
    }

    /// The function that runs `source` as the body of an async function and hands its rejection to
    /// `rejected` (`__reqrun.rejected`, `SandboxSendRequest`), which it holds in its closure: no global
    /// names it. The script starts on a line of its own after `lineOffset`
    /// line feeds, as in `JSObjectMakeFunction`'s wrapper, so `failure`'s positions are the script's (line
    /// and column) whichever wrapper it ran in.
    private func compileAsync(_ source: String, name: String) throws(Failure) -> JSObjectRef {
        let wrapped = "(function (rejected) { return function () { return (async function () {" + String(repeating: "\n", count: lineOffset)
            + source + "\n})().then(undefined, function (e) { if (typeof rejected === 'function') rejected(e); }); }; })"
        let script = string(wrapped), url = string(name)
        defer { api.JSStringRelease(script); api.JSStringRelease(url) }
        var exception: JSValueRef?
        let maker = api.JSEvaluateScript(context, script, nil, url, 1, &exception)
        if let exception { throw failure(exception, compiling: true) }
        var handler: JSValueRef? = rejected ?? api.JSValueMakeUndefined(context)
        guard let maker, api.JSValueIsObject(context, maker), let makeFunction = api.JSValueToObject(context, maker, nil),
              let value = api.JSObjectCallAsFunction(context, makeFunction, nil, 1, &handler, nil), api.JSValueIsObject(context, value),
              let function = api.JSValueToObject(context, value, nil) else {
            throw Failure(message: "the script did not compile", timedOut: false)
        }
        api.JSValueProtect(context, function)
        compiled[ScriptText(text: source)] = function
        lastCompiled = (source, function)
        return function
    }

    /// Calls `function` (nil: a compile failure already reported) with string arguments; returns its value as text.
    /// - Parameter first: a function handed over before the strings (`__reqrun.run`'s script; nil: `undefined`),
    ///   when `passesFunction`.
    @discardableResult
    func call(_ function: JSObjectRef?, arguments: [String], passing first: JSObjectRef? = nil, passesFunction: Bool = false)
        -> Result<String, Failure> {
        guard let function else { return .failure(Failure(message: "not compiled", timedOut: false)) }
        var values: [JSValueRef?] = []
        values.reserveCapacity(arguments.count + 1)
        if passesFunction { values.append(first ?? api.JSValueMakeUndefined(context)) }
        for text in arguments {
            if text.isEmpty {
                values.append(emptyValue())
                continue
            }
            let s = Self.argument(text, api)
            values.append(api.JSValueMakeString(context, s))
            api.JSStringRelease(s)
        }
        var exception: JSValueRef?
        callCount += 1
        watchdog.arm()
        monitor.enter()
        let result = values.withUnsafeBufferPointer { buffer in
            api.JSObjectCallAsFunction(context, function, nil, buffer.count, buffer.baseAddress, &exception)
        }
        monitor.leave()
        if let exception { return .failure(failure(exception)) }
        if let reason = watchdog.take() { jobsStopped = jobsStopped ?? reason }
        return .success(result.map(text) ?? "")
    }

    /// See `emptyString`.
    private func emptyValue() -> JSValueRef? {
        if let emptyString { return emptyString }
        let s = api.JSStringCreateWithUTF8CString("")
        let value = api.JSValueMakeString(context, s)
        api.JSStringRelease(s)
        api.JSValueProtect(context, value)
        emptyString = value
        return value
    }

    /// Why a call that returned without an exception was stopped, until `takeJobsStopped()`: JavaScriptCore runs
    /// the promise jobs a script leaves as the call returns, and a job it stops there (`Promise.resolve().then(()
    /// => { for (;;) {} })`) reports no exception to the caller. The caller then ends the event as usual and
    /// reports the script as stopped (failing the call instead made JavaScriptCore abort at the next call).
    private var jobsStopped: ScriptWatchdog.Reason?

    /// See `jobsStopped`; clears it.
    func takeJobsStopped() -> ScriptWatchdog.Reason? {
        defer { jobsStopped = nil }
        return jobsStopped
    }

    /// The global object `name` (`__reqrun`, an identifier), taken out of the global object (deleted) and protected for the
    /// run: what the caller then looks up in it (`function(_:in:)`) no script can reach. Nil when there is
    /// no such object or it cannot be deleted.
    func takeGlobal(_ name: String) -> JSObjectRef? {
        let global = api.JSContextGetGlobalObject(context)
        guard let value = property(global, name), api.JSValueIsObject(context, value), let object = api.JSValueToObject(context, value, nil) else { return nil }
        api.JSValueProtect(context, object)
        taken.append(object)
        guard (try? evaluate("delete globalThis.\(name);", name: "reqrun-take.js")) != nil,
              property(global, name).map({ api.JSValueIsUndefined(context, $0) }) != false else { return nil }
        return object
    }

    /// The function `name` of `object` (`begin` of the taken `__reqrun`), looked up once by the caller.
    func function(_ name: String, in object: JSObjectRef) -> JSObjectRef? {
        guard let function = property(object, name), api.JSValueIsObject(context, function) else { return nil }
        return api.JSValueToObject(context, function, nil)
    }

    private func property(_ object: JSObjectRef?, _ name: String) -> JSValueRef? {
        let key = string(name)
        defer { api.JSStringRelease(key) }
        return api.JSObjectGetProperty(context, object, key, nil)
    }

    /// - Parameter compiling: the exception is a syntax error of code being compiled (no script has run yet),
    ///   whose `line` and `column` JavaScriptCore set and nothing could change; else see `place`.
    private func failure(_ exception: JSValueRef?, compiling: Bool = false) -> Failure {
        let reason = watchdog.take()
        if reason == .memory { api.JSGarbageCollect(context) }
        guard let exception else {
            return Failure(message: "unknown error", timedOut: reason == .time, outOfMemory: reason == .memory, interrupted: reason == .interrupted)
        }
        var line: Int?, column: Int?
        if compiling, api.JSValueIsObject(context, exception) {
            let object = api.JSValueToObject(context, exception, nil)
            line = number(property(object, "line"))
            column = number(property(object, "column"))
        } else if reason == nil, let place = place(exception) {
            // (A call stopped by the limits has no position to report, and JavaScriptCore runs no code then.)
            (line, column) = (place.line, place.column)
        }
        return Failure(message: text(exception), line: line.map { $0 - lineOffset }, column: column, timedOut: reason == .time,
                       outOfMemory: reason == .memory, interrupted: reason == .interrupted)
    }

    /// Where JavaScriptCore says a thrown value was made: the first frame with a position (`name@url:line:column`)
    /// of an Error's own `stack`, the trace JavaScriptCore records when it makes the Error (its `line` and
    /// `column` are that frame's). A script may set `line` or `column` on what it throws (`throw {line: 1}`,
    /// `e.line = 99`): they are not read. A value that is not an Error (`Error.isError`, JavaScriptCore's
    /// brand check) has no position: JavaScriptCore records none for it.
    private func place(_ exception: JSValueRef) -> (line: Int, column: Int)? {
        guard let stackText else { return nil }
        var argument: JSValueRef? = exception
        var failed: JSValueRef?
        guard let value = api.JSObjectCallAsFunction(context, stackText, nil, 1, &argument, &failed), failed == nil,
              !api.JSValueIsUndefined(context, value) else { return nil }
        return Self.firstPosition(inStack: text(value))
    }

    /// The line and column of the first frame of a JavaScriptCore stack text that has them
    /// (`f@c.json:3:15`; `parse@[native code]` and `anonymous@` have none).
    static func firstPosition(inStack stack: String) -> (line: Int, column: Int)? {
        for frame in stack.split(separator: "\n") where frame.contains("@") {
            let parts = frame.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count >= 3, let line = Int(parts[parts.count - 2]), let column = Int(parts[parts.count - 1]) else { continue }
            return (line, column)
        }
        return nil
    }

    /// The function behind `place`, made before any script runs: it holds the original `Error.isError`,
    /// `Object.getOwnPropertyDescriptor` and `Object.setPrototypeOf`, so a script that replaces them (or
    /// puts a getter on `Object.prototype.value`) runs none of its code while its error is read. It gives
    /// the thrown Error's own `stack` when that is a data property holding text, else undefined.
    private func makeStackText() -> JSObjectRef? {
        let source = """
            (function (isError, describe, detach) {
              return function (e) {
                if (typeof isError !== 'function' || !isError(e)) return undefined;
                var d = describe(e, 'stack');
                if (d === undefined) return undefined;
                detach(d, null);
                return typeof d.value === 'string' ? d.value : undefined;
              };
            })(Error.isError, Object.getOwnPropertyDescriptor, Object.setPrototypeOf)
            """
        let script = string(source), url = string("reqrun-stack")
        defer { api.JSStringRelease(script); api.JSStringRelease(url) }
        guard let value = api.JSEvaluateScript(context, script, nil, url, 1, nil), api.JSValueIsObject(context, value),
              let function = api.JSValueToObject(context, value, nil) else { return nil }
        api.JSValueProtect(context, function)
        return function
    }

    private func number(_ value: JSValueRef?) -> Int? {
        guard let value, !api.JSValueIsUndefined(context, value) else { return nil }
        let number = api.JSValueToNumber(context, value, nil)
        return number.isFinite ? Int(number) : nil
    }

    private func text(_ value: JSValueRef) -> String { Self.text(value, in: context, api) }

    private func string(_ text: String) -> JSStringRef { Self.string(text, api) }

    fileprivate static func text(_ value: JSValueRef, in context: JSContextRef, _ api: RRJSC) -> String {
        guard let s = api.JSValueToStringCopy(context, value, nil) else { return "" }
        defer { api.JSStringRelease(s) }
        // `__reqrun.run`'s and `after`'s usual result (no step to take): no buffer sized and converted.
        if api.JSStringGetLength(s) == 0 { return "" }
        let size = api.JSStringGetMaximumUTF8CStringSize(s)
        // Written straight into the string's storage (the bytes, then a NUL that is not kept): copying them
        // out byte by byte cost about 40 instructions a byte of each script's result (callgrind).
        return String(unsafeUninitializedCapacity: size) { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                max(0, Int(api.JSStringGetUTF8CString(s, chars.baseAddress, size)) - 1)
            }
        }
    }

    fileprivate static func string(_ text: String, _ api: RRJSC) -> JSStringRef {
        // JSStringCreateWithUTF8CString stops at a NUL: one inside a script or body would cut it short.
        // (Checked first: Foundation's replacingOccurrences on every body showed in profiles.)
        api.JSStringCreateWithUTF8CString(hasNUL(text) ? text.replacingOccurrences(of: "\0", with: "\u{FFFD}") : text)!
    }

    /// `text` for a call's argument, as UTF-16 (`JSStringCreateWithCharacters`), a NUL as U+FFFD as in `string`:
    /// `JSStringCreateWithUTF8CString` decodes UTF-8 one character at a time, about 30 instructions a byte
    /// (callgrind of the C API: 16,400 instructions for a 330-byte ASCII argument and a call, 6,700 from
    /// UTF-16); an ASCII text is widened byte by byte. Scripts' and chai's sources stay UTF-8 (`string`): a
    /// 16-bit source is parsed more slowly, and the per-byte cost there is paid once per text.
    static func argument(_ text: String, _ api: RRJSC) -> JSStringRef {
        var text = text
        let ascii: JSStringRef? = text.withUTF8 { bytes in
            var high: UInt8 = 0
            for byte in bytes { high |= byte }
            guard high < 0x80 else { return nil }
            return withUnsafeTemporaryAllocation(of: JSChar.self, capacity: max(1, bytes.count)) { units in
                for index in bytes.indices { units[index] = bytes[index] == 0 ? 0xFFFD : JSChar(bytes[index]) }
                return api.JSStringCreateWithCharacters(units.baseAddress, bytes.count)
            }
        }
        if let ascii { return ascii }
        let units = text.utf16.map { $0 == 0 ? 0xFFFD : $0 }
        return units.withUnsafeBufferPointer { api.JSStringCreateWithCharacters($0.baseAddress, $0.count)! }
    }

    /// Whether `text` has a NUL, with `memchr` (a byte loop over each call's arguments, the input JSON among
    /// them, was about 20,000 instructions a scripted request: callgrind).
    static func hasNUL(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in bytes.baseAddress.map { memchr($0, 0, bytes.count) != nil } ?? false }
    }
}

/// Why the sandbox could not start.
public enum SandboxError: Error, CustomStringConvertible {
    /// JavaScriptCore or chai is not installed, or chai did not load.
    case unavailable(String)

    public var description: String {
        switch self {
        case .unavailable(let reason): return reason
        }
    }
}

/// Native functions: JavaScript calls into Swift (`JSObjectMakeFunctionWithCallback`, whose callback has no
/// context pointer, so each function object is looked up by its address in `NativeFunctions`).
extension JavaScriptEngine {
    /// Defines the non-enumerable global `name` as a function whose calls run `body` with the arguments as
    /// text (`undefined` as ""); its result is `body`'s text, `undefined` for nil. The prelude takes such a
    /// function into its closure and deletes the global, so scripts never reach it.
    func defineNativeFunction(_ name: String, _ body: @escaping @Sendable ([String]) -> String?) {
        let key = string(name)
        defer { api.JSStringRelease(key) }
        guard let function = api.JSObjectMakeFunctionWithCallback(context, key, { ctx, function, _, count, arguments, _ in
            guard let ctx, let function, let native = NativeFunctions.lookup(function) else { return nil }
            let texts = (0..<count).map { index -> String in
                guard let value = arguments?[index], !native.api.JSValueIsUndefined(ctx, value) else { return "" }
                return JavaScriptEngine.text(value, in: ctx, native.api)
            }
            guard let result = native.body(texts) else { return native.api.JSValueMakeUndefined(ctx) }
            let s = JavaScriptEngine.string(result, native.api)
            defer { native.api.JSStringRelease(s) }
            return native.api.JSValueMakeString(ctx, s)
        }) else { return }
        api.JSValueProtect(context, function)
        NativeFunctions.register(function, NativeFunctions.Entry(api: api, body: body))
        natives.append(function)
        api.JSObjectSetProperty(context, api.JSContextGetGlobalObject(context), key, function,
                                JSPropertyAttributes(kJSPropertyAttributeDontEnum), nil)
    }
}

/// The native functions of every engine, by the address of their function object.
enum NativeFunctions {
    struct Entry: @unchecked Sendable {
        var api: RRJSC
        var body: @Sendable ([String]) -> String?
    }

    private static let table = Mutex<[UInt: Entry]>([:])

    static func register(_ function: JSObjectRef, _ entry: Entry) {
        table.withLock { $0[UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(function)))] = entry }
    }

    static func remove(_ function: JSObjectRef) {
        _ = table.withLock { $0.removeValue(forKey: UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(function)))) }
    }

    static func lookup(_ function: JSObjectRef) -> Entry? {
        table.withLock { $0[UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(function)))] }
    }
}
