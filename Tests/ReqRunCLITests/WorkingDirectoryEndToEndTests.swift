import Foundation
import Testing
import ReqRunKit
import TestSupport

/// `--working-dir DIR` (Newman's option): relative body files resolve against DIR, which must itself lie
/// inside the workspace or a `--file-root` folder. Through the built binary, against the local httpbin.
@Suite struct WorkingDirectoryEndToEndTests {
    private func workspace() throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory()
        try dir.write("collections/files.postman_collection.json", """
            {"info": {"name": "Files", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             "item": [
              {"name": "Upload", "request": {"method": "POST", "url": "{{base}}/post",
               "body": {"mode": "formdata", "formdata": [{"key": "doc", "type": "file", "src": "up.txt"}]}}},
              {"name": "Binary", "request": {"method": "POST", "url": "{{base}}/post",
               "body": {"mode": "file", "file": {"src": "data/bin.txt"}}}}
             ]}
            """)
        try dir.write("fixtures/up.txt", "uploaded from the working dir\n")
        try dir.write("fixtures/data/bin.txt", "binary from the working dir\n")
        try dir.write("env.json", #"{"base": "\#(try TestServers.httpbin())"}"#)
        return dir
    }

    private func files(_ output: ReqRunBinary.Output) throws -> [String?] {
        try JSONDecoder().decode([DryRunEntry].self, from: Data(output.stdout.utf8)).map { $0.body?.file ?? $0.body?.parts?.first?.file }
    }

    @Test func relativeBodyFilesResolveAgainstTheWorkingDirectory() throws {
        let dir = try workspace()
        let real = FileRoots([dir.url.path]).folders[0]
        let without = try ReqRunBinary.run(["run", "--all", "--dry-run", "--json", "--env", "env.json"], in: dir.url)
        #expect(try files(without) == ["\(real)/collections/up.txt", "\(real)/collections/data/bin.txt"])
        let with = try ReqRunBinary.run(["run", "--all", "--dry-run", "--json", "--env", "env.json", "--working-dir", "fixtures"], in: dir.url)
        #expect(with.status == 0, "\(with.stderr)")
        #expect(try files(with) == ["\(real)/fixtures/up.txt", "\(real)/fixtures/data/bin.txt"])

        let run = try ReqRunBinary.run(["run", "--all", "--env", "env.json", "--working-dir", "fixtures"], in: dir.url)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let runs = try FileManager.default.contentsOfDirectory(atPath: dir.url.appendingPathComponent(".reqrun/runs").path)
        let record = try RecordFiles.decode(dir.url.appendingPathComponent(".reqrun/runs/\(try #require(runs.first))"))
        #expect(record.results[0].response?.body.data.contains("uploaded from the working dir") == true)
        #expect(record.results[1].response?.body.data.contains("binary from the working dir") == true)

        let send = try ReqRunBinary.run(["send", "Upload", "--env", "env.json", "--working-dir", "fixtures", "--body"], in: dir.url)
        #expect(send.status == 0, "\(send.stderr)")
        #expect(send.stdout.contains("uploaded from the working dir"))
    }

    @Test func theWorkingDirectoryStaysInsideTheFileRoots() throws {
        let dir = try workspace()
        let outside = try TemporaryDirectory()
        try outside.write("up.txt", "outside\n")
        let refused = try ReqRunBinary.run(["run", "--all", "--dry-run", "--working-dir", outside.url.path], in: dir.url)
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("error: --working-dir: '\(outside.url.path)'"), "\(refused.stderr)")
        #expect(refused.stderr.contains("is outside the workspace"))
        // A link inside the workspace that leads outside is the same folder, refused too.
        try FileManager.default.createSymbolicLink(atPath: dir.url.appendingPathComponent("link").path, withDestinationPath: outside.url.path)
        #expect(try ReqRunBinary.run(["run", "--all", "--dry-run", "--working-dir", "link"], in: dir.url).status == 2)
        let allowed = try ReqRunBinary.run(["run", "--all", "--dry-run", "--json", "--working-dir", outside.url.path,
                                            "--file-root", outside.url.path, "--var", "base=http://127.0.0.1:1"], in: dir.url)
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(try files(allowed).first == "\(FileRoots([outside.url.path]).folders[0])/up.txt")
        let missing = try ReqRunBinary.run(["run", "--all", "--dry-run", "--working-dir", "nowhere"], in: dir.url)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("--working-dir nowhere: no such folder"), "\(missing.stderr)")
    }
}
