import Foundation
import Testing
@testable import ReqRunKit

/// A large collection file is parsed on two threads (`CollectionDecoder.parseGroups` with a `splitTarget`,
/// `JSONSplitPoint`, `JSONParser.parseRest`): the collection, the first error and its place are those of one
/// thread, wherever the text is split.
struct CollectionSplitLoadTests {
    private let scope = FileScope(base: FileManager.default.currentDirectoryPath, roots: .none)

    private func decode(_ text: String, splitAt target: Int?) -> Result<RequestCollection, InputError> {
        do throws(InputError) {
            return .success(try CollectionDecoder.decode(Array(text.utf8), file: "collections/x.json", fileName: "x.json",
                                                         files: scope, splitTarget: target))
        } catch {
            return .failure(error)
        }
    }

    private func outcome(_ text: String, splitAt target: Int) throws -> CollectionDecoder.SplitOutcome {
        try CollectionDecoder.parseGroups(Array(text.utf8), file: "collections/x.json", fileName: "x.json", base: scope,
                                          splitTarget: target).outcome
    }

    /// The byte offset of the comma before the first `needle` of `text`: splitting there starts the second
    /// part at the element after it.
    private func commaBefore(_ needle: String, in text: String) throws -> Int {
        var offset = text.utf8.distance(from: text.startIndex, to: try #require(text.range(of: needle)).lowerBound)
        let bytes = Array(text.utf8)
        while bytes[offset] != UInt8(ascii: ",") { offset -= 1 }
        return offset
    }

    /// Several lines, nested groups, expectations (which keep their place and field path), strings holding
    /// `},{`, `],[`, escaped quotes and backslashes and non-ASCII text, a nested array of arrays, and the
    /// root's members after `groups`.
    private let mixed = """
        {"name": "c", "variables": {"base": "http://x", "odd": "}, {\\"a\\": [1, 2]}, {"},
         "groups": [
          {"name": "g0", "requests": [{"name": "r}, {", "url": "{{base}}/a", "expect": ["status == 200"]},
            {"name": "\\\\", "url": "{{base}}/\\"b\\"", "body": {"json": [[1, [2]], {"x": "], ["}]}}]},
          {"name": "g1 é", "groups": [{"name": "inner", "requests": [{"url": "{{base}}/c", "expect": ["status == 201", "$.a == '}, {'"], "capture": [{"var": "v", "json": "$.v"}]}]},
            {"name": "inner2"}]},\r
          {"name": "g2", "requests": [{"url": "{{base}}/d", "headers": {"X-A": "1"}}]}, {"name": "g3"},
          {"name": "g4", "requests": [{"method": "POST", "url": "{{base}}/e", "expect": ["status == 204"]}]}
         ],
         "compat": "reqrun", "id": "c1"}
        """

    @Test func aCollectionSplitAtAnyByteIsTheSameAsOnOneThread() throws {
        let one = decode(mixed, splitAt: nil)
        guard case .success(let collection) = one else { Issue.record("\(one)"); return }
        #expect(collection.groups.count == 5)
        var handedOver = 0
        for target in 0...mixed.utf8.count {
            #expect(decode(mixed, splitAt: target) == one, "split at \(target)")
            if target % 5 == 0, try outcome(mixed, splitAt: target) == .handedOver { handedOver += 1 }
        }
        #expect(handedOver > 0)
        #expect(try outcome(mixed, splitAt: 0) == .handedOver)
        // After the last group's comma there is no place to split at.
        #expect(try outcome(mixed, splitAt: try commaBefore("{\"name\": \"g4\"", in: mixed) + 1) == .discarded)
    }

    @Test func aByteOrderMarkAndLongLinesKeepTheirColumns() throws {
        let text = "\u{FEFF}" + #"{"name": "c", "groups": [{"name": "a"}, {"name": "b", "requests": [{"url": "u", "expect": ["status == 200"]}]}]}"#
        let one = decode(text, splitAt: nil)
        for target in 0...text.utf8.count { #expect(decode(text, splitAt: target) == one, "split at \(target)") }
        #expect(try outcome(text, splitAt: 0) == .handedOver)
    }

    /// The error of `text` split at the comma before group `h` (the second thread's first group), checked to
    /// be the error of one thread.
    private func errorSplitBeforeH(_ text: String) throws -> InputError {
        let error = decode(text, splitAt: try commaBefore("{\"name\": \"h\"", in: text))
        #expect(error == decode(text, splitAt: nil))
        guard case .failure(let failure) = error else { throw InputError(file: "", location: nil, reason: "no error") }
        return failure
    }

    @Test func aSyntaxErrorInTheSecondPartAfterAFieldErrorInTheFirstIsTheOneReported() throws {
        let text = """
            {"name": "c", "groups": [{"name": "g", "requests": [{"method": "GET"}]},
              {"name": "h"}, {"name": "i", "requests": [{"url": "u",}]}]}
            """
        #expect(try errorSplitBeforeH(text).description == "collections/x.json:2:57: expected a string key, found character '}'")
        #expect(throws: JSONSyntaxError.self) { try outcome(text, splitAt: try commaBefore("{\"name\": \"h\"", in: text)) }
    }

    @Test func aFieldErrorInEachPartTheFirstPartsWins() throws {
        let text = """
            {"name": "c", "groups": [{"name": "g", "requests": [{"url": 1}]},
              {"name": "h"}, {"name": "i", "requests": [{"url": 2}]}]}
            """
        #expect(try outcome(text, splitAt: try commaBefore("{\"name\": \"h\"", in: text)) == .handedOver)
        #expect(try errorSplitBeforeH(text).fieldPath == "groups[0].requests[0].url")
    }

    @Test func anErrorInTheSecondPartHasTheWholeFilesLineAndColumnAndPath() throws {
        let text = """
            {"name": "c", "groups": [{"name": "g", "requests": [{"url": "u"}]},
              {"name": "h"},
              {"name": "i", "requests": [{"url": "v"},
                {"url": 2}]}], "id": "x"}
            """
        #expect(try outcome(text, splitAt: try commaBefore("{\"name\": \"h\"", in: text)) == .handedOver)
        #expect(try errorSplitBeforeH(text).description
                == "collections/x.json:4:13: groups[2].requests[1].url: expected a string, found a number")
    }

    @Test func aSplitNotAtTheStreamedArrayIsDiscarded() throws {
        // The key written with an escape: the parser streams the array, the scan does not know it.
        let escaped = #"{"name": "c", "group\u0073": [{"name": "a"}, {"name": "b"}]}"#
        #expect(try outcome(escaped, splitAt: 0) == .discarded)
        #expect(decode(escaped, splitAt: 0) == decode(escaped, splitAt: nil))
        // A Postman collection (no `groups`), and an array of the root that is not the groups' before them.
        let postman = #"{"info": {"name": "P", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}, "item": [{"name": "r", "request": "http://x"}, {"name": "s", "request": "http://y"}]}"#
        #expect(try outcome(postman, splitAt: 0) == .discarded)
        #expect(decode(postman, splitAt: 0) == decode(postman, splitAt: nil))
        let nested = #"{"name": "c", "auth": {"groups": [1, 2]}, "groups": [{"name": "a"}, {"name": "b"}]}"#
        #expect(try outcome(nested, splitAt: 0) == .handedOver)
        #expect(decode(nested, splitAt: 0) == decode(nested, splitAt: nil))
        // Invalid text before the place: the scan's answer is wrong, the parser's error comes first.
        let invalid = "{\"name\": \"c\", \"x\": \"a\u{9}\\\"], \"groups\": [{\"name\": \"a\"}, {\"name\": \"b\"}]}"
        #expect(decode(invalid, splitAt: 0) == decode(invalid, splitAt: nil))
    }

    /// The place the scan finds is one the parser comes to, with the same state, for every target of valid texts.
    @Test func theScansPlaceIsOneTheParserComesTo() throws {
        for text in [mixed, "\u{FEFF}{\"groups\" :\n[ 1 ,\r\n2,3 , [4, \"\\\\\"] , {\"k\": \"\\\"],[\"}\n]}", #"{"groups": null, "groups": [1, 2]}"#] {
            let bytes = Array(text.utf8)
            var offered: [JSONSplitPoint] = []
            _ = try bytes.withUnsafeBufferPointer { buffer in
                try JSONParser.parse(buffer, streamingElementsOf: "groups", to: { _, _ in }) { here in
                    offered.append(here)
                    return nil
                }
            }
            #expect(!offered.isEmpty)
            for target in 0...bytes.count {
                let found = bytes.withUnsafeBufferPointer { JSONSplitPoint.find(in: $0, streamingElementsOf: "groups", atOrAfter: target) }
                // The first place whose comma is at or after the target.
                let expected = offered.first { place in
                    var comma = place.offset - 1
                    while bytes[comma] != UInt8(ascii: ",") { comma -= 1 }
                    return comma >= target
                }
                #expect(found == expected, "target \(target) of \(text)")
            }
        }
    }

    @Test func smallFilesStayOnOneThread() {
        #expect(CollectionDecoder.splitTarget(size: CollectionDecoder.splitSize - 1) == nil)
        let target = CollectionDecoder.splitTarget(size: 80_000_000)
        #expect(target == nil || (40_000_000..<44_000_000).contains(target!))
    }
}
