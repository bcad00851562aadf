import Testing
import PostmanSandbox
import ReqRunKit

/// The sandbox on its own (no server: the response is given): one context, scripts compiled once.
@Suite struct PostmanSandboxTests {
    private static let context = ScriptContext(requestName: "r", requestID: nil, collectionKey: 0, collectionValues: [:],
                                               groupValues: [:], environmentValues: [:], upperValues: [:])
    private static let response = ResponseView(status: 201, headers: [HeaderField(name: "Content-Type", value: "application/json")],
                                               body: Array(#"{"id": 7}"#.utf8), bodySize: 9, totalMicroseconds: 12_345)

    private func test(_ sandbox: PostmanSandbox, _ lines: [String], variables: inout ScriptVariables) -> ScriptOutcome {
        let script = Script(event: .test, source: lines.joined(separator: "\n"), file: "c.json", fieldPath: "item[0].event[0]")
        return sandbox.test([script], request: Request(url: "http://x.invalid/"), response: Self.response, context: Self.context,
                            variables: &variables)
    }

    @Test func eachDistinctScriptIsCompiledOnceForTheRun() throws {
        let sandbox = try PostmanSandbox()
        var variables = ScriptVariables()
        let before = sandbox.compiledScriptCount
        let script = ["pm.test('created', () => pm.response.to.have.status(201));"]
        for _ in 0..<5 {
            #expect(test(sandbox, script, variables: &variables).assertions.map(\.passed) == [true])
        }
        #expect(sandbox.compiledScriptCount == before + 1)
        _ = test(sandbox, ["pm.test('other', () => {});"], variables: &variables)
        #expect(sandbox.compiledScriptCount == before + 2)
    }

    @Test func valuesSetComeBackByScopeAndOnlyWhenTheyDifferFromTheFiles() throws {
        let sandbox = try PostmanSandbox()
        var variables = ScriptVariables()
        let outcome = test(sandbox, [
            "pm.environment.set('id', pm.response.json().id); pm.globals.set('flag', true);",
            "pm.collectionVariables.set('obj', {a: 1}); pm.variables.set('t', pm.response.responseTime);",
        ], variables: &variables)
        #expect(outcome.error == nil)
        #expect(variables.environment == ["id": "7"])
        #expect(variables.globals == ["flag": "true"])
        #expect(variables.collections[0] == ["obj": #"{"a":1}"#])
        #expect(variables.local == ["t": "12"])
    }

    @Test func valuesKeepTheirJavaScriptTypeForTheRestOfTheRunWhileTheirTextIsUnchanged() throws {
        let sandbox = try PostmanSandbox()
        var variables = ScriptVariables()
        _ = test(sandbox, ["pm.environment.set('n', 5); pm.collectionVariables.set('o', {a: 1}); pm.globals.set('b', false);",
                           "pm.environment.set('changed', 1);"], variables: &variables)
        #expect(variables.environment == ["n": "5", "changed": "1"])
        variables.environment["changed"] = "2"  // as if set again from elsewhere: the text wins
        let outcome = test(sandbox, [
            "pm.test('typed', () => { pm.expect(pm.environment.get('n')).to.equal(5); pm.expect(pm.collectionVariables.get('o')).to.eql({a: 1});",
            "  pm.expect(pm.globals.get('b')).to.equal(false); pm.expect(pm.environment.get('changed')).to.equal('2');",
            "  pm.expect(pm.variables.replaceIn('{{n}}/{{b}}')).to.equal('5/false'); });",
        ], variables: &variables)
        #expect(outcome.assertions.map(\.passed) == [true], "\(outcome.assertions)")
    }

    @Test func theTimeLimitCanBeTurnedOffAndAThrownStringIsReportedWithoutPosition() throws {
        let sandbox = try PostmanSandbox(timeLimit: 0)
        var variables = ScriptVariables()
        let outcome = test(sandbox, ["throw 'plain text';"], variables: &variables)
        #expect(outcome.error == "c.json: item[0].event[0] (test): plain text")
    }
}
