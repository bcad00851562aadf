import Foundation
import Testing
import ReqRunKit
import TestSupport

/// The check grammar through the built binary against the local httpbin: every subject, captures with
/// `from`, the printed form of a failed check, and load errors with file:line:column.
@Suite struct CheckEndToEndTests {
    private func workspace(_ requests: String) throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory()
        try dir.write("collections/c.json", """
            {"name": "C", "variables": {"base": "\(try TestServers.httpbin())"}, "groups": [{"name": "g", "requests": [
            \(requests)
            ]}]}
            """)
        return dir
    }

    @Test func everySubjectAgainstHttpbin() throws {
        let dir = try workspace(#"""
            {"name": "json", "url": "{{base}}/json",
             "capture": [{"var": "author", "from": "$.slideshow.author"}, {"var": "titles", "from": "$..title count toString"}],
             "expect": ["status == 200", "status < 300", "url endsWith '/json'", "httpVersion == '1.1'", "redirects count == 0",
                        "header 'content-type' == 'application/json'", "body contains 'slideshow'", "body exists", "bytes count > 100",
                        "sha256 matches '^[0-9a-f]{64}$'", "md5 matches '^[0-9a-f]{32}$'", "bodySize > 100", "duration < 10000",
                        "timings.connect <= 10000", "timings.total >= 0", "$.slideshow.slides[*].title count == 2",
                        "$..title includes 'Overview'", "$.slideshow.slides[?@.type == 'all'].title first startsWith 'Wake'",
                        "variable 'author' == 'Yours Truly'", "variable 'titles' toInt == 3", "jsonpath '$.slideshow' isObject"]},
            {"name": "redirects", "url": "{{base}}/redirect/2",
             "expect": ["redirects count == 2", "redirects nth 0 jsonpath '$.status' == 302",
                        "redirects last jsonpath '$.location' endsWith '/get'", "url endsWith '/get'"]},
            {"name": "cookies", "url": "{{base}}/cookies/set?sid=s3cr3t&theme=dark", "followRedirects": false,
             "capture": [{"var": "sid", "from": "cookie 'sid'"}],
             "expect": ["status == 302", "cookie 'theme' == 'dark'", "cookie 'sid[Path]' == '/'", "cookie 'sid[Secure]' not exists",
                        "cookie 'nope' not exists", "variable 'sid' == 's3cr3t'"]},
            {"name": "anything", "url": "{{base}}/anything?n=12345678901234567890123&d=2020-02-01&e=a%2Bb",
             "expect": ["$.args.n toInt == 12345678901234567890123", "$.args.n toInt > 12345678901234567890122",
                        "$.args.d toDate '%Y-%m-%d' daysBeforeNow > 300", "$.args.e urlEncode == 'a%2Bb'", "$.url split '?' nth 0 endsWith '/anything'"]},
            {"name": "xml", "url": "{{base}}/xml", "expect": ["header 'Content-Type' == 'application/xml'", "xpath '//slide' count == 2",
                        "xpath 'string(//slideshow/@title)' == 'Sample Slide Show'", "body regex 'title=\"([^\"]*)\"' == 'Sample Slide Show'"]},
            {"name": "html", "url": "{{base}}/html", "expect": ["body startsWith '<!DOCTYPE html>'", "body regex '<h1>(.*)</h1>' contains 'Moby'",
                        "xpath 'normalize-space(//h1)' == 'Herman Melville - Moby-Dick'"]},
            {"name": "latin1", "url": "{{base}}/response-headers?Content-Type=text/plain;%20charset=ISO-8859-1",
             "expect": ["body contains 'charset=ISO-8859-1'", "bytes decode 'latin1' contains 'charset'"]}
            """#)
        let run = try ReqRunBinary.run(["run", "--all"], in: dir.url)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("7 requests: 7 passed"))
        let record = try RecordFiles.newest(in: dir.url)
        #expect(record.results[0].expectations[15].description == "$.slideshow.slides[*].title count == 2")
        #expect(record.results[0].captures.map(\.value) == ["Yours Truly", "3"])
        // A cookie captured through `from` is a secret like one captured with `cookie`.
        #expect(record.results[2].captures[0].value == "****")
    }

    @Test func aFailedCheckPrintsItsCanonicalForm() throws {
        let dir = try workspace(#"""
            {"url": "{{base}}/json", "expect": ["$.slideshow.slides[*].title  count==3", "header 'Content-Type' not contains 'json'"]}
            """#)
        let run = try ReqRunBinary.run(["run", "--all"], in: dir.url)
        #expect(run.status == 1)
        #expect(run.stdout.contains("""
                  ✗ $.slideshow.slides[*].title count == 3
                      expected: == 3
                      actual:   2
            """), "\(run.stdout)")
        #expect(run.stdout.contains(#"✗ header "Content-Type" not contains "json""#))
        let show = try ReqRunBinary.run(["show"], in: dir.url)
        #expect(show.stdout.contains("✗ $.slideshow.slides[*].title count == 3"), "\(show.stdout)")
    }

    @Test func aBadCheckIsALoadErrorWithItsColumn() throws {
        let dir = try workspace(#"""
            {"url": "{{base}}/json", "expect": ["status == 200", "$.a[?@.b === 1] exists"]}
            """#)
        let run = try ReqRunBinary.run(["run", "--all"], in: dir.url)
        #expect(run.status == 2)
        #expect(run.stderr == """
            error: collections/c.json:2:66: groups[0].requests[0].expect[1]: invalid JSONPath: expected a literal (a string, a number, true, false or null), '@', '$' or a function
                $.a[?@.b === 1] exists
                           ^

            """)
    }

    /// `retry` and `--retry-until-pass`: the request is sent again until its checks pass; every failed
    /// attempt is in the record; the request fails only when the last attempt does.
    @Test func pollingUntilTheChecksPass() throws {
        let key = UUID().uuidString
        let hostile = try TestServers.hostile()
        let dir = try TemporaryDirectory()
        try dir.write("collections/c.json", """
            {"name": "C", "groups": [{"name": "g", "requests": [
              {"name": "job", "url": "\(hostile)/ready-after/\(key)/3", "retry": {"count": 5, "interval": 50}, "expect": ["$.ready == true"]},
              {"name": "never", "url": "\(hostile)/ready-after/\(key)-b/100", "expect": ["$.ready == true"]}
            ]}]}
            """)
        let started = Date()
        let run = try ReqRunBinary.run(["run", "--all", "--retry-until-pass", "2", "--retry-interval", "100"], in: dir.url)
        #expect(run.status == 1)
        #expect(Date().timeIntervalSince(started) >= 0.3)
        let runs = dir.url.appendingPathComponent(".reqrun/runs")
        let record = try RecordFiles.decode(runs.appendingPathComponent(try FileManager.default.contentsOfDirectory(atPath: runs.path).sorted().last!))
        #expect(record.results[0].passed)
        // The console says it was sent again: the earlier attempts and the last one.
        #expect(run.stdout.split(separator: "\n").filter { $0.contains("(3 attempts)") }.count == 2, "\(run.stdout)")
        #expect(record.results[0].polls?.count == 2)
        #expect(record.results[0].polls?.first?.failed == ["$.ready == true"])
        #expect(record.results[0].polls?.first?.status == 200)
        #expect(!record.results[1].passed)
        #expect(record.results[1].polls?.count == 2)
        #expect(record.results[1].expectations[0].actual == "false")
        // One at a time: the second request starts after the first has passed, not while it waits.
        #expect(try #require(record.results[1].polls?.first?.startedAt) > (record.results[0].startedAt ?? ""))
        _ = try dir.write("collections/c.json", #"{"name": "C", "groups": [{"name": "g", "requests": [{"url": "u", "retry": {"cout": 1}}]}]}"#)
        let error = try ReqRunBinary.run(["run", "--all"], in: dir.url)
        #expect(error.status == 2 && error.stderr.contains("unknown field 'cout' (did you mean 'count'?)"))
    }

    /// `--pause MS` waits before each request.
    @Test func pauseWaitsBeforeEachRequest() throws {
        let dir = try workspace(#"{"url": "{{base}}/get"}, {"url": "{{base}}/get"}"#)
        let started = Date()
        let run = try ReqRunBinary.run(["run", "--all", "--pause", "300"], in: dir.url)
        #expect(run.status == 0)
        #expect(Date().timeIntervalSince(started) >= 0.6)
    }

    /// `certificate "…"`: the server's certificate from CURLINFO_CERTINFO (nginx over TLS with the test CA),
    /// on a fresh connection and on a reused one.
    @Test func certificateFields() throws {
        let https = try TestServers.nginxHTTPS()
        let checks = #"["certificate 'Subject' contains 'CN = localhost'", "certificate 'Issuer' isString", "certificate 'Serial-Number' exists", "certificate 'Expire-Date' daysAfterNow > 0", "certificate 'Start-Date' daysBeforeNow >= 0", "certificate 'Expire-Date' > '2000-01-01T00:00:00Z'"]"#
        let dir = try TemporaryDirectory()
        try dir.write("collections/c.json", """
            {"name": "C", "groups": [{"name": "g", "requests": [
              {"url": "\(https)/zstd", "expect": \(checks)},
              {"url": "\(https)/zstd", "expect": \(checks)}
            ]}]}
            """)
        let run = try ReqRunBinary.run(["run", "--all", "--cacert", try TestServers.testCA()], in: dir.url)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(throws: CheckSyntaxError.self) { try CheckParser.parse("certificate 'Subjet' exists") }
    }

    /// Ctrl-C while a polled request waits: the request ends with its last attempt's result.
    @Test func aSignalDuringAPollWaitKeepsTheLastAttempt() throws {
        let dir = try TemporaryDirectory()
        try dir.write("collections/c.json", """
            {"name": "C", "groups": [{"name": "g", "requests": [
              {"url": "\(try TestServers.hostile())/ready-after/\(UUID().uuidString)/100", "retry": {"count": 5, "interval": 8000}, "expect": ["$.ready == true"]}
            ]}]}
            """)
        let started = Date()
        let running = try ReqRunBinary.start(["run", "--all"], in: dir.url)
        Thread.sleep(forTimeInterval: 1.0)
        running.send(signal: SIGINT)
        let output = running.finish()
        #expect(output.status == 130)
        #expect(Date().timeIntervalSince(started) < 4)
        let record = try JSONDecoder().decode(RunRecord.self, from: Data(try ReqRunBinary.run(["show", "--json"], in: dir.url).stdout.utf8))
        #expect(record.results[0].outcome == .response)
        #expect(record.results[0].expectations.map(\.actual) == ["false"])
        #expect(record.results[0].polls == nil)
    }
}
