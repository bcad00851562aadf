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

    // Strings take a fast path when the first special byte is the closing quote and every byte is ASCII;
    // escapes, non-ASCII text and errors go through the checked path. These tests cross that line, and
    // the 8-byte steps of the scan (a special byte at each position of a word).

    @Test func decodesPlainNonASCIIAndEscapedStrings() throws {
        #expect(try parse(#""plain ascii, longer than eight bytes""#).value == .string("plain ascii, longer than eight bytes"))
        #expect(try parse(#""""#).value == .string(""))
        #expect(try parse(#""h\u00e9llo wörld, café""#).value == .string("héllo wörld, café"))
        #expect(try parse(#""naïve \"quoted\" ünïcödé \\ 😀 tail""#).value == .string("naïve \"quoted\" ünïcödé \\ 😀 tail"))
        #expect(try parse(#""0123456789abcdef\n""#).value == .string("0123456789abcdef\n"))
        #expect(try parse(#""\t0123456789abcdef""#).value == .string("\t0123456789abcdef"))
    }

    @Test(arguments: 0..<17)
    func findsTheSpecialByteAtEveryPositionOfAWord(_ position: Int) throws {
        let prefix = String(repeating: "x", count: position)
        let suffix = String(repeating: "y", count: 16 - position)
        #expect(try parse("\"\(prefix)\"").value == .string(prefix))
        #expect(try parse("\"\(prefix)\\n\(suffix)\"").value == .string(prefix + "\n" + suffix))
        #expect(try parse("\"\(prefix)é\(suffix)\"").value == .string(prefix + "é" + suffix))
        let control = try #require(syntaxError("\"\(prefix)\u{01}\(suffix)\""))
        #expect(control.location == SourceLocation(line: 1, column: position + 2))
        #expect(control.reason == "a control character in a string must be escaped")
    }

    @Test func reportsLocationsAfterFastPathStrings() throws {
        let error = try #require(syntaxError("{\"name\": \"a plain string of some length\",\n \"b\": \"tail\" x}"))
        #expect(error.location == SourceLocation(line: 2, column: 14))
        #expect(error.reason == "expected ',' or '}' after an object member, found character 'x'")
        let node = try parse("[\"0123456789abcdef\", \"é\", \"a\\tb\", true]")
        guard case .array(let items) = node.value else { Issue.record("not an array"); return }
        #expect(items.map(\.location.column) == [2, 22, 28, 36])
    }

    @Test func reportsInvalidUTF8AndUnterminatedStringsWhereTheyAre() throws {
        // Invalid UTF-8 after a long ASCII run: reported at the closing quote, as before the fast path.
        let invalid = try #require(throws: JSONSyntaxError.self) {
            try JSONParser.parse(Array(#"["0123456789"#.utf8) + [0xC3, 0x28] + Array(#"abc"]"#.utf8))
        }
        #expect(invalid.location == SourceLocation(line: 1, column: 18))
        #expect(invalid.reason == "a string holds bytes that are not UTF-8")
        // In a run after an escape: reported at the escape that ends the run.
        let afterEscape = try #require(throws: JSONSyntaxError.self) {
            try JSONParser.parse(Array(#""a\n"#.utf8) + [0xFF] + Array(#"\tb""#.utf8))
        }
        #expect(afterEscape.location == SourceLocation(line: 1, column: 6))
        let unterminated = try #require(syntaxError("\"0123456789abcdef"))
        #expect(unterminated.location == SourceLocation(line: 1, column: 18))
        #expect(unterminated.reason == "unterminated string")
        let lineBreak = try #require(syntaxError("\"0123456789\\u00e9 ab\ncd\""))
        #expect(lineBreak.location == SourceLocation(line: 1, column: 21))
        #expect(lineBreak.reason == "unterminated string (a line break must be written \\n)")
    }

    @Test func buildsNestedContainersWithTheirOwnChildren() throws {
        let text = #"{"a":[{"b":1,"c":[2,[3,{}],[]]},{"d":{"e":[4,5],"f":null}}],"g":{"h":"i"},"j":[[[]]],"k":{}}"#
        #expect(try parse(text).compactText == text)
        // The deepest nesting allowed, alternating objects and arrays.
        let depth = JSONParser.maximumDepth
        var deep = ""
        for level in 0..<depth { deep += level % 2 == 0 ? #"{"k":"# : "[" }
        deep += "0"
        for level in (0..<depth).reversed() { deep += level % 2 == 0 ? "}" : "]" }
        #expect(try parse(deep).compactText == deep)
        let tooDeep = try #require(syntaxError("[" + deep + "]"))
        #expect(tooDeep.reason == "nesting deeper than \(depth) levels")
    }
}
