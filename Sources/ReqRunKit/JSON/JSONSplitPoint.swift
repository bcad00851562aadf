/// A place where a parse of a JSON text can be cut in two: the start of an element (not the first) of an array
/// that is a member of the root object, and the parser's state there, so that a second parser can start at
/// `offset` on its own (`JSONParser.parseRest`) while the first one parses up to it.
///
/// `find(in:atOrAfter:)` works it out with a structural scan of the bytes before it (strings, escapes, nesting,
/// line breaks), which assumes the text up to there is valid JSON. The parser that reaches `offset` knows for
/// sure: it is at this place only if its own state at that byte is the same (`==`), as it is in a valid text.
struct JSONSplitPoint: Sendable, Equatable {
    /// The byte offset of the element's first byte.
    var offset: Int
    /// The element's index in its array (1 or more).
    var element: Int
    /// The 1-based line of `offset`, as the parser counts lines (line feeds outside strings).
    var line: Int
    /// The offset of the first byte of that line (after the last line feed before `offset`; 3 after a UTF-8
    /// byte order mark on the first line, as the parser skips it; else 0).
    var lineStart: Int

    /// The first element start after a comma at or after `target`, in the array that is the value of the root
    /// object's first member named `key` whose value is an array (the array that
    /// `JSONParser.parse(_:streamingElementsOf:to:)` streams), with its index, line and line start; nil when
    /// there is none (the array ends first, there is no such member, or its key is written with an escape).
    ///
    /// One pass over `bytes[..<offset]` that looks only at what can change nesting: a string is skipped from
    /// quote to quote eight bytes at a time (`JSONStringScan`; a backslash skips the byte after it), and outside
    /// strings a bracket or brace changes the depth and a comma at depth 2 in that array counts an element.
    /// At depth 1 the last string before a `[` is the key of the member the array is the value of.
    /// Some 13 instructions a byte, about a twentieth of the time of parsing and decoding a collection's bytes
    /// (callgrind; 22–40 ms for 41 MB). In a text that is not valid before `offset` the answer may be wrong,
    /// which the parser sees.
    static func find(in bytes: UnsafeBufferPointer<UInt8>, streamingElementsOf key: StaticString, atOrAfter target: Int) -> JSONSplitPoint? {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        let bom = bytes.starts(with: [0xEF, 0xBB, 0xBF])
        var i = bom ? 3 : 0
        let keyBytes = UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount)
        var depth = 0, inArray = false, seen = false, element = 0
        var line = 1, lineStart = bom ? 3 : 0
        // The last string at depth 1, without its quotes.
        var lastString = 0..<0
        while i < count {
            let byte = base[i]
            switch byte {
            case UInt8(ascii: "\""):
                i += 1
                let start = i
                while true {
                    var nonASCII = false
                    i = JSONStringScan.firstSpecial(in: bytes, from: i, nonASCII: &nonASCII)
                    guard i < count else { return nil }
                    let special = base[i]
                    if special == UInt8(ascii: "\"") { break }
                    // A backslash and the byte it escapes; a control character (invalid) is passed over.
                    i += special == UInt8(ascii: "\\") ? 2 : 1
                }
                if depth == 1 { lastString = start..<i }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                if depth == 2 {
                    inArray = !seen && byte == UInt8(ascii: "[") && UnsafeBufferPointer(rebasing: bytes[lastString]).elementsEqual(keyBytes)
                    seen = seen || inArray
                    element = 0
                }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
            case UInt8(ascii: ","):
                guard depth == 2, inArray else { break }
                element += 1
                guard i >= target else { break }
                // The element starts after the white space that follows the comma.
                i += 1
                while i < count {
                    switch base[i] {
                    case 0x20, 0x09, 0x0D: i += 1
                    case 0x0A: i += 1; line += 1; lineStart = i
                    default: return JSONSplitPoint(offset: i, element: element, line: line, lineStart: lineStart)
                    }
                }
                return nil
            case 0x0A:
                line += 1
                lineStart = i + 1
            default:
                break
            }
            i += 1
        }
        return nil
    }
}
