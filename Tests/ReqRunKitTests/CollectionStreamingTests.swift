import Foundation
import Testing
@testable import ReqRunKit

/// The top-level groups are decoded as the parser hands each one over (`JSONParser.parse(_:streamingElementsOf:to:)`,
/// `CollectionDecoder`): the errors and values are those of decoding the whole tree.
extension CollectionDecoderTests {
    @Test func theRootsArrayElementsGoToTheSinkAndAreNotKept() throws {
        var texts: [String] = [], indices: [Int] = [], locations: [ReqRunKit.SourceLocation] = []
        let root = try JSONParser.parse(Array(#"{"a": {"groups": [9]}, "groups": [{"x": 1}, 2], "groups": [3]}"#.utf8),
                                        streamingElementsOf: "groups") { node, i in
            texts.append(node.compactText)
            indices.append(i)
            locations.append(node.location)
        }
        #expect(texts == [#"{"x":1}"#, "2"])
        #expect(indices == [0, 1])
        #expect(locations == [ReqRunKit.SourceLocation(line: 1, column: 35), ReqRunKit.SourceLocation(line: 1, column: 45)])
        // Only the root's first member of that name is streamed; a nested one and a second one are kept.
        #expect(root.compactText == #"{"a":{"groups":[9]},"groups":[],"groups":[3]}"#)
        guard case .object(let members) = root.value else { Issue.record("not an object"); return }
        #expect(members[1].value.location == ReqRunKit.SourceLocation(line: 1, column: 34))
    }

    @Test func aSyntaxErrorAfterStreamedElementsIsThrown() throws {
        var count = 0
        #expect(throws: JSONSyntaxError(location: ReqRunKit.SourceLocation(line: 2, column: 8), reason: "expected a value, found character ']'")) {
            _ = try JSONParser.parse(Array("{\"groups\": [1, 2,\n 3, 4, ]}".utf8), streamingElementsOf: "groups") { _, _ in count += 1 }
        }
        #expect(count == 4)
    }

    @Test func aSyntaxErrorAfterAGroupsFieldErrorIsTheOneReported() throws {
        let error = try #require(inputError("""
            {"name": "c", "groups": [{"name": "g", "requests": [{"method": "GET"}]},
              {"name": "h", "requests": [{"url": "u",}]}]}
            """))
        #expect(error.description == "collections/x.json:2:42: expected a string key, found character '}'")
    }

    @Test func theFirstGroupErrorInFileOrderComesAfterTheCollectionsFieldsBeforeGroups() throws {
        let groupsFirst = try #require(inputError("""
            {"groups": [{"name": "g", "requests": [{"url": 1}]}, {"name": ""}], "name": "c"}
            """))
        #expect(groupsFirst.fieldPath == "groups[0].requests[0].url")
        let unknownAfter = try #require(inputError("""
            {"groups": [{"name": "g", "requests": [{"url": 1}]}], "name": "c", "nmae": "d"}
            """))
        #expect(unknownAfter.reason == "unknown field 'nmae'")
        let authAfter = try #require(inputError("""
            {"groups": [{"name": "g", "requests": [{"url": 1}]}], "name": "c", "auth": 3}
            """))
        #expect(authAfter.fieldPath == "groups[0].requests[0].url")
    }

    @Test func collectionScriptsAfterTheGroupsAreInherited() throws {
        let collection = try decode("""
            {"name": "c", "groups": [{"name": "g", "scripts": {"test": "b"}, "requests": [{"url": "u"}]}],
             "scripts": {"test": "a"}}
            """)
        #expect(collection.groups[0].requests[0].eventScripts.map(\.source) == ["a", "b"])
        #expect(collection.scripts.map(\.source) == ["a"])
    }

    @Test func groupsAfterTheOtherFieldsDecodeAsBefore() throws {
        let collection = try decode("""
            {"name": "c", "variables": {"v": "1"}, "groups": [{"name": "g", "requests": [{"url": "u"}]}, {"name": "h", "groups": [{"name": "i"}]}]}
            """)
        #expect(collection.groups.map(\.name) == ["g", "h"])
        #expect(collection.groups[1].groups[0].id == GroupID.derived(fileName: "x.json", groupPath: ["h", "i"]))
        #expect(collection.groups[0].requests[0].url == "u")
        #expect(collection.groups[0].location == ReqRunKit.SourceLocation(line: 1, column: 51))
    }

    @Test func aPostmanCollectionWithAGroupsArrayKeepsIt() throws {
        let text = """
            {"info": {"name": "P", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             "groups": [{"name": "g"}], "item": [{"name": "r", "request": "http://x"}]}
            """
        let collection = try decode(text)
        let whole = try PostmanDecoder.decode(try JSONParser.parse(Array(text.utf8)), version: .v2_1, file: "collections/x.json",
                                              fileName: "x.json", files: FileScope(base: FileManager.default.currentDirectoryPath, roots: .none))
        #expect(collection == whole)
    }
}

extension CollectionDecoderTests {
    /// A text of `groups` top-level groups of 100 requests each (about 8 KB a group); `broken` are the groups
    /// whose third request's URL is a number.
    private func largeCollection(groups: Int, broken: Set<Int> = []) -> String {
        let items = (0..<groups).map { g in
            let requests = (0..<100).map { r in
                #"{"name": "request \#(g)-\#(r)", "method": "GET", "url": \#(broken.contains(g) && r == 2 ? "7" : "\"{{base}}/items/\(g)/\(r)\"")}"#
            }
            return #"{"name": "group \#(g)", "requests": [\#(requests.joined(separator: ", "))]}"#
        }
        return #"{"name": "big", "groups": [\#(items.joined(separator: ",\n"))]}"#
    }

    /// Above `concurrentDecodingSize` (where the whole tree's groups were decoded on two threads) the
    /// groups come back in file order, and the error is the first one in file order.
    @Test func aLargeCollectionsGroupsComeInFileOrderAndItsFirstErrorIsThrown() throws {
        let text = largeCollection(groups: 160)
        #expect(text.utf8.count >= CollectionDecoder.concurrentDecodingSize)
        let collection = try decode(text)
        #expect(collection.groups.map(\.name) == (0..<160).map { "group \($0)" })
        #expect(collection.groups[159].requests[99].url == "{{base}}/items/159/99")
        #expect(collection.groups.reduce(0) { $0 + $1.requestCount } == 16_000)
        for broken: Set<Int> in [[157, 158], [1, 80, 159]] {
            let error = try #require(inputError(largeCollection(groups: 160, broken: broken)))
            #expect(error.fieldPath == "groups[\(broken.min()!)].requests[2].url")
            #expect(error.reason == "expected a string, found a number")
        }
    }
}

extension CollectionDecoderTests {
    /// A request with only `id`, `name`, `method`, `url` and `headers` skips the box's lookups
    /// (`detailKeyBits`); any other field, or an inherited script, takes the long way.
    @Test func aRequestWithOnlyInlineFieldsHasNoBoxAndAnyOtherFieldIsRead() throws {
        let collection = try decode("""
            {"name": "c", "groups": [{"name": "g", "requests": [
              {"id": "1", "name": "n", "method": "POST", "url": "u", "headers": {"A": "b"}},
              {"url": "u", "insecure": true}, {"url": "u", "maxRedirects": 2}, {"url": "u", "query": {"q": "1"}},
              {"url": "u", "timeout": 1.5}, {"url": "u", "tlsCipherSelection": ["AES128-SHA"]}, {"url": "u", "body": "b"},
              {"url": "u", "description": "d"}]},
              {"name": "h", "scripts": {"test": "t"}, "requests": [{"url": "u"}]}]}
            """)
        let requests = collection.groups[0].requests
        #expect(requests[0].box == nil)
        #expect(requests[0].headers == [HeaderField(name: "A", value: "b")] && requests[0].method == "POST" && requests[0].id == "1")
        #expect(requests[1].insecure == true && requests[2].maxRedirects == 2 && requests[3].query == [Parameter(name: "q", value: "1")])
        #expect(requests[4].timeoutMilliseconds == 1500 && requests[5].tlsCipherSelection == ["AES128-SHA"] && requests[6].body == .text("b"))
        #expect(requests[7].box == nil)
        #expect(collection.groups[1].requests[0].eventScripts.map(\.source) == ["t"])
        let error = try #require(inputError(#"{"name": "c", "groups": [{"name": "g", "requests": [{"url": "u", "insecure": 1}]}]}"#))
        #expect(error.fieldPath == "groups[0].requests[0].insecure")
    }
}
