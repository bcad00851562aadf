import Foundation
import Testing
@testable import ReqRunKit

/// The rules the transfer applies to what a server sends, as pure functions (the end-to-end tests against
/// `scripts/hostile-server` show them in a run).
@Suite struct ResponseFramingTests {
    /// RFC 9112 §6.3 ¶5 and RFC 9110 §8.6.
    @Test func contentLengthFramesTheResponseOnlyWithOneNumber() {
        #expect(ContentLength.problem([]) == nil)
        #expect(ContentLength.problem(["42"]) == nil)
        #expect(ContentLength.problem(["42", "42"]) == nil)
        #expect(ContentLength.problem(["42, 42"]) == nil)
        #expect(ContentLength.problem(["42,"]) == nil)
        #expect(ContentLength.problem(["5", "6"]) == "conflicting Content-Length values 5 and 6: the response's framing is invalid (RFC 9112 §6.3)")
        #expect(ContentLength.problem(["5, 6", "7"]) == "conflicting Content-Length values 5, 6 and 7: the response's framing is invalid (RFC 9112 §6.3)")
        #expect(ContentLength.problem(["9223372036854775807"]) == nil)
        #expect(ContentLength.problem(["9223372036854775808"]) == "Content-Length 9223372036854775808 is out of range: the response's framing is invalid (RFC 9112 §6.3)")
        #expect(ContentLength.problem(["-1"]) == "Content-Length '-1' is not a number: the response's framing is invalid (RFC 9112 §6.3)")
        #expect(ContentLength.problem(["+1"])?.hasPrefix("Content-Length '+1' is not a number") == true)
        #expect(ContentLength.problem([""]) == "an empty Content-Length: the response's framing is invalid (RFC 9112 §6.3)")
        #expect(ContentLength.problem([String(repeating: "x", count: 100)])?.contains(String(repeating: "x", count: 64) + "…'") == true)
    }

    @Test func headerTextKeepsBytesThatAreNotUTF8() {
        func text(_ bytes: [UInt8]) -> (String, String?) {
            bytes.withUnsafeBytes { let t = HeaderLine.text($0); return (t.text, t.base64) }
        }
        #expect(text(Array("héllo".utf8)) == ("héllo", nil))
        #expect(text([0x63, 0x61, 0x66, 0xE9]) == (#"caf\xE9"#, "Y2Fm6Q=="))
        // A valid character after an invalid byte stays a character; a cut sequence is escaped byte by byte.
        #expect(text([0xFF] + Array("ü".utf8) + [0xE2, 0x82]).0 == #"\xFFü\xE2\x82"#)
        #expect(text([0x1B, 0x5B, 0x32, 0x4A]) == ("\u{1B}[2J", nil))
        // The ASCII fast path: every length around its eight-byte steps, and a byte of 0x80 or more in the
        // last step or in the tail still goes through validation.
        for count in 0...17 { #expect(text(Array(repeating: 0x61, count: count)) == (String(repeating: "a", count: count), nil)) }
        #expect(text(Array("abcdefgé".utf8)) == ("abcdefgé", nil))
        #expect(text(Array("abcdefghijklmn".utf8) + [0xE9]) == (#"abcdefghijklmn\xE9"#, "YWJjZGVmZ2hpamtsbW7p"))
        #expect(HeaderLine.isASCII(UnsafeRawBufferPointer(start: nil, count: 0)))
    }
}
