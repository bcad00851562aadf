import Foundation
import Testing
@testable import ReqRunKit

@Suite struct ReportTests {
    private func result(_ index: Int, name: String, group: [String] = ["g"], status: Int? = 200, outcome: RequestResult.Outcome = .response,
                        expectations: [ExpectationResult] = [], total: Int = 1500) -> RequestResult {
        RequestResult(index: index, collection: "C", groupPath: group, groupID: "id", name: name, method: "GET", url: "http://h/\(index)",
                      outcome: outcome, error: outcome == .response ? nil : ResultError(curlCode: 7, message: "refused <&>"),
                      request: SentRequest(headers: [], bodySize: 0),
                      response: status.map { ResponseRecord(status: $0, httpVersion: "1.1", headers: [], bodySize: 2, bodySHA256: "ab",
                                                            body: RecordedBody(prefix: Array("ok".utf8), truncated: false),
                                                            remoteAddress: nil, remotePort: nil) },
                      timings: Timings(namelookup: 1, connect: 2, appconnect: 0, pretransfer: 3, starttransfer: 4, total: total),
                      startedAt: "2026-11-29T13:00:00.000Z", startOffset: index * 2000, expectations: expectations)
    }

    private func record(_ results: [RequestResult]) -> RunRecord {
        RunRecord(id: "20261129-130000-000-abcd", startedAt: "2026-11-29T13:00:00.000Z", endedAt: "2026-11-29T13:00:01.000Z",
                  reqrunVersion: "t", libcurlVersion: "", workspace: "/w", selection: RunSelection(mode: "all"), results: results)
    }

    @Test func junitNamesRepeatsStablyAndEscapes() {
        let failed = ExpectationResult(description: "body contains \"<a>\"", passed: false, expected: "<a>", actual: "b & c", fieldPath: "e")
        let xml = JUnitReport.render(record([
            result(0, name: "same"), result(1, name: "same", expectations: [failed]), result(2, name: "x", status: nil, outcome: .transportError),
            result(3, name: "other", group: ["h", "i"], status: nil, outcome: .skipped),
        ]))
        #expect(xml.contains(#"<testsuite name="C/g" id="0" tests="3" failures="1" errors="1" skipped="0" time="0.004""#))
        #expect(xml.contains(#"<testcase name="same" classname="C.g" time="0.002">"#))
        #expect(xml.contains(#"<testcase name="same (2)" classname="C.g" time="0.002">"#))
        #expect(xml.contains(#"<failure message="body contains &quot;&lt;a&gt;&quot;: expected &lt;a&gt;, actual b &amp; c" type="expectation">"#))
        #expect(xml.contains(#"<error message="refused &lt;&amp;&gt;" type="transportError">"#))
        #expect(xml.contains(#"<testsuite name="C/h/i" id="1" tests="1" failures="0" errors="0" skipped="1""#))
        #expect(xml.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"reqrun run 20261129-130000-000-abcd\" tests=\"4\" failures=\"1\" errors=\"1\" time=\""))
    }

    /// A `pm.test.skip` assertion is a skipped testcase: its suite's `skipped` counts it (junit-10.xsd: the
    /// skipped tests of the suite), and its request's `system-out` marks it `- name (skipped)`, as the console
    /// does, not `✓`; the HTML report marks it `–`, not `✓`.
    @Test func junitCountsSkippedScriptAssertionsAndDoesNotMarkThemPassed() {
        let skipped = ExpectationResult(description: "later", passed: true, expected: "", actual: "", fieldPath: "item[0].event[0]",
                                        kind: "script-skipped")
        let passed = ExpectationResult(description: "status", passed: true, expected: "", actual: "", fieldPath: "item[0].event[0]", kind: "script")
        let xml = JUnitReport.render(record([result(0, name: "a", expectations: [passed, skipped])]))
        #expect(xml.contains(#"<testsuite name="C/g" id="0" tests="3" failures="0" errors="0" skipped="1""#))
        #expect(xml.contains("→ 200, 2 bytes\n✓ status\n- later (skipped)</system-out>"))
        #expect(xml.contains(#"<testcase name="later" classname="C.g.a" time="0.000">"# + "\n      <skipped/>"))
        // The HTML report's expectations table: `–` and the skipped colour, as for a skipped request.
        let html = HTMLReport.render(record([result(0, name: "a", expectations: [passed, skipped])]))
        #expect(html.contains(#"<tr class="skipped"><td>–</td><td>later</td>"#))
        #expect(html.contains(#"<tr class="ok"><td>✓</td><td>status</td>"#))
    }

    /// A run of more than `HTMLReport.fullLimit` requests: what failed first, then each group cut after
    /// `groupLimit` requests with a count of the rest.
    @Test func theHTMLOfALargeRunShowsFailuresFirstAndCountsTheRest() {
        let missed = ExpectationResult(description: "status is 201", passed: false, expected: "201", actual: "200", fieldPath: "e")
        let results = (0..<1_500).map { i in
            result(i, name: "r\(i)", group: [i < 1_000 ? "a" : "b"], expectations: i == 700 || i == 1_200 ? [missed] : [])
        }
        let html = HTMLReport.render(record(results))
        #expect(html.contains("1500 requests: the 2 that failed first"))
        #expect(html.components(separatedBy: "<details").count - 1 == 2 + 2 * HTMLReport.groupLimit)
        let failures = html.range(of: "<h2>Failed: C › a</h2>")!, group = html.range(of: "<h2>C › a</h2>")!
        #expect(failures.lowerBound < group.lowerBound)
        #expect(html.contains("… and \(999 - HTMLReport.groupLimit) more in this group: \(999 - HTMLReport.groupLimit) passed, 0 skipped or not run."))
        #expect(html.contains(">r1200<") && !html.contains(">r999<"))
        // A small run keeps every request, in list order.
        #expect(HTMLReport.render(record(Array(results.prefix(30)))).components(separatedBy: "<details").count - 1 == 30)
    }

    @Test func htmlIsSelfContainedAndEscaped() {
        let html = HTMLReport.render(record([result(0, name: "<script>alert(1)</script>"), result(1, name: "b", total: 3000)]))
        #expect(!html.contains("<script>"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(!html.contains("src=") && !html.contains("href=") && !html.contains("@import"))
        // The second request starts 2 ms into a 5 ms span: on the log axis at log(21)/log(51) = 77 %.
        #expect(html.contains(#"<span class="dns" style="left:77.43%;width:0.50%""#))
        #expect(html.contains(#"<details data-state="passed"><summary>"#))
    }

    /// One slow request (10 s) beside 1 ms ones: on a linear axis a 1 ms bar would be 0.01 % wide; on the log
    /// axis it keeps a visible share, and the ends are 0 and 100 %.
    @Test func htmlWaterfallStaysReadableWithOneSlowRequest() {
        #expect(HTMLReport.position(0, span: 10_000_000) == 0)
        #expect(abs(HTMLReport.position(10_000_000, span: 10_000_000) - 100) < 0.001)
        #expect(HTMLReport.position(1000, span: 10_000_000) > 20)
        let html = HTMLReport.render(record([result(0, name: "a"), result(1, name: "b", total: 3000)]))
        #expect(html.contains(#"<span class="zero">0 failed</span>"#) && html.contains(#"id="failures-only""#))
    }

    @Test func harTimingsAreNonNegativeOnAReusedConnection() throws {
        var reused = result(0, name: "r")
        reused.timings = Timings(namelookup: 22, connect: 0, appconnect: 0, pretransfer: 60, starttransfer: 500, total: 600)
        let har = HARReport.render(record([reused]))
        let object = try JSONSerialization.jsonObject(with: Data(har.utf8)) as? [String: Any]
        let entry = ((object?["log"] as? [String: Any])?["entries"] as? [[String: Any]])?.first
        let timings = try #require(entry?["timings"] as? [String: Double])
        #expect(timings == ["blocked": -1, "dns": 0.022, "connect": 0, "ssl": -1, "send": 0.038, "wait": 0.44, "receive": 0.1])
        #expect(entry?["time"] as? Double == 0.6)
    }

    @Test func diffPairsRequestsByPlaceAndName() {
        let before = record([result(0, name: "a"), result(1, name: "a", status: 500), result(2, name: "gone")])
        var changed = result(0, name: "a", status: 201, total: 3000)
        changed.response?.bodySHA256 = "cd"
        let after = record([result(0, name: "new"), changed, result(2, name: "a", status: 500)])
        let diff = RunDiff(before: before, after: after)
        #expect(diff.rows.map(\.label) == ["C › g › a", "C › g › a (2)", "C › g › gone", "C › g › new"])
        #expect(diff.rows[0].statusChange == "200 → 201" && diff.rows[0].bodyChanged && diff.rows[0].timeChangePercent == 100)
        #expect(diff.rows[1].statusChange == nil && diff.rows[1].outcomeChange == nil)
        #expect(diff.rows[2].statusChange == "200 → (absent)" && diff.rows[3].outcomeChange == "(absent) → passed")
    }

    /// Issue 11: a diff names the Postman script assertions whose outcome changed, paired by name.
    @Test func diffComparesScriptAssertionsByName() {
        func scripted(_ outcomes: [(String, Bool)]) -> RequestResult {
            var r = result(0, name: "a")
            r.expectations = outcomes.map { ExpectationResult(description: $0.0, passed: $0.1, expected: "", actual: $0.1 ? "" : "boom", fieldPath: "", kind: "script") }
            return r
        }
        let before = record([scripted([("status", true), ("body", true), ("gone", true)])])
        let after = record([scripted([("body", false), ("status", true), ("new", true)])])
        let row = RunDiff(before: before, after: after).rows[0]
        #expect(row.assertionChanges == ["'body' passed → failed", "'new' (absent) → passed", "'gone' passed → (absent)"])
        #expect(RunDiff(before: before, after: before).rows[0].assertionChanges.isEmpty)
    }

    /// A refused connection's few microseconds are not a time to compare with a response's: no `+4762%`.
    @Test func diffComparesTimesOnlyBetweenResponses() {
        let refused = record([result(0, name: "a", status: nil, outcome: .transportError, total: 200)])
        let answered = record([result(0, name: "a", total: 9_000)])
        #expect(RunDiff(before: refused, after: answered).rows[0].timeChangePercent == nil)
        #expect(RunDiff(before: answered, after: refused).rows[0].timeChangePercent == nil)
        #expect(RunDiff(before: answered, after: record([result(0, name: "a", total: 4_500)])).rows[0].timeChangePercent == -50)
    }
}

@Suite struct RunStoreTests {
    private func record(_ id: String) -> RunRecord {
        RunRecord(id: id, startedAt: "s", endedAt: "e", reqrunVersion: "r", libcurlVersion: "", workspace: "/w",
                  selection: RunSelection(mode: "all"), results: [])
    }

    @Test func pruneKeepsTheNewestAndIgnoresOtherFiles() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reqrun-runs-\(UUID().uuidString)/runs")
        defer { try? FileManager.default.removeItem(at: dir.deletingLastPathComponent()) }
        let store = RunStore(directory: dir)
        for id in ["20991231-000000-000-aaaa", "20261129-120000-000-0001", "20261129-120000-000-0002"] { try store.save(record(id)) }
        try Data("{}".utf8).write(to: dir.appendingPathComponent("notarun.json"))
        // A folder named like a record is not one, nor is a symbolic link to a record (reqrun follows no
        // links in its own folders); pruning leaves both alone.
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("20301231-000000-000-bbbb.json"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("20201231-000000-000-cccc.json").path,
                                                   withDestinationPath: "20261129-120000-000-0001.json")
        #expect(try store.ids() == ["20991231-000000-000-aaaa", "20261129-120000-000-0002", "20261129-120000-000-0001"])
        try FileManager.default.removeItem(at: dir.appendingPathComponent("20201231-000000-000-cccc.json"))
        // As a run with a limit of 2 does: prune to 1, then save its own record, which stays even though its
        // id sorts older than a record from a clock that was ahead.
        let removed = try store.prune(keep: 1)
        #expect(removed == ["20261129-120000-000-0002", "20261129-120000-000-0001"])
        let current = "20261129-130000-000-0003"
        try store.save(record(current))
        #expect(try store.ids() == ["20991231-000000-000-aaaa", current])
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("notarun.json").path))
    }

    @Test func unknownFormatsAndBrokenFilesAreNamed() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reqrun-runs-\(UUID().uuidString)/runs")
        defer { try? FileManager.default.removeItem(at: dir.deletingLastPathComponent()) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try Data(#"{"format": 3}"#.utf8).write(to: dir.appendingPathComponent("20261129-120000-000-0001.json"))
        try Data("{\n  \"id\": ,".utf8).write(to: dir.appendingPathComponent("20261129-120000-000-0002.json"))
        try Data((#"{"format":3,"id":"20261129-120000-000-0003","line":"header","reqrunVersion":"9","selection":{"groups":[],"mode":"all","overriddenVariables":[]},"startedAt":"s","workspace":"/w"}"#
                  + "\n").utf8).write(to: dir.appendingPathComponent("20261129-120000-000-0003.jsonl"))
        try Data((#"{"format":2,"id":"20261129-120000-000-0004","line":"header","reqrunVersion":"9","selection":{"groups":[],"mode":"all","overriddenVariables":[]},"startedAt":"s","workspace":"/w"}"#
                  + "\n{\"index\": 1}\n{}\n").utf8).write(to: dir.appendingPathComponent("20261129-120000-000-0004.jsonl"))
        let store = RunStore(directory: dir)
        #expect(throws: RunStoreError.unreadable(".reqrun/runs/20261129-120000-000-0001.json",
                                                 "record format 3 is not supported by reqrun \(reqrunVersion) (it reads formats 1 and 2)")) {
            try store.load("20261129-120000-000-0001")
        }
        #expect(throws: RunStoreError.unreadable(".reqrun/runs/20261129-120000-000-0003.jsonl",
                                                 "record format 3 is not supported by reqrun \(reqrunVersion) (it reads formats 1 and 2)")) {
            try store.load("20261129-120000-000-0003")
        }
        #expect(throws: RunStoreError.unreadable(".reqrun/runs/20261129-120000-000-0004.jsonl", "line 2: missing field 'collection'")) {
            try store.load("20261129-120000-000-0004")
        }
        let broken = try #require(throws: RunStoreError.self) { try store.load("20261129-120000-000-0002") }
        #expect(broken.description == ".reqrun/runs/20261129-120000-000-0002.json:2:9: expected a value, found character ','")
    }

    @Test func redirectHopsAreMasked() {
        var result = RequestResult(index: 0, collection: "c", groupPath: [], groupID: "g", name: "n", method: "GET",
                                   url: "http://h/?k=secret-1", outcome: .response)
        result.redirects = [RedirectHop(method: "GET", url: "http://h/?k=secret-1", status: 302, location: "http://h/next?k=secret-1", total: 1)]
        let masked = SecretMasker(values: ["secret-1"]).mask(result)
        #expect(masked.redirects == [RedirectHop(method: "GET", url: "http://h/?k=****", status: 302, location: "http://h/next?k=****", total: 1)])
    }

    @Test func shortSecretsAreNotSearchedForInText() {
        let masker = SecretMasker(values: ["e", "abc", "abcd"])
        #expect(masker.mask("keep-alive abc abcd") == "keep-alive abc ****")
        #expect(masker.mask([HeaderField(name: "Authorization", value: "Bearer e")]) == [HeaderField(name: "Authorization", value: "****")])
    }
}
