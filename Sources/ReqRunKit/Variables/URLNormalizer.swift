import Foundation

/// Makes a URL written by a person sendable, changing nothing that is already valid:
/// - an international host name becomes its ASCII (punycode) form, by Foundation's IDNA conversion, so it
///   does not depend on the process locale (libcurl's libidn2 path does);
/// - in the path, query and fragment, bytes that may not appear in a URL (space, non-ASCII, control
///   characters, `"<>\^`{|}`) are percent-encoded as UTF-8 (RFC 3986 §2.1); existing `%XX` escapes are kept
///   as written (`%2F` stays `%2F`).
///
/// Works on UTF-8 bytes: it runs for every request, and Character-based String operations showed in
/// profiles of 1,000-request runs.
public enum URLNormalizer {
    /// The parts of `scheme://authority/rest`, as byte ranges of the URL's UTF-8.
    private struct Parts {
        var authority: Range<Int>
        var rest: Range<Int>
    }

    /// `utf8` is an array or a buffer (indices from 0).
    private static func split<Bytes: RandomAccessCollection<UInt8>>(_ utf8: Bytes) -> Parts? where Bytes.Index == Int {
        guard let separator = schemeEnd(utf8: utf8) else { return nil }
        let start = separator + 3
        var end = start
        while end < utf8.count, utf8[end] != UInt8(ascii: "/"), utf8[end] != UInt8(ascii: "?"), utf8[end] != UInt8(ascii: "#") { end += 1 }
        return Parts(authority: start..<end, rest: end..<utf8.count)
    }

    /// The UTF-8 offset of `://` in `url`, if it has one.
    public static func schemeEnd(_ url: String) -> Int? {
        // On the string's own bytes, without copying them into an array: this runs several times per request
        // (through the UTF-8 view, a byte at a time, it cost some 150 instructions a call more).
        var text = url
        return text.withUTF8 { schemeEnd(utf8: $0) }
    }

    /// The offset of the first `://` in `utf8`, if it has one.
    static func schemeEnd(utf8: some Sequence<UInt8>) -> Int? {
        var offset = 0, matched = 0
        for byte in utf8 {
            let expected: UInt8 = matched == 0 ? UInt8(ascii: ":") : UInt8(ascii: "/")
            if byte == expected {
                matched += 1
                if matched == 3 { return offset - 2 }
            } else {
                matched = byte == UInt8(ascii: ":") ? 1 : 0
            }
            offset += 1
        }
        return nil
    }

    /// Whether `url`'s scheme is `http` or `https`, in any case (RFC 3986 §3.1: schemes are case-insensitive).
    public static func hasHTTPScheme(_ url: String) -> Bool {
        URLScan(url).hasHTTPScheme
    }

    /// Whether the scheme of `utf8`, ending at `end` (its `schemeEnd`), is `http` or `https` in any case; true
    /// without one (sent as http).
    fileprivate static func hasHTTPScheme(_ utf8: UnsafeBufferPointer<UInt8>, end: Int?) -> Bool {
        // On the string's bytes, against the literal's: an array of them was made for every request.
        let letters: StaticString = "https"
        guard let end else { return true }  // no scheme: sent as http
        guard end == 4 || end == 5 else { return false }
        for i in 0..<end where utf8[i] | 0x20 != letters.utf8Start[i] { return false }
        return true
    }

    /// - Parameter keepingInPath: ASCII characters left as they are in the path though `isKept` does not keep
    ///   them (`^` and `|` under Newman's rules, `RequestRules.keepsCaretAndPipeInPath`); the query and fragment
    ///   still encode them.
    /// - Throws: `PreparationFailure.invalidURL` for a host that cannot be converted.
    public static func normalize(_ url: String, keepingInPath: Set<UInt8> = []) throws(PreparationFailure) -> String {
        // Most URLs need nothing: all their bytes are kept as they are (and an ASCII host needs no IDNA).
        if url.allUTF8Bytes(isKept) { return url }
        return try normalizeChanging(url, keepingInPath: keepingInPath)
    }

    /// `normalize(url, keepingInPath:)` with `scan`, `url`'s scan, which says whether every byte is kept.
    static func normalize(_ url: String, _ scan: URLScan, keepingInPath: Set<UInt8> = []) throws(PreparationFailure) -> String {
        scan.allKept ? url : try normalizeChanging(url, keepingInPath: keepingInPath)
    }

    /// `normalize` of a URL with a byte that `isKept` refuses.
    private static func normalizeChanging(_ url: String, keepingInPath: Set<UInt8>) throws(PreparationFailure) -> String {
        let utf8 = Array(url.utf8)
        guard let parts = split(utf8) else { return String(decoding: encodeRest(utf8[...], keepingInPath: keepingInPath), as: UTF8.self) }
        var out = Array(utf8[..<parts.authority.lowerBound])
        let authority = utf8[parts.authority]
        if authority.contains(where: { $0 >= 0x80 }) {
            out += Array(try asciiAuthority(String(decoding: authority, as: UTF8.self)).utf8)
        } else {
            out += authority
        }
        out += encodeRest(utf8[parts.rest], keepingInPath: keepingInPath)
        return String(decoding: out, as: UTF8.self)
    }

    /// `url` with `@` and `:` percent-encoded inside its user information, as Newman sends a URL
    /// (`RequestRules.encodesUserinfoDelimiters`): the user information is the authority up to its last `@`,
    /// the user name ends at its first `:`, the password is the rest. `http://us@r:p:ss@h/` →
    /// `http://us%40r:p%3Ass@h/`. A URL without user information is returned as it is.
    public static func encodingUserinfoDelimiters(_ url: String) -> String {
        let utf8 = Array(url.utf8)
        guard let parts = split(utf8), let at = utf8[parts.authority].lastIndex(of: UInt8(ascii: "@")) else { return url }
        let userinfo = utf8[parts.authority.lowerBound..<at]
        func encoded(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
            bytes.flatMap { byte -> [UInt8] in
                byte == UInt8(ascii: "@") ? Array("%40".utf8) : byte == UInt8(ascii: ":") ? Array("%3A".utf8) : [byte]
            }
        }
        var out = Array(utf8[..<parts.authority.lowerBound])
        if let colon = userinfo.firstIndex(of: UInt8(ascii: ":")) {
            out += encoded(userinfo[..<colon]) + [UInt8(ascii: ":")] + encoded(userinfo[(colon + 1)...])
        } else {
            out += encoded(userinfo)
        }
        out += utf8[at...]
        return String(decoding: out, as: UTF8.self)
    }

    /// Checks that `url` names a host and, if any, a port from 1 to 65535, so a URL libcurl would refuse
    /// fails before anything is sent, with a reason.
    /// - Throws: `PreparationFailure.invalidURL`.
    public static func validate(_ url: String) throws(PreparationFailure) {
        try validate(url, URLScan(url))
    }

    /// `validate(url)` with `scan`, `url`'s scan, for its authority.
    static func validate(_ url: String, _ scan: URLScan) throws(PreparationFailure) {
        guard let authority = scan.authority else { throw .invalidURL("'\(url)' has no scheme") }
        // On the string's own bytes: a copy of them into an array was made for every request.
        var text = url
        if let reason = text.withUTF8({ invalidity(of: $0, url, authority: authority) }) { throw .invalidURL(reason) }
    }

    /// Whether `validate` passes the URL of UTF-8 `utf8` and scan `scan` (its bytes in place, no `String`).
    static func isValid(utf8: UnsafeBufferPointer<UInt8>, _ scan: URLScan) -> Bool {
        guard let authority = scan.authority else { return false }
        return invalidity(of: utf8, "", authority: authority) == nil
    }

    /// Why the URL `url`, of UTF-8 `utf8` and with its authority at `authority`, cannot be sent (`validate`), or nil.
    private static func invalidity(of utf8: UnsafeBufferPointer<UInt8>, _ url: String, authority: Range<Int>) -> String? {
        var hostPort = utf8[authority]
        if let at = hostPort.lastIndex(of: UInt8(ascii: "@")) { hostPort = hostPort[(at + 1)...] }
        var host = hostPort
        var port: Slice<UnsafeBufferPointer<UInt8>>?
        if hostPort.first == UInt8(ascii: "[") {
            guard let close = hostPort.firstIndex(of: UInt8(ascii: "]")) else { return "'\(url)' has an unclosed IPv6 address" }
            host = hostPort[...close]
            let rest = hostPort[(close + 1)...]
            if !rest.isEmpty {
                guard rest.first == UInt8(ascii: ":") else { return "'\(url)' has an invalid port" }
                port = rest.dropFirst()
            }
        } else if let colon = hostPort.lastIndex(of: UInt8(ascii: ":")) {
            host = hostPort[..<colon]
            port = hostPort[(colon + 1)...]
        }
        guard !host.isEmpty else { return "'\(url)' has no host" }
        // Characters that can never be part of a host name (RFC 3986 §3.2.2).
        if let bad = host.first(where: { $0 < 0x80 && !isKept($0) }) {
            return "the host in '\(url)' contains \(bad == 0x20 ? "a space" : "the character '\(Character(UnicodeScalar(bad)))'")"
        }
        // An empty port is allowed (RFC 3986 §3.2.3).
        if let port, !port.isEmpty {
            // The number read on the bytes, stopping its growth past 65535 (`Int(String(…))` made a string of every
            // request's port).
            var number = 0
            for byte in port {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return "'\(url)' has an invalid port" }
                if number <= 65535 { number = number * 10 + Int(byte - UInt8(ascii: "0")) }
            }
            guard (1...65535).contains(number) else { return "port \(String(decoding: port, as: UTF8.self)) is out of range (1-65535)" }
        }
        return nil
    }

    /// `user:pass@host:port` with the host in punycode (user information percent-encoded).
    private static func asciiAuthority(_ authority: String) throws(PreparationFailure) -> String {
        var userInfo = ""
        var hostPort = authority[...]
        if let at = authority.lastIndex(of: "@") {
            userInfo = String(decoding: encodeRest(Array(authority[..<at].utf8)[...]), as: UTF8.self) + "@"
            hostPort = authority[authority.index(after: at)...]
        }
        var host = hostPort, port = ""[...]
        if let colon = hostPort.lastIndex(of: ":"), !hostPort.hasPrefix("[") {
            host = hostPort[..<colon]
            port = hostPort[colon...]
        }
        guard !host.unicodeScalars.contains(where: { !$0.isASCII }) else {
            guard let ascii = URLComponents(string: "http://\(host)/")?.encodedHost, !ascii.isEmpty,
                  !ascii.unicodeScalars.contains(where: { !$0.isASCII }) else {
                throw .invalidURL("'\(host)' is not a valid international domain name")
            }
            return userInfo + ascii + port
        }
        return userInfo + host + port
    }

    /// `bytes` (a path, query and fragment) with what `isKept` refuses percent-encoded, except `keepingInPath`
    /// before the first `?` or `#`.
    private static func encodeRest(_ bytes: ArraySlice<UInt8>, keepingInPath: Set<UInt8> = []) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        let hex = Array("0123456789ABCDEF".utf8)
        var inPath = !keepingInPath.isEmpty
        for byte in bytes {
            if byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { inPath = false }
            if isKept(byte) || (inPath && keepingInPath.contains(byte)) {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return out
    }

    /// `text` as `normalize` writes it into a URL's path, query or fragment: bytes outside `isKept`
    /// percent-encoded, everything else as it is (so a secret can be found in a URL it was sent in).
    public static func encodedAsInURL(_ text: String) -> String {
        String(decoding: encodeRest(Array(text.utf8)[...]), as: UTF8.self)
    }

    /// Printable ASCII except space `" < > \ ^ ` { | }`: what a URL may hold as it is (RFC 3986 §2; `%`,
    /// in 0x23...0x3B, is kept so existing escapes stay as written).
    ///
    /// The bytes 0x21, 0x23...0x3B, 0x3D, 0x3F...0x5B, 0x5D, 0x5F, 0x61...0x7A and 0x7E as the bits of two words
    /// (0-63, 64-127): a shift and a test a byte, where the switch over the ranges cost some 6 instructions a byte
    /// more, in every request's URL (callgrind: `normalize` 650 → 460 instructions a request of
    /// `run --all --dry-run --json`). `URLRuleTests.keptBytesAreThoseOfTheRanges` checks the words.
    static func isKept(_ byte: UInt8) -> Bool {
        let word: UInt64 = byte < 64 ? 0xAFFF_FFFA_0000_0000 : byte < 128 ? 0x47FF_FFFE_AFFF_FFFF : 0
        return word >> (byte & 63) & 1 == 1
    }
}

/// What `URLNormalizer.normalize`, `hasHTTPScheme` and `validate`, `CredentialSecrets.inURL` and
/// `RequestPreparation`'s check for CR, LF and NUL read of a URL, found in one pass over its bytes: each scanned the
/// URL of every request again (about 1,800 instructions a request together, callgrind, `run --all --dry-run --json`).
/// The rules are theirs, unchanged: the first `://` ends the scheme (`schemeEnd`), the authority runs from there to
/// the first `/`, `?` or `#` (RFC 3986 §3.2), `isKept` says which bytes `normalize` keeps.
struct URLScan {
    /// `URLNormalizer.schemeEnd(url)`: the UTF-8 offset of the first `://`.
    let schemeEnd: Int?
    /// The byte range of the authority, after `://`; nil without a scheme.
    let authority: Range<Int>?
    /// Whether `isKept` keeps every byte: `normalize` returns the URL as it is.
    let allKept: Bool
    /// Whether a byte is CR, LF or NUL.
    let hasForbiddenCharacter: Bool
    /// Whether a byte is `@` (user information is possible).
    let hasAt: Bool
    /// `URLNormalizer.hasHTTPScheme(url)`.
    let hasHTTPScheme: Bool

    init(_ url: String) {
        var text = url
        (schemeEnd, authority, allKept, hasForbiddenCharacter, hasAt, hasHTTPScheme) = text.withUTF8(Self.scan)
    }

    /// The scan of the URL whose UTF-8 is `utf8`.
    init(utf8: UnsafeBufferPointer<UInt8>) {
        (schemeEnd, authority, allKept, hasForbiddenCharacter, hasAt, hasHTTPScheme) = Self.scan(utf8)
    }

    private static func scan(_ utf8: UnsafeBufferPointer<UInt8>) -> (Int?, Range<Int>?, Bool, Bool, Bool, Bool) {
        let count = utf8.count
        // `schemeEnd(utf8:)`'s matching, up to the first `://`.
        var schemeEnd: Int?
        var matched = 0
        var i = 0
        while i < count {
            let byte = utf8[i]
            let expected: UInt8 = matched == 0 ? UInt8(ascii: ":") : UInt8(ascii: "/")
            if byte == expected {
                matched += 1
                if matched == 3 { schemeEnd = i - 2; break }
            } else {
                matched = byte == UInt8(ascii: ":") ? 1 : 0
            }
            i += 1
        }
        // `split`'s authority: from after `://` to the first `/`, `?` or `#`.
        var authority: Range<Int>?
        if let schemeEnd {
            var end = schemeEnd + 3
            while end < count, utf8[end] != UInt8(ascii: "/"), utf8[end] != UInt8(ascii: "?"), utf8[end] != UInt8(ascii: "#") { end += 1 }
            authority = (schemeEnd + 3)..<end
        }
        // Every byte: whether `isKept` refuses one and whether one is `@`, eight bytes at a time (`refusesAByte`),
        // then the rest one at a time (`isKept`'s two words, without a branch).
        var refused: UInt64 = 0
        var ats: UInt64 = 0
        var j = 0
        if let base = utf8.baseAddress {
            while j + 8 <= count {
                let word = UnsafeRawPointer(base + j).loadUnaligned(as: UInt64.self)
                refused |= refusesAByte(word)
                ats |= hasByte(word, UInt8(ascii: "@"))
                j += 8
            }
        }
        while j < count {
            let byte = utf8[j]
            let word: UInt64 = byte < 64 ? 0xAFFF_FFFA_0000_0000 : byte < 128 ? 0x47FF_FFFE_AFFF_FFFF : 0
            refused |= ~(word >> (byte & 63)) & 1
            ats |= byte == UInt8(ascii: "@") ? 1 : 0
            j += 1
        }
        // CR, LF and NUL are not kept: looked for only in a URL with a byte that is not.
        let forbidden = refused != 0 && utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }
        return (schemeEnd, authority, refused == 0, forbidden, ats != 0, URLNormalizer.hasHTTPScheme(utf8, end: schemeEnd))
    }

    /// Nonzero when some byte of `word` (eight bytes) is one `URLNormalizer.isKept` refuses: 0x80 or more, less
    /// than 0x21, or one of `" < > \ ^ ` { | }` and DEL, the printable ASCII bytes outside its ranges
    /// (`URLScanTests.eightBytesAtATimeRefuseWhatIsKeptRefuses` checks every byte at every place). Per byte, the
    /// scan cost some 26 instructions (callgrind).
    static func refusesAByte(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101, high: UInt64 = 0x8080_8080_8080_8080
        // Bit Twiddling Hacks' `hasless(x, 0x21)`: nonzero exactly when a byte is below 0x21.
        var refused = (word & high) | ((word &- ones &* 0x21) & ~word & high)
        for byte: UInt8 in [0x22, 0x3C, 0x3E, 0x5C, 0x5E, 0x60, 0x7B, 0x7C, 0x7D, 0x7F] { refused |= hasByte(word, byte) }
        return refused
    }

    /// Nonzero exactly when some byte of `word` is `byte` (`haszero` of `word ^ byte` in every byte).
    @inline(__always)
    static func hasByte(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        let x = word ^ (0x0101_0101_0101_0101 &* UInt64(byte))
        return (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080
    }
}
