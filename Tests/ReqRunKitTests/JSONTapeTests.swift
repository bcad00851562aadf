import Foundation
import Testing
@testable import ReqRunKit

/// `JSONTape` and the record reader on it (`RecordFields`): fields straight from a line's bytes, with
/// `JSONParser`'s syntax and messages.
@Suite struct JSONTapeTests {
    /// The text of each string field of `json`'s root object, read through the tape.
    private func strings(_ json: String, _ keys: [StaticString]) throws -> [String] {
        try RecordFields.read(Array(json.utf8)) { (f: inout RecordFields) throws(RecordFields.Failure) in
            var out: [String] = []
            for key in keys { out.append(try f.string(key)) }
            return out
        }
    }

    @Test func escapesAndNonASCIIReadAsTheParserReadsThem() throws {
        let json = #"{"a":"q\"b\\s\/e\b\f\n\r\tx","b":"\u00e9\u20AC\ud83d\ude00","c":"é€😀 raw","d":"","n\u0061me":"escaped key","\u00e9":"é key"}"#
        #expect(try strings(json, ["a", "b", "c", "d", "name", "é"])
            == ["q\"b\\s/e\u{8}\u{C}\n\r\tx", "é€😀", "é€😀 raw", "", "escaped key", "é key"])
        // The same as the tree parser's strings.
        guard case .object(let members) = try JSONParser.parse(Array(json.utf8)).value else { Issue.record("not an object"); return }
        #expect(try strings(json, ["a", "b", "c"]) == members.prefix(3).map { m in
            if case .string(let s) = m.value.value { return s }
            return "?"
        })
    }

    /// A `\u` escape without four hex digits is the same error at the same place in the tape as in the parser:
    /// at the first byte that is not a hex digit (both read the digits through `JSONStringScan.hex4`).
    @Test func shortUnicodeEscapesFailWhereTheParserFails() throws {
        for (text, column) in [(#"["\u12G4"]"#, 7), (#"["\uzz"]"#, 5), (#"["\u12"#, 7), (#"{"k": "\ud83d\u00"}"#, 18)] {
            let bytes = Array(text.utf8)
            let parsed = try #require(throws: JSONSyntaxError.self) { try JSONParser.parse(bytes) }
            let indexed = try #require(throws: JSONSyntaxError.self) {
                var entries: [JSONTape.Entry] = []
                try bytes.withUnsafeBufferPointer { (buffer) throws(JSONSyntaxError) in try JSONTape.index(buffer, into: &entries) }
            }
            #expect(parsed.reason == "expected four hex digits after \\u", "\(text)")
            #expect(parsed.location == SourceLocation(line: 1, column: column), "\(text)")
            #expect(indexed == parsed, "\(text)")
        }
    }

    @Test func numbersAsIntAndDouble() throws {
        let json = #"{"a":-12,"b":9223372036854775807,"c":9223372036854775808,"d":1.5,"e":1e3,"f":-0,"g":-9223372036854775808}"#
        let (a, b, d, f, g) = try RecordFields.read(Array(json.utf8)) { (r: inout RecordFields) throws(RecordFields.Failure) in
            (try r.int("a"), try r.int("b"), try r.double("d"), try r.int("f"), try r.int("g"))
        }
        #expect(a == -12 && b == Int.max && d == 1.5 && f == 0 && g == Int.min)
        for key: StaticString in ["c", "d", "e"] {
            #expect(throws: RecordFields.Failure.self) {
                try RecordFields.read(Array(json.utf8)) { (r: inout RecordFields) throws(RecordFields.Failure) in try r.int(key) }
            }
        }
    }

    /// A field looked up out of order, absent, `null`, or in nested objects and arrays; mismatches name the path.
    @Test func lookupsAndPaths() throws {
        let json = #"{"z":1,"a":{"b":[{"c":"x"},{"c":2}]},"n":null,"m":[true,false]}"#
        let (z, n, x) = try RecordFields.read(Array(json.utf8)) { (r: inout RecordFields) throws(RecordFields.Failure) in
            let n = try r.optionalString("n"), missing = try r.optionalInt("missing")
            let x = try r.object("a") { (a: inout RecordFields) throws(RecordFields.Failure) in
                try a.optionalObjects("b") { (c: inout RecordFields) throws(RecordFields.Failure) in try c.optionalString("nothing") ?? "-" }
            }
            #expect(missing == nil)
            return (try r.int("z"), n, x)
        }
        #expect(z == 1 && n == nil && x == ["-", "-"])
        do {
            _ = try RecordFields.read(Array(json.utf8)) { (r: inout RecordFields) throws(RecordFields.Failure) in
                try r.object("a") { (a: inout RecordFields) throws(RecordFields.Failure) in
                    try a.objects("b") { (c: inout RecordFields) throws(RecordFields.Failure) in try c.string("c") }
                }
            }
            Issue.record("a number was read as a string")
        } catch {
            #expect(error.reason == "a.b[1].c: expected a string, found a number")
        }
        do {
            _ = try RecordFields.read(Array(json.utf8)) { (r: inout RecordFields) throws(RecordFields.Failure) in try r.strings("m") }
            Issue.record("booleans were read as strings")
        } catch {
            #expect(error.reason == "m[0]: expected a string, found a boolean")
        }
        do {
            _ = try RecordFields.read(Array(json.utf8)) { (r: inout RecordFields) throws(RecordFields.Failure) in
                try r.object("a") { (a: inout RecordFields) throws(RecordFields.Failure) in try a.string("missing") }
            }
            Issue.record("a missing field was read")
        } catch {
            #expect(error.reason == "missing field 'a.missing'")
        }
    }

    /// Every malformed text is refused with `JSONParser`'s reason, line and column.
    @Test(arguments: [
        #"{"a":1,}"#, #"{"a" 1}"#, #"{"a":1"#, #"[1,2"#, #"[1 2]"#, #"{1:2}"#, #"{"a":tru}"#, #"{"a":nul}"#, #"{"a":01}"#,
        #"{"a":1.}"#, #"{"a":1e}"#, #"{"a":-}"#, #"{"a":"x"#, "{\"a\":\"x\ny\"}", "{\"a\":\"\u{1}\"}", #"{"a":"\x"}"#,
        #"{"a":"\u12G4"}"#, #"{"a":"\ud800"}"#, #"{"a":"\ud800\u0041"}"#, #"{"a":"\udc00"}"#, #"{"a":1} x"#, "", "  ",
        "{\n  \"a\": [\n    1,\n    ]\n}", #"{"a":"é\#u{0}"}"#, #"{"\u00e9" 1}"#, String(repeating: "[", count: 600),
    ])
    func malformedTextsAreRefusedAsTheParserRefusesThem(_ text: String) throws {
        try expectSameRefusal(Array(text.utf8))
    }

    @Test func invalidUTF8IsRefusedAsTheParserRefusesIt() throws {
        for bytes: [UInt8] in [[0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0xFF], [0x80]] {
            try expectSameRefusal(Array(#"{"a":"x"#.utf8) + bytes + Array(#"y"}"#.utf8))
            try expectSameRefusal(Array(#"{"a":"\n"#.utf8) + bytes + Array(#"\n"}"#.utf8))
        }
        #expect(try strings(String(decoding: Array(#"{"a":""#.utf8) + [0xF0, 0x9F, 0x98, 0x80, 0xC3, 0xA9] + Array(#""}"#.utf8), as: UTF8.self), ["a"]) == ["😀é"])
    }

    private func expectSameRefusal(_ bytes: [UInt8], sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        var expected = ""
        do { _ = try JSONParser.parse(bytes) } catch { expected = "\(error.location): \(error.reason)" }
        #expect(!expected.isEmpty, "the parser read it", sourceLocation: sourceLocation)
        do {
            _ = try RecordFields.read(bytes) { (_: inout RecordFields) throws(RecordFields.Failure) in 0 }
            Issue.record("read \(bytes)", sourceLocation: sourceLocation)
        } catch {
            // A root that parses but is not an object is the reader's own refusal.
            #expect(error.reason == expected, sourceLocation: sourceLocation)
        }
    }

    /// A result line that is not JSON is an error naming the record file and the line.
    @Test func aMalformedLineNamesTheFileAndLine() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("reqrun-tape-\(UUID().lowercasedText)")
        defer { try? FileManager.default.removeItem(at: root) }
        let dir = root.appendingPathComponent(".reqrun/runs")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let store = RunStore(directory: dir)
        let header = RunRecord(id: "20261201-120000-000-0001", startedAt: "s", endedAt: "", reqrunVersion: "r", libcurlVersion: "",
                               workspace: "/w", environment: nil, selection: RunSelection(mode: "all"), results: [])
        var record = header
        record.endedAt = "e"
        record.results = RecordJSONRoundTripTests.fullRecord().results
        let file = try store.save(record)
        var lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map(String.init)
        lines[2] = String(lines[2].dropLast(2)) + ",}"  // the second result
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file)
        let reader = try store.open(nil)
        var read = 0
        do {
            try reader.forEachResult { _ in read += 1 }
            Issue.record("a malformed line was read")
        } catch {
            #expect(read == 1)
            #expect("\(error)".hasPrefix(".reqrun/runs/20261201-120000-000-0001.jsonl: not a run record this version can read: line 3: 1:"))
        }
        #expect(try RequestResult(recordJSON: Array(lines[1].utf8)) == record.results[0])
    }
}
