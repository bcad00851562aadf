import Foundation
import Testing
import ReqRunKit
@testable import ReqRunCLI

/// How `reqrun send` shows a response (`ResponseText`): JSON pretty-printed and coloured on a terminal,
/// server text escaped, binary content summarised.
@Suite struct ResponseTextTests {
    private func terminal(colour: Bool) -> Terminal {
        Terminal(out: { _ in }, outBytes: { _ in }, err: { _ in }, colorOut: colour)
    }

    private func response(_ body: [UInt8], type: String) -> ResponseRecord {
        ResponseRecord(status: 200, reasonPhrase: "OK", httpVersion: "1.1", headers: [HeaderField(name: "Content-Type", value: type)],
                       bodySize: body.count, bodySHA256: "ab", body: RecordedBody(prefix: body, truncated: false),
                       remoteAddress: nil, remotePort: nil)
    }

    @Test func jsonIsPrettyPrintedWithColoursOnlyOnATerminal() {
        let json = response(Array(#"{"a":[1,true,null],"b":{},"c":"x","d":1e3}"#.utf8), type: "application/json")
        #expect(ResponseText.content(json, terminal(colour: false)) == """
            {
              "a": [
                1,
                true,
                null
              ],
              "b": {},
              "c": "x",
              "d": 1e3
            }

            """)
        let coloured = ResponseText.content(json, terminal(colour: true))
        #expect(coloured.contains("\u{1B}[34m\"a\"\u{1B}[0m: [") && coloured.contains("\u{1B}[36m1e3\u{1B}[0m")
                && coloured.contains("\u{1B}[32m\"x\"\u{1B}[0m") && coloured.contains("\u{1B}[35mtrue\u{1B}[0m"))
    }

    @Test func serverTextIsEscapedAndBinaryIsSummarised() {
        // A JSON string with a bidirectional override, a text body and a header field with escape sequences.
        let json = response(Array("{\"k\":\"a\u{202E}b\"}".utf8), type: "application/json")
        #expect(ResponseText.content(json, terminal(colour: false)).contains(#""k": "a\u{202e}b""#))
        var text = response(Array("red \u{1B}[31m text".utf8), type: "text/plain")
        text.headers.append(HeaderField(name: "X-Evil", value: "\u{1B}]0;title\u{07}"))
        let shown = ResponseText.text(text, terminal(colour: false))
        #expect(!shown.contains("\u{1B}") && !shown.contains("\u{07}"))
        #expect(shown.contains("red \\u{1b}[31m text") && shown.contains("X-Evil: \\u{1b}]0;title\\u{7}"))
        let png = response([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0xFF], type: "image/png")
        #expect(ResponseText.content(png, terminal(colour: false)) == "(binary content: 9 B, image/png, sha256 ab; 'reqrun send --body' writes it)\n")
    }
}
