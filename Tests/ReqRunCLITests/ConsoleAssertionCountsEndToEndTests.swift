import Foundation
import Testing
import ReqRunKit
import TestSupport

/// The lines `reqrun run` prints after its summary (docs/commands.md): the assertions the run evaluated
/// (declared expectations and Postman script assertions, as Newman's summary table counts them) and, when a
/// request failed, the `reqrun show` command that lists the failures.
@Suite struct ConsoleAssertionCountsEndToEndTests {
    /// A Postman collection: `pm.test` passing, failing and skipped, `tests[…]`, and a request that is refused.
    private func postman(_ httpbin: String) throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory()
        try dir.write("collections/p.json", """
            {"info": {"name": "p", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             "item": [
              {"name": "get", "event": [{"listen": "test", "script": {"exec": [
                "pm.test('status 200', () => pm.response.to.have.status(200));",
                "pm.test('wants 201', () => pm.response.to.have.status(201));",
                "tests['has args'] = pm.response.json().args !== undefined;",
                "pm.test.skip('later', () => {});"]}}],
               "request": {"method": "GET", "url": "\(httpbin)/get"}},
              {"name": "refused", "request": {"method": "GET", "url": "http://127.0.0.1:9/"}}]}
            """)
        return dir
    }

    /// The console's lines from the summary on.
    private func tail(_ stdout: String) -> [String] {
        let lines = stdout.split(separator: "\n").map(String.init)
        guard let summary = lines.lastIndex(where: { $0.contains(" passed, ") && $0.contains(" in ") }) else { return [] }
        return Array(lines[summary...])
    }

    @Test func postmanAssertionsAreCountedPassedFailedAndSkipped() throws {
        let httpbin = try TestServers.httpbin()
        let dir = try postman(httpbin)
        let run = try ReqRunBinary.run(["run", "--all"], in: dir.url)
        #expect(run.status == 3, "\(run.stdout)\n\(run.stderr)")
        let record = try RecordFiles.newest(in: dir.url)
        let lines = tail(run.stdout)
        #expect(lines.count == 4, "\(run.stdout)")
        #expect(lines.dropFirst().first == "4 assertions: 2 passed, 1 failed, 1 skipped")
        #expect(lines.dropFirst(2).first == "failures: reqrun show \(record.id) --failed")
        #expect(lines.last?.hasPrefix("run \(record.id) recorded in ") == true)
        // Iterations count each time; --quiet prints fewer result lines but counts the same.
        let twice = try ReqRunBinary.run(["run", "--all", "--iterations", "2", "--quiet"], in: dir.url)
        #expect(tail(twice.stdout).dropFirst().first == "8 assertions: 4 passed, 2 failed, 2 skipped", "\(twice.stdout)")
    }

    @Test func declaredExpectationsCountAndSuccessHasNoHint() throws {
        let httpbin = try TestServers.httpbin()
        let dir = try TemporaryDirectory()
        try dir.write("collections/api.json", """
            {"name": "API", "groups": [{"name": "g", "requests": [
              {"name": "one", "url": "\(httpbin)/get", "expect": [{"status": 200}, "body contains 'args'"]},
              {"name": "two", "url": "\(httpbin)/get", "expect": [{"status": 200}]},
              {"name": "three", "url": "\(httpbin)/get", "expect": [{"status": 200}]}]}]}
            """)
        for options in [["--all"], ["--all", "--parallel", "3"]] {
            let run = try ReqRunBinary.run(["run"] + options, in: dir.url)
            #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
            let lines = tail(run.stdout)
            #expect(lines.count == 3 && lines[1] == "4 assertions: 4 passed, 0 failed", "\(run.stdout)")
            #expect(!run.stdout.contains("failures:") && !run.stdout.contains("--failed"))
        }
    }

    /// No assertion: no assertions line; a failure without one (a refused connection) still gets the hint;
    /// requests --bail did not run add nothing.
    @Test func noAssertionNoLineAndBailCountsWhatRan() throws {
        let httpbin = try TestServers.httpbin()
        let dir = try TemporaryDirectory()
        try dir.write("collections/api.json", """
            {"name": "API", "groups": [{"name": "g", "requests": [
              {"name": "plain", "url": "\(httpbin)/get"}, {"name": "refused", "url": "http://127.0.0.1:9/x"}]}]}
            """)
        let run = try ReqRunBinary.run(["run", "--all"], in: dir.url)
        #expect(run.status == 3)
        let lines = tail(run.stdout)
        #expect(lines.count == 3 && !run.stdout.contains("assertion"), "\(run.stdout)")
        #expect(lines[1].hasPrefix("failures: reqrun show ") && lines[1].hasSuffix(" --failed"))

        try dir.write("collections/api.json", """
            {"name": "API", "groups": [{"name": "g", "requests": [
              {"name": "fails", "url": "\(httpbin)/status/500", "expect": [{"status": 200}, {"status": 500}]},
              {"name": "second", "url": "\(httpbin)/get", "expect": [{"status": 200}]}]}]}
            """)
        let bail = try ReqRunBinary.run(["run", "--all", "--bail"], in: dir.url)
        #expect(bail.status == 1)
        #expect(tail(bail.stdout).dropFirst().first == "2 assertions: 1 passed, 1 failed", "\(bail.stdout)")
    }
}
