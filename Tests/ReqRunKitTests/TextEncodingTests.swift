import Foundation
import Testing
import TestSupport
@testable import ReqRunKit

/// Collections and environments saved as UTF-16 with a byte order mark (what PowerShell writes) or as UTF-8
/// with one load like plain UTF-8; errors point into the text as read.
@Suite struct TextEncodingTests {
    private func utf16(_ text: String, littleEndian: Bool) -> Data {
        var bytes: [UInt8] = littleEndian ? [0xFF, 0xFE] : [0xFE, 0xFF]
        for unit in text.utf16 { bytes += littleEndian ? [UInt8(unit & 0xFF), UInt8(unit >> 8)] : [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
        return Data(bytes)
    }

    @Test func utf16AndUTF8WithAByteOrderMarkLoad() throws {
        let dir = try TemporaryDirectory()
        let collection = #"{"name": "Ünïcode 😀", "groups": [{"name": "g", "requests": [{"url": "http://h/{{a}}"}]}]}"#
        try FileManager.default.createDirectory(at: dir.url.appendingPathComponent("collections"), withIntermediateDirectories: true)
        try utf16(collection, littleEndian: true).write(to: dir.url.appendingPathComponent("collections/le.json"))
        try utf16(collection.replacingOccurrences(of: "\"g\"", with: "\"h\""), littleEndian: false)
            .write(to: dir.url.appendingPathComponent("collections/be.json"))
        try (Data([0xEF, 0xBB, 0xBF]) + Data(collection.replacingOccurrences(of: "\"g\"", with: "\"i\"").utf8))
            .write(to: dir.url.appendingPathComponent("collections/u8.json"))
        let loaded = try Workspace(root: dir.url).loadCollections()
        #expect(loaded.map(\.name) == ["Ünïcode 😀", "Ünïcode 😀", "Ünïcode 😀"])
        #expect(loaded.map { $0.groups[0].name } == ["h", "g", "i"])
        try FileManager.default.createDirectory(at: dir.url.appendingPathComponent("environments"), withIntermediateDirectories: true)
        try utf16(#"{"a": "x", "b": {"value": "é", "secret": true}}"#, littleEndian: true)
            .write(to: dir.url.appendingPathComponent("environments/ps.json"))
        let environment = try Workspace(root: dir.url).loadEnvironment("ps", relativeTo: dir.url)
        #expect(environment.variables == [Variable(name: "a", value: "x"), Variable(name: "b", value: "é")])
    }

    @Test func errorsCountLinesAndColumnsInTheDecodedText() throws {
        // Line 2 of the decoded text, after two spaces: column 3.
        for littleEndian in [true, false] {
            let error = try #require(throws: JSONSyntaxError.self) {
                try JSONParser.parse(Array(utf16("{\n  é: 1}", littleEndian: littleEndian)))
            }
            #expect(error.location == SourceLocation(line: 2, column: 3))
        }
        let late = try #require(throws: JSONSyntaxError.self) { try JSONParser.parse(Array(utf16("{\"a\": 1,\n \"é\" 2}", littleEndian: true))) }
        // ` "é" 2}`: é takes two UTF-8 bytes, so the '2' where ':' should be is at column 7.
        #expect(late.location == SourceLocation(line: 2, column: 7))
        var lone = Array(utf16("[\"", littleEndian: true))
        lone += [0x00, 0xD8, 0x22, 0x00, 0x5D, 0x00]  // an unpaired high surrogate
        let surrogate = try #require(throws: JSONSyntaxError.self) { try JSONParser.parse(lone) }
        #expect(surrogate.location == SourceLocation(line: 1, column: 3) && surrogate.reason.hasPrefix("invalid UTF-16: an unpaired surrogate"))
        let odd = try #require(throws: JSONSyntaxError.self) { try JSONParser.parse([0xFF, 0xFE, 0x5B, 0x00, 0x5D]) }
        #expect(odd.reason == "invalid UTF-16: the file ends in the middle of a character")
    }

    @Test func dataFilesAndGlobalsInUTF16Load() throws {
        let csv = "name,città\nAda,Torino\n\"B, C\",Zürich\n"
        let rows = [[Variable(name: "name", value: "Ada"), Variable(name: "città", value: "Torino")],
                    [Variable(name: "name", value: "B, C"), Variable(name: "città", value: "Zürich")]]
        for littleEndian in [true, false] {
            #expect(try IterationData.decode(Array(utf16(csv, littleEndian: littleEndian)), file: "d.csv").rows == rows)
            // Without a .json extension, a UTF-16 file that holds a JSON array is JSON too.
            let json = #"[{"name": "Ada", "città": "Torino"}, {"name": "B, C", "città": "Zürich"}]"#
            #expect(try IterationData.decode(Array(utf16(json, littleEndian: littleEndian)), file: "data").rows == rows)
        }
        #expect(try IterationData.decode([0xEF, 0xBB, 0xBF] + Array(csv.utf8), file: "d.csv").rows == rows)
        let dir = try TemporaryDirectory()
        try utf16(#"{"values": [{"key": "g", "value": "ü", "enabled": true}]}"#, littleEndian: true).write(to: dir.url.appendingPathComponent("globals.json"))
        #expect(try RunData.loadGlobals(dir.url.appendingPathComponent("globals.json").path, relativeTo: dir.url).variables == [Variable(name: "g", value: "ü")])
    }

    @Test func errorsInDataFilesCountInTheDecodedText() throws {
        // A stray quote at line 2, column 5 of the text, whether the file has a UTF-8 or UTF-16 mark.
        let bad = "a,b\nxy,z\"q\n"
        for bytes in [[0xEF, 0xBB, 0xBF] + Array(bad.utf8), Array(utf16(bad, littleEndian: true))] {
            let error = try #require(throws: InputError.self) { try IterationData.decode(bytes, file: "d.csv") }
            #expect(error.location == SourceLocation(line: 2, column: 5), "\(error)")
        }
        let first = try #require(throws: InputError.self) { try IterationData.decode([0xEF, 0xBB, 0xBF] + Array("a,\"b\"c\n".utf8), file: "d.csv") }
        #expect(first.location == SourceLocation(line: 1, column: 6), "\(first)")
    }

    @Test func utf16WithoutAByteOrderMarkSaysSo() throws {
        let hint = "the file looks like UTF-16 (little-endian) without a byte order mark; save it as UTF-8, or as UTF-16 with a byte order mark (what PowerShell's Out-File writes)"
        let unmarked = Array(utf16(#"{"a": "x"}"#, littleEndian: true).dropFirst(2))
        let environment = try #require(throws: InputError.self) { try Environment.decode(unmarked, name: "e", file: "e.json") }
        #expect(environment.location == SourceLocation(line: 1, column: 1) && environment.reason == hint)
        let big = try #require(throws: JSONSyntaxError.self) { try JSONParser.parse(Array(utf16("[1]", littleEndian: false).dropFirst(2))) }
        #expect(big.reason.hasPrefix("the file looks like UTF-16 (big-endian) without a byte order mark"))
        let data = try #require(throws: InputError.self) { try IterationData.decode(Array(utf16("a,b\n1,2\n", littleEndian: true).dropFirst(2)), file: "d.csv") }
        #expect(data.reason == hint)
        let dir = try TemporaryDirectory()
        try FileManager.default.createDirectory(at: dir.url.appendingPathComponent("collections"), withIntermediateDirectories: true)
        try Data(unmarked).write(to: dir.url.appendingPathComponent("collections/c.json"))
        let collection = try #require(throws: InputError.self) { try Workspace(root: dir.url).loadCollections() }
        #expect(collection.reason == hint, "\(collection)")
    }
}
