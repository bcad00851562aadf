/// Runs a request's pre-request and test scripts (implemented by the `PostmanSandbox` target on
/// JavaScriptCore; the CLI hands one to `Runner.run` when a selected request has scripts).
///
/// The runner calls it on one thread, in list order: for each request `preRequest` (possibly changing the
/// request) before its variables are resolved, then, when a response arrived, `test`. Both get the values
/// scripts set so far (`ScriptVariables`) and return them changed.
public protocol RequestScripting: AnyObject {
    /// Runs `scripts` (the request's `prerequest` scripts, collection first) on `request`, whose templates
    /// are not resolved yet; the scripts may change its method, URL, header fields, raw body and auth. The
    /// request's `auth` is the one that applies (`RequestReference.effectiveAuth`, set by the runner); after
    /// the scripts, nil means inherit, `.none` none.
    func preRequest(_ scripts: [Script], request: inout Request, context: ScriptContext, variables: inout ScriptVariables) -> ScriptOutcome

    /// Runs `scripts` (the request's `test` scripts, collection first) on `response`; nil after a transport
    /// error, when Newman runs the test scripts without a response (postman-runtime's item command queues the
    /// test event whatever the request's outcome): `pm.response` is then undefined.
    func test(_ scripts: [Script], request: Request, response: ResponseView?, context: ScriptContext,
              variables: inout ScriptVariables) -> ScriptOutcome
}

/// What a script sees of the request's place and variables besides the values scripts set.
public struct ScriptContext: Sendable {
    /// The request's name and id (Postman's `pm.info.requestName`, `requestId`).
    public var requestName: String
    public var requestID: String?
    /// The collection's key in `ScriptVariables.collections` (its position in the workspace).
    public var collectionKey: Int
    /// Values as the files give them, in the files' order (`VariableList`): the collection's variables, the
    /// groups' (outer to inner merged), the environment's, and the layers above the environment (`--var`,
    /// captures) merged.
    public var collectionValues: VariableList
    public var groupValues: VariableList
    public var environmentValues: VariableList
    public var upperValues: VariableList
    /// `pm.info.iteration` (from 0) and `iterationCount`; the iteration's data row (`pm.iterationData`,
    /// `data`); the globals file's values (`--globals`), under what scripts set in `pm.globals`.
    public var iteration = 0
    public var iterationCount = 1
    public var iterationData: [Variable] = []
    /// The JSON text of the data row's values that are not strings, by name (`IterationData.jsonValues`).
    public var iterationDataJSON: [String: String] = [:]
    public var globalValues: VariableList = [:]
    /// `pm.execution.location`: the item names from the collection down to the request (the collection's
    /// name, its folders outer to inner, the request's name; a group that `standsForCollection` left out).
    public var location: [String] = []
    /// `pm.sendRequest` and `pm.cookies.jar()` (nil: no network, as in `--dry-run`: a script request then
    /// gets an error).
    public var transport: (any ScriptTransport)?

    public init(requestName: String, requestID: String?, collectionKey: Int, collectionValues: VariableList,
                groupValues: VariableList, environmentValues: VariableList, upperValues: VariableList) {
        self.requestName = requestName
        self.requestID = requestID
        self.collectionKey = collectionKey
        self.collectionValues = collectionValues
        self.groupValues = groupValues
        self.environmentValues = environmentValues
        self.upperValues = upperValues
    }

    /// This context in `iteration` of a run with `data`.
    public func iteration(_ iteration: Int, of data: RunData) -> ScriptContext {
        var context = self
        context.iteration = iteration
        context.iterationCount = data.count
        context.iterationData = data.row(iteration)
        context.iterationDataJSON = data.jsonValues(iteration)
        context.globalValues = data.globalValues
        return context
    }
}

/// The values scripts set during a run, by Postman scope (`pm.globals`, `pm.collectionVariables`,
/// `pm.environment`, `pm.variables`): only what scripts set, over the files' values. They are data: used as
/// written in `{{name}}` resolution, never expanded again (`VariableLayer.isLiteral`).
public struct ScriptVariables: Sendable, Equatable {
    public var globals: [String: String] = [:]
    /// By `ScriptContext.collectionKey`.
    public var collections: [Int: [String: String]] = [:]
    public var environment: [String: String] = [:]
    /// `pm.variables.set`: Postman's local scope, over every other for the rest of the run.
    public var local: [String: String] = [:]
    /// Names of the globals file's values (`--globals`) that a script unset or cleared and did not set again:
    /// gone for the rest of the run, as Newman's `pm.globals.unset` and `clear` remove them from the scope
    /// (later scripts, `{{name}}` resolution and `--export-globals` do not see them).
    public var unsetGlobals: Set<String> = []
    /// The same for a collection's variables (`pm.collectionVariables`), by `ScriptContext.collectionKey`.
    public var unsetCollections: [Int: Set<String>] = [:]
    /// The same for the environment file's values (`pm.environment`, `--export-environment`).
    public var unsetEnvironment: Set<String> = []
    /// Each scope's names in Postman's order as the scripts last left it (`VariableList`: the file's names,
    /// then the ones scripts added; a name unset and set again last), by scope; none (the file's order, then
    /// the names scripts set, sorted) for a scope no script changed. What the next script sees in
    /// `toObject()` and what `--export-environment` and `--export-globals` write.
    public var order: [Scope: [String]] = [:]
    /// Names whose script-set values are secrets (set on a secret variable of the environment or globals
    /// file, or to a value equal to a known secret): masked, and exported with `type` `secret`.
    public var secretNames: Set<String> = []

    public init() {}

    /// A Postman variable scope scripts change.
    public enum Scope: Hashable, Sendable {
        case globals, environment, local
        /// By `ScriptContext.collectionKey`.
        case collection(Int)
    }

    /// What a script sees of a scope: `base` (the file's values) without the names scripts unset, under the
    /// values scripts set (`set`), in the order of `order` (the scope's, as scripts left it); a name of
    /// `base` that order does not have (a file's value that was not there then) follows, then the set names
    /// it does not have, sorted.
    public static func present(_ base: VariableList, _ set: [String: String], unset: Set<String>, order: [String]?) -> VariableList {
        var values = VariableList()
        for name in order ?? [] {
            if let value = set[name] ?? (unset.contains(name) ? nil : base[name]) { values[name] = value }
        }
        for (name, value) in base where values[name] == nil && !unset.contains(name) { values[name] = set[name] ?? value }
        if set.contains(where: { values[$0.key] == nil }) {
            for name in set.keys.sorted() where values[name] == nil { values[name] = set[name] }
        }
        return values
    }
}

/// What a request's scripts of one event did.
public struct ScriptOutcome: Sendable, Equatable {
    /// `pm.test` and `tests["…"]` assertions, in the order they were made.
    public var assertions: [ScriptAssertion] = []
    /// `console.*` lines, in order (`warn: …`, `error: …` for the levels other than `log`).
    public var console: [String] = []
    /// A syntax error, an uncaught exception or the time limit, with the script's place and position
    /// (`collections/shop.json: item[3].event[1] (test) 4:12: TypeError: …`); the later scripts of the
    /// event did not run.
    public var error: String?
    /// A pre-request script called `pm.execution.skipRequest()`: the request is not sent (Postman's meaning);
    /// the request's later scripts did not run.
    public var skipRequest = false
    /// `postman.setNextRequest(…)` / `pm.execution.setNextRequest(…)` (the last call): where the run goes
    /// after this request (`Runner`, Newman's semantics); nil when not called.
    public var nextRequest: NextRequest?
    /// The `pm.sendRequest` exchanges of the event (filled by the runner from its `ScriptTransport`).
    public var requests: [ScriptExchange] = []

    public init(assertions: [ScriptAssertion] = [], console: [String] = [], error: String? = nil) {
        self.assertions = assertions
        self.console = console
        self.error = error
    }
}

/// One `pm.test` (or legacy `tests["name"] = value`) assertion.
public struct ScriptAssertion: Sendable, Equatable {
    public var name: String
    public var passed: Bool
    /// `pm.test.skip`: neither passed nor failed (counted as passed).
    public var skipped: Bool
    /// Why it failed: the exception's name and message (`AssertionError: expected 404 to equal 200`).
    public var error: String?
    /// The script's place (`Script.place`).
    public var place: String

    public init(name: String, passed: Bool, skipped: Bool = false, error: String? = nil, place: String) {
        self.name = name
        self.passed = passed
        self.skipped = skipped
        self.error = error
        self.place = place
    }
}

/// Where `setNextRequest` sends the run after the current request.
public enum NextRequest: Sendable, Equatable {
    /// A request of the selection, by id or name (`setNextRequest('Login')`).
    case request(String)
    /// `setNextRequest(null)`: the iteration stops.
    case stop
}
