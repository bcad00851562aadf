import Foundation
import Testing
import ReqRunKit
import TestSupport

/// `--report newman-json=FILE`: Newman's JSON reporter shape (issue 14, docs/reports.md), written from the
/// record of a Postman collection with `pm.test` scripts run twice against the local httpbin.
@Suite struct NewmanJSONReportEndToEndTests {
    @Test func newmanShapeWithRealStatsExecutionsAndFailures() throws {
        let httpbin = try TestServers.httpbin()
        let dir = try TemporaryDirectory()
        try dir.write("collections/n.json", """
            {"info": {"name": "newman shape", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             "auth": {"type": "bearer", "bearer": [{"key": "token", "value": "tok-s3cret-value"}]},
             "item": [
              {"name": "folder", "item": [
               {"name": "get ok", "event": [{"listen": "test", "script": {"exec": [
                 "pm.test('status 200', () => pm.response.to.have.status(200));",
                 "pm.test.skip('later', () => {});"]}}],
                "request": {"method": "GET", "url": "\(httpbin)/get?a=1&b=two"}}]},
              {"name": "post fails", "event": [{"listen": "test", "script": {"exec": [
                "pm.test('wants 201', () => pm.response.to.have.status(201));"]}}],
               "request": {"method": "POST", "url": "\(httpbin)/post", "body": {"mode": "raw", "raw": "hello"}}},
              {"name": "refused", "request": {"method": "GET", "url": "http://127.0.0.1:9/"}}]}
            """)
        let run = try ReqRunBinary.run(["run", "--all", "--iterations", "2", "--report", "newman-json=out/newman.json"], in: dir.url)
        #expect(run.status == 3, "\(run.stdout)\n\(run.stderr)")
        let text = try dir.read("out/newman.json")
        #expect(!text.contains("tok-s3cret-value"))  // masked as in the record
        let report = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect((report["collection"] as? [String: Any])?["info"] as? [String: String] == ["name": "newman shape"])
        let runObject = try #require(report["run"] as? [String: Any])
        let stats = try #require(runObject["stats"] as? [String: [String: Int]])
        #expect(stats["iterations"] == ["total": 2, "pending": 0, "failed": 0])
        #expect(stats["items"] == ["total": 6, "pending": 0, "failed": 2])  // `refused` twice
        #expect(stats["requests"] == ["total": 6, "pending": 0, "failed": 2])
        #expect(stats["assertions"] == ["total": 6, "pending": 2, "failed": 2])  // per iteration: 1 passed, 1 skipped, 1 failed
        let record = try RecordFiles.newest(in: dir.url)
        let timings = try #require(runObject["timings"] as? [String: Any])
        let responseTimes = record.results.compactMap { $0.response == nil ? nil : Double($0.timings!.total) / 1000 }
        #expect(timings["responseMax"] as? Double == responseTimes.max() && timings["responseMin"] as? Double == responseTimes.min())
        #expect(timings["started"] as? Int ?? 0 > 1_700_000_000_000 && timings["completed"] as? Int ?? 0 >= timings["started"] as? Int ?? 0)

        let executions = try #require(runObject["executions"] as? [[String: Any]])
        #expect(executions.count == 6)
        let cursors = executions.map { $0["cursor"] as? [String: Any] ?? [:] }
        #expect(cursors.map { "\($0["iteration"]!)/\($0["position"]!)" } == ["0/0", "0/1", "0/2", "1/0", "1/1", "1/2"])
        #expect(cursors.allSatisfy { $0["length"] as? Int == 3 && $0["cycles"] as? Int == 2 })
        #expect(cursors[0]["bof"] as? Bool == true && cursors[2]["eof"] as? Bool == true && cursors[1]["eof"] as? Bool == false)
        let first = executions[0]
        #expect((first["item"] as? [String: String]) == ["name": "get ok"])
        let request = try #require(first["request"] as? [String: Any])
        let url = try #require(request["url"] as? [String: Any])
        #expect(url["raw"] as? String == "\(httpbin)/get?a=1&b=two" && url["path"] as? [String] == ["get"])
        #expect((url["query"] as? [[String: String]]) == [["key": "a", "value": "1"], ["key": "b", "value": "two"]])
        let headers = try #require(request["header"] as? [[String: String]])
        #expect(headers.contains(["key": "Authorization", "value": "****"]))  // the whole credential field, as the record keeps it
        let response = try #require(first["response"] as? [String: Any])
        #expect(response["code"] as? Int == 200 && response["status"] as? String == "OK")
        #expect(response["responseSize"] as? Int == record.results[0].response?.bodySize)
        #expect(response["responseTime"] as? Double == Double(record.results[0].timings!.total) / 1000)
        let assertions = try #require(first["assertions"] as? [[String: Any]])
        #expect(assertions.map { $0["assertion"] as? String } == ["status 200", "later"])
        #expect(assertions.map { $0["skipped"] as? Bool } == [false, true] && assertions.allSatisfy { $0["error"] == nil })
        #expect(((executions[1]["request"] as? [String: Any])?["body"] as? [String: String]) == ["mode": "raw", "raw": "hello"])
        #expect(executions[2]["response"] == nil)

        let failures = try #require(runObject["failures"] as? [[String: Any]])
        #expect(failures.count == 4)
        let assertionFailure = failures[0]
        let error = try #require(assertionFailure["error"] as? [String: Any])
        #expect(error["name"] as? String == "AssertionError" && error["test"] as? String == "wants 201")
        #expect(error["message"] as? String == "expected response to have status code 201 but got 200")
        #expect(assertionFailure["at"] as? String == "assertion:0 in test-script")
        #expect((assertionFailure["source"] as? [String: String]) == ["name": "post fails"])
        #expect((assertionFailure["cursor"] as? [String: Any])?["iteration"] as? Int == 0)
        #expect(failures[1]["at"] as? String == "request" && (failures[1]["source"] as? [String: String]) == ["name": "refused"])
        #expect(((failures[1]["error"] as? [String: Any])?["message"] as? String)?.isEmpty == false)
        #expect((failures[2]["cursor"] as? [String: Any])?["iteration"] as? Int == 1)
        #expect((runObject["transfers"] as? [String: Int])?["responseTotal"] == record.results.compactMap(\.response?.bodySize).reduce(0, +))
    }

    /// A script error's failure carries the JavaScript exception's name and message, as Newman's does
    /// (`ReferenceError`, not `Error` with reqrun's whole line), at `test-script` or `prerequest-script`; a
    /// time limit, which is no exception, stays `Error` with reqrun's message.
    @Test func scriptErrorFailuresHaveTheExceptionsNameAndMessage() throws {
        let httpbin = try TestServers.httpbin()
        let dir = try TemporaryDirectory()
        try dir.write("collections/n.json", """
            {"info": {"name": "errors", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             "item": [
              {"name": "test throws", "event": [{"listen": "test", "script": {"exec": ["pm.test('ok', () => {});", "foo.bar();"]}}],
               "request": "\(httpbin)/get"},
              {"name": "pre throws", "event": [{"listen": "prerequest", "script": {"exec": ["JSON.parse('{');"]}}],
               "request": "\(httpbin)/get"},
              {"name": "loops", "event": [{"listen": "test", "script": {"exec": ["while (true) {}"]}}],
               "request": "\(httpbin)/get"}]}
            """)
        let run = try ReqRunBinary.run(["run", "--all", "--script-timeout", "0.3", "--report", "newman-json=newman.json"], in: dir.url)
        #expect(run.status == 3, "\(run.stdout)\n\(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(try dir.read("newman.json").utf8)) as? [String: Any])
        let failures = try #require((report["run"] as? [String: Any])?["failures"] as? [[String: Any]])
        #expect(failures.map { $0["at"] as? String } == ["test-script", "prerequest-script", "test-script"])
        #expect(failures.map { ($0["error"] as? [String: String]) ?? [:] } == [
            ["name": "ReferenceError", "message": "Can't find variable: foo"],
            ["name": "SyntaxError", "message": "JSON Parse error: Expected '}'"],
            ["name": "Error", "message": "collections/n.json: item[2].event[0] (test): the script ran for more than 0.3 s and was stopped (--script-timeout)"],
        ])
    }
}
