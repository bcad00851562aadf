/// Header lines as bytes, parsed without Foundation (they arrive once per header field of every response
/// and request, so this is on the hot path of a run).
enum HeaderLine {
    /// `name: value` (RFC 9112 §5: the value without leading or trailing spaces and tabs); nil for a line
    /// without a colon.
    static func field(_ bytes: UnsafeRawBufferPointer) -> HeaderField? {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        return HeaderField(name: String(decoding: UnsafeRawBufferPointer(rebasing: bytes[..<colon]), as: UTF8.self),
                           value: trimmed(UnsafeRawBufferPointer(rebasing: bytes[(colon + 1)...])))
    }

    /// Whether the line starts with `HTTP/` (a status line, RFC 9112 §4), compared byte by byte: generic
    /// `starts(with:)` over a string's UTF-8 view cost more than the rest of the line's handling.
    static func isStatusLine(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 5 && bytes[0] == UInt8(ascii: "H") && bytes[1] == UInt8(ascii: "T") && bytes[2] == UInt8(ascii: "T")
            && bytes[3] == UInt8(ascii: "P") && bytes[4] == UInt8(ascii: "/")
    }

    /// The bytes as text without leading or trailing spaces, tabs, CR and LF.
    static func trimmed(_ bytes: UnsafeRawBufferPointer) -> String {
        var start = 0, end = bytes.count
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0D || b == 0x0A }
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
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
