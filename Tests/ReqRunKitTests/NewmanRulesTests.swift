import Foundation
import Testing
@testable import ReqRunKit

/// `RequestRules`: reqrun's and Newman's, one rule at a time (end to end against the local servers in
/// `NewmanCompatEndToEndTests`).
@Suite struct NewmanRulesTests {
    private let scope = VariableScope(layers: [VariableLayer(source: "collection", values: ["a": "{{b}}", "host": "h.test"])])

    private func prepare(_ request: Request, _ rules: RequestRules) throws -> PreparedRequest {
        try RequestPreparation.prepare(request, scope: scope, rules: rules).get()
    }

    @Test func undefinedReferencesAreSentAsText() throws {
        let request = Request(method: "POST", url: "http://{{host}}/{{missing}}", headers: [HeaderField(name: "X", value: "{{a}}")],
                              body: .text("{{other}}"))
        #expect(RequestPreparation.prepare(request, scope: scope) == .failure(.undefinedVariables(names: ["missing"], field: "url")))
        let prepared = try prepare(request, .newman)
        #expect(prepared.url == "http://h.test/%7B%7Bmissing%7D%7D")
        #expect(prepared.headers == [HeaderField(name: "X", value: "{{b}}"), HeaderField(name: "Content-Type", value: "text/plain; charset=utf-8")])
        #expect(prepared.body == .bytes(Array("{{other}}".utf8)))
        #expect(prepared.literalReferences == ["missing", "b", "other"])
        // Not Newman's syntax: still refused.
        #expect(throws: PreparationFailure.self) { try prepare(Request(url: "http://h/{{process.env.HOME}}"), .newman) }
    }

    @Test func pathKeepsCaretAndPipeOnlyUnderNewman() throws {
        let request = Request(url: "http://h/a^b|c?q=^|#f^")
        #expect(try prepare(request, .reqrun).url == "http://h/a%5Eb%7Cc?q=%5E%7C#f%5E")
        #expect(try prepare(request, .newman).url == "http://h/a^b|c?q=%5E%7C#f%5E")
    }

    @Test func userinfoDelimitersAreEncoded() {
        #expect(URLNormalizer.encodingUserinfoDelimiters("http://us@r:p:ss@h:1/x@y") == "http://us%40r:p%3Ass@h:1/x@y")
        #expect(URLNormalizer.encodingUserinfoDelimiters("http://user@h/") == "http://user@h/")
        #expect(URLNormalizer.encodingUserinfoDelimiters("http://h/p?a=b@c") == "http://h/p?a=b@c")
    }

    @Test func bodiesArePrunedOnNewmansMethods() throws {
        for method in ["GET", "COPY", "HEAD", "PURGE", "UNLOCK", "POST", "DELETE"] {
            let request = Request(method: method, url: "http://h/", body: .text("x"))
            #expect((try prepare(request, .reqrun).body == nil) == (method == "HEAD"), "\(method)")
            #expect((try prepare(request, .newman).body == nil) == ["GET", "COPY", "HEAD", "PURGE", "UNLOCK"].contains(method), "\(method)")
            let kept = RequestRules.newman.applying(disableBodyPruning: true, followOriginalHttpMethod: nil)
            #expect((try prepare(request, kept).body == nil) == (method == "HEAD"), "\(method)")
        }
    }

    @Test func redirectMethodRules() {
        for (method, status, rfc, newman) in [("DELETE", 302, "DELETE", "GET"), ("PUT", 301, "PUT", "GET"), ("POST", 302, "GET", "GET"),
                                              ("DELETE", 303, "GET", "GET"), ("HEAD", 302, "HEAD", "HEAD"), ("HEAD", 303, "HEAD", "HEAD"),
                                              ("DELETE", 307, "DELETE", "DELETE"), ("PATCH", 308, "PATCH", "PATCH")] {
            #expect(RedirectFollower.method(after: method, status: status) == rfc, "\(method) \(status)")
            #expect(RedirectFollower.method(after: method, status: status, followsOriginalMethod: false) == newman, "\(method) \(status)")
        }
        #expect(RequestRules.newman.applying(disableBodyPruning: nil, followOriginalHttpMethod: true).followsOriginalMethod)
    }

    @Test func postmanURLObjectsKeepEmptyEntriesUnderNewman() throws {
        let text = #"{"info": {"name": "Q", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}, "item": [{"name": "r", "request": {"url": {"host": ["h"], "path": ["p"], "query": [{"key": "a", "value": "1"}, {"key": null, "value": null}, {"key": "b", "value": "2"}]}}}]}"#
        func url(_ rules: RequestRules) throws -> String? {
            try CollectionDecoder.decode(Array(text.utf8), file: "q.json", fileName: "q.json",
                                         files: FileScope(base: "/", roots: .none, requestRules: rules)).groups.first?.requests.first?.url
        }
        #expect(try url(.reqrun) == "h/p?a=1&b=2")
        #expect(try url(.newman) == "h/p?a=1&&b=2")
    }
}

/// Which rules a collection's requests follow: its native `compat`, the workspace's `reqrun.json`, `--compat`.
@Suite struct CollectionCompatTests {
    @Test func nativeCompatRoundTripsAndReachesEachReference() throws {
        let text = #"{"name": "N", "compat": "newman", "groups": [{"name": "g", "requests": [{"url": "a"}]}]}"#
        let collection = try CollectionDecoder.decode(Array(text.utf8), file: "n.json", fileName: "n.json")
        #expect(collection.compat == .newman)
        let encoded = CollectionEncoder.encode(collection)
        #expect(encoded.contains("\"compat\": \"newman\""))
        #expect(try CollectionDecoder.decode(Array(encoded.utf8), file: "n.json", fileName: "n.json").compat == .newman)
        let plain = try CollectionDecoder.decode(Array(#"{"name": "P", "groups": [{"name": "h", "requests": [{"url": "b"}]}]}"#.utf8),
                                                 file: "p.json", fileName: "p.json")
        #expect(plain.compat == nil && !CollectionEncoder.encode(plain).contains("compat"))
        let references = Outline(collections: [collection, plain], expansion: .transient(Outline.allGroupIDs([collection, plain]))).allRequests()
        var configuration = RunConfiguration(selection: RunSelection(mode: "all"))
        #expect(references.map { configuration.requestRules(for: $0) } == [.newman, .reqrun])
        configuration.requestRules = .newman
        #expect(references.map { configuration.requestRules(for: $0) } == [.newman, .newman])
    }

    @Test func workspaceSettingsNameRulesPerFile() throws {
        let settings = try WorkspaceSettings.decode(Array(#"{"compat": {"collections/a.postman_collection.json": "newman", "collections/b.json": "reqrun"}}"#.utf8),
                                                    file: "reqrun.json")
        #expect(settings.compat == ["collections/a.postman_collection.json": .newman, "collections/b.json": .reqrun])
        #expect(try WorkspaceSettings.decode(Array("{}".utf8), file: "reqrun.json") == WorkspaceSettings())
        for bad in [#"{"compat": {"a.json": 1}}"#, #"{"compat": {"": "newman"}}"#, #"{"compatibility": {}}"#, #"{"compat": []}"#] {
            #expect(throws: InputError.self, "\(bad)") { try WorkspaceSettings.decode(Array(bad.utf8), file: "reqrun.json") }
        }
    }
}
