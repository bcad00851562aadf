import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Text in a named charset turned into a Swift string with glibc's iconv(3): `latin1`, `windows-1252`,
/// `Shift_JIS`, `GB2312`, `cp1256`… (names as IANA registers them, any case).
enum CharsetDecoder {
    enum Problem: Error, Equatable, CustomStringConvertible {
        case unknown(String)
        case invalid(String)

        var description: String {
            switch self {
            case .unknown(let name): return "unknown charset '\(name)'"
            case .invalid(let name): return "the body is not valid \(name)"
            }
        }
    }

    /// The `charset` parameter of a `Content-Type` value (RFC 9110 §8.3.1), without quotes, or nil.
    static func charset(ofContentType value: String) -> String? {
        for parameter in value.split(separator: ";").dropFirst() {
            let parts = parameter.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "charset" else { continue }
            let name = parts[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            return name.isEmpty ? nil : name
        }
        return nil
    }

    /// The charset a response declares for its body: the `Content-Type` field's `charset` parameter (RFC 9110
    /// §8.3.1); else, for an HTML body, a `<meta charset="…">` or `<meta http-equiv="Content-Type"
    /// content="…; charset=…">` in its first 1024 bytes (the WHATWG HTML prescan's window); else, for an XML
    /// body, the `encoding` of its XML declaration (XML 1.0 §4.3.3). HTML and XML are told by the
    /// `Content-Type` (`html`, `xml`) or, without one, by the body's start. Nil when none is declared.
    static func declared(contentType: String?, body: [UInt8]) -> String? {
        if let contentType, declaresNothing(contentType) { return nil }
        if let contentType, let name = charset(ofContentType: contentType) { return name }
        let type = contentType?.lowercased() ?? ""
        // JSON, images and the like declare nothing in their content: only HTML and XML are looked into.
        guard type.isEmpty || type.contains("html") || type.contains("xml") else { return nil }
        let head = String(decoding: body.prefix(1024), as: UTF8.self)
        let start = head.drop(while: { $0.isWhitespace || $0 == "\u{FEFF}" }).prefix(14).lowercased()
        if start.hasPrefix("<?xml") && !type.contains("html") {
            guard let end = head.range(of: "?>") else { return nil }
            return attribute("encoding", in: String(head[..<end.lowerBound]))
        }
        guard type.contains("html") || (type.isEmpty && (start.hasPrefix("<!doctype html") || start.hasPrefix("<html"))) else { return nil }
        var rest = Substring(head)
        while let open = rest.range(of: "<meta", options: .caseInsensitive) {
            let tail = rest[open.upperBound...]
            let tag = String(tail.prefix { $0 != ">" })
            if let name = attribute("charset", in: tag) { return name }
            if attribute("http-equiv", in: tag)?.lowercased() == "content-type", let content = attribute("content", in: tag),
               let name = charset(ofContentType: content) { return name }
            rest = tail
        }
        return nil
    }

    /// Whether a `Content-Type` value can declare no charset: ASCII, not empty, without parameters (no `;`) and
    /// naming neither HTML nor XML (`html`, `xml` in any case), so that `declared` returns nil without looking
    /// at the body. The answer `declared` gives by its general path, in a pass over the bytes: that path
    /// (`split`, `lowercased`, Foundation's `contains`) cost about 26,000 instructions a response (callgrind),
    /// a tenth of a parallel run's main thread, for the `application/json` or `application/octet-stream` of
    /// nearly every response.
    static func declaresNothing(_ contentType: String) -> Bool {
        var text = contentType  // a copy of a native string shares its storage; withUTF8 reads it in place
        return text.withUTF8 { bytes in
            guard !bytes.isEmpty else { return false }
            // The last four bytes, lower-cased, to find "html" and "xml" as the bytes go by.
            var window: UInt32 = 0
            for byte in bytes {
                if byte >= 0x80 || byte == UInt8(ascii: ";") { return false }
                let folded = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
                window = window << 8 | UInt32(folded)
                if window == 0x6874_6D6C || window & 0x00FF_FFFF == 0x0078_6D6C { return false }  // "html", "xml"
            }
            return true
        }
    }

    /// The value of the attribute `name` (any case) in the text after a tag's or declaration's name:
    /// attributes are read in order, as `name="…"`, `name='…'`, `name=value` or a bare `name`, so that a
    /// `charset=` inside another attribute's value is not taken for one.
    private static func attribute(_ name: String, in tag: String) -> String? {
        let c = Array(tag.unicodeScalars)
        var i = 0
        func skip(_ p: (Unicode.Scalar) -> Bool) { while i < c.count, p(c[i]) { i += 1 } }
        let space: (Unicode.Scalar) -> Bool = { $0.properties.isWhitespace || $0 == "/" }
        while i < c.count {
            skip(space)
            let start = i
            skip { !$0.properties.isWhitespace && $0 != "=" && $0 != "/" && $0 != ">" }
            guard i > start else { i += 1; continue }
            let key = String(String.UnicodeScalarView(c[start..<i])).lowercased()
            skip { $0.properties.isWhitespace }
            var value = ""
            if i < c.count, c[i] == "=" {
                i += 1
                skip { $0.properties.isWhitespace }
                if i < c.count, c[i] == "\"" || c[i] == "'" {
                    let quote = c[i]
                    i += 1
                    let from = i
                    skip { $0 != quote }
                    value = String(String.UnicodeScalarView(c[from..<i]))
                    i += 1
                } else {
                    let from = i
                    skip { !$0.properties.isWhitespace && $0 != ">" }
                    value = String(String.UnicodeScalarView(c[from..<i]))
                }
            }
            if key == name.lowercased() {
                let text = value.trimmingCharacters(in: .whitespaces)
                return text.isEmpty ? nil : text
            }
        }
        return nil
    }

    /// The text of a recorded body prefix in the charset the response declares, when that is not UTF-8 and
    /// the bytes are valid in it (a cut multi-byte character at the end of a truncated prefix is dropped);
    /// nil otherwise. The record keeps it beside the bytes (`RecordedBody.text`).
    /// Nil too when the text is what `data` already holds (ASCII in a Latin-1 page), so the record does not
    /// keep it twice.
    static func recordedText(_ prefix: [UInt8], truncated: Bool, contentType: String?, body: [UInt8]) -> String? {
        guard let name = declared(contentType: contentType, body: body), !isUTF8(name) else { return nil }
        for cut in 0...(truncated ? min(3, prefix.count) : 0) {
            if case .success(let text) = decode(Array(prefix.dropLast(cut)), charset: name) {
                return text == String(validating: prefix, as: UTF8.self) ? nil : text
            }
        }
        return nil
    }

    /// True for the names of UTF-8 and its subset US-ASCII, which need no conversion.
    static func isUTF8(_ name: String) -> Bool {
        ["utf-8", "utf8", "us-ascii", "ascii"].contains(name.lowercased())
    }

    /// `bytes` decoded from `charset`.
    static func decode(_ bytes: [UInt8], charset: String) -> Result<String, Problem> {
        if isUTF8(charset) {
            guard let text = String(validating: bytes, as: UTF8.self) else { return .failure(.invalid(charset)) }
            return .success(text)
        }
        let converter = iconv_open("UTF-8", charset)
        guard let converter, converter != iconv_t(bitPattern: -1) else { return .failure(.unknown(charset)) }
        defer { iconv_close(converter) }
        var input = bytes
        var output = [UInt8](repeating: 0, count: bytes.count * 4 + 16)
        let produced: Int? = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                var inPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(inBuffer.baseAddress)?.assumingMemoryBound(to: CChar.self)
                var outPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(outBuffer.baseAddress)?.assumingMemoryBound(to: CChar.self)
                var inLeft = inBuffer.count, outLeft = outBuffer.count
                guard iconv(converter, &inPointer, &inLeft, &outPointer, &outLeft) != -1 || inBuffer.isEmpty, inLeft == 0 else { return nil }
                return outBuffer.count - outLeft
            }
        }
        guard let produced, let text = String(validating: output.prefix(produced), as: UTF8.self) else { return .failure(.invalid(charset)) }
        return .success(text)
    }
}

extension RecordedBody {
    /// The body as text for people: `text` (decoded from the declared charset) when the record has it, else
    /// `data` when it is UTF-8; nil for binary content. `show`, the HTML report and the UI print it.
    public var displayText: String? { text ?? (encoding == "utf8" ? data : nil) }
}
