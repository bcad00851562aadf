import Foundation
import Testing
@testable import ReqRunKit

/// `URLScan` answers in one pass what `normalize`, `hasHTTPScheme`, `validate`, `CredentialSecrets.inURL` and the
/// check for CR, LF and NUL each found on their own scan of a request's URL: the same answers, by the same rules.
@Suite struct URLScanTests {
    static let urls = [
        "http://127.0.0.1:9/items/0/0", "HTTPS://Example.com/", "hTtP://h", "ws://h/s", "wss://h/s", "ftp://h/f", "file:///x",
        "example.com/a", "", ":", "::/", ":://", "http:/x", "http://", "a/b://c/d", "x://y://z", "http://u:p@h:80/p?q=1#f",
        "http://h/p@q", "http://h?x@y", "http://h#@", "http://[::1]:8080/x", "http://h/a b", "http://h/é", "http://bücher.example/",
        "http://h/\r\n", "http://h/\0", "http://h\n/", "http://h/%41%2F", "http://h/{x}|^", "httpx://h", "http:///p", "https:h/",
    ]

    /// The answers as each check found them before (the scheme's end and the authority as `split` had them).
    @Test(arguments: urls) func aScanAnswersAsEachCheckDid(url: String) {
        let scan = URLScan(url)
        let utf8 = Array(url.utf8)
        let end = URLNormalizer.schemeEnd(utf8: utf8)
        #expect(scan.schemeEnd == end)
        let authority = end.map { end -> Range<Int> in
            var stop = end + 3
            while stop < utf8.count, ![UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#")].contains(utf8[stop]) { stop += 1 }
            return (end + 3)..<stop
        }
        #expect(scan.authority == authority)
        #expect(scan.allKept == utf8.allSatisfy(URLNormalizer.isKept))
        #expect(scan.hasForbiddenCharacter == utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 })
        #expect(scan.hasAt == utf8.contains(UInt8(ascii: "@")))
        let http = end.map { end in (end == 4 || end == 5) && zip(utf8.prefix(end), "https".utf8).allSatisfy { $0 | 0x20 == $1 } } ?? true
        #expect(scan.hasHTTPScheme == http)
        #expect(URLNormalizer.hasHTTPScheme(url) == http)
    }

    private func prepared(_ request: Request, _ values: [String: String] = [:], auth: Auth? = nil) -> Result<PreparedRequest, PreparationFailure> {
        RequestPreparation.prepare(request, scope: VariableScope(layers: [VariableLayer(source: "test", values: values)]), auth: auth)
    }

    /// Where the URL changes after its first scan (a scheme put in front, query parameters, an API key in the query, a
    /// byte `normalize` encodes), the checks read the URL as it is then.
    @Test func theChecksReadTheURLAsItIsAfterItChanges() throws {
        // Without a scheme: `http://` in front, then its port is checked (no scheme before the prefix).
        #expect(prepared(Request(url: "example.com:99999/x")) == .failure(.invalidURL("port 99999 is out of range (1-65535)")))
        #expect(try prepared(Request(url: "{{host}}/x"), ["host": "h:8080"]).get().url == "http://h:8080/x")
        // Query parameters and an API key in the query: appended after the first scan, encoded, and the user
        // information of the URL still found.
        let query = try prepared(Request(url: "http://ada:s3cr3t@h/p", query: [Parameter(name: "a", value: "b c@d")])).get()
        #expect(query.url == "http://ada:s3cr3t@h/p?a=b%20c%40d")
        #expect(query.secrets.contains("s3cr3t"))
        let key = try prepared(Request(url: "http://h/p"), ["v": "x y"], auth: .apiKey(name: "k", value: "{{v}}", inQuery: true)).get()
        #expect(key.url == "http://h/p?k=x%20y")
        // Bytes `normalize` encodes (an international host's user information too), then the user information found
        // in the encoded URL.
        let encoded = try prepared(Request(url: "http://us er:p ss@bücher.example/é")).get()
        #expect(encoded.url == "http://us%20er:p%20ss@xn--bcher-kva.example/%C3%A9")
        #expect(encoded.secrets.contains("p%20ss") && encoded.secrets.contains("p ss"))
        // The scheme read after substitution, and CR, LF and NUL refused in the URL as substituted.
        #expect(prepared(Request(url: "{{s}}://h/"), ["s": "ftp"]) == .failure(.unsupportedScheme("ftp")))
        #expect(prepared(Request(url: "http://h/{{v}}"), ["v": "a\r\nb"]) == .failure(.forbiddenCharacter(field: "url")))
        #expect(prepared(Request(url: "http://h/{{v}}"), ["v": "a\u{0}"]) == .failure(.forbiddenCharacter(field: "url")))
        #expect(prepared(Request(url: "http://exa mple.com/")) == .failure(.invalidURL("the host in 'http://exa mple.com/' contains a space")))
    }

    /// The eight-byte test of `URLScan` refuses a word exactly when `isKept` refuses one of its bytes: every byte at
    /// every place among kept ones, and `@` found at every place.
    @Test func eightBytesAtATimeRefuseWhatIsKeptRefuses() {
        let kept = Array("abcdefgh".utf8)
        for place in 0..<8 {
            for byte in UInt8.min...UInt8.max {
                var bytes = kept
                bytes[place] = byte
                let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
                #expect((URLScan.refusesAByte(word) != 0) == !URLNormalizer.isKept(byte), "byte \(byte) at \(place)")
                #expect((URLScan.hasByte(word, UInt8(ascii: "@")) != 0) == (byte == UInt8(ascii: "@")), "byte \(byte) at \(place)")
                // Next to bytes that are refused too (a borrow from one byte must not hide or make another).
                bytes = Array(repeating: byte, count: 8)
                bytes[(place + 1) % 8] = 0x00
                let mixed = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
                #expect(URLScan.refusesAByte(mixed) != 0)
                #expect((URLScan.hasByte(mixed, UInt8(ascii: "@")) != 0) == (byte == UInt8(ascii: "@")), "byte \(byte)")
            }
        }
    }
}
