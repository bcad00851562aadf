import ReqRunKit

/// One `PostmanSandbox` (one JavaScript context) per collection of the run, made when the collection's first
/// script runs.
///
/// A context's built-ins (`Object.prototype`, `JSON`, chai's assertion methods, the modules' objects) outlive
/// the globals reset each request gets, so a script that changes them changes them for every later script
/// of that context: within a collection that is Newman's behaviour (one sandbox for the run of one
/// collection); across collections of one run it would let a collection from elsewhere read another's
/// variables and responses, or make its failing tests pass. Each collection (`ScriptContext.collectionKey`)
/// therefore has a context of its own.
public final class CollectionSandboxes: RequestScripting {
    private let timeLimit: Double
    private let memoryLimit: Int
    private var sandboxes: [Int: PostmanSandbox] = [:]
    /// The context made at start (so a missing JavaScriptCore or chai fails the run before anything is
    /// sent), given to the first collection that runs a script.
    private var first: PostmanSandbox?

    /// - Throws: `SandboxError.unavailable` when JavaScriptCore or chai cannot be loaded.
    public init(timeLimit: Double = PostmanSandbox.defaultTimeLimit, memoryLimit: Int = PostmanSandbox.defaultMemoryLimit) throws(SandboxError) {
        self.timeLimit = timeLimit
        self.memoryLimit = memoryLimit
        first = try PostmanSandbox(timeLimit: timeLimit, memoryLimit: memoryLimit)
    }

    /// How many distinct script texts the run's contexts have compiled so far.
    public var compiledScriptCount: Int { sandboxes.values.reduce(first?.compiledScriptCount ?? 0) { $0 + $1.compiledScriptCount } }

    private func sandbox(_ key: Int) -> Result<PostmanSandbox, SandboxError> {
        if let made = sandboxes[key] { return .success(made) }
        let made: PostmanSandbox
        if let first {
            made = first
            self.first = nil
        } else {
            do { made = try PostmanSandbox(timeLimit: timeLimit, memoryLimit: memoryLimit) } catch { return .failure(error) }
        }
        sandboxes[key] = made
        return .success(made)
    }

    public func preRequest(_ scripts: [Script], request: inout Request, context: ScriptContext,
                           variables: inout ScriptVariables) -> ScriptOutcome {
        switch sandbox(context.collectionKey) {
        case .success(let sandbox): return sandbox.preRequest(scripts, request: &request, context: context, variables: &variables)
        case .failure(let error): return Self.failed(error)
        }
    }

    public func test(_ scripts: [Script], request: Request, response: ResponseView?, context: ScriptContext,
                     variables: inout ScriptVariables) -> ScriptOutcome {
        switch sandbox(context.collectionKey) {
        case .success(let sandbox): return sandbox.test(scripts, request: request, response: response, context: context, variables: &variables)
        case .failure(let error): return Self.failed(error)
        }
    }

    private static func failed(_ error: SandboxError) -> ScriptOutcome {
        var outcome = ScriptOutcome()
        outcome.error = error.description
        return outcome
    }
}
