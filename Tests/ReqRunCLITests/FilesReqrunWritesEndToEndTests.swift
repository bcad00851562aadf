import Foundation
import Testing
import ReqRunKit
import TestSupport

/// Files the user names (`--report`, `import --to`, `--cookie-jar`): a missing or regular file is replaced
/// atomically, anything else (a device, a FIFO, a symbolic link) is written through, never replaced.
@Suite struct FilesReqrunWritesEndToEndTests {
    /// A workspace with one request that is skipped (no server needed: the report is what matters).
    private func workspace() throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory()
        try dir.write("collections/c.json", #"{"name": "C", "groups": [{"name": "g", "requests": [{"name": "ws", "url": "ftp://example.invalid/"}]}]}"#)
        return dir
    }

    /// `name` as a symbolic link to `target` (a file created with `contents`), both in `dir`.
    private func link(_ name: String, to target: String, contents: String, in dir: TemporaryDirectory) throws {
        try dir.write(target, contents)
        try FileManager.default.createSymbolicLink(atPath: dir.url.appendingPathComponent(name).path, withDestinationPath: target)
    }

    private func fileType(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
    }

    @Test func aReportIntoAFIFOReachesItsReaderAndTheFIFOStays() throws {
        let dir = try workspace()
        let fifo = dir.url.appendingPathComponent("pipe").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // A reader that never blocks: opened before the run, read after it (the report fits the pipe's buffer).
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        let run = try ReqRunBinary.run(["run", "--all", "--report", "json=pipe"], in: dir.url)
        #expect(run.status == 0, "\(run.stderr)")
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = read(reader, &buffer, buffer.count)
        #expect(String(decoding: buffer.prefix(max(0, count)), as: UTF8.self).contains(#""selection""#))
        #expect(fileType(fifo) == S_IFIFO)
    }

    @Test func aReportThroughASymbolicLinkWritesTheTargetAndKeepsTheLink() throws {
        let dir = try workspace()
        try link("link.xml", to: "real/target.xml", contents: "old", in: dir)
        let run = try ReqRunBinary.run(["run", "--all", "--report", "junit=link.xml"], in: dir.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(fileType(dir.url.appendingPathComponent("link.xml").path) == S_IFLNK)
        #expect(try dir.read("real/target.xml").contains("<testsuites"))
    }

    /// Run only on the fixed code: as root, the old rename replaced /dev/null with a regular file.
    @Test func devNullIsStillACharacterDeviceAfterAReport() throws {
        let dir = try workspace()
        let run = try ReqRunBinary.run(["run", "--all", "--report", "json=/dev/null"], in: dir.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(fileType("/dev/null") == S_IFCHR)
    }

    @Test func aReportIntoDevStdoutComesAfterTheConsoleLinesAndTheLinkStays() throws {
        let dir = try workspace()
        let run = try ReqRunBinary.run(["run", "--all", "--report", "junit=/dev/stdout"], in: dir.url)
        #expect(run.status == 0, "\(run.stderr)")
        let recorded = try #require(run.stdout.range(of: "recorded in .reqrun/runs/"))
        let report = try #require(run.stdout.range(of: "<?xml"))
        #expect(recorded.lowerBound < report.lowerBound)
        #expect(fileType("/dev/stdout") == S_IFLNK)
    }

    @Test func aJSONReportOnStandardOutputHasItToItself() throws {
        let dir = try workspace()
        let run = try ReqRunBinary.run(["run", "--all", "--report", "json=-"], in: dir.url)
        #expect(run.status == 0, "\(run.stderr)")
        let record = try JSONDecoder().decode(RunRecord.self, from: Data(run.stdout.utf8))
        #expect(record.summary.skipped == 1)
        #expect(run.stderr.contains("1 request: 0 passed, 0 failed, 0 errors, 1 skipped"))
        #expect(!dir.exists("-"))
        let two = try ReqRunBinary.run(["run", "--all", "--report", "json=-", "--report", "junit=-"], in: dir.url)
        #expect(two.status == 64 && two.stderr.contains("only one --report can go to standard output"))
    }

    @Test func aReportPathEndingInASlashIsAnErrorNotAFile() throws {
        let dir = try workspace()
        let run = try ReqRunBinary.run(["run", "--all", "--report", "html=out/"], in: dir.url)
        #expect(run.status == 64)
        #expect(run.stderr.contains("--report html=out/ names a folder; give a file name, e.g. html=out/report.html"))
        #expect(!dir.exists("out"))
        #expect(try ReqRunBinary.run(["history"], in: dir.url).stdout == "No runs recorded yet.\n")
    }

    /// The hint of a report path ending in a slash never names a file reqrun would then refuse: for
    /// `.reqrun/runs/` it suggested `.reqrun/runs/report.xml`, one of reqrun's own files.
    @Test func aReportFolderHintNeverNamesReqrunsOwnFiles() throws {
        let dir = try workspace()
        _ = try ReqRunBinary.run(["run", "--all"], in: dir.url)
        let run = try ReqRunBinary.run(["run", "--all", "--report", "junit=.reqrun/runs/"], in: dir.url)
        #expect(run.status == 64)
        #expect(run.stderr.contains("--report junit=.reqrun/runs/ names a folder of reqrun's own (.reqrun/runs); give a file name elsewhere, e.g. junit=report.xml"), "\(run.stderr)")
        let suggested = try ReqRunBinary.run(["run", "--all", "--report", "junit=report.xml"], in: dir.url)
        #expect(suggested.status == 0, "\(suggested.stderr)")
    }

    @Test func importToASymbolicLinkKeepsTheLink() throws {
        let dir = try workspace()
        try dir.write("p.json", #"{"info": {"name": "P", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}, "item": [{"name": "r", "request": {"method": "GET", "url": "http://127.0.0.1/"}}]}"#)
        try link("link.json", to: "real/p.json", contents: "", in: dir)
        let run = try ReqRunBinary.run(["import", "p.json", "--to", "link.json", "--force"], in: dir.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(fileType(dir.url.appendingPathComponent("link.json").path) == S_IFLNK)
        #expect(try dir.read("real/p.json").contains(#""P""#))
    }

    @Test func aCookieJarBehindASymbolicLinkKeepsTheLink() throws {
        let dir = try TemporaryDirectory()
        let base = try TestServers.httpbin()
        try dir.write("collections/c.json", #"{"name": "C", "groups": [{"name": "g", "requests": [{"name": "set", "url": "\#(base)/cookies/set?flavour=oat"}]}]}"#)
        try link("jar.txt", to: "real/jar.txt", contents: "", in: dir)
        let run = try ReqRunBinary.run(["run", "--all", "--cookie-jar", "jar.txt"], in: dir.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(fileType(dir.url.appendingPathComponent("jar.txt").path) == S_IFLNK)
        #expect(try dir.read("real/jar.txt").contains("\tflavour\toat"))
    }
}
