import Testing
import ReqRunKit
@testable import PostmanSandbox

/// What one request's script must not do to what later requests' scripts see and report, and what a script's
/// odd but legal values must not cost its request.
@Suite struct SandboxRobustnessTests {
    private static let context = ScriptContext(requestName: "r", requestID: nil, collectionKey: 0, collectionValues: [:],
                                               groupValues: [:], environmentValues: [:], upperValues: [:])

    private func test(_ sandbox: PostmanSandbox, _ source: String, body: String = #"{"id": 7}"#,
                      variables: inout ScriptVariables) -> ScriptOutcome {
        let script = Script(event: .test, source: source, file: "c.json", fieldPath: "item[0].event[0]")
        let response = ResponseView(status: 200, headers: [HeaderField(name: "Content-Type", value: "application/json")],
                                    body: Array(body.utf8), bodySize: body.utf8.count, totalMicroseconds: 1_000)
        return sandbox.test([script], request: Request(url: "http://x.invalid/"), response: response, context: Self.context,
                            variables: &variables)
    }

    /// The response's body handed over beside the input JSON (`__reqrun.run`) is the request's own even when
    /// an earlier script put a `body` on `Object.prototype` (a change to a built-in, which later scripts do
    /// see): it was taken for "the body is in the JSON" and replaced the real one.
    @Test func aBodyOnObjectPrototypeDoesNotReplaceALaterResponsesBody() throws {
        let sandbox = try PostmanSandbox()
        var variables = ScriptVariables()
        let first = test(sandbox, "Object.prototype.body = 'polluted'; pm.test('first', () => {});", variables: &variables)
        #expect(first.error == nil, "\(first.error ?? "")")
        let next = test(sandbox, """
            pm.test('own body', () => { pm.expect(pm.response.text()).to.equal('{"id": 8}'); pm.expect(responseBody).to.equal('{"id": 8}');
              pm.expect(pm.response.json().id).to.equal(8); });
            """, body: #"{"id": 8}"#, variables: &variables)
        #expect(next.error == nil, "\(next.error ?? "")")
        #expect(next.assertions.map { "\($0.name) \($0.passed) \($0.error ?? "")" } == ["own body true "])
    }

    /// A string with a lone surrogate (half of an emoji cut by `slice`, common when logging the start of a
    /// body) in a console line, a test's name or a variable is legal JavaScript: the request keeps its
    /// assertions and console lines, the half written U+FFFD, instead of failing with "the script sandbox
    /// failed to finish the test scripts".
    @Test func aLoneSurrogateInTheScriptsOutputKeepsItsResults() throws {
        let sandbox = try PostmanSandbox()
        var variables = ScriptVariables()
        let outcome = test(sandbox, """
            console.log('cut', '\\u{1F600}x'.slice(0, 1)); pm.test('name \\ud83d', () => {});
            pm.environment.set('v', '\\u{1F600}'.slice(1) + '\\\\ud800'); pm.test('whole \\u{1F600}', () => {});
            """, variables: &variables)
        #expect(outcome.error == nil, "\(outcome.error ?? "")")
        #expect(outcome.console == ["cut \u{FFFD}"])
        #expect(outcome.assertions.map(\.name) == ["name \u{FFFD}", "whole \u{1F600}"])
        #expect(variables.environment == ["v": "\u{FFFD}\\ud800"])
    }

    /// A test whose function the time limit stopped did not pass: it is listed as failed, not with the
    /// `passed` it was given before its function ran.
    @Test func aTestStoppedByTheTimeLimitIsNotReportedAsPassed() throws {
        let sandbox = try PostmanSandbox(timeLimit: 0.2)
        var variables = ScriptVariables()
        let outcome = test(sandbox, "pm.test('done', () => {}); pm.test('loops', () => { for (;;) {} });", variables: &variables)
        #expect(outcome.error == "c.json: item[0].event[0] (test): the script ran for more than 0.2 s and was stopped (--script-timeout)")
        #expect(outcome.assertions.map { "\($0.name) \($0.passed)" } == ["done true", "loops false"])
        #expect(outcome.assertions.last?.error == "the script was stopped before this test finished")
        // The context goes on: the next request's tests pass as they should.
        let next = test(sandbox, "pm.test('next', () => {});", variables: &variables)
        #expect(next.error == nil && next.assertions.map(\.passed) == [true])
    }

    /// An endless loop in a promise job (run by JavaScriptCore as the script's call returns, where the call
    /// reports no exception) is stopped by the time limit and is the request's script error, as a loop in the
    /// script's own code is; the context goes on.
    @Test func anEndlessLoopInAPromiseJobIsTheScriptsError() throws {
        let sandbox = try PostmanSandbox(timeLimit: 0.2)
        var variables = ScriptVariables()
        let outcome = test(sandbox, "pm.test('done', () => {}); Promise.resolve().then(() => { for (;;) {} });", variables: &variables)
        #expect(outcome.error == "c.json: item[0].event[0] (test): the script ran for more than 0.2 s and was stopped (--script-timeout)")
        #expect(outcome.assertions.map { "\($0.name) \($0.passed)" } == ["done true"])
        let next = test(sandbox, "pm.test('next', () => {});", variables: &variables)
        #expect(next.error == nil && next.assertions.map(\.passed) == [true])
    }

    /// An async test is failed the same way while its promise is pending: a promise never settled when the
    /// script ends was passed as soon as its function returned. One whose jobs run after the script's own
    /// code was stopped did finish, and passes.
    @Test func anAsyncTestStoppedOrNeverSettledIsNotReportedAsPassed() throws {
        let sandbox = try PostmanSandbox(timeLimit: 0.2)
        var variables = ScriptVariables()
        let stopped = test(sandbox, "pm.test('done', async () => {}); pm.test('waits', async () => { await null; }); for (;;) {}",
                           variables: &variables)
        #expect(stopped.error == "c.json: item[0].event[0] (test): the script ran for more than 0.2 s and was stopped (--script-timeout)")
        #expect(stopped.assertions.map { "\($0.name) \($0.passed) \($0.error ?? "")" }
                == ["done true ", "waits true "])  // the jobs still run as the stopped call returns: both finished
        let pending = test(sandbox, "pm.test('never', () => new Promise(() => {})); pm.test('later', async () => { await null; });",
                           variables: &variables)
        #expect(pending.error == nil, "\(pending.error ?? "")")
        #expect(pending.assertions.map { "\($0.name) \($0.passed) \($0.error ?? "")" }
                == ["never false the script was stopped before this test finished", "later true "])
    }

    /// A `pm.sendRequest` whose request holds a lone surrogate (a URL built from a cut string) is answered
    /// like any other, the half written U+FFFD: its queue did not read back and was dropped, every request the
    /// script had queued with it, so their callbacks, and the tests in them, never ran and nothing said so.
    @Test func aQueuedRequestWithALoneSurrogateIsStillAnswered() throws {
        let sandbox = try PostmanSandbox()
        var variables = ScriptVariables()
        let outcome = test(sandbox, """
            pm.sendRequest('http://x.invalid/?q=\\ud800', (err, res) => { pm.test('answered', () => { pm.expect(err).to.be.an('error'); }); });
            pm.sendRequest('http://x.invalid/', (err) => { console.log('other', err.message); });
            """, variables: &variables)
        #expect(outcome.error == nil, "\(outcome.error ?? "")")
        #expect(outcome.assertions.map { "\($0.name) \($0.passed)" } == ["answered true"])
        #expect(outcome.console == ["other pm.sendRequest sends nothing here (--dry-run sends no request)"])
    }

    /// A script with a top-level `await` (run as the body of an async function) names the line and column
    /// of its error in its own text, as any other script: it gave line 0 for line 2 (the line offset measured
    /// for `JSObjectMakeFunction`'s wrapper was taken off a wrapper that has none) and, on line 1, a column
    /// counted from the start of the async wrapper.
    @Test func aTopLevelAwaitScriptNamesItsOwnLineAndColumn() throws {
        let sandbox = try PostmanSandbox()
        var variables = ScriptVariables()
        let second = test(sandbox, "var r = await Promise.resolve(1);\n  null.x;", variables: &variables)
        #expect(second.error == "c.json: item[0].event[0] (test) 2:7: TypeError: null is not an object (evaluating 'null.x')")
        let first = test(sandbox, "await null; null.y;", variables: &variables)
        #expect(first.error == "c.json: item[0].event[0] (test) 1:17: TypeError: null is not an object (evaluating 'null.y')")
        // A plain script, for comparison: the same places.
        let plain = test(sandbox, "var r = 1;\n  null.x;", variables: &variables)
        #expect(plain.error == "c.json: item[0].event[0] (test) 2:7: TypeError: null is not an object (evaluating 'null.x')")
    }

    /// The error's place is where JavaScriptCore made what was thrown, not `line` and `column` properties the
    /// script put on it: a thrown object with its own `line: 1` was reported at 1:1, an Error given `e.line =
    /// 99` at line 99.
    @Test func aThrownValuesOwnLineAndColumnDoNotSetTheErrorsPlace() throws {
        let sandbox = try PostmanSandbox()
        var variables = ScriptVariables()
        let object = test(sandbox, "var x = 1;\n  throw {line: 1, column: 1, message: 'x'};", variables: &variables)
        #expect(object.error == "c.json: item[0].event[0] (test): [object Object]")
        let error = test(sandbox, "var e = new Error('m');\n  e.line = 99; e.column = 5; throw e;", variables: &variables)
        #expect(error.error == "c.json: item[0].event[0] (test) 1:18: Error: m")
        let caught = test(sandbox, "try {\n  null.x;\n} catch (e) { e.line = 1; throw e; }", variables: &variables)
        #expect(caught.error == "c.json: item[0].event[0] (test) 2:7: TypeError: null is not an object (evaluating 'null.x')")
    }

    /// A global a script makes with `Object.defineProperties` (not enumerable, as with `defineProperty`) is
    /// deleted before the next request like any other: the text was searched for `defineProperty` only, which
    /// `defineProperties` does not contain, and the next request's scripts saw the value.
    @Test func aGlobalMadeWithDefinePropertiesIsGoneForTheNextRequest() throws {
        let sandbox = try PostmanSandbox()
        var variables = ScriptVariables()
        _ = test(sandbox, "Object.defineProperties(globalThis, { leak: { value: pm.response.text(), configurable: true } });", variables: &variables)
        let next = test(sandbox, "console.log(typeof leak);", variables: &variables)
        #expect(next.console == ["undefined"])
    }
}
