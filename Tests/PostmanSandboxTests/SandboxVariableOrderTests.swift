import Testing
import PostmanSandbox
import ReqRunKit

/// Between the scripts of one event the sandbox applies a script's changes to the run's scopes as Newman's
/// runtime does (compacted mutations: each name's last change, in the order of its first): a name unset and
/// set again is back in its place, new names follow in the order first set, `clear` then `set` keeps the
/// old places; within the script, the list's own order (a re-added name last).
@Suite struct SandboxVariableOrderTests {
    private static let context = ScriptContext(requestName: "r", requestID: nil, collectionKey: 0, collectionValues: [:],
                                               groupValues: [:], environmentValues: ["a": "1", "b": "2", "c": "3"], upperValues: [:])
    private static let response = ResponseView(status: 200, headers: [], body: Array("{}".utf8), bodySize: 2, totalMicroseconds: 1_000)

    private func run(_ sandbox: PostmanSandbox, _ sources: [String], variables: inout ScriptVariables) -> ScriptOutcome {
        let scripts = sources.enumerated().map { Script(event: .test, source: $1, file: "c.json", fieldPath: "item[0].event[\($0)]") }
        return sandbox.test(scripts, request: Request(url: "http://x.invalid/"), response: Self.response, context: Self.context, variables: &variables)
    }

    @Test func theNextScriptSeesTheCompactedChanges() throws {
        let sandbox = try PostmanSandbox()
        var variables = ScriptVariables()
        let keys = "Object.keys(pm.environment.toObject()).join()"
        let outcome = run(sandbox, [
            "pm.environment.unset('a'); pm.environment.set('a', 'again'); pm.environment.set('n1', 1); pm.environment.set('n2', 2);"
                + "pm.environment.unset('n1'); pm.environment.set('n1', 3); pm.test(\(keys), () => {});",
            "pm.test(\(keys), () => {}); pm.environment.clear(); pm.environment.set('c', 'x'); pm.environment.set('a', 'y'); pm.test(\(keys), () => {});",
            "pm.test(\(keys), () => {}); postman.clearEnvironmentVariable('c'); postman.setEnvironmentVariable('c', 'z'); postman.setEnvironmentVariable('b', 'w');",
        ], variables: &variables)
        #expect(outcome.error == nil)
        #expect(outcome.assertions.map(\.name) == ["b,c,a,n2,n1", "a,b,c,n1,n2", "c,a", "a,c"])
        #expect(variables.order[.environment] == ["a", "c", "b"])
        #expect(variables.environment == ["a": "y", "c": "z", "b": "w"])
        #expect(variables.unsetEnvironment == [])
        // The next request's script sees the scope as the last script left it.
        #expect(run(sandbox, ["pm.test(\(keys), () => {});"], variables: &variables).assertions.map(\.name) == ["a,c,b"])
    }
}
