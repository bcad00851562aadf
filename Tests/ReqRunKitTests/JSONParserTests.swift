import Testing
@testable import ReqRunKit

@Suite struct JSONParserTests {
    private func parse(_ text: String) throws -> JSONNode { try JSONParser.parse(Array(text.utf8)) }

    private func syntaxError(_ text: String) -> JSONSyntaxError? {
        do {
            _ = try JSONParser.parse(Array(text.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test func keepsNumberTextKeyOrderAndDuplicates() throws {
        let node = try parse(#"{"z": 9007199254740993, "a": 1.50, "e": 1E+3, "z": -0}"#)
        #expect(node.compactText == #"{"z":9007199254740993,"a":1.50,"e":1E+3,"z":-0}"#)
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        let node = try parse(#""a\"b\\c\/d\n\u00e9\ud83d\ude00""#)
        #expect(node.value == .string("a\"b\\c/d\né😀"))
        #expect(node.compactText == "\"a\\\"b\\\\c/d\\né😀\"")
    }

    @Test func reportsLineAndColumnOfTheProblem() throws {
        let error = try #require(syntaxError("{\n  \"a\": 1,\n  \"b\": tru\n}"))
        #expect(error.location == SourceLocation(line: 3, column: 8))
        #expect(error.reason == "invalid literal: expected 'true'")
    }

    @Test func rejectsTrailingCommaWithItsPosition() throws {
        let error = try #require(syntaxError("[1,\n 2,\n]"))
        #expect(error.location == SourceLocation(line: 3, column: 1))
        #expect(error.reason == "expected a value, found character ']'")
    }

    @Test(arguments: ["01", "1.", "-", "1e", "\"abc", "{\"a\" 1}", "[1 2]", "{} x", "\"\\x\"", "\"a\nb\"", ""])
    func rejectsInvalidText(_ text: String) {
        #expect(syntaxError(text) != nil)
    }

    @Test func limitsNestingDepth() throws {
        let deep = String(repeating: "[", count: JSONParser.maximumDepth + 1) + String(repeating: "]", count: JSONParser.maximumDepth + 1)
        let error = try #require(syntaxError(deep))
        #expect(error.reason.contains("nesting deeper"))
        #expect(throws: Never.self) { try parse(String(repeating: "[", count: 100) + String(repeating: "]", count: 100)) }
    }

    @Test func rejectsInvalidUTF8InStrings() throws {
        let error = try #require(throws: JSONSyntaxError.self) { try JSONParser.parse([0x22, 0xFF, 0x22]) }
        #expect(error.reason.contains("not UTF-8"))
    }

    @Test func recordsLocationsOfMembers() throws {
        let node = try parse("{\n  \"key\": [true, null]\n}")
        guard case .object(let members) = node.value else { Issue.record("not an object"); return }
        #expect(members[0].keyLocation == SourceLocation(line: 2, column: 3))
        #expect(members[0].value.location == SourceLocation(line: 2, column: 10))
    }
}
