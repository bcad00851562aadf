import Foundation
import Testing
import ReqRunKit
import TestSupport

/// `postman.setNextRequest` / `pm.execution.setNextRequest` (Newman's flow control) and `--max-requests`, run by
/// the built binary against the local httpbin.
@Suite struct FlowControlEndToEndTests {
    private func run(_ collection: String, _ arguments: [String] = []) throws -> (ReqRunBinary.Output, RunRecord) {
        let dir = try TemporaryDirectory()
        try dir.write("collections/flow.json", collection)
        let output = try ReqRunBinary.run(["run", "--all"] + arguments, in: dir.url)
        return (output, try RecordFiles.newest(in: dir.url))
    }

    @Test func jumpsAfterTheRequestLoopsAndStopsWithNull() throws {
        let base = try TestServers.httpbin()
        let (output, record) = try run(PostmanScriptsEndToEndTests.collection([
            ("A", "\(base)/get?a", [], ["postman.setNextRequest('C');"]),
            ("B", "\(base)/get?b", [], []),
            ("C", "\(base)/get?c", ["pm.globals.set('n', (pm.globals.get('n') || 0) + 1);"], [
                "pm.test('runs', () => pm.expect(pm.response.code).to.equal(200));",
                "if (pm.globals.get('n') < 3) pm.execution.setNextRequest('C'); else pm.execution.setNextRequest(null);",
            ]),
            ("D", "\(base)/get?d", [], []),
        ]), ["--parallel", "4"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(record.results.map(\.name) == ["A", "C", "C", "C"])
        #expect(record.results.allSatisfy { $0.passed })
        // In the order sent, one at a time.
        let offsets = record.results.compactMap(\.startOffset)
        #expect(offsets == offsets.sorted())
    }

    @Test func byIdUnknownNamesAndIterations() throws {
        let base = try TestServers.httpbin()
        let collection = """
            {"info": {"name": "flow", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             "item": [
              {"name": "first", "id": "id-1", "event": [{"listen": "prerequest", "script": {"exec": ["if (pm.info.iteration === 0) postman.setNextRequest('id-3');"]}}],
               "request": {"method": "GET", "url": "\(base)/get?1"}},
              {"name": "second", "request": {"method": "GET", "url": "\(base)/get?2"}},
              {"name": "third", "id": "id-3", "event": [{"listen": "test", "script": {"exec": ["if (pm.info.iteration === 1) postman.setNextRequest('nowhere');"]}}],
               "request": {"method": "GET", "url": "\(base)/get?3"}},
              {"name": "fourth", "request": {"method": "GET", "url": "\(base)/get?4"}}
             ]}
            """
        let (output, record) = try run(collection, ["--iterations", "2"])
        #expect(output.status == 0, "\(output.stderr)")
        // Iteration 1 jumps from first to third; iteration 2 goes in order until 'nowhere' ends it.
        #expect(record.results.map { "\($0.iteration!) \($0.name)" } == ["0 first", "0 third", "0 fourth", "1 first", "1 second", "1 third"])
        #expect(record.results.last?.console?.last == "warn: setNextRequest('nowhere'): no request of that name or id in the selection; the iteration stops")
    }

    @Test func anEndlessLoopStopsAtMaxRequestsWithExit3() throws {
        let base = try TestServers.httpbin()
        let (output, record) = try run(PostmanScriptsEndToEndTests.collection([
            ("again", "\(base)/get", [], ["postman.setNextRequest('again');"]),
        ]), ["--max-requests", "5"])
        #expect(output.status == 3)
        #expect(output.stderr.contains("error: --max-requests 5 reached: 5 requests were sent (a setNextRequest loop?)"))
        #expect(record.results.count == 6)
        #expect(record.results.prefix(5).allSatisfy { $0.passed })
        #expect(record.results.last?.outcome == .notRun)
        #expect(record.results.last?.error?.message == "not run: --max-requests 5 reached: 5 requests were sent (a setNextRequest loop?)")
    }

    /// With setNextRequest the run's requests are added as it goes; the executor made for the first of them
    /// still asks libcurl for the server's certificate (CURLOPT_CERTINFO) when a later one checks it.
    @Test func aLaterRequestOfTheFlowGetsTheCertificate() throws {
        let https = try TestServers.nginxHTTPS()
        let dir = try TemporaryDirectory()
        try dir.write("collections/c.json", """
            {"name": "C", "groups": [{"name": "g", "requests": [
              {"name": "first", "url": "\(https)/zstd", "scripts": {"test": "postman.setNextRequest('second');"}},
              {"name": "second", "url": "\(https)/zstd", "expect": ["certificate 'Subject' contains 'CN = localhost'"]}
            ]}]}
            """)
        let output = try ReqRunBinary.run(["run", "--all", "--cacert", try TestServers.testCA()], in: dir.url)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(try RecordFiles.newest(in: dir.url).results.map { "\($0.name) \($0.passed)" } == ["first true", "second true"])
    }

    @Test func maxRequestsBoundsARunWithoutScriptsToo() throws {
        let base = try TestServers.httpbin()
        let dir = try TemporaryDirectory()
        try dir.write("collections/n.json", #"{"name": "N", "groups": [{"name": "g", "requests": [{"name": "r", "url": "\#(base)/get"}]}]}"#)
        let output = try ReqRunBinary.run(["run", "--all", "--iterations", "3", "--max-requests", "2"], in: dir.url)
        #expect(output.status == 3)
        #expect(output.stderr.contains("error: --max-requests 2 reached: 2 requests were sent\n"))
        #expect(try ReqRunBinary.run(["run", "--all", "--iterations", "3", "--max-requests", "3"], in: dir.url).status == 0)
    }
}
