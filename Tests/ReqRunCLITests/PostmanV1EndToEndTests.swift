import Foundation
import Testing
import ReqRunKit
import TestSupport

/// A Postman Collection v1 export of our own (the shape the Postman app wrote before v2: `order`,
/// `folders_order`, `requests` with `dataMode`, `headers` as text, `currentHelper`), through the built binary:
/// listed in the converted order, dry-run, run against the local httpbin, and imported.
@Suite struct PostmanV1EndToEndTests {
    static let collection = """
        {"id": "7d3f1c2a-0000-4b1e-9a0f-00000000c011", "name": "Old Shop",
         "order": ["r-top-form", "r-top-raw", "r-top-file"],
         "folders_order": ["f-items", "f-missing"],
         "variables": [{"key": "item", "value": "42"}],
         "folders": [
          {"id": "f-items", "name": "Items", "order": ["r-get", "r-nowhere"], "folders_order": ["f-nested"]},
          {"id": "f-nested", "name": "Nested", "order": ["r-post"],
           "preRequestScript": "pm.variables.set('pre', 'set by the folder');"}
         ],
         "requests": [
          {"id": "r-get", "name": "Get item", "method": "GET", "url": "{{base}}/anything/items/:id?full=true",
           "pathVariables": {"id": "{{item}}"},
           "queryParams": [{"key": "full", "value": "true", "equals": true}, {"key": "debug", "value": "1", "enabled": false}],
           "headers": "Accept: application/json\\n// X-Off: 1\\nX-Folded: a\\r\\n b\\n",
           "currentHelper": "basicAuth", "helperAttributes": {"username": "u", "password": "pa55", "saveToRequest": true},
           "tests": "pm.test('basic auth sent', function () {\\n  pm.expect(pm.response.json().headers.Authorization).to.eql('Basic dTpwYTU1');\\n});"},
          {"id": "r-post", "name": "Create item", "method": "POST", "url": "{{base}}/anything/post",
           "headers": "X-Pre: {{pre}}", "dataMode": "urlencoded",
           "data": [{"key": "a", "value": "1", "type": "text"}, {"key": "b", "value": "2", "type": "text", "enabled": false}],
           "events": [{"script": {"exec": "pm.test('form sent', function () {\\n  pm.expect(pm.response.json().form).to.eql({a: '1'});\\n  pm.expect(pm.response.json().headers['X-Pre']).to.eql('set by the folder');\\n});"}}]},
          {"id": "r-top-form", "name": "Upload", "method": "POST", "url": "{{base}}/anything/upload", "headers": "",
           "dataMode": "params",
           "data": [{"key": "note", "value": "hi", "type": "text"}, {"key": "doc", "value": "files/doc.txt", "type": "file"}],
           "currentHelper": "normal"},
          {"id": "r-top-raw", "name": "Raw", "method": "PUT", "url": "{{base}}/anything/raw",
           "headers": "Content-Type: application/json\\n", "dataMode": "raw", "rawModeData": "{\\"id\\": \\"{{item}}\\"}",
           "currentHelper": "digestAuth", "helperAttributes": "{\\"username\\": \\"d\\", \\"password\\": \\"dpass\\"}"},
          {"id": "r-top-file", "name": "Binary", "method": "POST", "url": "{{base}}/anything/bin", "headers": "",
           "dataMode": "binary", "rawModeData": "files/doc.txt"}
         ]}
        """

    private func workspace() throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory()
        try dir.write("collections/old.json", Self.collection)
        try dir.write("collections/files/doc.txt", "file content\n")
        try dir.write("env.json", #"{"base": "\#(try TestServers.httpbin())"}"#)
        return dir
    }

    @Test func listsInTheTransformersOrder() throws {
        let dir = try workspace()
        let output = try ReqRunBinary.run(["list", "--all", "--json"], in: dir.url)
        #expect(output.status == 0, "\(output.stderr)")
        let tree = try JSONDecoder().decode(OutlineTree.self, from: Data(output.stdout.utf8))
        let groups = tree.collections[0].groups
        #expect(tree.collections[0].name == "Old Shop")
        #expect(groups.map(\.name) == ["Items", "Old Shop"])
        #expect(groups[0].groups.map(\.name) == ["Nested"])
        #expect(groups[0].groups[0].requests.map(\.name) == ["Create item"])
        #expect(groups[0].requests.map(\.name) == ["Get item"])
        #expect(groups[1].requests.map(\.name) == ["Upload", "Raw", "Binary"])
        let text = try ReqRunBinary.run(["list", "--all"], in: dir.url)
        // The folder's subfolder comes before its request, as the transformer places them.
        let nested = try #require(text.stdout.range(of: "Nested")), get = try #require(text.stdout.range(of: "Get item"))
        #expect(nested.lowerBound < get.lowerBound)
    }

    @Test func dryRunShowsTheConvertedRequests() throws {
        let dir = try workspace()
        let output = try ReqRunBinary.run(["run", "--all", "--dry-run", "--json", "--env", "env.json", "--show-secrets"], in: dir.url)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        let entries = try JSONDecoder().decode([DryRunEntry].self, from: Data(output.stdout.utf8))
        let base = try TestServers.httpbin()
        #expect(entries.map(\.url) == ["\(base)/anything/post", "\(base)/anything/items/42?full=true", "\(base)/anything/upload",
                                       "\(base)/anything/raw", "\(base)/anything/bin"])
        #expect(entries.map(\.method) == ["POST", "GET", "POST", "PUT", "POST"])
        #expect(entries[0].headers?.first == HeaderField(name: "X-Pre", value: "set by the folder"))
        #expect(entries[0].body?.text == "a=1")
        #expect(entries[1].headers == [HeaderField(name: "Accept", value: "application/json"), HeaderField(name: "X-Folded", value: "a b"),
                                       HeaderField(name: "Authorization", value: "Basic dTpwYTU1"),
                                       HeaderField(name: "User-Agent", value: "reqrun/\(reqrunVersion)")])
        #expect(entries[2].body?.parts?.map(\.name) == ["note", "doc"])
        #expect(entries[2].headers?.contains { $0.name == "Authorization" } == false)
        #expect(entries[3].body?.text == #"{"id": "42"}"#)
        #expect(entries[3].transferAuth?.contains("digest") == true)
        #expect(entries[4].body?.file?.hasSuffix("collections/files/doc.txt") == true)
    }

    @Test func runsItsScriptsAgainstHttpbin() throws {
        let dir = try workspace()
        let output = try ReqRunBinary.run(["run", "--all", "--env", "env.json"], in: dir.url)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("✓ basic auth sent"))
        #expect(output.stdout.contains("✓ form sent"))
        #expect(output.stdout.contains("5 requests: 5 passed"))
    }

    @Test func importWritesTheNativeFormat() throws {
        let dir = try workspace()
        try FileManager.default.moveItem(at: dir.url.appendingPathComponent("collections/old.json"), to: dir.url.appendingPathComponent("old.json"))
        try dir.write("files/doc.txt", "file content\n")
        let imported = try ReqRunBinary.run(["import", "old.json", "--to", "collections/old-shop.json"], in: dir.url)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("imported 5 requests of 'Old Shop'"))
        let native = try dir.read("collections/old-shop.json")
        #expect(native.contains("\"groups\""))
        #expect(native.contains("pm.variables.set('pre', 'set by the folder');"))
        let output = try ReqRunBinary.run(["run", "--all", "--env", "env.json"], in: dir.url)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("5 requests: 5 passed"))
        // A v1 export's own file name (NAME.json.postman_collection) gives collections/NAME.json.
        try FileManager.default.moveItem(at: dir.url.appendingPathComponent("old.json"), to: dir.url.appendingPathComponent("Old Shop.json.postman_collection"))
        try FileManager.default.removeItem(at: dir.url.appendingPathComponent("collections/old-shop.json"))
        let byName = try ReqRunBinary.run(["import", "Old Shop.json.postman_collection"], in: dir.url)
        #expect(byName.status == 0, "\(byName.stderr)")
        #expect(dir.exists("collections/Old Shop.json"))
    }

    @Test func errorsNameTheV1Field() throws {
        let dir = try TemporaryDirectory()
        try dir.write("collections/bad.json", """
            {"id": "c", "name": "Bad", "order": ["r"], "folders": [],
             "requests": [{"id": "r", "name": "R", "method": "G E T", "url": "http://h/"}]}
            """)
        let output = try ReqRunBinary.run(["list", "--all"], in: dir.url)
        #expect(output.status == 2)
        #expect(output.stderr.contains("collections/bad.json:2:50: requests[0].method: 'G E T' is not a valid method"), "\(output.stderr)")
    }
}
