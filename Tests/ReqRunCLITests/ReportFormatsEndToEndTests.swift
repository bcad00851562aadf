import Foundation
import Testing
import ReqRunKit
import TestSupport

/// JUnit and HAR as their consumers read them (issue 13 §2): JUnit valid against junit-10.xsd (taken at test
/// time from pytest's sdist by scripts/test, checked with xmllint), classnames that survive a split at the
/// last dot, stable test names; HAR with one entry per transfer, redirect hops, cookies and pages.
@Suite struct ReportFormatsEndToEndTests {
    private func workspace() throws -> TemporaryDirectory {
        let httpbin = try TestServers.httpbin()
        let dir = try TemporaryDirectory()
        try dir.write("collections/r.json", """
            {"name": "Reports", "groups": [{"name": "httpbin.org", "requests": [
              {"name": "two hops", "url": "\(httpbin)/redirect/2", "expect": [{"status": 200}]},
              {"name": "set cookie", "url": "\(httpbin)/response-headers?Set-Cookie=session%3Dabc%3B%20Path%3D%2F%3B%20HttpOnly"},
              {"name": "send cookie", "url": "\(httpbin)/cookies", "headers": {"Cookie": "a=1; b=2"}},
              {"name": "fails", "url": "\(httpbin)/status/500", "expect": [{"status": 200}]},
              {"name": "fails", "url": "http://127.0.0.1:9/"},
              {"url": "ftp://example.invalid/x"}]}]}
            """)
        return dir
    }

    @Test func junitIsValidAgainstTheSchemaWithSplitSafeClassnames() throws {
        let xsd = try #require(ProcessInfo.processInfo.environment["REQRUN_TEST_JUNIT_XSD"], "scripts/test fetches junit-10.xsd")
        let dir = try workspace()
        let run = try ReqRunBinary.run(["run", "--all", "--report", "junit=r.xml"], in: dir.url)
        #expect(run.status == 3)
        let lint = Process()
        lint.executableURL = URL(fileURLWithPath: "/usr/bin/xmllint")
        lint.arguments = ["--noout", "--schema", xsd, dir.url.appendingPathComponent("r.xml").path]
        let errors = Pipe()
        lint.standardError = errors
        try lint.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        lint.waitUntilExit()
        #expect(lint.terminationStatus == 0, "\(message)")
        let xml = try dir.read("r.xml")
        // Split at the last dot: package "Reports", class "httpbin․org" (U+2024), not "httpbin" and "org".
        #expect(xml.contains(#"<testcase name="two hops" classname="Reports.httpbin\#u{2024}org""#))
        #expect(xml.contains(#"<testcase name="fails (2)" classname="Reports.httpbin\#u{2024}org""#))
        // Stable: the same names in a second run.
        _ = try ReqRunBinary.run(["run", "--all", "--report", "junit=r2.xml"], in: dir.url)
        let names = { (text: String) in text.components(separatedBy: "<testcase name=\"").dropFirst().map { $0.prefix { $0 != "\"" } } }
        #expect(names(xml) == names(try dir.read("r2.xml")))
    }

    @Test func harHasAnEntryPerTransferCookiesAndPages() throws {
        let dir = try workspace()
        _ = try ReqRunBinary.run(["run", "--all", "--report", "har=r.har"], in: dir.url)
        let har = try #require(try JSONSerialization.jsonObject(with: Data(try dir.read("r.har").utf8)) as? [String: Any])
        let log = try #require(har["log"] as? [String: Any])
        let pages = try #require(log["pages"] as? [[String: Any]])
        let record = try JSONDecoder().decode(RunRecord.self, from: Data(try ReqRunBinary.run(["show", "--json"], in: dir.url).stdout.utf8))
        #expect(pages.count == 1 && pages[0]["id"] as? String == record.id)
        let entries = try #require(log["entries"] as? [[String: Any]])
        #expect(entries.allSatisfy { $0["pageref"] as? String == record.id })
        let httpbin = try TestServers.httpbin()
        let urls = entries.map { ($0["request"] as? [String: Any])?["url"] as? String ?? "" }
        // Two hops then the final transfer; the four other requests sent (ftp:// is not).
        #expect(urls.prefix(3) == ["\(httpbin)/redirect/2", "\(httpbin)/relative-redirect/1", "\(httpbin)/get"])
        #expect(entries.count == 7)
        let responses = entries.map { $0["response"] as? [String: Any] ?? [:] }
        #expect(responses[0]["status"] as? Int == 302 && responses[0]["redirectURL"] as? String == "\(httpbin)/relative-redirect/1")
        #expect(responses[1]["redirectURL"] as? String == "\(httpbin)/get")
        #expect(responses[2]["status"] as? Int == 200 && responses[2]["redirectURL"] as? String == "")
        let setCookie = try #require((responses[3]["cookies"] as? [[String: Any]])?.first)
        #expect(setCookie["name"] as? String == "session" && setCookie["value"] as? String == "****")  // masked in the record
        #expect(setCookie["path"] as? String == "/" && setCookie["httpOnly"] as? Bool == true)
        let sent = (entries[4]["request"] as? [String: Any])?["cookies"] as? [[String: Any]]
        // The session cookie from the jar, then the two written in the collection.
        #expect(sent?.map { $0["name"] as? String } == ["session", "a", "b"] && sent?.allSatisfy { $0["value"] as? String == "****" } == true)
    }
}

/// The HTML report as a browser shows it: headless Chromium (Debian's `chromium`, not in scripts/install-deps:
/// it takes minutes to install, so this runs where it is installed) renders the page; its text holds the
/// groups, the failed expectation with expected and actual, and the response's header fields.
@Suite struct HTMLReportInChromiumTests {
    static let chromium = "/usr/bin/chromium"

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: chromium))) func theReportRendersWithItsDetails() throws {
        let httpbin = try TestServers.httpbin()
        let dir = try TemporaryDirectory()
        try dir.write("collections/h.json", """
            {"name": "HTML", "groups": [{"name": "httpbin.org", "requests": [
              {"name": "json", "url": "\(httpbin)/json"},
              {"name": "teapot", "url": "\(httpbin)/status/418", "expect": [{"status": 200}]}]}]}
            """)
        _ = try ReqRunBinary.run(["run", "--all", "--report", "html=r.html"], in: dir.url)
        let browser = Process()
        browser.executableURL = URL(fileURLWithPath: Self.chromium)
        browser.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", dir.url.appendingPathComponent("r.html").absoluteString]
        let out = Pipe()
        browser.standardOutput = out
        browser.standardError = FileHandle.nullDevice
        try browser.run()
        let dom = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        browser.waitUntilExit()
        #expect(dom.contains("<h2>HTML › httpbin.org</h2>"))
        #expect(dom.contains("<details data-state=\"failed\" open=\"\">"))
        #expect(dom.contains("status == 200") && dom.contains("<code>418</code>"))
        #expect(dom.contains("<b>Content-Type</b>: application/json"))
        #expect(dom.contains("\"slideshow\" : {"))  // pretty JSON (Foundation's spacing)
        #expect(dom.contains(#"<span class="zero">0 errors</span>"#))
    }
}
