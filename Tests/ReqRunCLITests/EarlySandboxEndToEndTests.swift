import Foundation
import Testing
import ReqRunKit
import TestSupport

/// `run --all`'s script sandbox, started on a thread of its own while the collections load
/// (`RunScripting.startEarly`): what the run does is what it did when the sandbox was made after the selection.
@Suite struct EarlySandboxEndToEndTests {
    private static let chaiFolder = "/usr/share/javascript/chai"

    /// Whether this machine lets a test hide chai from one reqrun process (a mount namespace: root, `unshare`).
    private static let canHideChai: Bool = {
        guard let output = try? hidingChai(["/bin/sh", "-c", "test ! -e \(chaiFolder)/chai.js"], in: URL(fileURLWithPath: "/")) else { return false }
        return output.status == 0
    }()

    /// Runs `command` with an empty folder mounted over chai's, in a mount namespace of its own.
    private static func hidingChai(_ command: [String], in directory: URL) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        process.arguments = ["-m", "/bin/sh", "-c", "mount -t tmpfs none \(chaiFolder) && exec \"$@\"", "sh"] + command
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        process.environment = environment
        let out = Pipe(), err = Pipe()
        (process.standardOutput, process.standardError, process.standardInput) = (out, err, FileHandle.nullDevice)
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile(), stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
    }

    /// A TCP socket on 127.0.0.1 that listens and never accepts: a connection made to it waits in its backlog.
    private final class Listener {
        let fd: Int32
        let port: Int

        init() throws {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            self.fd = fd
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
            }
            guard bound, listen(fd, 16) == 0 else { throw POSIXError(.EADDRINUSE) }
            port = Int(UInt16(bigEndian: address.sin_port))
        }

        /// Whether a connection came (one waits to be accepted).
        var wasConnected: Bool {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            return poll(&poller, 1, 0) == 1
        }

        deinit { close(fd) }
    }

    /// chai missing: the sandbox started during the load fails the run before anything is sent or saved, with
    /// the same error as when it is made after the selection (a named collection), for a request whose only
    /// script is a test script (run after the response) as for one with a pre-request script.
    @Test(.enabled(if: canHideChai)) func aSandboxThatCannotStartFailsTheRunBeforeAnythingIsSent() throws {
        let listener = try Listener()
        let url = "http://127.0.0.1:\(listener.port)/a"
        for (tests, pre) in [(["pm.test('t', () => {});"], [String]()), ([], ["pm.variables.set('a', 1);"])] {
            for arguments in [["run", "--all"], ["run", "scripts"]] {
                let dir = try TemporaryDirectory()
                try dir.write("collections/scripts.json", PostmanScriptsEndToEndTests.collection([("one", url, pre, tests), ("two", url, [], [])]))
                let output = try Self.hidingChai([ReqRunBinary.url.path] + arguments, in: dir.url)
                #expect(output.status == 3, "\(arguments): \(output.stdout)\n\(output.stderr)")
                #expect(output.stderr == "error: cannot read \(Self.chaiFolder)/chai.js: scripts need Debian's libjs-chai (chai's expect)\n",
                        "\(arguments)")
                #expect(!output.stdout.contains("one"), "\(arguments): \(output.stdout)")
                #expect(!dir.exists(".reqrun/runs"), "\(arguments)")
                #expect(!listener.wasConnected, "\(arguments): a request was sent")
            }
        }
    }

    /// `run --all` of a collection whose only script is the collection's own, without a request: the sandbox
    /// started during the load is not used, and the process ends normally (after it, not while JavaScriptCore
    /// starts); the same when the run fails on another collection that does not load.
    @Test func aStartedSandboxThatNoRequestUsesEndsWithTheProcess() throws {
        let dir = try TemporaryDirectory()
        try dir.write("collections/scripts.json", PostmanScriptsEndToEndTests.collection([], events: [("test", ["pm.test('t', () => {});"])]))
        for _ in 0..<3 {
            let output = try ReqRunBinary.run(["run", "--all", "--allow-empty"], in: dir.url)
            #expect(output.status == 0, "\(output.stdout)\n\(output.stderr)")
            #expect(output.stdout.contains("No requests in this workspace."), "\(output.stdout)")
        }
        try dir.write("collections/broken.json", "{")
        for _ in 0..<3 {
            let output = try ReqRunBinary.run(["run", "--all"], in: dir.url)
            #expect(output.status == 2, "\(output.stdout)\n\(output.stderr)")
            #expect(output.stderr.contains("broken.json"), "\(output.stderr)")
        }
    }

    /// The sandbox made on the load's thread, used on the run's: `--script-timeout` stops an endless script (JavaScriptCore's
    /// time limit counts the calling thread's time) and the run goes on; two collections each have a context of their own
    /// (the first the one started early, the second made when its first script runs).
    @Test func theSandboxStartedDuringTheLoadStopsEndlessScriptsAndKeepsCollectionsApart() throws {
        let base = try TestServers.httpbin()
        let dir = try TemporaryDirectory()
        try dir.write("collections/a.json", PostmanScriptsEndToEndTests.collection([
            ("endless", "\(base)/get", [], ["for (;;) {}"]),
            ("after", "\(base)/get", ["Array.prototype.fromA = true; pm.variables.set('x', 1);"], ["pm.test('a runs on', () => pm.expect([].fromA).to.equal(true));"]),
        ]))
        try dir.write("collections/b.json", PostmanScriptsEndToEndTests.collection([
            ("other", "\(base)/get", [], ["pm.test('b has its own context', () => pm.expect([].fromA).to.equal(undefined));"]),
        ]).replacingOccurrences(of: "\"name\": \"scripts\"", with: "\"name\": \"other\""))
        let started = ContinuousClock.now
        let output = try ReqRunBinary.run(["run", "--all", "--script-timeout", "0.5"], in: dir.url)
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(output.status == 3, "a script stopped is an error: \(output.stdout)\n\(output.stderr)")
        let record = try RecordFiles.newest(in: dir.url)
        let byName = Dictionary(record.results.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        #expect(byName["endless"]?.error?.message.hasSuffix("the script ran for more than 0.5 s and was stopped (--script-timeout)") == true,
                "\(String(describing: byName["endless"]?.error))")
        #expect(byName["after"]?.expectations.contains { $0.description == "a runs on" && $0.passed } == true)
        #expect(byName["other"]?.expectations.contains { $0.description == "b has its own context" && $0.passed } == true)
    }
}
