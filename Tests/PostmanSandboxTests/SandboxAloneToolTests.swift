import Foundation
import Testing
import PostmanSandbox
import ReqRunKit

/// `scripts/sandbox-alone` (case 6's lower bound in `make bench`) drives the sandbox's own JavaScript, read from
/// this package's sources, to the outcome `PostmanSandbox` itself gives: if the sources' layout changes so that
/// the tool evaluates less or other code, its figures would no longer bound anything, and this fails.
@Suite struct SandboxAloneToolTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    private static let case6 = """
        pm.test('status', () => pm.response.to.have.status(200));
        pm.test('body', () => { const body = pm.response.json(); pm.expect(body.ok).to.eql(true); });
        pm.environment.set('message', pm.response.json().message);

        """

    /// The tool's `--json` lines, one a script, by name.
    private func measure() throws -> [String: [String: Any]] {
        let process = Process()
        process.executableURL = Self.root.appendingPathComponent("scripts/sandbox-alone")
        process.arguments = ["--requests", "3", "--rounds", "1", "--json"]
        let output = Pipe(), errors = Pipe()
        (process.standardOutput, process.standardError) = (output, errors)
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let problems = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "scripts/sandbox-alone: \(problems)")
        var rows: [String: [String: Any]] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let row = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            rows[try #require(row["script"] as? String)] = row
        }
        return rows
    }

    @Test func theToolsCase6EndsAsTheSandboxDoes() throws {
        let rows = try measure()
        #expect(Set(rows.keys) == ["case 6's", "1;"])
        let tool = try #require(rows["case 6's"]?["end"] as? [String: Any])
        let toolAssertions = try #require(tool["assertions"] as? [[String: Any]])
        #expect(toolAssertions.map { $0["name"] as? String } == ["status", "body"])
        #expect(toolAssertions.map { $0["passed"] as? Bool } == [true, true])
        #expect((tool["environment"] as? [String: String])?["message"] == "a small response")
        #expect((rows["1;"]?["end"] as? [String: Any]).flatMap { $0["assertions"] as? [Any] }?.isEmpty == true)
        for row in rows.values {
            for part in ["dlopen", "context", "chai", "sources", "requests"] { #expect((row[part] as? Double ?? 0) > 0, "\(part)") }
        }

        // The sandbox itself, on the same script and the response the tool hands it.
        let sandbox = try PostmanSandbox()
        var variables = ScriptVariables()
        let response = ResponseView(status: 200, headers: [HeaderField(name: "Content-Type", value: "application/octet-stream")],
                                    body: Array(#"{"ok":true,"message":"a small response"}"#.utf8) + [0x0A], bodySize: 41, totalMicroseconds: 0)
        let outcome = sandbox.test([Script(event: .test, source: Self.case6, file: "collections/bench.json", fieldPath: "item[0].event[0]")],
                                   request: Request(url: "http://127.0.0.1:8080/small?i=1"), response: response,
                                   context: ScriptContext(requestName: "r1", requestID: nil, collectionKey: 0, collectionValues: [:],
                                                          groupValues: [:], environmentValues: [:], upperValues: [:]),
                                   variables: &variables)
        #expect(outcome.error == nil)
        #expect(outcome.assertions.map(\.name) == toolAssertions.compactMap { $0["name"] as? String })
        #expect(outcome.assertions.map(\.passed) == [true, true])
        #expect(variables.environment["message"] == "a small response")
    }
}
