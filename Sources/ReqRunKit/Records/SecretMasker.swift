import Foundation

/// Replaces secrets with `****` in what reqrun shows and writes (console, run record, reports), unless
/// `--show-secrets`.
///
/// Secrets are: the values of variables marked secret and the values that reached a credential
/// (`CredentialSecrets`), wherever the text appears (URL, request name, header fields, bodies, messages,
/// captures) and in every spelling reqrun or a server produces (percent-encoded, JSON-escaped), and the
/// whole values of the header fields in `sensitiveHeaderNames`. The run decides which values are secrets
/// (`Runner`: for the whole run once known); this type only masks.
public struct SecretMasker: Sendable {
    /// The mask.
    public static let mask = "****"
    /// Header fields whose values are always masked (lower case): credentials and session cookies.
    public static let sensitiveHeaderNames: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie"]

    /// Whether `field` is one of `sensitiveHeaderNames`, told by its length first: every field of every
    /// result is asked, and going through the set cost about 300 instructions a field (callgrind).
    static func isSensitive(_ field: HeaderField) -> Bool {
        switch field.name.utf8.count {
        case 6: return field.hasName("cookie")
        case 10: return field.hasName("set-cookie")
        case 13: return field.hasName("authorization")
        case 19: return field.hasName("proxy-authorization")
        default: return false
        }
    }

    /// The shortest secret value searched for in text, in characters.
    public static let minimumLength = 4

    /// Secret texts, longest first so a secret that contains another is masked whole.
    private let values: [String]
    /// `values` as UTF-8, searched for in text (`mask(_:)`).
    private let textBytes: [[UInt8]]
    /// `values` as UTF-8 and the Latin-1 bytes of those that have them, for bodies recorded as base64.
    private let byteValues: [[UInt8]]
    /// The secrets as written, in UTF-16LE and UTF-16BE, each with the mask in the same byte order: a body in
    /// UTF-16 (`charset=utf-16`, which the record decodes into `text`) holds them so in its bytes.
    private let wideValues: [(secret: [UInt8], mask: [UInt8])]
    private let enabled: Bool

    /// - Parameters:
    ///   - values: the secret values (empty ones are ignored); each is also masked in its percent-encoded
    ///     forms, as it appears in a query string, a form body or anywhere in a URL when substituted there
    ///     (`URLSubstitution`, then `URLNormalizer`), and in its JSON-escaped
    ///     forms (`jsonSpellings`).
    ///   - enabled: false for `--show-secrets`: everything passes unchanged.
    public init(values: [String], enabled: Bool = true) {
        // Values shorter than `minimumLength` are not searched for in text: a secret "e" would mask every "e"
        // in URLs, header fields and messages. Sensitive header fields are still masked whole.
        // A non-ASCII secret also in its other normal forms (NFC, NFD), as a server that normalizes echoes it:
        // found by bytes (`mask(_:)`), one form is not the other.
        // (Kept apart by their bytes: a `Set` of `String`s holds one of two canonically equivalent texts.)
        let plain = Self.uniqueBytes(values.filter { $0.count >= Self.minimumLength }.flatMap { value in
            value.utf8.allSatisfy { $0 < 0x80 } ? [value]
                : [value, value.precomposedStringWithCanonicalMapping, value.decomposedStringWithCanonicalMapping]
        })
        // As written, and as each way of putting it in a URL spells it: a query value, a form value, and
        // anywhere else in a URL (a path: only spaces, non-ASCII and a few others percent-encoded).
        // And as a JSON string spells it (a body reqrun sends, a server's echo): see `jsonSpellings`.
        // A value substituted into a URL template is encoded for its part first (`URLSubstitution`: `?`, `#`,
        // `&`, `+`), then finished by `URLNormalizer` like the rest of the URL.
        let inURL = plain.flatMap { value in
            [URLSubstitution.Component.schemeOrAuthority, .path, .query, .queryValue].map {
                URLNormalizer.encodedAsInURL(URLSubstitution.encode(value, for: $0))
            }
        }
        let percent = plain.map { URLQuery.encode($0) } + plain.map { URLQuery.formEncode($0) } + inURL
        // A secret with non-ASCII characters has more: see `lowerCaseHex`, `latin1Misreading`, `latin1Escaped`,
        // `iriForm`.
        let misread = plain.compactMap(Self.latin1Misreading)
        let iri = percent.compactMap(Self.iriForm)
        let spellings = plain + percent + percent.map(Self.lowerCaseHex) + plain.flatMap { Self.jsonSpellings($0, twice: true) }
            + misread + misread.flatMap { Self.jsonSpellings($0) } + plain.compactMap(Self.latin1Escaped)
            + iri + iri.flatMap { Self.jsonSpellings($0) }
        self.values = Self.uniqueBytes(spellings).sorted { $0.utf8.count > $1.utf8.count }
        self.textBytes = self.values.map { Array($0.utf8) }
        // In bytes, also as Latin-1 (ISO 8859-1), as an old server sends a header field or a body it echoes.
        let latin1 = plain.compactMap(Self.latin1Bytes)
        self.byteValues = (textBytes + latin1).sorted { $0.count > $1.count }
        self.wideValues = plain.sorted { $0.utf16.count > $1.utf16.count }.flatMap { value in
            [false, true].map { (Self.utf16(value, bigEndian: $0), Self.utf16(Self.mask, bigEndian: $0)) }
        }
        self.enabled = enabled
    }

    /// `text` as JSON writers put it inside a string literal (RFC 8259 §7), other than `text` itself: `"` and
    /// `\` escaped, control characters as `\n`-style or `\u00XX` escapes; non-ASCII as it is (JavaScript's
    /// `JSON.stringify`, reqrun) or as `\uXXXX` in lower case (Python's `json`, which httpbin echoes with) or
    /// upper case; `/` as it is or as `\/` (PHP's `json_encode`).
    /// - Parameter twice: also each of those escaped again as Python and JavaScript do, as a JSON body sent
    ///   by reqrun comes back inside a string of the server's JSON (httpbin's `data`).
    static func jsonSpellings(_ text: String, twice: Bool = false) -> [String] {
        var spellings: Set<String> = []
        for (asciiOnly, upper, slash) in [(false, false, false), (true, false, false), (true, true, false),
                                          (false, false, true), (true, false, true), (true, true, true)] {
            func unicodeEscape(_ unit: UInt16) -> String {
                let hex = String(unit, radix: 16, uppercase: upper)
                return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
            var out = ""
            for scalar in text.unicodeScalars {
                switch scalar.value {
                case 0x22: out += "\\\""
                case 0x5C: out += "\\\\"
                case 0x2F where slash: out += "\\/"
                case 0x0A: out += "\\n"
                case 0x0D: out += "\\r"
                case 0x09: out += "\\t"
                case 0x08: out += "\\b"
                case 0x0C: out += "\\f"
                case 0..<0x20: out += unicodeEscape(UInt16(scalar.value))
                case 0x80... where asciiOnly: for unit in String(scalar).utf16 { out += unicodeEscape(unit) }
                default: out.unicodeScalars.append(scalar)
                }
            }
            spellings.insert(out)
        }
        spellings.remove(text)
        if twice {
            for once in spellings {
                for again in jsonSpellings(once) { spellings.insert(again) }
            }
        }
        return Array(spellings)
    }

    /// `text` with the hex digits of each percent-encoding in lower case (`%c3%a9`): RFC 3986 §2.1 makes them
    /// equivalent, and a server may echo a URL so (httpbin's `/redirect-to` writes its `Location` as given).
    static func lowerCaseHex(_ text: String) -> String {
        guard text.contains("%") else { return text }
        var bytes = Array(text.utf8), i = 0
        while i + 2 < bytes.count {
            guard bytes[i] == UInt8(ascii: "%") else { i += 1; continue }
            for j in (i + 1)...(i + 2) where (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(bytes[j]) { bytes[j] += 0x20 }
            i += 3
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `text` (a percent-encoded form) with each run of percent-encoded bytes of 0x80 and above that is UTF-8
    /// decoded, the other escapes kept: a URL as an IRI (RFC 3987 §3.2), as werkzeug gives it and httpbin
    /// echoes it in `url` (`t=Zp@ss%20w0rd/%2B\u00e9`). nil when there is no such run.
    static func iriForm(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        func hex(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            default: nil
            }
        }
        /// The byte of an escape at `i` when it is 0x80 or above.
        func high(at i: Int) -> UInt8? {
            guard i + 2 < bytes.count, bytes[i] == UInt8(ascii: "%"), let a = hex(bytes[i + 1]), let b = hex(bytes[i + 2]), a >= 8 else { return nil }
            return a << 4 | b
        }
        var out: [UInt8] = [], i = 0, changed = false
        while i < bytes.count {
            var run: [UInt8] = [], j = i
            while let byte = high(at: j) { run.append(byte); j += 3 }
            if !run.isEmpty, String(validating: run, as: UTF8.self) != nil {
                out += run; i = j; changed = true
            } else if !run.isEmpty {
                out += bytes[i..<j]; i = j
            } else {
                out.append(bytes[i]); i += 1
            }
        }
        return changed ? String(decoding: out, as: UTF8.self) : nil
    }

    /// `text`'s UTF-8 read back as Latin-1, each byte the character of that code point (`é` → `Ã©`): as a
    /// WSGI server reads header fields (PEP 3333, "Unicode Issues"), so httpbin echoes a field `é` as
    /// `\u00c3\u00a9`. nil for ASCII text, which reads the same.
    static func latin1Misreading(_ text: String) -> String? {
        guard text.utf8.contains(where: { $0 >= 0x80 }) else { return nil }
        return String(String.UnicodeScalarView(text.utf8.map { Unicode.Scalar($0) }))
    }

    /// `text` in Latin-1 (ISO 8859-1) bytes, as an old server sends a field it echoes (httpbin's
    /// `/response-headers`); nil for ASCII text (its UTF-8) or text with a character beyond U+00FF.
    static func latin1Bytes(_ text: String) -> [UInt8]? {
        guard text.unicodeScalars.contains(where: { $0.value >= 0x80 }),
              text.unicodeScalars.allSatisfy({ $0.value <= 0xFF }) else { return nil }
        return text.unicodeScalars.map { UInt8($0.value) }
    }

    /// `text`'s Latin-1 bytes as the record writes a received header field that is not UTF-8 (`HeaderLine.text`:
    /// each byte of 0x80 or more `\xHH`, upper-case hex); nil when `latin1Bytes` is.
    static func latin1Escaped(_ text: String) -> String? {
        guard let bytes = latin1Bytes(text) else { return nil }
        return bytes.map { $0 < 0x80 ? String(UnicodeScalar($0)) : "\\x" + String($0, radix: 16, uppercase: true) }.joined()
    }

    /// Whether every text passes unchanged: no secret (or `--show-secrets`); credential header fields are still
    /// masked (`mask(_:)` of header fields) unless disabled.
    var masksNothing: Bool { !enabled || values.isEmpty }

    public func mask(_ text: String) -> String {
        guard enabled, !values.isEmpty else { return text }
        // By UTF-8 bytes, not characters: a secret followed by a combining mark, a variation selector or a
        // joiner ends inside a character (`"ab\u{301}".contains("ab")` is false) and was not found. A match of
        // one well-formed UTF-8 text in another starts and ends on scalars, so the result is UTF-8 too.
        var text = text
        for value in textBytes where Self.find(value, in: &text) {
            text = String(decoding: Self.replace(value, with: Array(Self.mask.utf8), in: Array(text.utf8)), as: UTF8.self)
        }
        return text
    }

    /// `texts` without repeats, told apart by their UTF-8 (not by `==`, which is canonical equivalence).
    private static func uniqueBytes(_ texts: [String]) -> [String] {
        var seen: Set<[UInt8]> = []
        return texts.filter { seen.insert(Array($0.utf8)).inserted }
    }

    /// Whether `text`'s UTF-8 holds `value` (`memchr(3)` for its first byte, `memcmp(3)` for the rest; Glibc's
    /// module does not export `memmem`).
    private static func find(_ value: [UInt8], in text: inout String) -> Bool {
        text.withUTF8 { bytes in
            value.withUnsafeBytes { needle in
                guard let base = bytes.baseAddress, let first = needle.first, bytes.count >= needle.count else { return false }
                var offset = 0
                let last = bytes.count - needle.count
                while offset <= last, let hit = memchr(base + offset, Int32(first), last - offset + 1) {
                    let at = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                    if memcmp(base + at, needle.baseAddress!, needle.count) == 0 { return true }
                    offset = at + 1
                }
                return false
            }
        }
    }

    /// A sensitive field's value with nothing of its secrets left: `****` for credentials; for cookies, each
    /// cookie's value (`a=****; b=****`, RFC 6265 §5.4) and, in `Set-Cookie`, the cookie's value with its
    /// attributes kept (`session=****; Path=/; HttpOnly`, §5.2): names and attributes are not secrets, and HAR
    /// and HTML reports list them. A part without `=` is masked whole.
    static func maskedWhole(_ field: HeaderField) -> String {
        let pair = { (part: Substring) -> String in
            let part = part.trimmingCharacters(in: .whitespaces)
            guard let equals = part.firstIndex(of: "="), equals != part.startIndex else { return mask }
            return part[..<equals] + "=" + mask
        }
        if field.hasName(in: ["cookie"]), field.valueBase64 == nil {
            return field.value.split(separator: ";").map(pair).joined(separator: "; ")
        }
        if field.hasName(in: ["set-cookie"]), field.valueBase64 == nil {
            let parts = field.value.split(separator: ";", omittingEmptySubsequences: false)
            return ([pair(parts[0])] + parts.dropFirst().map { $0.trimmingCharacters(in: .whitespaces) }).joined(separator: "; ")
        }
        return mask
    }

    public func mask(_ headers: [HeaderField]) -> [HeaderField] {
        // Nothing to do (the common case) costs a scan, not a copy.
        guard enabled, !values.isEmpty || headers.contains(where: Self.isSensitive) else { return headers }
        return headers.map { field in
            // The bytes of a value that is not UTF-8 (`valueBase64`) are masked like a base64 body's; a
            // credential field keeps none.
            guard !Self.isSensitive(field) else { return HeaderField(name: field.name, value: Self.maskedWhole(field)) }
            return HeaderField(name: field.name, value: mask(field.value),
                               valueBase64: field.valueBase64.flatMap { Data(base64Encoded: $0) }
                                   .map { Data(mask(bytes: Array($0))).base64EncodedString() })
        }
    }

    /// A recorded body with its secrets masked:
    /// - text (`utf8`) as any other text;
    /// - `base64` (content that is not UTF-8): masked in the decoded bytes, then encoded again, so the record
    ///   keeps the bytes around each secret;
    /// - when the body was cut at the record's limit (`truncated`), a beginning of a secret at the very end
    ///   is masked too: the limit can fall inside a secret.
    public func mask(_ body: RecordedBody) -> RecordedBody {
        guard enabled, !values.isEmpty else { return body }
        var copy = body
        copy.text = body.text.map { mask($0) }
        if body.encoding == "utf8" {
            // UTF-16 of ASCII text is valid UTF-8 (with NULs), so it may be kept as text.
            copy.data = mask(body.data.contains("\0") ? String(decoding: mask(bytes: Array(body.data.utf8), wide: true), as: UTF8.self) : body.data)
            if body.truncated {
                let bytes = Array(copy.data.utf8)
                let cut = maskedTail(bytes)
                if cut != bytes { copy.data = String(decoding: cut, as: UTF8.self) }
            }
        } else if let data = Data(base64Encoded: body.data) {
            var bytes = mask(bytes: Array(data), wide: true)
            if body.truncated { bytes = maskedTail(bytes) }
            copy.data = Data(bytes).base64EncodedString()
        }
        return copy
    }

    private static func utf16(_ text: String, bigEndian: Bool) -> [UInt8] {
        text.utf16.flatMap { bigEndian ? [UInt8($0 >> 8), UInt8($0 & 0xFF)] : [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    }

    /// `bytes` with every secret's UTF-8 replaced by the mask, longest secret first; with `wide`, its UTF-16
    /// spellings too (a body's bytes).
    func mask(bytes: [UInt8], wide: Bool = false) -> [UInt8] {
        var bytes = bytes
        // UTF-16 of any text but CJK has NUL bytes: without one there is nothing to look for.
        if wide, bytes.contains(0) {
            for (value, mask) in wideValues { bytes = Self.replace(value, with: mask, in: bytes) }
        }
        let mask = Array(Self.mask.utf8)
        for value in byteValues { bytes = Self.replace(value, with: mask, in: bytes) }
        return bytes
    }

    private static func replace(_ value: [UInt8], with mask: [UInt8], in bytes: [UInt8]) -> [UInt8] {
        guard !value.isEmpty, value.count <= bytes.count else { return bytes }
        var out: [UInt8] = []
        var i = 0, found = false
        while i < bytes.count {
            if bytes[i] == value[0], i + value.count <= bytes.count, bytes[i..<(i + value.count)].elementsEqual(value) {
                out += mask
                i += value.count
                found = true
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return found ? out : bytes
    }

    /// `bytes` with a trailing beginning of a secret (its first byte up to all but its last) replaced by the mask.
    func maskedTail(_ bytes: [UInt8]) -> [UInt8] {
        var longest = 0
        for value in byteValues {
            for length in stride(from: min(value.count - 1, bytes.count), to: longest, by: -1)
            where bytes.suffix(length).elementsEqual(value.prefix(length)) {
                longest = length
                break
            }
        }
        return longest == 0 ? bytes : bytes.dropLast(longest) + Array(Self.mask.utf8)
    }

    /// A result with every secret masked (the body hash and sizes stay those of the real content).
    public func mask(_ result: consuming RequestResult) -> RequestResult {
        guard enabled else { return result }
        // Without secret values only sensitive header fields can need masking; most results have none.
        if values.isEmpty {
            var r = result
            if let headers = r.request?.headers { r.request?.headers = mask(headers) }
            if let headers = r.response?.headers { r.response?.headers = mask(headers) }
            return r
        }
        var r = result
        r.url = mask(r.url)
        // A request without a name is named by its URL template, which may hold a secret as written.
        r.name = mask(r.name)
        if let message = r.error?.message { r.error?.message = mask(message) }
        if var request = r.request {
            request.headers = mask(request.headers)
            request.body = request.body.map(mask)
            r.request = request
        }
        if var response = r.response {
            response.headers = mask(response.headers)
            response.body = mask(response.body)
            r.response = response
        }
        r.expectations = r.expectations.map { e in
            var e = e
            e.description = mask(e.description)
            e.expected = mask(e.expected)
            e.actual = mask(e.actual)
            return e
        }
        r.redirects = r.redirects.map { hop in
            var hop = hop
            hop.url = mask(hop.url)
            hop.location = mask(hop.location)
            return hop
        }
        r.webSocket = r.webSocket.map(mask)
        r.captures = r.captures.map { c in
            var c = c
            c.value = c.value.map(mask)
            c.error = c.error.map(mask)
            return c
        }
        r.console = r.console?.map(mask)
        r.scriptRequests = r.scriptRequests?.map { x in
            var x = x
            x.url = mask(x.url)
            x.error = x.error.map(mask)
            return x
        }
        r.polls = r.polls?.map { p in
            var p = p
            p.error = p.error.map(mask)
            p.failed = p.failed.map(mask)
            return p
        }
        return r
    }
}
