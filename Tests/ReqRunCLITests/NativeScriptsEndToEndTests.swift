import Foundation
import Testing
import ReqRunKit
import TestSupport

/// Scripts in the native format (`"scripts": {"prerequest", "test"}` on the collection, groups and requests,
/// as text, lines or `{"file"}`), and `import` keeping a Postman collection's scripts, run by the built binary
/// against the local httpbin.
@Suite struct NativeScriptsEndToEndTests {
    private static func lastRecord(_ dir: TemporaryDirectory) throws -> RunRecord {
        let folder = dir.url.appendingPathComponent(".reqrun/runs")
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().last)
        return try RecordFiles.decode(folder.appendingPathComponent(name))
    }

    @Test func scriptsRunAtEveryLevelInNewmansOrder() throws {
        let base = try TestServers.httpbin()
        let dir = try TemporaryDirectory()
        try dir.write("checks/status.js", "console.log('request test from a file');\npm.test('status 200', () => pm.response.to.have.status(200));\n")
        try dir.write("collections/n.json", """
            {"name": "N", "scripts": {"prerequest": "console.log('collection pre')", "test": ["console.log('collection test');"]},
             "groups": [{"name": "g", "scripts": {"prerequest": ["pm.variables.set('who', 'group');", "console.log('group pre')"]},
               "requests": [
                 {"name": "r", "url": "\(base)/anything/{{who}}", "scripts": {"test": {"file": "../checks/status.js"}}},
                 {"name": "broken", "url": "\(base)/get", "scripts": {"test": ["", "null.x;"]}}
               ]}]}
            """)
        let output = try ReqRunBinary.run(["run", "--all"], in: dir.url)
        #expect(output.status == 3, "the broken script is a script error: \(output.stderr)")
        let record = try Self.lastRecord(dir)
        #expect(record.results[0].url == "\(base)/anything/group")
        #expect(record.results[0].console == ["collection pre", "group pre", "collection test", "request test from a file"])
        #expect(record.results[0].expectations.map(\.description) == ["status 200"])
        #expect(record.results[0].passed)
        #expect(record.results[1].outcome == .scriptError)
        #expect(record.results[1].error?.message.hasPrefix("collections/n.json: groups[0].requests[1].scripts.test (test) 2:") == true)
        // `list` marks the requests' own scripts.
        #expect(try ReqRunBinary.run(["list", "--all"], in: dir.url).stdout.contains("[scripts: test]"))
    }

    @Test func aScriptFileOutsideTheWorkspaceOrOfTheWrongTypeIsRefusedAtLoad() throws {
        let dir = try TemporaryDirectory()
        try dir.write("collections/n.json", #"{"name": "N", "groups": [{"name": "g", "requests": [{"url": "http://127.0.0.1:9/", "scripts": {"test": {"file": "/etc/passwd"}}}]}]}"#)
        let outside = try ReqRunBinary.run(["run", "--all"], in: dir.url)
        #expect(outside.status == 2)
        #expect(outside.stderr.contains("collections/n.json:1:"))
        #expect(outside.stderr.contains("groups[0].requests[0].scripts.test.file"))
        try dir.write("collections/n.json", #"{"name": "N", "groups": [{"name": "g", "requests": [{"url": "http://127.0.0.1:9/", "scripts": {"tests": "x"}}]}]}"#)
        let unknown = try ReqRunBinary.run(["run", "--all"], in: dir.url)
        #expect(unknown.status == 2 && unknown.stderr.contains("tests"))
        try dir.write("collections/n.json", #"{"name": "N", "groups": [{"name": "g", "requests": [{"url": "http://127.0.0.1:9/", "scripts": {"test": 5}}]}]}"#)
        let wrong = try ReqRunBinary.run(["run", "--all"], in: dir.url)
        #expect(wrong.status == 2 && wrong.stderr.contains("expected a string, an array of lines or {\"file\": \"path\"}, found a number"))
    }

    @Test func importKeepsPostmanScriptsAndTheImportedCollectionRunsThem() throws {
        let base = try TestServers.httpbin()
        let dir = try TemporaryDirectory()
        try dir.write("shop.postman_collection.json", """
            {"info": {"name": "Shop", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             "event": [{"listen": "prerequest", "script": {"exec": ["pm.environment.set('path', 'from-collection');"]}}],
             "item": [{"name": "F", "event": [{"listen": "test", "script": {"exec": ["pm.test('folder sees json', () => pm.expect(pm.response.json()).to.be.an('object'));"]}}],
               "item": [{"name": "get", "event": [{"listen": "test", "script": {"exec": ["pm.response.to.have.status(200);", "pm.test('status', () => pm.response.to.have.status(200));"]}}],
                 "request": {"method": "GET", "url": "\(base)/anything/{{path}}"}}]}]}
            """)
        let imported = try ReqRunBinary.run(["import", "shop.postman_collection.json", "--to", "collections/shop.json"], in: dir.url)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(!imported.stderr.contains("not written"))
        let text = try String(contentsOf: dir.url.appendingPathComponent("collections/shop.json"), encoding: .utf8)
        #expect(text.contains("\"scripts\""))
        let output = try ReqRunBinary.run(["run", "--all"], in: dir.url)
        #expect(output.status == 0, "\(output.stderr)")
        let result = try #require(try Self.lastRecord(dir).results.first)
        #expect(result.url == "\(base)/anything/from-collection")
        // The folder's and the request's assertions, run by the scripts.
        #expect(result.expectations.map(\.description) == ["folder sees json", "status"])
    }
}
