import Foundation
import Testing
@testable import ReqRunKit
import TestSupport

@Suite struct CollectionDecoderTests {
    func decode(_ text: String, file: String = "collections/x.json") throws(InputError) -> RequestCollection {
        try CollectionDecoder.decode(Array(text.utf8), file: file, fileName: "x.json")
    }

    func inputError(_ text: String) -> InputError? {
        do {
            _ = try decode(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func decodesTheFullFormat() throws {
        let collection = try decode("""
            {"name": "API", "id": "api-1", "variables": {"base": "http://x", "token": "t"},
             "groups": [{"id": "7bbd0224-3a31-4ba7-9dbb-b7138de7aaee", "name": "g",
               "requests": [
                 {"url": "{{base}}/a"},
                 {"id": "r2", "name": "Create", "method": "PUT", "url": "{{base}}/b",
                  "headers": [{"name": "X-A", "value": "1"}, {"name": "X-A", "value": "2"}],
                  "body": {"n": 12345678901234567890, "s": "é"}},
                 {"method": "POST", "url": "u", "headers": {"B": "1", "A": ""}, "body": "raw {{token}}"}
               ],
               "groups": [{"name": "inner", "requests": []}]}]}
            """)
        #expect(collection.name == "API")
        #expect(collection.id == "api-1")
        #expect(collection.variables == [Variable(name: "base", value: "http://x"), Variable(name: "token", value: "t")])
        let group = try #require(collection.groups.first)
        #expect(group.id == UUID(uuidString: "7bbd0224-3a31-4ba7-9dbb-b7138de7aaee"))
        #expect(!group.idIsDerived)
        #expect(group.requests[0] == Request(name: "{{base}}/a", method: "GET", url: "{{base}}/a"))
        #expect(group.requests[1].headers == [HeaderField(name: "X-A", value: "1"), HeaderField(name: "X-A", value: "2")])
        #expect(group.requests[1].body == .json(#"{"n":12345678901234567890,"s":"é"}"#))
        #expect(group.requests[1].name == "Create")
        #expect(group.requests[2].headers == [HeaderField(name: "B", value: "1"), HeaderField(name: "A", value: "")])
        #expect(group.requests[2].body == .text("raw {{token}}"))
        #expect(group.groups[0].idIsDerived)
        #expect(group.groups[0].id == GroupID.derived(fileName: "x.json", groupPath: ["g", "inner"]))
        #expect(group.requestCount == 3)
    }

    @Test func invalidJSONNamesFileLineAndColumn() throws {
        let error = try #require(inputError("{\n  \"name\": \"a\",\n  \"groups\": [,]\n}"))
        #expect(error.description == "collections/x.json:3:14: expected a value, found character ','")
    }

    @Test func missingFieldNamesItsPath() throws {
        let error = try #require(inputError("""
            {"name": "a", "groups": [{"name": "g"}, {"name": "h", "requests": [{"method": "GET"}]}]}
            """))
        #expect(error.fieldPath == "groups[1].requests[0].url")
        #expect(error.reason == "missing required field 'url'")
        #expect(error.description == "collections/x.json:1:68: groups[1].requests[0].url: missing required field 'url'")
    }

    /// Element paths are kept as their array's path and a position until a message needs them.
    @Test func nestedElementsNameTheirWholePath() throws {
        let nested = try #require(inputError("""
            {"name": "a", "groups": [{"name": "g"}, {"name": "h", "groups": [{"name": "i"}, {"name": "j",
             "requests": [{"url": "u"}, {"url": "v"}, {"url": "w", "heders": {}}]}]}]}
            """))
        #expect(nested.description
            == "collections/x.json:2:56: groups[1].groups[1].requests[2].heders: unknown field 'heders' (did you mean 'headers'?)")
        let notAnObject = try #require(inputError(#"{"name": "a", "groups": [{"name": "g", "requests": [{"url": "u"}, 7]}]}"#))
        #expect(notAnObject.description == "collections/x.json:1:67: groups[0].requests[1]: expected an object, found a number")
        let tooDeep = try #require(inputError(#"{"name": "a", "groups": ["# + String(repeating: #"{"name": "g", "groups": ["#, count: 65)
            + String(repeating: "]}", count: 65) + "]}"))
        #expect(tooDeep.fieldPath == "groups[0]" + String(repeating: ".groups[0]", count: 64))
        #expect(tooDeep.reason == "groups nest deeper than 64 levels")
    }

    /// A collection above `BackgroundRelease.minimumSize`, whose parsed tree is freed on another thread.
    private func largeCollection(groups: Int = 240, requests: Int = 60, replacing: [String: String] = [:]) -> String {
        var text = #"{"name": "Large", "groups": ["#
        for g in 0..<groups {
            if g > 0 { text += ", " }
            text += #"{"name": "group \#(g)", "requests": ["#
            for r in 0..<requests {
                if r > 0 { text += ", " }
                let request = #"{"name": "request \#(g)-\#(r)", "method": "GET", "url": "{{base}}/items/\#(g)/\#(r)"}"#
                text += replacing["\(g)-\(r)"] ?? request
            }
            text += "]}"
        }
        return text + "]}"
    }

    @Test func largeCollectionsDecodeWhole() throws {
        let text = largeCollection()
        #expect(text.utf8.count > BackgroundRelease.minimumSize)
        let collection = try decode(text)
        #expect(collection.groups.count == 240)
        #expect(collection.groups.map(\.name) == (0..<240).map { "group \($0)" })
        #expect(collection.groups[137].id == GroupID.derived(fileName: "x.json", groupPath: ["group 137"]))
        #expect(collection.groups.allSatisfy { $0.requests.count == 60 })
        #expect(collection.groups[239].requests[59].url == "{{base}}/items/239/59")
        #expect(collection.groups[3].requests[7].name == "request 3-7")
    }

    @Test func largeCollectionsReportTheFirstErrorInTheFile() throws {
        let text = largeCollection(replacing: ["20-5": #"{"url": 1}"#, "150-2": #"{"method": "GET"}"#])
        let error = try #require(inputError(text))
        #expect(error.fieldPath == "groups[20].requests[5].url")
        #expect(error.reason == "expected a string, found a number")
        let later = try #require(inputError(largeCollection(replacing: ["150-2": #"{"method": "GET"}"#])))
        #expect(later.fieldPath == "groups[150].requests[2].url")
        #expect(later.reason == "missing required field 'url'")
    }

    @Test func wronglyTypedFieldNamesItsPathAndType() throws {
        let error = try #require(inputError(#"{"name": "a", "groups": [{"name": "g", "requests": [{"url": 5}]}]}"#))
        #expect(error.description == "collections/x.json:1:61: groups[0].requests[0].url: expected a string, found a number")
    }

    @Test func unknownFieldGetsASuggestion() throws {
        let error = try #require(inputError(#"{"name": "a", "groups": [{"name": "g", "requests": [{"url": "u", "heders": {}}]}]}"#))
        #expect(error.reason == "unknown field 'heders' (did you mean 'headers'?)")
        #expect(error.fieldPath == "groups[0].requests[0].heders")
    }

    @Test func badGroupIDAndMethodAreRejected() throws {
        let badID = try #require(inputError(#"{"name": "a", "groups": [{"id": "nope", "name": "g"}]}"#))
        #expect(badID.fieldPath == "groups[0].id")
        let badMethod = try #require(inputError(#"{"name": "a", "groups": [{"name": "g", "requests": [{"method": "GE T", "url": "u"}]}]}"#))
        #expect(badMethod.fieldPath == "groups[0].requests[0].method")
    }

    @Test func numberBodyIsRejected() throws {
        let error = try #require(inputError(#"{"name": "a", "groups": [{"name": "g", "requests": [{"url": "u", "body": 3}]}]}"#))
        #expect(error.reason == "expected a string, an object or an array, found a number")
    }

    @Test func duplicateGroupIDsNameBothPlaces() throws {
        let dir = try TemporaryDirectory()
        let id = "7bbd0224-3a31-4ba7-9dbb-b7138de7aaee"
        try dir.write("collections/a.json", #"{"name": "A", "groups": [{"id": "\#(id)", "name": "one"}]}"#)
        try dir.write("collections/b.json", "{\"name\": \"B\",\n \"groups\": [{\"name\": \"x\"}, {\"id\": \"\(id)\", \"name\": \"two\"}]}")
        let workspace = Workspace(root: dir.url)
        let error = try #require(throws: InputError.self) { try workspace.loadCollections() }
        #expect(error.file == "collections/b.json")
        #expect(error.location == SourceLocation(line: 2, column: 28))
        #expect(error.fieldPath == "groups[1]")
        #expect(error.reason.contains("collections/a.json:1:26 (groups[0])"))
    }

    @Test func derivedIDsAreVersion5AndStable() {
        let a = GroupID.derived(fileName: "x.json", groupPath: ["g"])
        #expect(a == GroupID.derived(fileName: "x.json", groupPath: ["g"]))
        #expect(a != GroupID.derived(fileName: "y.json", groupPath: ["g"]))
        #expect(a != GroupID.derived(fileName: "x.json", groupPath: ["g", ""]))
        #expect(a.uuidString.dropFirst(14).first == "5")
        // RFC 9562 test vector (Appendix A.4): www.example.com in the DNS namespace.
        let dns = UUID(uuidString: "6ba7b810-9dad-11d1-80b4-00c04fd430c8")!
        #expect(GroupID.nameBasedUUID(namespace: dns, name: "www.example.com").uuidString.lowercased()
                == "2ed6657d-e927-568b-95e1-2665a8aea6a2")
    }
}

@Suite struct AuthDecodingTests {
    private func decode(_ text: String) throws(InputError) -> RequestCollection {
        try CollectionDecoder.decode(Array(text.utf8), file: "c.json", fileName: "c.json")
    }

    @Test func inheritanceStopsAtNone() throws {
        let collection = try decode("""
            {"name": "c", "auth": {"type": "bearer", "token": "t"}, "groups": [
              {"name": "a", "auth": {"type": "basic", "username": "u"}, "requests": [{"url": "1"}, {"url": "2", "auth": {"type": "none"}}],
               "groups": [{"name": "b", "requests": [{"url": "3"}]}]},
              {"name": "d", "requests": [{"url": "4", "auth": {"type": "apikey", "key": "k", "value": "v", "in": "query"}}, {"url": "5"}]}
            ]}
            """)
        let auths = Outline(collections: [collection], expansion: .transient([])).allRequests().map(\.effectiveAuth)
        #expect(auths == [.basic(username: "u", password: ""), Auth.none, .basic(username: "u", password: ""),
                          .apiKey(name: "k", value: "v", inQuery: true), .bearer(token: "t")])
    }

    @Test func badAuthIsExplained() throws {
        let unknown = try #require(throws: InputError.self) { try decode(#"{"name": "c", "auth": {"type": "bearr", "token": "t"}}"#) }
        #expect(unknown.fieldPath == "auth.type")
        #expect(unknown.reason == "unknown auth type 'bearr'; expected one of none, basic, bearer, apikey, digest, awsv4, ntlm, oauth1, hawk, oauth2, jwt, asap, edgegrid (did you mean 'bearer'?)")
        let place = try #require(throws: InputError.self) { try decode(#"{"name": "c", "auth": {"type": "apikey", "key": "k", "value": "v", "in": "body"}}"#) }
        #expect(place.reason == #"expected "header" or "query", found "body""#)
        let missing = try #require(throws: InputError.self) { try decode(#"{"name": "c", "auth": {"type": "awsv4", "accessKey": "a"}}"#) }
        #expect(missing.fieldPath == "auth.secretKey")
    }

    @Test func queryKeysAreAppendedEncoded() {
        #expect(URLQuery.appending(name: "api key", value: "a&b=ü", to: "http://h/p?x=1#f") == "http://h/p?x=1&api%20key=a%26b%3D%C3%BC#f")
        #expect(URLQuery.appending(name: "k", value: "v", to: "http://h/p") == "http://h/p?k=v")
        #expect(URLQuery.appending(name: "k", value: "v", to: "http://h/p?") == "http://h/p?k=v")
    }
}
