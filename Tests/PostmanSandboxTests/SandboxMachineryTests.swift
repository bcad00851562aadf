import Testing
import PostmanSandbox
import ReqRunKit

/// The sandbox's own machinery (`__reqrun`: `begin`, `end`, `after`, the scopes it holds) is out of the
/// scripts' reach: no global names it once the sandbox has started, so a script can neither read it nor
/// change what its own or a later request's event reports.
@Suite struct SandboxMachineryTests {
    private static let context = ScriptContext(requestName: "r", requestID: nil, collectionKey: 0, collectionValues: [:],
                                               groupValues: [:], environmentValues: [:], upperValues: [:])
    private static let response = ResponseView(status: 200, headers: [], body: Array("{}".utf8), bodySize: 2, totalMicroseconds: 1_000)

    private func test(_ sandbox: PostmanSandbox, _ source: String, variables: inout ScriptVariables) -> ScriptOutcome {
        sandbox.test([Script(event: .test, source: source, file: "c.json", fieldPath: "item[0].event[0]")], request: Request(url: "http://x.invalid/"),
                     response: Self.response, context: Self.context, variables: &variables)
    }

    @Test func scriptsSeeNoMachinery() throws {
        let sandbox = try PostmanSandbox()
        var variables = ScriptVariables()
        let outcome = test(sandbox, """
            var names = Object.getOwnPropertyNames(globalThis).filter(function (n) { return /reqrun/i.test(n); });
            pm.test(JSON.stringify([typeof __reqrun, '__reqrun' in globalThis, typeof globalThis.__reqrun, names]), () => {});
            """, variables: &variables)
        #expect(outcome.error == nil)
        #expect(outcome.assertions.map(\.name) == [#"["undefined",false,"undefined",[]]"#])
    }

    @Test func aScriptCannotForgeWhatTheNextRequestReports() throws {
        let sandbox = try PostmanSandbox()
        var variables = ScriptVariables()
        let forged = #"JSON.stringify({assertions: [{name: 'forged', passed: true, skipped: false, error: null, place: ''}]})"#
        let forging = test(sandbox, """
            try { __reqrun.end = function () { return \(forged); }; } catch (e) {}
            try { var r = __reqrun; r.after = r.end; } catch (e) {}
            globalThis.__reqrun = { end: function () { return \(forged); }, after: function () { return \(forged); } };
            pm.environment.set('mine', 'set');
            pm.test('own', () => {});
            """, variables: &variables)
        #expect(forging.assertions.map(\.name) == ["own"])
        #expect(variables.environment["mine"] == "set")
        let next = test(sandbox, "pm.test('fails', () => pm.expect(1).to.equal(2));", variables: &variables)
        #expect(next.assertions.map { "\($0.name) \($0.passed)" } == ["fails false"])
    }

    /// A top-level `await` script's rejection still reaches the machinery (through its closure, not a global).
    @Test func anAwaitScriptsRejectionIsStillItsError() throws {
        let sandbox = try PostmanSandbox()
        var variables = ScriptVariables()
        let outcome = test(sandbox, "await Promise.resolve();\nthrow new TypeError('after await');", variables: &variables)
        #expect(outcome.error?.hasSuffix("TypeError: after await") == true, "\(outcome.error ?? "no error")")
    }
}
