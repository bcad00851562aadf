import Foundation
import Testing
import ReqRunKit
import TestSupport

/// Data-driven runs (`--iteration-data`, `--iterations`, `--globals`, Newman's `-d`, `-n`, `-g`) of the
/// built binary against the local httpbin, with collections and data files of our own.
@Suite struct DataDrivenEndToEndTests {
    private static func records(_ dir: TemporaryDirectory) throws -> [RunRecord] {
        let folder = dir.url.appendingPathComponent(".reqrun/runs")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().map {
            try RecordFiles.decode(folder.appendingPathComponent($0))
        }
    }

    private static let scripted = PostmanScriptsEndToEndTests.collection([
        ("user {{user}}", "{{base}}/anything/{{user}}?g={{region}}", [
            "pm.variables.set('seen', pm.iterationData.get('user') + '/' + data.note + '/' + iteration + '/' + pm.info.iteration + ' of ' + pm.info.iterationCount);",
            "pm.globals.set('count', (pm.globals.get('count') || 0) + 1);",
        ], [
            "pm.test('user in path', () => pm.expect(pm.response.json().url).to.include('/anything/' + pm.iterationData.get('user')));",
            "pm.test('data note', () => pm.expect(pm.iterationData.toObject().note).to.be.a('string'));",
            "console.log(pm.variables.get('seen'), pm.globals.get('region'), pm.globals.get('count'));",
        ]),
        ("second", "{{base}}/get?u={{user}}", [], ["pm.test('fails for bob', () => pm.expect(pm.iterationData.get('user')).to.not.equal('bob'));"]),
    ])

    @Test func eachRowRunsTheSelectionAgainWithItsData() throws {
        let base = try TestServers.httpbin()
        let dir = try TemporaryDirectory()
        try dir.write("collections/scripts.json", Self.scripted)
        try dir.write("data.csv", "\u{FEFF}user,note\r\nann,\"a, \"\"quoted\"\"\nnote\"\r\nbob,plain\r\n")
        try dir.write("globals.json", #"{"name": "g", "_postman_variable_scope": "globals", "values": [{"key": "region", "value": "eu", "enabled": true}]}"#)
        let output = try ReqRunBinary.run(["run", "--all", "--var", "base=\(base)", "--iteration-data", "data.csv", "--globals", "globals.json",
                                           "--report", "junit=out/junit.xml", "--report", "html=out/report.html",
                                           "--export-globals", "out/globals.json"], in: dir.url)
        #expect(output.status == 1, "bob's second request fails its assertion: \(output.stderr)")
        #expect(output.stdout.hasPrefix("Iteration 1/2\n"))
        #expect(output.stdout.contains("\nIteration 2/2\n"))
        let record = try #require(try Self.records(dir).first)
        #expect(record.results.map(\.iteration) == [0, 0, 1, 1])
        #expect(record.results.map(\.url) == ["\(base)/anything/ann?g=eu", "\(base)/get?u=ann", "\(base)/anything/bob?g=eu", "\(base)/get?u=bob"])
        #expect(record.results.map(\.passed) == [true, true, true, false])
        #expect(record.results[0].console == ["ann/a, \"quoted\"\nnote/0/0 of 2 eu 1"])
        #expect(record.results[2].console == ["bob/plain/1/1 of 2 eu 2"])
        let junit = try String(contentsOf: dir.url.appendingPathComponent("out/junit.xml"), encoding: .utf8)
        #expect(junit.contains("<testcase name=\"second (iteration 2)\""))
        #expect(junit.contains("<testcase name=\"fails for bob (iteration 2)\""))
        #expect(!junit.contains("<properties>"), "junit-10.xsd allows no properties in a testcase")
        let html = try String(contentsOf: dir.url.appendingPathComponent("out/report.html"), encoding: .utf8)
        #expect(html.contains("iteration 2"))
        let globals = try String(contentsOf: dir.url.appendingPathComponent("out/globals.json"), encoding: .utf8)
        #expect(globals.contains("\"key\": \"region\"") || globals.contains("\"key\":\"region\""))
        #expect(globals.contains("\"value\": \"eu\"") || globals.contains("\"value\":\"eu\""))
        let json = try ReqRunBinary.run(["show", "--json"], in: dir.url)
        #expect(json.stdout.contains("\"iteration\" : 1") || json.stdout.contains("\"iteration\": 1"))
    }

    @Test func iterationsWithoutDataAndPastTheLastRow() throws {
        let base = try TestServers.httpbin()
        let dir = try TemporaryDirectory()
        try dir.write("collections/n.json", #"{"name": "N", "groups": [{"name": "g", "requests": [{"name": "r", "url": "\#(base)/anything/{{user}}"}]}]}"#)
        try dir.write("rows.json", #"[{"user": "ann"}, {"user": 7}]"#)
        let output = try ReqRunBinary.run(["run", "--all", "--iteration-data", "rows.json", "--iterations", "3"], in: dir.url)
        #expect(output.status == 0, "\(output.stderr)")
        let record = try #require(try Self.records(dir).first)
        #expect(record.results.map(\.url) == ["\(base)/anything/ann", "\(base)/anything/7", "\(base)/anything/7"])
        #expect(record.results.map(\.iteration) == [0, 1, 2])
        // Two runs pair request by request and iteration by iteration.
        #expect(try ReqRunBinary.run(["run", "--all", "--iteration-data", "rows.json", "--iterations", "2", "--var", "user=x"], in: dir.url).status == 0)
        let ids = try ReqRunBinary.run(["history"], in: dir.url).stdout.split(separator: "\n").dropFirst().map { String($0.prefix(24)) }
        let diff = try ReqRunBinary.run(["diff", ids[1], ids[0]], in: dir.url).stdout
        #expect(diff.contains("N › g › r [iteration 1]"))
        #expect(diff.contains("- N › g › r [iteration 3]  removed"))
        // Without any data: the same request N times.
        let plain = try TemporaryDirectory()
        try plain.write("collections/n.json", #"{"name": "N", "groups": [{"name": "g", "requests": [{"name": "r", "url": "\#(base)/get"}]}]}"#)
        #expect(try ReqRunBinary.run(["run", "--all", "--iterations", "2"], in: plain.url).status == 0)
        #expect(try Self.records(plain).first?.results.map(\.iteration) == [0, 1])
        #expect(try Self.records(plain).first?.results.count == 2)
    }

    /// Newman's short spellings, `-d FILE`, `-n N` and `-g FILE`, as a Newman user types them.
    @Test func newmansShortOptions() throws {
        let base = try TestServers.httpbin()
        let dir = try TemporaryDirectory()
        try dir.write("collections/n.json", #"{"name": "N", "groups": [{"name": "g", "requests": [{"name": "r", "url": "\#(base)/anything/{{user}}/{{region}}"}]}]}"#)
        try dir.write("rows.csv", "user\nann\nbob\n")
        try dir.write("globals.json", #"{"name": "g", "_postman_variable_scope": "globals", "values": [{"key": "region", "value": "eu", "enabled": true}]}"#)
        let output = try ReqRunBinary.run(["run", "--all", "-d", "rows.csv", "-n", "3", "-g", "globals.json"], in: dir.url)
        #expect(output.status == 0, "\(output.stderr)")
        let record = try #require(try Self.records(dir).first)
        #expect(record.results.map(\.url) == ["\(base)/anything/ann/eu", "\(base)/anything/bob/eu", "\(base)/anything/bob/eu"])
    }

    @Test func aBadDataFileIsAnInputErrorBeforeAnythingIsSent() throws {
        let dir = try TemporaryDirectory()
        try dir.write("collections/n.json", #"{"name": "N", "groups": [{"name": "g", "requests": [{"name": "r", "url": "http://127.0.0.1:9/"}]}]}"#)
        try dir.write("bad.csv", "a,b\n1,\"2\n")
        let bad = try ReqRunBinary.run(["run", "--all", "--iteration-data", "bad.csv"], in: dir.url)
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("error: bad.csv:2:3: this quoted field is not closed"))
        let missing = try ReqRunBinary.run(["run", "--all", "--iteration-data", "nope.json"], in: dir.url)
        #expect(missing.status == 2 && missing.stderr.contains("nope.json: no such file"))
        let count = try ReqRunBinary.run(["run", "--all", "--iterations", "0"], in: dir.url)
        #expect(count.status == 64 && count.stderr.contains("--iterations expects a whole number"))
        #expect(!FileManager.default.fileExists(atPath: dir.url.appendingPathComponent(".reqrun/runs").path))
    }
}
