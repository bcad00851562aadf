import Foundation

/// One JSON text checked and indexed in a single pass, without building its values: a flat array of
/// entries, one per value (and per object key) in document order, each holding where its bytes are. A reader
/// then takes the fields it wants straight from the bytes (`JSONTape.string`, `int`) and skips the others
/// (a container's entry says where its subtree ends), so a run record's result line costs one pass over
/// its bytes and the strings and numbers asked for, not a `JSONNode` tree (`RecordFields`).
///
/// The syntax accepted and the errors are `JSONParser`'s (RFC 8259, strict, `JSONParser.maximumDepth`,
/// a UTF-8 byte order mark skipped, UTF-16 with a mark converted first): a text the parser refuses is
/// refused here with the same reason at the same line and column. Strings are checked in the pass (escapes,
/// surrogate pairs, UTF-8), so reading one later cannot fail.
struct JSONTape {
    enum Kind: UInt8 { case null, `false`, `true`, number, string, array, object }

    /// One value. Offsets are into the text's bytes (a text is at most `FileSizeBound.runRecord`, 1 GiB).
    struct Entry {
        var kind: Kind
        /// A string with a backslash escape (its bytes are not its text).
        var escaped = false
        /// A string with a byte of 0x80 or more (or an escape, which may spell one).
        var nonASCII = false
        /// A string: the byte after its opening quote; a number or literal: its first byte; a container:
        /// its bracket.
        var start: UInt32
        /// A string: its closing quote; a number or literal: the byte after it; a container: the index of
        /// the entry after its last descendant.
        var end: UInt32
    }

    let bytes: UnsafeBufferPointer<UInt8>
    let entries: UnsafeBufferPointer<Entry>

    /// Indexes `bytes` into `entries` (replaced; the root is entry 0).
    ///
    /// The pass writes into a buffer of a fixed capacity rather than appending to an array (an append's
    /// uniqueness and capacity checks were about a sixth of the pass, callgrind): it starts at a quarter of
    /// the text's length (a result line has about one entry per 13 bytes) and when a text needs more (short
    /// values: at most one entry per byte, plus the root), the pass starts again with twice as many.
    /// - Throws: `JSONSyntaxError` as `JSONParser.parse` would for the same text.
    static func index(_ bytes: UnsafeBufferPointer<UInt8>, into entries: inout [Entry]) throws(JSONSyntaxError) {
        var capacity = bytes.count / 4 + 16
        while true {
            var failure: JSONSyntaxError?
            var overflow = false
            entries = [Entry](unsafeUninitializedCapacity: capacity) { buffer, count in
                var builder = JSONTapeBuilder(bytes: bytes, entries: buffer)
                do throws(JSONSyntaxError) { try builder.text() } catch { failure = error }
                (count, overflow) = (builder.count, builder.overflow)
            }
            if !overflow {
                if let failure { throw failure }
                return
            }
            capacity *= 2
        }
    }

    /// The index of the entry after `i` and its descendants.
    @inline(__always)
    func skip(_ i: Int) -> Int {
        let e = entries[i]
        return e.kind.rawValue >= Kind.array.rawValue ? Int(e.end) : i + 1
    }

    /// The text of string entry `i`.
    func string(_ i: Int) -> String { text(entries[i]) }

    /// The text of a string entry.
    fileprivate func text(_ e: Entry) -> String {
        let raw = UnsafeBufferPointer(rebasing: bytes[Int(e.start)..<Int(e.end)])
        guard e.escaped else { return String(decoding: raw, as: UTF8.self) }  // checked in the pass
        return String(unsafeUninitializedCapacity: raw.count) { out in JSONTape.unescape(raw, into: out) }
    }

    /// Appends the text of string entry `i` to `out` as UTF-8: its bytes as they are when it has no escape.
    func appendText(_ i: Int, to out: inout [UInt8]) {
        let e = entries[i]
        let raw = UnsafeBufferPointer(rebasing: bytes[Int(e.start)..<Int(e.end)])
        guard e.escaped else { out.append(contentsOf: raw); return }
        let old = out.count
        out.append(contentsOf: repeatElement(0, count: raw.count))  // an escape is never shorter than its text
        let n = out.withUnsafeMutableBufferPointer { JSONTape.unescape(raw, into: UnsafeMutableBufferPointer(rebasing: $0[old...])) }
        out.removeLast(raw.count - n)
    }

    /// Whether string entry `i` is `key` (`String ==`, so canonical equivalence, when either is not ASCII).
    @inline(__always)
    func stringEquals(_ i: Int, _ key: StaticString) -> Bool {
        let e = entries[i]
        if !e.nonASCII, key.isASCII {
            let count = Int(e.end - e.start)
            return count == key.utf8CodeUnitCount && memcmp(bytes.baseAddress! + Int(e.start), key.utf8Start, count) == 0
        }
        return string(i) == key.description
    }

    /// Number entry `i` as an `Int`, nil when it has a fraction or exponent or does not fit (as `Int(String)`).
    func int(_ i: Int) -> Int? {
        let e = entries[i]
        guard e.kind == .number else { return nil }
        var p = Int(e.start)
        let end = Int(e.end)
        let negative = bytes[p] == UInt8(ascii: "-")
        if negative { p += 1 }
        var value = 0
        while p < end {
            let digit = Int(bytes[p]) - 0x30
            guard digit >= 0, digit <= 9 else { return nil }
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
            guard !o1, !o2 else { return nil }
            value = sum
            p += 1
        }
        return value
    }

    /// Number entry `i` as a `Double` (as `Double(String)`).
    func double(_ i: Int) -> Double? {
        let e = entries[i]
        guard e.kind == .number else { return nil }
        return Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[Int(e.start)..<Int(e.end)]), as: UTF8.self))
    }

    /// "a string", "an object"… as `JSONNode.kindDescription`.
    func kindDescription(_ i: Int) -> String {
        switch entries[i].kind {
        case .null: return "null"
        case .false, .true: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// Where entry `target` is, as field paths name it: `response.headers[2].name` ("" for the root). Walks
    /// down from the root: for error messages only, so readers keep no path while all goes well.
    func path(of target: Int) -> String {
        var path = ""
        var i = 0
        descending: while i != target {
            let container = entries[i]
            guard container.kind.rawValue >= Kind.array.rawValue else { break }
            var child = i + 1, element = 0
            while child < Int(container.end) {
                let value = container.kind == .object ? child + 1 : child
                let next = skip(value)
                if target < next {
                    path += container.kind == .object ? (path.isEmpty ? "" : ".") + string(child) : "[\(element)]"
                    if target == child { break descending }  // a key
                    i = value
                    continue descending
                }
                (child, element) = (next, element + 1)
            }
            break
        }
        return path
    }

    /// Decodes the escapes of a string's checked bytes into `out` (at least as long); returns the length.
    static func unescape(_ raw: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var n = 0, i = 0
        func put(_ b: UInt8) { out[n] = b; n += 1 }
        while i < raw.count {
            let b = raw[i]
            guard b == UInt8(ascii: "\\") else { put(b); i += 1; continue }
            let e = raw[i + 1]
            i += 2
            switch e {
            case UInt8(ascii: "b"): put(0x08)
            case UInt8(ascii: "f"): put(0x0C)
            case UInt8(ascii: "n"): put(0x0A)
            case UInt8(ascii: "r"): put(0x0D)
            case UInt8(ascii: "t"): put(0x09)
            case UInt8(ascii: "u"):
                var unit = JSONStringScan.hex4(raw, i)!
                i += 4
                if (0xD800...0xDBFF).contains(unit) {
                    unit = 0x10000 + ((unit - 0xD800) << 10) + (JSONStringScan.hex4(raw, i + 2)! - 0xDC00)
                    i += 6
                }
                for byte in UTF8.encode(UnicodeScalar(unit)!)! { put(byte) }
            default: put(e)  // " \ /
            }
        }
        return n
    }


    /// Whether `bytes` are UTF-8 (RFC 3629 §4: no overlong forms, no surrogates, nothing above U+10FFFF).
    static func isUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b < 0x80 { i += 1; continue }
            var need = 0
            var low: UInt8 = 0x80, high: UInt8 = 0xBF
            switch b {
            case 0xC2...0xDF: need = 1
            case 0xE0: (need, low) = (2, 0xA0)
            case 0xE1...0xEC, 0xEE, 0xEF: need = 2
            case 0xED: (need, high) = (2, 0x9F)
            case 0xF0: (need, low) = (3, 0x90)
            case 0xF1...0xF3: need = 3
            case 0xF4: (need, high) = (3, 0x8F)
            default: return false
            }
            guard i + need < n, (low...high).contains(bytes[i + 1]) else { return false }
            var k = 2
            while k <= need {
                guard (0x80...0xBF).contains(bytes[i + k]) else { return false }
                k += 1
            }
            i += need + 1
        }
        return true
    }
}

/// The single pass of `JSONTape.index`: `JSONParser`'s grammar and messages, writing entries instead of nodes.
private struct JSONTapeBuilder: ~Copyable {
    let bytes: UnsafeBufferPointer<UInt8>
    /// Where entries go; `count` of them are written.
    let entries: UnsafeMutableBufferPointer<JSONTape.Entry>
    private(set) var count = 0
    /// Set when `entries` was too small: the pass stopped (with a placeholder error) and must be run again.
    private(set) var overflow = false
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private var depth = 0

    init(bytes: UnsafeBufferPointer<UInt8>, entries: UnsafeMutableBufferPointer<JSONTape.Entry>) {
        self.bytes = bytes
        self.entries = entries
    }

    @inline(__always)
    private mutating func push(_ entry: JSONTape.Entry) throws(JSONSyntaxError) {
        guard count < entries.count else {
            overflow = true
            throw error("more values than the index holds")  // not seen: `JSONTape.index` starts again
        }
        entries[count] = entry
        count += 1
    }

    mutating func text() throws(JSONSyntaxError) {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3; lineStart = 3 }
        skipWhitespace()
        try value()
        skipWhitespace()
        if index < bytes.count { throw error("unexpected \(describeCurrent()) after the JSON value") }
    }

    private func error(_ reason: String) -> JSONSyntaxError {
        JSONSyntaxError(location: SourceLocation(line: line, column: index - lineStart + 1), reason: reason)
    }

    private func describeCurrent() -> String {
        guard index < bytes.count else { return "end of file" }
        let b = bytes[index]
        if b >= 0x21 && b < 0x7F { return "character '\(Character(UnicodeScalar(b)))'" }
        return "byte 0x" + String(b, radix: 16, uppercase: true)
    }

    @inline(__always)
    private mutating func skipWhitespace() {
        // Compact JSON (a record's lines) has none: one comparison.
        guard index < bytes.count, bytes[index] <= 0x20 else { return }
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D: index += 1
            case 0x0A: index += 1; line += 1; lineStart = index
            default: return
            }
        }
    }

    private mutating func value() throws(JSONSyntaxError) {
        guard index < bytes.count else { throw error("expected a value, found end of file") }
        switch bytes[index] {
        case UInt8(ascii: "\""): try string()
        case UInt8(ascii: "{"): try container(.object)
        case UInt8(ascii: "["): try container(.array)
        case UInt8(ascii: "t"): try literal("true", .true)
        case UInt8(ascii: "f"): try literal("false", .false)
        case UInt8(ascii: "n"): try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
        default: throw error("expected a value, found \(describeCurrent())")
        }
    }

    private mutating func literal(_ word: StaticString, _ kind: JSONTape.Kind) throws(JSONSyntaxError) {
        let start = index
        for i in 0..<word.utf8CodeUnitCount {
            guard index < bytes.count, bytes[index] == word.utf8Start[i] else {
                index = start
                throw error("invalid literal: expected '\(word)'")
            }
            index += 1
        }
        try push(JSONTape.Entry(kind: kind, start: UInt32(start), end: UInt32(index)))
    }

    /// An object or array, from its bracket.
    private mutating func container(_ kind: JSONTape.Kind) throws(JSONSyntaxError) {
        depth += 1
        if depth > JSONParser.maximumDepth { throw error("nesting deeper than \(JSONParser.maximumDepth) levels") }
        defer { depth -= 1 }
        let at = count
        try push(JSONTape.Entry(kind: kind, start: UInt32(index), end: 0))
        let object = kind == .object
        let close = object ? UInt8(ascii: "}") : UInt8(ascii: "]")
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == close {
            index += 1
            entries[at].end = UInt32(count)
            return
        }
        while true {
            skipWhitespace()
            if object {
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                    throw error("expected a string key, found \(describeCurrent())")
                }
                try string()
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                    let key = JSONTape(bytes: bytes, entries: UnsafeBufferPointer(start: nil, count: 0))
                    throw error("expected ':' after the key \"\(key.text(entries[count - 1]))\", found \(describeCurrent())")
                }
                index += 1
                skipWhitespace()
            }
            try value()
            skipWhitespace()
            guard index < bytes.count else { throw error("expected ',' or '\(object ? "}" : "]")', found end of file") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == close {
                index += 1
                entries[at].end = UInt32(count)
                return
            }
            throw error("expected ',' or '\(object ? "}" : "]")' after \(object ? "an object member" : "an array element"), found \(describeCurrent())")
        }
    }

    private mutating func number() throws(JSONSyntaxError) {
        let start = index
        let scan = JSONNumberScan.scan(bytes, from: index)
        index = scan.end
        if let reason = scan.failure { throw error(reason) }
        try push(JSONTape.Entry(kind: .number, start: UInt32(start), end: UInt32(index)))
    }

    /// The index of the first byte in `bytes[from...]` that ends a plain run of a string (`"`, `\`, a C0
    /// control), or `bytes.count`; `nonASCII` set when a byte of 0x80 or more comes before it.
    ///
    /// `JSONStringScan.firstSpecial`'s eight bytes at a time, but the special byte is found from the word's
    /// bits rather than by going back over its bytes one at a time: most strings of a record are keys and
    /// short values, so that byte loop was most of the scan. The lowest flagged byte of the word is exact
    /// (a borrow only runs upwards from a flagged byte).
    @inline(__always)
    private func plainRunEnd(from start: Int, nonASCII: inout Bool) -> Int {
        guard let base = bytes.baseAddress else { return start }
        let count = bytes.count
        var i = start
        var seen: UInt64 = 0
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        while i + 8 <= count {
            let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
            let quote = word ^ 0x2222_2222_2222_2222
            let backslash = word ^ 0x5C5C_5C5C_5C5C_5C5C
            let special = ((word &- 0x2020_2020_2020_2020) & ~word | (quote &- ones) & ~quote | (backslash &- ones) & ~backslash) & highs
            if special != 0 {
                let before = UInt64(special.trailingZeroBitCount) & ~7  // bits of the bytes before it (little-endian)
                if before > 0 { seen |= word & (UInt64.max >> (64 - before)) }
                i += Int(before >> 3)
                if seen & highs != 0 { nonASCII = true }
                return i
            }
            seen |= word
            i += 8
        }
        while i < count {
            let byte = base[i]
            if JSONStringScan.isSpecial(byte) { break }
            seen |= UInt64(byte)
            i += 1
        }
        if seen & highs != 0 { nonASCII = true }
        return i
    }

    /// A string from its opening quote. Most strings of a record (keys, numbers' neighbours, URLs) are one
    /// plain ASCII run up to their closing quote: that case is taken here, inlined, and anything else (an
    /// escape, a byte of 0x80 or more, a control, the end of the text) by `checkedString` from the start.
    @inline(__always)
    private mutating func string() throws(JSONSyntaxError) {
        let start = index + 1
        var nonASCII = false
        let end = plainRunEnd(from: start, nonASCII: &nonASCII)
        if !nonASCII, end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            try push(JSONTape.Entry(kind: .string, start: UInt32(start), end: UInt32(end)))
            index = end + 1
            return
        }
        try checkedString()
    }

    /// A string from its opening quote: plain runs found eight bytes at a time (`plainRunEnd`), escapes
    /// and UTF-8 checked as `JSONParser` checks them, nothing decoded.
    private mutating func checkedString() throws(JSONSyntaxError) {
        index += 1
        let start = index
        var nonASCII = false
        var runNonASCII = false
        var runStart = start
        var escaped = false
        index = plainRunEnd(from: start, nonASCII: &runNonASCII)
        while true {
            guard index < bytes.count else { throw error("unterminated string") }
            let b = bytes[index]
            if b < 0x20 {
                throw error(b == 0x0A ? "unterminated string (a line break must be written \\n)"
                                       : "a control character in a string must be escaped")
            }
            if runNonASCII {
                nonASCII = true
                if !JSONTape.isUTF8(UnsafeBufferPointer(rebasing: bytes[runStart..<index])) {
                    throw error("a string holds bytes that are not UTF-8")
                }
            }
            if b == UInt8(ascii: "\"") { break }
            escaped = true
            index += 1
            guard index < bytes.count else { throw error("unterminated string") }
            let e = bytes[index]
            index += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                 UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                break
            case UInt8(ascii: "u"):
                nonASCII = true
                let unit = try hex4()
                if (0xD800...0xDBFF).contains(unit) {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                        throw error("a high surrogate \\u escape must be followed by a low surrogate")
                    }
                    index += 2
                    guard (0xDC00...0xDFFF).contains(try hex4()) else { throw error("invalid low surrogate in \\u escape") }
                } else if (0xDC00...0xDFFF).contains(unit) {
                    throw error("a lone low surrogate in \\u escape")
                }
            default:
                index -= 1
                throw error("invalid escape \\\(Character(UnicodeScalar(e)))")
            }
            runStart = index
            runNonASCII = false
            index = plainRunEnd(from: index, nonASCII: &runNonASCII)
        }
        try push(JSONTape.Entry(kind: .string, escaped: escaped, nonASCII: nonASCII, start: UInt32(start), end: UInt32(index)))
        index += 1
    }

    /// Four hex digits after `\u`, the error at the first that is not one (as `JSONParser`).
    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        guard let value = JSONStringScan.hex4(bytes, advancing: &index) else { throw error("expected four hex digits after \\u") }
        return value
    }
}
