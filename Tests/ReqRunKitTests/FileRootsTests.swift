import Foundation
import Testing
import TestSupport
@testable import ReqRunKit

/// What a collection may read: body files only inside the workspace or a `--file-root` folder, after
/// resolving symbolic links, without `~` expansion; only regular files.
@Suite struct FileRootsTests {
    /// A workspace with `collections/c.json` holding `request`, and a folder outside it with a secret file.
    private struct Fixture {
        let workspace: TemporaryDirectory
        let outside: TemporaryDirectory

        init() throws {
            workspace = try TemporaryDirectory()
            outside = try TemporaryDirectory()
            try outside.write("id_rsa", "PRIVATE KEY")
            try workspace.write("collections/data/ok.bin", "ok")
        }

        func load(_ request: String, allowing extra: [String] = []) throws -> [RequestCollection] {
            try workspace.write("collections/c.json", #"{"name": "c", "groups": [{"name": "g", "requests": [\#(request)]}]}"#)
            return try Workspace(root: workspace.url).loadCollections(allowing: extra)
        }

        func refusal(_ request: String) throws -> InputError {
            try #require(throws: InputError.self) { try load(request) }
        }
    }

    @Test func bodyFilesOutsideTheWorkspaceAreRefusedWhereWritten() throws {
        let f = try Fixture()
        let secret = f.outside.url.appendingPathComponent("id_rsa").path
        let absolute = try f.refusal(#"{"url": "http://h/", "bodyFile": "\#(secret)"}"#)
        let written = try f.workspace.read("collections/c.json")
        let valueColumn = try #require(written.range(of: "\"\(secret)\"")).lowerBound.utf16Offset(in: written) + 1
        #expect(absolute.file == "collections/c.json" && absolute.location?.description == "1:\(valueColumn)")
        #expect(absolute.fieldPath == "groups[0].requests[0].bodyFile")
        #expect(absolute.reason == "'\(secret)' is outside the workspace: files may be read only inside \(f.workspace.path); "
                + "allow its folder with --file-root DIR")
        // `../` out of the workspace, through a multipart part.
        let dots = "../../" + f.outside.url.lastPathComponent + "/id_rsa"
        let climbing = try f.refusal(#"{"url": "http://h/", "multipart": [{"name": "k", "file": "\#(dots)"}]}"#)
        #expect(climbing.fieldPath == "groups[0].requests[0].multipart[0].file")
        #expect(climbing.reason.hasPrefix("'\(dots)' (\(secret)) is outside the workspace"))
        // A symbolic link inside the workspace to a file outside it.
        try FileManager.default.createSymbolicLink(atPath: f.workspace.url.appendingPathComponent("collections/data/key").path,
                                                   withDestinationPath: secret)
        let linked = try f.refusal(#"{"url": "http://h/", "bodyFile": "data/key"}"#)
        #expect(linked.reason.hasPrefix("'data/key' (\(secret)) is outside the workspace"))
        // `~` is a folder name like any other: no home folder.
        let tilde = try f.refusal(#"{"url": "http://h/", "bodyFile": "~/.ssh/id_rsa"}"#)
        #expect(tilde.reason == "no such file: \(f.workspace.path)/collections/~/.ssh/id_rsa")
        // Inside the workspace, and outside it once the folder is allowed.
        let inside = try f.load(#"{"url": "http://h/", "bodyFile": "data/ok.bin"}"#)
        #expect(inside[0].groups[0].requests[0].body == .file(path: "\(f.workspace.path)/collections/data/ok.bin"))
        let allowed = try f.load(#"{"url": "http://h/", "bodyFile": "data/key"}"#, allowing: [f.outside.path])
        #expect(allowed[0].groups[0].requests[0].body == .file(path: secret))
    }

    @Test func postmanSourcesObeyTheSameRoots() throws {
        let f = try Fixture()
        let schema = #""info": {"name": "P", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}"#
        func postman(_ body: String) throws -> [RequestCollection] {
            try f.workspace.write("collections/c.json", #"{\#(schema), "item": [{"name": "r", "request": {"method": "POST", "url": "http://h/", "body": \#(body)}}]}"#)
            return try Workspace(root: f.workspace.url).loadCollections()
        }
        // A missing file outside the workspace is refused too (it would be read if it appeared).
        let error = try #require(throws: InputError.self) {
            try postman(#"{"mode": "formdata", "formdata": [{"key": "a", "type": "file", "src": ["data/ok.bin", "/root/.aws/credentials"]}]}"#)
        }
        #expect(error.fieldPath == "item[0].request.body.formdata[0].src[1]")
        #expect(error.reason.hasPrefix("'/root/.aws/credentials' is outside the workspace"))
        let file = try #require(throws: InputError.self) { try postman(#"{"mode": "file", "file": {"src": "../../etc/passwd"}}"#) }
        #expect(file.fieldPath == "item[0].request.body.file.src" && file.reason.contains("is outside the workspace"))
        // Inside: accepted, also when missing (exports name files that are not shipped).
        let loaded = try postman(#"{"mode": "file", "file": {"src": "data/not-shipped.bin"}}"#)
        #expect(loaded[0].groups[0].requests[0].body == .file(path: "\(f.workspace.path)/collections/data/not-shipped.bin"))
    }

    @Test func onlyRegularFilesAreBodies() throws {
        let f = try Fixture()
        let fifo = f.workspace.url.appendingPathComponent("collections/data/fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let error = try f.refusal(#"{"url": "http://h/", "bodyFile": "data/fifo"}"#)
        #expect(error.reason == "\(fifo) is a FIFO (named pipe), not a regular file; only regular files can be sent as content")
        let device = try #require(throws: InputError.self) {
            try f.load(#"{"url": "http://h/", "bodyFile": "/dev/zero"}"#, allowing: ["/dev"])
        }
        #expect(device.reason.hasPrefix("/dev/zero is a character device, not a regular file"))
        // Opening (when the request is sent) checks again, without blocking on a FIFO that has no writer.
        guard case .failure(let failure) = BodyFile.open(fifo) else { Issue.record("a FIFO was opened"); return }
        #expect(failure.reason.contains("FIFO"))
        guard case .success(let fd) = BodyFile.open(f.workspace.url.appendingPathComponent("collections/data/ok.bin").path) else {
            Issue.record("a regular file was refused"); return
        }
        close(fd)
    }
}
