/// JSON text saved as UTF-16 with a byte order mark, as Windows PowerShell 5's `Out-File` and `>` write it.
///
/// RFC 8259 §8.1 requires UTF-8 for JSON exchanged between systems and lets a parser ignore a byte order
/// mark; reqrun reads UTF-16LE (`FF FE`) and UTF-16BE (`FE FF`) with a mark by converting it to UTF-8 first,
/// so line and column numbers in errors count in the converted text (columns in its UTF-8 bytes, as for
/// any file). A UTF-8 mark (`EF BB BF`) is skipped by the parser itself. Text without a mark is not touched:
/// the check is two byte comparisons.
enum UTF16Text {
    /// Whether `bytes` start with a UTF-16 byte order mark; true means little-endian when `littleEndian`.
    static func byteOrder(_ bytes: [UInt8]) -> (isUTF16: Bool, littleEndian: Bool) {
        guard bytes.count >= 2 else { return (false, false) }
        if bytes[0] == 0xFF && bytes[1] == 0xFE { return (true, true) }
        if bytes[0] == 0xFE && bytes[1] == 0xFF { return (true, false) }
        return (false, false)
    }

    /// A hint when `bytes` look like UTF-16 without a byte order mark (an ASCII character next to a NUL byte
    /// at the start, which no UTF-8 text has): the encoding, and how to save the file so that it loads. Nil
    /// otherwise.
    static func unmarkedHint(_ bytes: [UInt8]) -> String? {
        guard bytes.count >= 2, (bytes[0] == 0) != (bytes[1] == 0), bytes[0] < 0x80, bytes[1] < 0x80 else { return nil }
        let order = bytes[1] == 0 ? "little-endian" : "big-endian"
        return "the file looks like UTF-16 (\(order)) without a byte order mark; save it as UTF-8, or as UTF-16 with a byte order mark (what PowerShell's Out-File writes)"
    }

    /// `bytes` as UTF-8: converted from UTF-16 when they start with its byte order mark, else as they are.
    /// - Throws: `JSONSyntaxError` for invalid UTF-16 (see `utf8(_:littleEndian:)`), or at 1:1 with
    ///   `unmarkedHint` for UTF-16 without a mark.
    static func utf8(_ bytes: [UInt8]) throws(JSONSyntaxError) -> [UInt8] {
        let order = byteOrder(bytes)
        if order.isUTF16 { return try utf8(bytes, littleEndian: order.littleEndian) }
        if let hint = unmarkedHint(bytes) { throw JSONSyntaxError(location: SourceLocation(line: 1, column: 1), reason: hint) }
        return bytes
    }

    /// The UTF-8 form of UTF-16 `bytes` after their byte order mark.
    /// - Throws: `JSONSyntaxError` at an unpaired surrogate or a dangling last byte, located in the text
    ///   converted so far.
    static func utf8(_ bytes: [UInt8], littleEndian: Bool) throws(JSONSyntaxError) -> [UInt8] {
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var i = 2
        while i + 1 < bytes.count {
            units.append(littleEndian ? UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8 : UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1]))
            i += 2
        }
        var output: [UInt8] = []
        output.reserveCapacity(units.count + units.count / 2)
        var line = 1
        var lineStart = 0
        func error(_ reason: String) -> JSONSyntaxError {
            JSONSyntaxError(location: SourceLocation(line: line, column: output.count - lineStart + 1), reason: reason)
        }
        var iterator = units.makeIterator()
        var decoder = UTF16()
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                UTF8.encode(scalar) { output.append($0) }
                if scalar == "\n" { line += 1; lineStart = output.count }
            case .emptyInput: break loop
            case .error: throw error("invalid UTF-16: an unpaired surrogate (the file starts with a UTF-16 byte order mark)")
            }
        }
        if bytes.count % 2 != 0 { throw error("invalid UTF-16: the file ends in the middle of a character") }
        return output
    }
}
