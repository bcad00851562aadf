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
