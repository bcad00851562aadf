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

    /// `HeaderFieldCache` gives what `HeaderLine.field` gives for the same bytes, whatever came before.
    @Test func headerFieldCacheGivesWhatAParseGives() {
        func parsed(_ line: [UInt8]) -> HeaderField? { line.withUnsafeBytes { HeaderLine.field($0) } }
        let cache = HeaderFieldCache()
        let blocks: [[[UInt8]]] = [
            ["Server: nginx\r\n", "Content-Type: application/json\r\n", "Date: Tue, 01 Dec 2026 14:00:00 GMT\r\n"].map { Array($0.utf8) },
            ["Server: nginx\r\n", "Content-Type: application/json\r\n", "Date: Tue, 01 Dec 2026 14:00:01 GMT\r\n"].map { Array($0.utf8) },
            // Another field at a place seen before, a value that is not UTF-8, a line without a colon, an empty one.
            [Array("Content-Type: text/html\r\n".utf8), Array("X-Name: caf".utf8) + [0xE9, 0x0D, 0x0A], Array("no colon\r\n".utf8), []],
            ["Server: nginx\r\n", "Content-Type: application/json\r\n"].map { Array($0.utf8) },
            (0..<40).map { Array("X-\($0 % 3): \($0)\r\n".utf8) },
        ]
        for block in blocks + blocks {
            for (place, line) in block.enumerated() {
                let field = line.withUnsafeBytes { cache.responseField($0, at: place) }
                #expect(field == parsed(line), "\(String(decoding: line, as: UTF8.self))")
            }
        }
        func sent(_ text: String) -> [HeaderField] { Array(text.utf8).withUnsafeBytes { cache.sentFields($0) } }
        let fields = [HeaderField(name: "Host", value: "127.0.0.1:8080"), HeaderField(name: "Accept", value: "*/*")]
        #expect(sent("GET /a HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nAccept: */*\r\n\r\n") == fields)
        #expect(sent("GET /b?i=2 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nAccept: */*\r\n\r\n") == fields)
        #expect(sent("GET /b?i=2 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nAccept: text/plain\r\n\r\n")
                == [fields[0], HeaderField(name: "Accept", value: "text/plain")])
        #expect(sent("GET /a HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nAccept: */*\r\n\r\n") == fields)
        #expect(sent("GET / HTTP/1.1") == [])
        #expect(sent("") == [])
    }
}
