import Foundation
import Testing
@testable import ReqRunKit

/// Each Postman mapping rule with a small fixture of our own.
@Suite struct PostmanDecoderTests {
    private let v21 = #""info": {"name": "Shop", "_postman_id": "c0ffee00-0000-4000-8000-000000000001", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}"#
    private let v20 = #""info": {"name": "Shop", "schema": "https://schema.getpostman.com/json/collection/v2.0.0/collection.json"}"#

    private func decode(_ text: String) throws -> RequestCollection {
        try CollectionDecoder.decode(Array(text.utf8), file: "collections/shop.json", fileName: "shop.json",
                                     files: FileScope(base: "/data", roots: FileRoots(["/data", "/abs"])))
    }

    /// The requests in list order, as the outline walks them.
    private func requests(_ collection: RequestCollection) -> [RequestReference] {
        Outline(collections: [collection], expansion: .transient([])).allRequests()
    }

    @Test func recognisesBySchemaAndByShape() throws {
        #expect(PostmanFormat.collectionVersion(try JSONParser.parse(Array("{\(v21), \"item\": []}".utf8))) == .v2_1)
        #expect(PostmanFormat.collectionVersion(try JSONParser.parse(Array("{\(v20), \"item\": []}".utf8))) == .v2_0)
        #expect(PostmanFormat.collectionVersion(try JSONParser.parse(Array(#"{"name": "n", "item": []}"#.utf8))) == .shape)
        #expect(PostmanFormat.collectionVersion(try JSONParser.parse(Array(#"{"name": "n", "groups": []}"#.utf8))) == nil)
        let loose = try decode(#"{"name": "Loose", "item": [{"name": "a", "request": "http://x/a"}]}"#)
        #expect(loose.name == "Loose")
        #expect(requests(loose).map(\.request.url) == ["http://x/a"])
    }

    @Test func foldersNestInOrderAndTopLevelRequestsFormGroups() throws {
        let collection = try decode("""
            {\(v21), "item": [
              {"name": "first", "request": "http://x/1"},
              {"name": "F", "id": "7bbd0224-3a31-4ba7-9dbb-b7138de7aaee", "item": [
                {"name": "Sub", "item": [{"name": "deep", "request": "http://x/2"}]},
                {"name": "after sub", "request": "http://x/3"}
              ]},
              {"name": "last", "request": "http://x/4"}
            ]}
            """)
        #expect(collection.groups.map(\.name) == ["Shop", "F", "Shop (2)"])
        #expect(requests(collection).map(\.request.name) == ["first", "deep", "after sub", "last"])
        #expect(requests(collection).map(\.groupPath) == [["Shop"], ["F", "Sub"], ["F"], ["Shop (2)"]])
        let folder = collection.groups[1]
        #expect(folder.id == UUID(uuidString: "7bbd0224-3a31-4ba7-9dbb-b7138de7aaee"))
        #expect(!folder.idIsDerived)
        #expect(folder.itemOrder == [.group, .request])
        #expect(folder.groups[0].id == GroupID.derived(fileName: "shop.json", groupPath: ["F", "Sub"]))
        #expect(collection.groups[0].id == GroupID.derived(fileName: "shop.json", groupPath: []))
        let tree = OutlineTree(Outline(collections: [collection], expansion: .transient([])), workspace: Workspace(root: URL(fileURLWithPath: "/w")))
        #expect(tree.collections[0].groups[1].requests.map(\.index) == [2])
        #expect(tree.collections[0].groups[1].groups[0].requests.map(\.index) == [1])
    }

    @Test func folderIDsThatAreNotUUIDsAndSameNamedSiblings() throws {
        let collection = try decode("""
            {\(v21), "item": [
              {"name": "A", "id": "folder-1", "item": []},
              {"name": "B", "item": []}, {"name": "B", "item": []}
            ]}
            """)
        #expect(collection.groups[0].id == PostmanDecoder.groupID(postmanID: "folder-1"))
        #expect(collection.groups[1].id == GroupID.derived(fileName: "shop.json", groupPath: ["B"]))
        #expect(collection.groups[2].id == GroupID.derived(fileName: "shop.json", groupPath: ["B\u{1F}2"]))
        // Stable: the same file gives the same ids.
        #expect(try decode("{\(v21), \"item\": [{\"name\": \"A\", \"id\": \"folder-1\", \"item\": []}]}").groups[0].id == collection.groups[0].id)
    }

    @Test func urlObjectsBuildFromTheirParts() throws {
        let collection = try decode("""
            {\(v21), "item": [{"name": "u", "request": {"method": "GET", "url": {
              "raw": "ignored", "protocol": "https", "host": ["api", "{{domain}}"], "port": "8443",
              "path": ["users", ":id", "posts"], "variable": [{"key": "id", "value": "{{userId}}"}],
              "query": [{"key": "a", "value": "1"}, {"key": "off", "value": "x", "disabled": true}, {"key": "flag", "value": null},
                        {"key": "line", "value": "x\\ny"}],
              "hash": "top"}}},
              {"name": "s", "request": {"url": {"raw": "{{base}}/only-raw"}}},
              {"name": "p", "request": {"url": {"host": "h.example", "path": "/a/b"}}}
            ]}
            """)
        #expect(requests(collection).map(\.request.url) == [
            "https://api.{{domain}}:8443/users/{{userId}}/posts?a=1&flag&line=x%0Ay#top", "{{base}}/only-raw", "h.example/a/b",
        ])
    }

    @Test func headersAsListOrStringAndCustomMethods() throws {
        let collection = try decode("""
            {\(v21), "item": [
              {"name": "l", "request": {"method": "PURGE", "url": "x", "header": [{"key": "A", "value": "1"},
                {"key": "B", "value": "2", "disabled": true}, {"key": "bad name", "value": "3"}, {"key": "C", "value": ""}]}},
              {"name": "s", "request": {"url": "x", "header": "A: 1\\nB:two words"}}
            ]}
            """)
        let all = requests(collection).map(\.request)
        #expect(all[0].method == "PURGE")
        #expect(all[0].headers == [HeaderField(name: "A", value: "1"), HeaderField(name: "C", value: "")])
        #expect(all[1].headers == [HeaderField(name: "A", value: "1"), HeaderField(name: "B", value: "two words")])
        #expect(collection.warnings.contains { $0.contains("'bad name' is not a valid field name") })
    }

    @Test func bodyModes() throws {
        let collection = try decode("""
            {\(v21), "item": [
              {"name": "json", "request": {"method": "POST", "url": "x", "body": {"mode": "raw", "raw": "{\\"a\\": {{n}}}", "options": {"raw": {"language": "json"}}}}},
              {"name": "own type", "request": {"method": "POST", "url": "x", "header": [{"key": "content-type", "value": "text/xml"}],
                "body": {"mode": "raw", "raw": "<a/>", "options": {"raw": {"language": "xml"}}}}},
              {"name": "form", "request": {"method": "POST", "url": "x", "body": {"mode": "urlencoded", "urlencoded": [
                {"key": "a", "value": "1"}, {"key": "b", "value": "2", "disabled": true}]}}},
              {"name": "multi", "request": {"method": "POST", "url": "x", "body": {"mode": "formdata", "formdata": [
                {"key": "t", "value": "v", "type": "text"}, {"key": "f", "type": "file", "src": "up/a.csv"},
                {"key": "two", "type": "file", "src": ["/abs/1.bin", "2.bin"]}, {"key": "off", "value": "x", "enabled": false}]}}},
              {"name": "file", "request": {"method": "PUT", "url": "x", "body": {"mode": "file", "file": {"src": "data.bin"}}}},
              {"name": "gql", "request": {"method": "POST", "url": "x", "body": {"mode": "graphql", "graphql": {"query": "{ me }", "variables": "{\\n \\"id\\": 1\\n}"}}}},
              {"name": "disabled", "request": {"method": "POST", "url": "x", "body": {"mode": "raw", "raw": "x", "disabled": true}}},
              {"name": "unknown", "request": {"method": "POST", "url": "x", "body": {"mode": "telepathy"}}},
              {"name": "empty raw", "request": {"method": "POST", "url": "x", "body": {"mode": "raw", "raw": ""}}}
            ]}
            """)
        let all = requests(collection).map(\.request)
        #expect(all[0].body == .text("{\"a\": {{n}}}"))
        #expect(all[0].headers == [HeaderField(name: "Content-Type", value: "application/json")])
        #expect(all[1].headers == [HeaderField(name: "content-type", value: "text/xml")])
        #expect(all[2].body == .form([Parameter(name: "a", value: "1")]))
        #expect(all[3].body == .multipart([
            MultipartPart(name: "t", content: .text("v")), MultipartPart(name: "f", content: .file(path: "/data/up/a.csv")),
            MultipartPart(name: "two", content: .file(path: "/abs/1.bin")), MultipartPart(name: "two", content: .file(path: "/data/2.bin")),
        ]))
        #expect(all[4].body == .file(path: "/data/data.bin"))
        #expect(all[5].body == .graphQL(query: "{ me }", variables: "{\"id\":1}", operationName: nil))
        #expect(all[6].body == nil)
        #expect(all[7].body == nil)
        #expect(all[8].body == nil)
        #expect(collection.warnings.contains { $0.contains("item[7].request.body.mode: unknown body mode 'telepathy'") })
    }

    @Test func authKindsInBothFormsAndInheritance() throws {
        let collection = try decode("""
            {\(v21), "auth": {"type": "basic", "basic": [{"key": "username", "value": "u"}, {"key": "password", "value": "p"}]},
             "item": [
              {"name": "F", "auth": {"type": "bearer", "bearer": {"token": "{{t}}"}}, "item": [
                {"name": "inherits folder", "request": {"url": "x"}},
                {"name": "noauth", "request": {"url": "x", "auth": {"type": "noauth"}}},
                {"name": "apikey query", "request": {"url": "x", "auth": {"type": "apikey", "apikey": [
                  {"key": "key", "value": "k"}, {"key": "value", "value": "v"}, {"key": "in", "value": "query"}]}}},
                {"name": "digest", "request": {"url": "x", "auth": {"type": "digest", "digest": {"username": "d", "password": "pw", "realm": "r"}}}},
                {"name": "aws", "request": {"url": "x", "auth": {"type": "awsv4", "awsv4": [{"key": "accessKey", "value": "AK"},
                  {"key": "secretKey", "value": "SK"}, {"key": "service", "value": "s3"}]}}},
                {"name": "edgegrid", "request": {"url": "x", "auth": {"type": "edgegrid", "edgegrid": []}}},
                {"name": "oauth2", "request": {"url": "x", "auth": {"type": "oauth2", "oauth2": [{"key": "accessToken", "value": "AT"}]}}}
              ]},
              {"name": "top", "request": {"url": "x"}}
            ]}
            """)
        #expect(requests(collection).map(\.effectiveAuth) == [
            .bearer(token: "{{t}}"), Auth.none, .apiKey(name: "k", value: "v", inQuery: true), .digest(username: "d", password: "pw"),
            .awsSigV4(accessKey: "AK", secretKey: "SK", region: "us-east-1", service: "s3", sessionToken: nil), Auth.none,
            .bearer(token: "AT"), .basic(username: "u", password: "p"),
        ])
        // edgegrid without its three credentials signs nothing, as postman-runtime: no auth and no warning.
        #expect(!collection.warnings.contains { $0.contains("edgegrid") }, "\(collection.warnings)")
    }

    @Test func collectionAndFolderVariablesSkipDisabledAndKeepTheLastDuplicate() throws {
        let collection = try decode("""
            {\(v21), "variable": [{"key": "a", "value": "1"}, {"key": "b", "value": "x", "disabled": true}, {"key": "a", "value": 2},
                                  {"key": "c", "value": "3"}, {"key": "c", "value": "4", "disabled": true}],
             "item": [{"name": "F", "variable": [{"key": "f", "value": true}], "item": [{"name": "r", "request": "x"}]}]}
            """)
        #expect(collection.variables == [Variable(name: "a", value: "2"), Variable(name: "c", value: "3")])
        #expect(collection.groups[0].variables == [Variable(name: "f", value: "true")])
    }

    @Test func postmanEnvironmentFollowsNewman() throws {
        let environment = try Environment.decode(Array("""
            {"name": "e", "values": [{"key": "justDisabled", "value": "1", "disabled": true},
              {"key": "oneDisabled", "value": "1"}, {"key": "oneDisabled", "value": "2", "disabled": true},
              {"key": "duplicate", "value": "1"}, {"key": "duplicate", "value": "2", "enabled": true},
              {"key": "token", "value": "s3", "type": "secret"}], "_postman_variable_scope": "environment"}
            """.utf8), name: "e", file: "e.json")
        #expect(environment.variables == [Variable(name: "oneDisabled", value: "1"), Variable(name: "duplicate", value: "2"),
                                          Variable(name: "token", value: "s3")])
        #expect(environment.secretNames == ["token"])
    }

    /// Scripts are counted and kept to run; their status checks are not translated into expectations (the
    /// scripts check them when they run: a translation counted them twice).
    @Test func scriptsAreCountedAndTheirStatusChecksNotTranslated() throws {
        let collection = try decode("""
            {\(v21), "event": [{"listen": "test", "script": {"exec": ["pm.response.to.be.success;"]}}],
             "item": [
              {"name": "r", "event": [
                {"listen": "prerequest", "script": {"exec": ["pm.variables.set('a', 1);"]}},
                {"listen": "test", "script": {"exec": [
                  "pm.test('ok', function () {", "    pm.response.to.have.status(201);", "});",
                  "tests['legacy'] = responseCode.code === 200;"
                ]}}], "request": "x"},
              {"name": "plain", "request": "y"}
            ]}
            """)
        let all = requests(collection).map(\.request)
        #expect(all[0].scripts?.events == ["prerequest", "test"])
        #expect(all[0].expectations.isEmpty && all[1].expectations.isEmpty)
        #expect(all[0].eventScripts.map(\.event) == [.test, .prerequest, .test])
        #expect(all[1].scripts == nil && all[1].eventScripts.map(\.event) == [.test])
        // The count is kept for the command to word (or leave out): no warning of its own.
        #expect(collection.warnings.isEmpty)
        let count = try #require(collection.postmanScripts)
        #expect(count == PostmanScriptCount(preRequest: 1, test: 2))
        #expect(count.notice(file: "collections/shop.json", use: .notRun(command: "list"))
                == "collections/shop.json: 3 scripts (1 pre-request, 2 test), not run by 'reqrun list' ('reqrun run', 'send' and 'ui' run them; "
                + "'reqrun list' marks the requests that have their own)")
        #expect(count.notice(file: "collections/shop.json", use: .preRequestOnly)
                == "collections/shop.json: 2 test scripts, not run by --dry-run (pre-request scripts are)")
        #expect(PostmanScriptCount(preRequest: 2).notice(file: "f.json", use: .preRequestOnly) == nil)
        #expect(PostmanScriptCount().notice(file: "f.json", use: .notRun(command: "list")) == nil)
    }

    /// One long line (a minified snippet, an inline schema) loads in time in proportion to its length.
    @Test func aOneMegabyteScriptLineLoadsQuickly() throws {
        let filler = String(repeating: "a=b+c,", count: 500_000 / 6)
        let line = #"pm.test('s', function () { var \#(filler)x=1; pm.response.to.have.status(201); var y=\"\#(filler)\" });"#
        let clock = ContinuousClock()
        var collection: RequestCollection?
        let elapsed = try clock.measure {
            collection = try decode(#"{\#(v21), "item": [{"name": "r", "request": "x", "event": [{"listen": "test", "script": {"exec": ["\#(line)"]}}]}]}"#)
        }
        #expect(elapsed < .seconds(2), "took \(elapsed)")
        #expect(try #require(collection.map(requests)?.first).request.scripts?.events == ["test"])
    }

    @Test func errorsNameFileLineColumnAndFieldPath() throws {
        let error = try #require(throws: InputError.self) {
            try decode("{\(v21),\n \"item\": [{\"name\": \"r\", \"request\": {\"url\": 42}}]}")
        }
        #expect(error.description == "collections/shop.json:2:44: item[0].request.url: expected a string or an object, found a number")
        // A v1 file is converted, no longer refused.
        let v1 = try decode(#"{"info": {"name": "o", "schema": "https://schema.getpostman.com/json/collection/v1.0.0/collection.json"}}"#)
        #expect(v1.name == "o" && v1.groups.isEmpty)
    }

    @Test func encoderRoundTripsTheNativeFormat() throws {
        let text = """
            {"name": "API", "id": "api-1", "variables": {"base": "http://x"},
             "auth": {"type": "apikey", "key": "X-Key", "value": "{{k}}", "in": "header"},
             "groups": [{"id": "7bbd0224-3a31-4ba7-9dbb-b7138de7aaee", "name": "g", "variables": {"v": "1"}, "auth": {"type": "none"},
               "requests": [
                 {"url": "{{base}}/a"},
                 {"id": "r2", "name": "Create", "method": "PUT", "url": "{{base}}/b", "headers": [{"name": "X-A", "value": "1"}],
                  "query": [{"name": "q", "value": "1"}], "body": {"n": 12345678901234567890, "s": "é\\n"},
                  "auth": {"type": "awsv4", "accessKey": "a", "secretKey": "s", "region": "r", "service": "x", "sessionToken": "t"},
                  "expect": [{"status": [200, "3xx"]}, {"header": "ETag", "exists": true}, {"body": {"contains": "x"}},
                             {"json": "$.a[0]", "equals": {"b": 1.50}}, {"json": "$.t", "type": "integer"}, {"timeBelow": 500},
                             {"bodySizeBelow": 10}],
                  "capture": [{"var": "id", "json": "$.id"}, {"var": "c", "cookie": "s"}],
                  "timeout": 2.5, "followRedirects": false, "maxRedirects": 3},
                 {"method": "POST", "url": "u", "form": [{"name": "a", "value": "b"}]},
                 {"method": "POST", "url": "u", "graphql": {"query": "{ me }", "variables": {"x": 1}, "operationName": "Me"}}
               ],
               "groups": [{"name": "inner", "requests": [{"url": "v", "body": "text"}]}]}]}
            """
        let original = try CollectionDecoder.decode(Array(text.utf8), file: "a.json", fileName: "x.json")
        let encoded = CollectionEncoder.encode(original)
        let again = try CollectionDecoder.decode(Array(encoded.utf8), file: "a.json", fileName: "x.json")
        #expect(withoutLocations(again) == withoutLocations(original))
        #expect(CollectionEncoder.encode(again) == encoded)
        #expect(encoded.hasPrefix("{\n  \"name\": \"API\",\n  \"id\": \"api-1\",\n  \"variables\": {\n    \"base\": \"http://x\"\n  },\n  \"auth\": {"))
    }

    @Test func importWritesEveryGroupIDAndTheNativeOrder() throws {
        let collection = try decode("""
            {\(v21), "item": [{"name": "F", "item": [{"name": "S", "item": []}, {"name": "after", "event": [{"listen": "test",
              "script": {"exec": ["pm.response.to.have.status(200);"]}}], "request": "http://x"}]}]}
            """)
        let result = PostmanImport.prepare(collection)
        #expect(result.movedRequests == 1)
        #expect(result.requestsWithScripts == 1)
        let encoded = CollectionEncoder.encode(result.collection)
        let native = try CollectionDecoder.decode(Array(encoded.utf8), file: "n.json", fileName: "other-name.json")
        #expect(native.groups[0].id == collection.groups[0].id)
        #expect(native.groups[0].groups[0].id == collection.groups[0].groups[0].id)
        // The script is written and runs; its translation is left out (the script makes the check).
        #expect(native.groups[0].requests[0].expectations.isEmpty)
        #expect(native.groups[0].requests[0].eventScripts.map(\.source) == ["pm.response.to.have.status(200);"])
        #expect(encoded.contains("\"scripts\": {\n"))
    }

    private func withoutLocations(_ collection: RequestCollection) -> RequestCollection {
        func strip(_ group: RequestGroup) -> RequestGroup {
            var group = group
            group.location = SourceLocation(line: 1, column: 1)
            group.requests = group.requests.map { request in
                var request = request
                request.expectations = request.expectations.map { spec in
                    var expectation = spec.expectation
                    // A JSON value keeps where it was written; compare it by its text.
                    if case .json(let path, .equals(let node)) = expectation, let plain = try? JSONParser.parse(Array(node.compactText.utf8)) {
                        expectation = .json(path: path, .equals(plain))
                    }
                    return ExpectationSpec(expectation: expectation, fieldPath: "", location: SourceLocation(line: 1, column: 1))
                }
                request.captures = request.captures.map { Capture(variable: $0.variable, source: $0.source, fieldPath: "") }
                return request
            }
            group.groups = group.groups.map(strip)
            return group
        }
        var copy = collection
        copy.groups = collection.groups.map(strip)
        return copy
    }
}
