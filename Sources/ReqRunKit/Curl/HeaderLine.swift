import Foundation

/// Header lines as bytes, parsed without Foundation (they arrive once per header field of every response
/// and request, so this is on the hot path of a run).
enum HeaderLine {
    /// `name: value` (RFC 9112 §5: the value without leading or trailing spaces and tabs); nil for a line
    /// without a colon.
    /// A value that is not UTF-8 keeps its bytes: see `text(_:)`.
    static func field(_ bytes: UnsafeRawBufferPointer) -> HeaderField? {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let value = text(trimmedBytes(UnsafeRawBufferPointer(rebasing: bytes[(colon + 1)...])))
        return HeaderField(name: String(decoding: UnsafeRawBufferPointer(rebasing: bytes[..<colon]), as: UTF8.self),
                           value: value.text, valueBase64: value.base64)
    }

    /// The bytes as text. Bytes that are not UTF-8 (Latin-1 from an old server, or garbage) would become
    /// U+FFFD and be lost; instead each such byte is written `\xHH` (upper-case hex) in `text`, and `base64`
    /// has the bytes as received (nil when they are valid UTF-8).
    static func text(_ bytes: UnsafeRawBufferPointer) -> (text: String, base64: String?) {
        // Nearly every field is ASCII, which needs no validation: the generic `String(validating:as:)` cost
        // about 1,000 instructions a field (callgrind), a tenth of a parallel run's main thread.
        if isASCII(bytes) { return (String(decoding: bytes, as: UTF8.self), nil) }
        if let valid = String(validating: bytes, as: UTF8.self) { return (valid, nil) }
        var text = ""
        var offset = 0
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        let hex = Array("0123456789ABCDEF".utf8)
        loop: while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                text.unicodeScalars.append(Unicode.UTF8.decode(encoded))
                offset += encoded.count
            case .error(let length):
                for byte in bytes[offset..<(offset + length)] {
                    text += "\\x" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]], as: UTF8.self)
                }
                offset += length
            case .emptyInput:
                break loop
            }
        }
        return (text, Data(bytes).base64EncodedString())
    }

    /// Whether every byte is below 0x80, eight at a time.
    static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var i = 0
        var seen: UInt64 = 0
        while i + 8 <= bytes.count {
            seen |= bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            i += 8
        }
        while i < bytes.count {
            seen |= UInt64(bytes[i])
            i += 1
        }
        return seen & 0x8080_8080_8080_8080 == 0
    }

    /// Whether the line starts with `HTTP/` (a status line, RFC 9112 §4), compared byte by byte: generic
    /// `starts(with:)` over a string's UTF-8 view cost more than the rest of the line's handling.
    static func isStatusLine(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 5 && bytes[0] == UInt8(ascii: "H") && bytes[1] == UInt8(ascii: "T") && bytes[2] == UInt8(ascii: "T")
            && bytes[3] == UInt8(ascii: "P") && bytes[4] == UInt8(ascii: "/")
    }

    /// The bytes as text without leading or trailing spaces, tabs, CR and LF.
    static func trimmed(_ bytes: UnsafeRawBufferPointer) -> String {
        String(decoding: trimmedBytes(bytes), as: UTF8.self)
    }

    /// The bytes without leading or trailing spaces, tabs, CR and LF.
    static func trimmedBytes(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        var start = 0, end = bytes.count
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0D || b == 0x0A }
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        return UnsafeRawBufferPointer(rebasing: bytes[start..<end])
    }

    /// Each CRLF-terminated line of a header block (the request line included), without the CRLF.
    static func lines(_ bytes: UnsafeRawBufferPointer) -> [UnsafeRawBufferPointer] {
        var result: [UnsafeRawBufferPointer] = []
        var start = 0
        var i = 0
        while i < bytes.count {
            if bytes[i] == 0x0A {
                let end = i > start && bytes[i - 1] == 0x0D ? i - 1 : i
                result.append(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
                start = i + 1
            }
            i += 1
        }
        if start < bytes.count { result.append(UnsafeRawBufferPointer(rebasing: bytes[start...])) }
        return result
    }
}
