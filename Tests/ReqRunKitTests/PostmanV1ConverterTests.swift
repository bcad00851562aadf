import Foundation
import Testing
@testable import ReqRunKit

/// postman-collection-transformer's v1 → v2 rules, one fixture of our own each (the end-to-end run is in
/// `PostmanV1EndToEndTests`).
@Suite struct PostmanV1ConverterTests {
    private func decode(_ requests: String, extra: String = #""folders": [],"#) throws -> RequestCollection {
        let text = #"{"id": "c", "name": "V1", "order": ["r"], \#(extra) "requests": [\#(requests)]}"#
        return try CollectionDecoder.decode(Array(text.utf8), file: "collections/v1.json", fileName: "v1.json",
                                            files: FileScope(base: "/data", roots: FileRoots(["/data"])))
    }

    private func request(_ fields: String) throws -> Request {
        try #require(decode(#"{"id": "r", "name": "R", "method": "GET", \#(fields)}"#).groups.first?.requests.first)
    }

    @Test func queryParamsFollowEqualsAndEnabled() throws {
        let r = try request(#""url": "http://h/p?a=1&b=&c&z=9", "queryParams": [{"key": "a", "value": "1"}, {"key": "b", "value": "", "equals": false}, {"key": "c", "value": null, "equals": true}, {"key": "d", "value": "4", "enabled": false}]"#)
        // Listed entries first, then the URL's own entries that queryParams lacks (z).
        #expect(r.url == "http://h/p?a=1&b&c=&z=9")
    }

    @Test func pathVariablesFromBothForms() throws {
        let r = try request(#""url": "{{base}}/u/:id/:kind/", "pathVariableData": [{"key": "id", "value": "7"}], "pathVariables": {"id": "ignored", "kind": "a#b"}"#)
        #expect(r.url == "{{base}}/u/7/a%23b/")
        // Without path variables or query params the URL stays a string, as written (trimmed).
        #expect(try request(#""url": "  http://h/:id?x=1  ""#).url == "http://h/:id?x=1")
    }

    @Test func headerTextAndHeaderData() throws {
        let r = try request(#""headerData": [{"key": "A", "value": "from data"}, {"key": "//B", "value": "off"}], "headers": "A: from text\n//B: off\nC:  c value \nnot a header\nD: long\r\n  folded\n""#)
        #expect(r.headers == [HeaderField(name: "A", value: "from data"), HeaderField(name: "C", value: "c value"),
                              HeaderField(name: "D", value: "long  folded")])
        #expect(PostmanV1Converter.headerLines("X-A:b:c\n// Off: 1") .map { "\($0.0)|\($0.1)|\($0.2)" } == ["X-A:b|c|false", "Off|1|true"])
    }

    @Test func bodiesByDataMode() throws {
        #expect(try request(#""dataMode": "raw", "rawModeData": "text"  "#).body == .text("text"))
        #expect(try request(#""dataMode": "raw", "data": "from data""#).body == .text("from data"))
        #expect(try request(#""data": [{"key": "k", "value": "v", "type": "text"}]"#).body
                == .multipart([MultipartPart(name: "k", content: .text("v"))]))
        #expect(try request(#""dataMode": "urlencoded", "data": [{"key": "k", "value": "v"}, {"key": "x", "value": "y", "enabled": false}]"#).body
                == .form([Parameter(name: "k", value: "v")]))
        #expect(try request(#""dataMode": "params", "data": [{"key": "f", "value": ["a.txt", "b.txt"], "type": "file"}]"#).body
                == .multipart([MultipartPart(name: "f", content: .file(path: "/data/a.txt")), MultipartPart(name: "f", content: .file(path: "/data/b.txt"))]))
        #expect(try request(#""dataMode": "binary", "rawModeData": "up.bin""#).body == .file(path: "/data/up.bin"))
        #expect(try request(#""dataMode": "graphql", "graphqlModeData": {"query": "{ a }"}"#).body
                == .graphQL(query: "{ a }", variables: nil, operationName: nil))
        #expect(try request(#""dataMode": null, "rawModeData": "x""#).body == nil)
        #expect(try request(#""dataMode": "raw", "rawModeData": "x", "dataDisabled": true"#).body == nil)
    }

    @Test func authHelpersBecomeV2Auth() throws {
        #expect(try request(#""currentHelper": "bearerAuth", "helperAttributes": {"token": "t"}"#).auth == .bearer(token: "t"))
        #expect(try request(#""currentHelper": "awsSigV4", "helperAttributes": {"accessKey": "A", "secretKey": "S", "region": "eu-west-1", "service": "s3"}"#).auth
                == .awsSigV4(accessKey: "A", secretKey: "S", region: "eu-west-1", service: "s3", sessionToken: nil))
        #expect(try request(#""currentHelper": "normal", "auth": {"type": "basic"}"#).auth == nil)
        #expect(try request(#""currentHelper": "basicAuth", "helperAttributes": "not json""#).auth == nil)
        // A v2-style auth object without helper fields is taken as it is.
        #expect(try request(#""auth": {"type": "basic", "basic": [{"key": "username", "value": "u"}]}"#).auth == .basic(username: "u", password: ""))
        // oauth1 and hawk get v2's parameter names (for PostmanAuthDecoder).
        var converter = PostmanV1Converter(file: "v1.json")
        let root = try JSONParser.parse(Array(#"""
            {"id": "c", "name": "V1", "order": ["h", "o"], "requests": [
             {"id": "h", "currentHelper": "hawkAuth", "helperAttributes": {"hawk_id": "i", "hawk_key": "k", "ext": "e", "app": "a", "dlg": "d"}},
             {"id": "o", "currentHelper": "oAuth1", "helperAttributes": {"consumerKey": "ck", "header": true, "auto": true, "includeEmpty": false}}]}
            """#.utf8))
        let text = try converter.convert(root).compactText
        #expect(text.contains(#""auth":{"type":"hawk","hawk":{"authId":"i","authKey":"k","extraData":"e","appId":"a","delegation":"d"}}"#))
        #expect(text.contains(#""auth":{"type":"oauth1","oauth1":{"consumerKey":"ck","addParamsToHeader":true,"autoAddParam":true,"addEmptyParamsToSign":false}}"#))
    }

    @Test func scriptsFromTestsOrEvents() throws {
        let legacy = try request(#""tests": "tests['a'] = true;", "preRequestScript": "var x = 1;", "events": [{"listen": "test", "script": {"exec": "ignored"}}]"#)
        #expect(legacy.eventScripts.map(\.event) == [.test, .prerequest])
        #expect(legacy.eventScripts.map(\.source) == ["tests['a'] = true;", "var x = 1;"])
        let events = try request(#""events": [{"script": {"exec": "line1\nline2"}}]"#)
        #expect(events.eventScripts.map(\.event) == [.test])
        #expect(events.eventScripts.map(\.source) == ["line1\nline2"])
    }

    @Test func aFolderIsPlacedOnce() throws {
        let collection = try decode(#"{"id": "r", "name": "R", "url": "http://h/"}"#, extra: #"""
            "folders_order": ["a", "a"], "folders": [{"id": "a", "name": "A", "folders_order": ["b"], "order": []},
              {"id": "b", "name": "B", "folders_order": ["b"], "order": ["r"]}],
            """#)
        // The top-level `order` lists 'r' too, already placed in B (`aRequestIsPlacedOnce`).
        #expect(collection.groups.map(\.name) == ["A"])
        #expect(collection.groups[0].groups.map(\.name) == ["B"])
        #expect(collection.groups[0].groups[0].groups.isEmpty)
        #expect(collection.warnings.contains("collections/v1.json: folders[1].folders_order: folder 'b' is already placed elsewhere; listed once"))
        let unlisted = try decode(#"{"id": "r", "name": "R", "url": "http://h/"}, {"id": "s", "name": "S", "url": "http://h/s"}"#)
        // Nesting by id is bounded as nesting in JSON is.
        let chain = (0..<70).map { #"{"id": "f\#($0)", "name": "F", "folders_order": ["f\#($0 + 1)"]}"# }.joined(separator: ",")
        let deep = try #require(throws: InputError.self) { try decode("", extra: #""folders_order": ["f0"], "folders": [\#(chain)],"#) }
        #expect(deep.description.hasSuffix("folders[64]: folders nest deeper than 64 levels"))
        #expect(unlisted.warnings == ["collections/v1.json: requests: 1 request that no 'order' lists is left out, as Newman leaves them out"])
    }

    /// An id repeated in `order` lists (ids are short, requests large) must not multiply a small file into
    /// millions of requests: each request is placed once, like each folder.
    @Test func aRequestIsPlacedOnce() throws {
        let collection = try decode(#"{"id": "r", "name": "R", "url": "http://h/"}"#, extra: #"""
            "folders_order": ["a"], "folders": [{"id": "a", "name": "A", "order": ["r", "r"]}],
            """#)
        #expect(collection.groups.flatMap(\.requests).count + collection.groups.flatMap(\.groups).flatMap(\.requests).count == 1)
        #expect(collection.warnings.contains("collections/v1.json: folders[0].order: request 'r' is already placed elsewhere; listed once"))
        #expect(collection.warnings.contains("collections/v1.json: order: request 'r' is already placed elsewhere; listed once"))
        let many = #"{"id": "c", "name": "V1", "order": [\#(Array(repeating: #""r""#, count: 200_000).joined(separator: ","))], "#
            + #""requests": [{"id": "r", "name": "R", "url": "http://h/"}]}"#
        let started = ContinuousClock.now
        let big = try CollectionDecoder.decode(Array(many.utf8), file: "collections/v1.json", fileName: "v1.json",
                                               files: FileScope(base: "/data", roots: FileRoots(["/data"])))
        #expect(big.groups.flatMap(\.requests).count == 1 && big.warnings.count == 1)
        #expect(ContinuousClock.now - started < .seconds(10))
    }
}
