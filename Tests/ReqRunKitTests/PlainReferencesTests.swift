import Foundation
import Testing
@testable import ReqRunKit

/// `VariableScope.cachingPlainReferences` (the dry run's kept values) and `URLNormalizer.validate`'s port read on
/// the bytes: the same values and messages as without them.
@Suite struct PlainReferencesTests {
    private func layer(_ values: [String: String], literal: Bool = false) -> VariableLayer {
        VariableLayer(source: "collection", values: values, isLiteral: literal)
    }

    @Test func keptValuesAreThoseResolvedAndOnlyPlainOnesAreKept() throws {
        let scope = VariableScope(layers: [layer(["base": "http://h", "nested": "{{base}}/n", "dollar": "d"]),
                                           layer(["data": "{{not resolved}}"], literal: true)],
                                  processEnvironment: ProcessEnvironment(["REQRUN_X": "x"])).cachingPlainReferences()
        for _ in 0..<3 {
            #expect(try scope.resolve(reference: "base", field: "url") == "http://h")
            #expect(try scope.resolve(reference: "nested", field: "url") == "http://h/n")
            #expect(try scope.resolve(reference: "data", field: "url") == "{{not resolved}}")
            #expect(try scope.resolve(reference: "process.env.REQRUN_X", field: "url") == "x")
        }
        // A dynamic value is new at each use, and an undefined name fails each time.
        let first = try scope.resolve(reference: "$guid", field: "url"), second = try scope.resolve(reference: "$guid", field: "url")
        #expect(first != second)
        for _ in 0..<2 {
            #expect(throws: PreparationFailure.undefinedVariables(names: ["missing"], field: "url")) {
                try scope.resolve(reference: "missing", field: "url")
            }
        }
    }

    @Test func changedLayersDropTheKeptValues() throws {
        var scope = VariableScope(layers: [layer(["base": "http://a"])]).cachingPlainReferences()
        #expect(try scope.resolve(reference: "base", field: "url") == "http://a")
        let copy = scope
        scope.layers.append(layer(["base": "http://b"]))
        #expect(try scope.resolve(reference: "base", field: "url") == "http://b")
        #expect(try copy.resolve(reference: "base", field: "url") == "http://a")
        // Past the bound of kept names, each is still resolved.
        let many = VariableScope(layers: [layer(Dictionary(uniqueKeysWithValues: (0..<40).map { ("v\($0)", "\($0)") }))]).cachingPlainReferences()
        for round in 0..<2 {
            for i in 0..<40 { #expect(try many.resolve(reference: "v\(i)", field: "url") == "\(i)", "round \(round)") }
        }
    }

    @Test func portsAreReadOnTheirBytes() {
        #expect(throws: Never.self) { try URLNormalizer.validate("http://h:08080/x") }
        #expect(throws: Never.self) { try URLNormalizer.validate("http://h:65535") }
        #expect(throws: Never.self) { try URLNormalizer.validate("http://h:/x") }
        #expect(throws: PreparationFailure.invalidURL("port 0 is out of range (1-65535)")) { try URLNormalizer.validate("http://h:0/") }
        #expect(throws: PreparationFailure.invalidURL("port 65536 is out of range (1-65535)")) { try URLNormalizer.validate("http://h:65536/") }
        #expect(throws: PreparationFailure.invalidURL("port 99999999999999999999999 is out of range (1-65535)")) {
            try URLNormalizer.validate("http://h:99999999999999999999999/")
        }
        #expect(throws: PreparationFailure.invalidURL("'http://h:8x/' has an invalid port")) { try URLNormalizer.validate("http://h:8x/") }
        #expect(throws: PreparationFailure.invalidURL("'http://h:99999999999999999999x/' has an invalid port")) {
            try URLNormalizer.validate("http://h:99999999999999999999x/")
        }
    }
}

extension URLRuleTests {
    @Test func keptBytesAreThoseOfTheRanges() {
        let ranges: [ClosedRange<UInt8>] = [0x21...0x21, 0x23...0x3B, 0x3D...0x3D, 0x3F...0x5B, 0x5D...0x5D, 0x5F...0x5F, 0x61...0x7A, 0x7E...0x7E]
        for byte in UInt8.min...UInt8.max {
            #expect(URLNormalizer.isKept(byte) == ranges.contains { $0.contains(byte) }, "byte \(byte)")
        }
    }
}

extension PlainReferencesTests {
    /// `Template.forEachSegment(_:text:reference:)` hands the text segments' bytes that `segments` makes `Substring`s of.
    @Test func textSegmentsAsBytesAreThoseOfTheSubstrings() {
        for template in ["{{base}}/items/0/0", "é/{{ a }}ü{{b}}", "x{{unclosed", "{{a}}}", "{{a}}{{b}}", "plain ☃", "", "{{\t b\t}}", "{{ é }}", "{{   }}"] {
            var pieces: [String] = []
            Template.forEachSegment(template, text: { pieces.append("t:" + String(decoding: $0, as: UTF8.self)) },
                                    reference: { utf8, name in
                                        let trimmed = Template.trimmedName(template, utf8, name)
                                        // The ASCII bytes, when the name is ASCII, are the trimmed name's.
                                        if let bytes = Template.trimmedASCIIName(utf8, name) {
                                            #expect(String(decoding: bytes, as: UTF8.self) == trimmed && trimmed.utf8.allSatisfy { $0 < 0x80 })
                                        } else {
                                            #expect(trimmed.utf8.contains { $0 >= 0x80 })
                                        }
                                        pieces.append("r:" + trimmed)
                                    })
            let expected = Template.segments(template).map { segment -> String in
                switch segment {
                case .text(let text): return "t:" + text
                case .reference(let name): return "r:" + name
                }
            }
            #expect(pieces == expected, "\(template)")
        }
    }
}
