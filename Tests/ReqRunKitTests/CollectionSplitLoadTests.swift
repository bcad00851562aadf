import Foundation
import Testing
@testable import ReqRunKit

/// A large collection file is parsed on two threads (`CollectionDecoder.parseGroups` with a `splitTarget`,
/// `JSONSplitPoint`, `JSONParser.parseRest`): the collection, the first error and its place are those of one
/// thread, wherever the text is split.
struct CollectionSplitLoadTests {
    private let scope = FileScope(base: FileManager.default.currentDirectoryPath, roots: .none)

    /// Split at `target` (the calling thread waiting for the scan, so that the split is tried however fast the
    /// threads run), the second thread giving up the rest after `takeOver` elements when given, else parsing to
    /// the end.
    private func split(_ target: Int?, takeOver: Int? = nil) -> CollectionDecoder.Split? {
        target.map { CollectionDecoder.Split(target: $0, waitsForTheScan: true, pausesAfter: takeOver ?? .max) }
    }

    private func decode(_ text: String, splitAt target: Int?, takeOver: Int? = nil) -> Result<RequestCollection, InputError> {
        do throws(InputError) {
            return .success(try CollectionDecoder.decode(Array(text.utf8), file: "collections/x.json", fileName: "x.json",
                                                         files: scope, split: split(target, takeOver: takeOver)))
        } catch {
            return .failure(error)
        }
    }

    private func outcome(_ text: String, splitAt target: Int, takeOver: Int? = nil) throws -> CollectionDecoder.SplitOutcome {
        try CollectionDecoder.parseGroups(Array(text.utf8), file: "collections/x.json", fileName: "x.json", base: scope,
                                          split: split(target, takeOver: takeOver)).outcome
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
        // As the decoder splits a large file: the threads meet wherever their speeds take them.
        for target in 0...mixed.utf8.count {
            let free = try CollectionDecoder.decode(Array(mixed.utf8), file: "collections/x.json", fileName: "x.json", files: scope,
                                                    split: CollectionDecoder.Split(target: target))
            #expect(.success(free) == one, "split at \(target)")
        }
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

    /// The error of `text` split at the comma before group `h` (the second thread's first group), the second
    /// thread giving up the rest after `takeOver` groups when given, checked to be the error of one thread.
    private func errorSplitBeforeH(_ text: String, takeOver: Int? = nil) throws -> InputError {
        let error = decode(text, splitAt: try commaBefore("{\"name\": \"h\"", in: text), takeOver: takeOver)
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

    /// The second thread stopped at each of its group boundaries and the calling thread parsing and decoding
    /// the rest from there: the same collection as one thread's, for every target.
    @Test func aTakeOverAtEachGroupBoundaryIsTheSameAsOnOneThread() throws {
        let one = decode(mixed, splitAt: nil)
        guard case .success = one else { Issue.record("\(one)"); return }
        // Every place (the place changes only at the array's commas) and every element of the second thread's.
        for takeOver in 0...5 {
            for target in stride(from: 0, through: mixed.utf8.count, by: 7) {
                #expect(decode(mixed, splitAt: target, takeOver: takeOver) == one, "split at \(target), taken over after \(takeOver)")
            }
        }
        // From the first place (before g1), the second thread has four groups: taken over after 0 to 3 of them.
        for takeOver in 0...3 { #expect(try outcome(mixed, splitAt: 0, takeOver: takeOver) == .takenOver, "after \(takeOver)") }
        #expect(try outcome(mixed, splitAt: 0, takeOver: 4) == .handedOver)
        let beforeG4 = try commaBefore("{\"name\": \"g4\"", in: mixed)
        #expect(try outcome(mixed, splitAt: beforeG4, takeOver: 0) == .takenOver)
        #expect(decode(mixed, splitAt: beforeG4, takeOver: 0) == one)
    }

    /// The error of groups h, i and j, the second thread's from the comma before h, given up after `takeOver`
    /// of them, checked to be the error of one thread; `syntax`: a syntax error, thrown by the parse.
    private func errorTakenOver(_ text: String, after takeOver: Int, syntax: Bool = false) throws -> InputError {
        let target = try commaBefore("{\"name\": \"h\"", in: text)
        if syntax {
            #expect(throws: JSONSyntaxError.self) { try outcome(text, splitAt: target, takeOver: takeOver) }
        } else {
            #expect(try outcome(text, splitAt: target, takeOver: takeOver) == .takenOver)
        }
        return try errorSplitBeforeH(text, takeOver: takeOver)
    }

    @Test func errorsInTheTakenOverPartAreThoseOfOneThread() throws {
        // A field error in j, which the calling thread decodes after the second thread gave up after h or i.
        let field = """
            {"name": "c", "groups": [{"name": "g", "requests": [{"url": "u"}]},
              {"name": "h"}, {"name": "i", "requests": [{"url": "v"}]},
              {"name": "j", "requests": [{"url": "w"},
                {"url": 2}]}], "id": "x"}
            """
        for takeOver in 0...2 {
            #expect(try errorTakenOver(field, after: takeOver).description
                    == "collections/x.json:4:13: groups[3].requests[1].url: expected a string, found a number")
        }
        // A syntax error there after a field error in the first part: the syntax error.
        let syntax = """
            {"name": "c", "groups": [{"name": "g", "requests": [{"url": 1}]},
              {"name": "h"}, {"name": "i"},
              {"name": "j", "requests": [{"url": "w",}]}]}
            """
        for takeOver in 0...2 {
            #expect(try errorTakenOver(syntax, after: takeOver, syntax: true).description
                    == "collections/x.json:3:42: expected a string key, found character '}'")
        }
        // After the array: a member of the root that is not valid, and text after the root.
        let after = #"{"name": "c", "groups": [{"name": "g"}, {"name": "h"}, {"name": "i"}, {"name": "j"}], "id": 1 2}"#
        #expect(try errorTakenOver(after, after: 1, syntax: true).description == "collections/x.json:1:95: expected ',' or '}' after an object member, found character '2'")
    }

    @Test func errorsInThePartTheSecondThreadFinishedAreThoseOfOneThread() throws {
        // A field error in h, which the second thread decoded before it gave up the rest.
        let field = """
            {"name": "c", "groups": [{"name": "g", "requests": [{"url": "u"}]},
              {"name": "h", "requests": [{"url": 2}]}, {"name": "i", "requests": [{"url": 3}]},
              {"name": "j"}]}
            """
        for takeOver in 1...2 {
            #expect(try errorTakenOver(field, after: takeOver).fieldPath == "groups[1].requests[0].url")
        }
        // A field error in the first part too: the first part's.
        let both = field.replacingOccurrences(of: #"[{"url": "u"}]"#, with: #"[{"url": 1}]"#)
        #expect(try errorTakenOver(both, after: 2).fieldPath == "groups[0].requests[0].url")
        // The field error in h, a syntax error in j (taken over): the syntax error.
        let syntax = field.replacingOccurrences(of: #"{"name": "j"}"#, with: #"{"name": "j",}"#)
        #expect(try errorTakenOver(syntax, after: 2, syntax: true).description == "collections/x.json:3:16: expected a string key, found character '}'")
    }

    /// A second thread that has not found its place when the calling thread comes to the target (it had no
    /// core): the calling thread does not wait for it and parses on alone.
    @Test func aScanNotOverAtTheTargetIsNotWaitedFor() throws {
        let bytes = Array(mixed.utf8)
        let held = CollectionDecoder.Split(target: 0, holdsTheScan: true)
        let parsed = try CollectionDecoder.parseGroups(bytes, file: "collections/x.json", fileName: "x.json", base: scope, split: held)
        #expect(parsed.outcome == .discarded)
        #expect(decode(mixed, splitAt: nil) == .success(try CollectionDecoder.decode(bytes, file: "collections/x.json", fileName: "x.json",
                                                                                      files: scope, split: held)))
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
