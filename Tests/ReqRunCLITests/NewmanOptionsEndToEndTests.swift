import Foundation
import Testing
import TestSupport

/// Newman's command-line options that reqrun takes under their own name (see docs/postman.md, "Newman's
/// options"). The built binary against the local httpbin.
@Suite struct NewmanOptionsEndToEndTests {
    /// `--suppress-exit-code` (Newman's `-x`): a failed assertion (1) and a request that got no response (3)
    /// exit 0, and the summary still counts them; bad input keeps its 2.
    @Test func suppressExitCode() throws {
        let base = try TestServers.httpbin()
        let dir = try TemporaryDirectory()
        try dir.write("collections/scripts.json", PostmanScriptsEndToEndTests.collection([
            ("fails", "\(base)/get", [], ["pm.test('fails', () => pm.expect(1).to.equal(2));"]),
        ]))
        let failed = try ReqRunBinary.run(["run", "--all"], in: dir.url)
        #expect(failed.status == 1, "\(failed.stdout)\(failed.stderr)")
        let suppressed = try ReqRunBinary.run(["run", "--all", "--suppress-exit-code"], in: dir.url)
        #expect(suppressed.status == 0, "\(suppressed.stdout)\(suppressed.stderr)")
        #expect(suppressed.stdout.contains("1 failed"), "\(suppressed.stdout)")

        try dir.write("collections/scripts.json", PostmanScriptsEndToEndTests.collection([("refused", "http://127.0.0.1:1/", [], [])]))
        #expect(try ReqRunBinary.run(["run", "--all"], in: dir.url).status == 3)
        #expect(try ReqRunBinary.run(["run", "--all", "--suppress-exit-code"], in: dir.url).status == 0)
        #expect(try ReqRunBinary.run(["run", "nothing-of-that-name", "--suppress-exit-code"], in: dir.url).status == 2)
    }

    /// Newman's `--color on|off` are reqrun's `always` and `never`.
    @Test func colorOnAndOff() throws {
        let base = try TestServers.httpbin()
        let dir = try TemporaryDirectory()
        try dir.write("collections/scripts.json", PostmanScriptsEndToEndTests.collection([("one", "\(base)/get", [], [])]))
        let on = try ReqRunBinary.run(["--color", "on", "run", "--all"], in: dir.url)
        #expect(on.status == 0 && on.stdout.contains("\u{1B}["), "\(on.stdout)\(on.stderr)")
        let off = try ReqRunBinary.run(["run", "--all", "--color", "off"], in: dir.url)
        #expect(off.status == 0 && !off.stdout.contains("\u{1B}["), "\(off.stdout)\(off.stderr)")
    }

    /// Newman's `--disable-unicode`: `Pass` and `Fail` where the console writes `✓` and `✗`.
    @Test func disableUnicode() throws {
        let base = try TestServers.httpbin()
        let dir = try TemporaryDirectory()
        try dir.write("collections/scripts.json", PostmanScriptsEndToEndTests.collection([
            ("marks", "\(base)/get", [], ["pm.test('passes', () => {}); pm.test('fails', () => pm.expect(1).to.equal(2));"]),
        ]))
        let plain = try ReqRunBinary.run(["run", "--all", "--disable-unicode"], in: dir.url)
        #expect(plain.status == 1, "\(plain.stdout)\(plain.stderr)")
        #expect(plain.stdout.contains("Pass passes") && plain.stdout.contains("Fail fails"), "\(plain.stdout)")
        #expect(!plain.stdout.contains("✓") && !plain.stdout.contains("✗"), "\(plain.stdout)")
    }
}
