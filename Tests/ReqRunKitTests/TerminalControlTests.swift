import Testing
@testable import ReqRunKit

@Suite struct TerminalControlTests {
    /// What `escapingTerminalControls` must give: each `isTerminalControl` scalar as `\u{…}`.
    private func escapedScalarByScalar(_ text: String, multiline: Bool) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if !(multiline && (scalar == "\n" || scalar == "\t")) && scalar.isTerminalControl {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The fast path that reads the bytes (text with ` › `, accents, CJK) escapes exactly what the scalar by
    /// scalar path does, for every scalar below U+0800, U+2000–U+207F and a few above, alone and between others.
    @Test func escapingFromTheBytesMatchesScalarByScalar() {
        let scalars = ((0..<0x800).compactMap(Unicode.Scalar.init) + (0x2000..<0x2080).compactMap(Unicode.Scalar.init)
            + ["\u{203A}", "\u{FEFF}", "\u{1F600}", "\u{10FFFF}"])
        var differing: [String] = []
        for scalar in scalars {
            for text in [String(scalar), "C › g \(scalar) n", "é\(scalar)\u{2029}›"] {
                for multiline in [false, true] where text.escapingTerminalControls(multiline: multiline) != escapedScalarByScalar(text, multiline: multiline) {
                    differing.append("U+\(String(scalar.value, radix: 16)) in \(text.debugDescription)")
                }
            }
        }
        #expect(differing.isEmpty)
        #expect("a › b\u{202E}c\u{85}".escapingTerminalControls() == "a › b\\u{202e}c\\u{85}")
    }
}
