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
}
