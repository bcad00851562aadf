import Foundation
import Testing
import ReqRunKit
import TestSupport

/// Standard output and error that cannot be written: a full disk, a closed descriptor, a reader that left.
@Suite struct OutputFailureEndToEndTests {
    /// Runs the built reqrun through `sh -c` so the shell can redirect or close its descriptors.
    private func shell(_ script: String, in dir: TemporaryDirectory) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        process.currentDirectoryURL = dir.url
        process.environment = ProcessInfo.processInfo.environment.merging(["R": ReqRunBinary.url.path]) { $1 }
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    private func workspace(requests: Int, base: String? = nil) throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory()
        let base = try base ?? TestServers.httpbin()
        let list = (0..<requests).map { #"{"name": "r\#($0)", "url": "\#(base)/get?i=\#($0)"}"# }.joined(separator: ",")
        try dir.write("collections/c.json", #"{"name": "C", "groups": [{"name": "g", "requests": [\#(list)]}]}"#)
        return dir
    }

    @Test func aFullDiskOrAClosedStdoutIsAnErrorNotASuccess() throws {
        let dir = try workspace(requests: 2)
        let full = try shell(#""$R" list --all --json > /dev/full"#, in: dir)
        #expect(full.status == 74)
        #expect(full.stderr == "error: could not write to standard output: No space left on device\n")
        let closed = try shell(#""$R" list --all --json >&-"#, in: dir)
        #expect(closed.status == 74)
        #expect(closed.stderr.contains("Bad file descriptor"))
        // A failed write to stderr is not fatal either (it used to stop the process with a trap).
        let noStderr = try shell(#""$R" list --bogus 2>/dev/full"#, in: dir)
        #expect(noStderr.status == 64)
    }

    @Test func aRunIntoAPipeWhoseReaderLeftStillSendsEveryRequestAndRecordsThem() throws {
        // Well over the 64 KiB output buffer, so the run writes to the pipe again after `head` is gone.
        let dir = try workspace(requests: 2_000, base: try TestServers.nginxHTTP() + "/echo-uri")
        let run = try shell(#""$R" run --all | head -c 10 > /dev/null"#, in: dir)
        #expect(run.status == 0)
        let record = try JSONDecoder().decode(RunRecord.self, from: Data(try ReqRunBinary.run(["show", "--json"], in: dir.url).stdout.utf8))
        #expect(record.summary.total == 2_000 && record.summary.passed == 2_000)
    }

    @Test func aReportFolderThatCannotBeMadeStopsTheRunBeforeSending() throws {
        let dir = try workspace(requests: 1)
        try dir.write("blocker", "a file, not a folder")
        let output = try ReqRunBinary.run(["run", "--all", "--report", "junit=blocker/out/report.xml"], in: dir.url)
        #expect(output.status == 74)
        #expect(output.stderr.contains("could not create the report folder \(dir.url.path)/blocker/out: Not a directory"))
        #expect(try ReqRunBinary.run(["history"], in: dir.url).stdout == "No runs recorded yet.\n")
    }
    @Test func aReportThatFailsDoesNotCostTheOthersNorTheRunsExitCode() throws {
        let dir = try workspace(requests: 1)
        try FileManager.default.createDirectory(at: dir.url.appendingPathComponent("taken.xml"), withIntermediateDirectories: true)
        let output = try ReqRunBinary.run(["run", "--all", "--report", "junit=taken.xml", "--report", "html=out/r.html"], in: dir.url)
        #expect(output.status == 74)
        #expect(output.stdout.contains("1 request: 1 passed") && output.stdout.contains("html report written to out/r.html"))
        #expect(output.stderr.contains("taken.xml: Is a directory"))
        #expect(FileManager.default.fileExists(atPath: dir.url.appendingPathComponent("out/r.html").path))
        // A failing run keeps its own code.
        let base = try TestServers.httpbin()
        try dir.write("collections/c.json", #"{"name": "C", "groups": [{"name": "g", "requests": [{"url": "\#(base)/status/500", "expect": [{"status": 200}]}]}]}"#)
        #expect(try ReqRunBinary.run(["run", "--all", "--report", "junit=taken.xml"], in: dir.url).status == 1)
    }
}
