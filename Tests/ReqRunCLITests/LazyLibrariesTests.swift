import Foundation
import Testing
import TestSupport

/// libxml2 (and the ICU it brings) is loaded by the first xpath check, not at every start: the dynamic
/// loader's log (`LD_DEBUG=files`, glibc) says which libraries a process opened.
@Suite struct LazyLibrariesTests {
    private func opened(_ arguments: [String], in directory: URL) throws -> (ReqRunBinary.Output, String) {
        let run = try ReqRunBinary.run(arguments, in: directory, environment: ["LD_DEBUG": "files"])
        return (run, run.stderr)
    }

    @Test func aRunWithoutXPathDoesNotLoadLibxml2() throws {
        let dir = try TemporaryDirectory()
        try dir.write("collections/c.json", """
            {"name": "C", "groups": [{"name": "g", "requests": [{"url": "\(try TestServers.httpbin())/get", "expect": ["status == 200"]}]}]}
            """)
        let (version, versionLog) = try opened(["--version"], in: dir.url)
        #expect(version.status == 0)
        #expect(versionLog.contains("libcurl.so") && !versionLog.contains("libxml2.so") && !versionLog.contains("libicuuc"))
        let (run, runLog) = try opened(["run", "--all"], in: dir.url)
        #expect(run.status == 0, "\(run.stdout)")
        #expect(!runLog.contains("libxml2.so"))
    }

    @Test func anXPathCheckLoadsLibxml2AndWorks() throws {
        let dir = try TemporaryDirectory()
        try dir.write("collections/c.json", """
            {"name": "C", "groups": [{"name": "g", "requests": [{"url": "\(try TestServers.httpbin())/xml",
             "expect": ["xpath '//slide' count == 2", "xpath 'string(//slideshow/@title)' == 'Sample Slide Show'"]}]}]}
            """)
        let (run, log) = try opened(["run", "--all"], in: dir.url)
        #expect(run.status == 0, "\(run.stdout)")
        #expect(run.stdout.contains("1 request: 1 passed"))
        #expect(log.contains("libxml2.so.2"))
    }
}
