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

    /// Indexes `bytes` into `entries` (emptied first; the root is entry 0).
    /// - Throws: `JSONSyntaxError` as `JSONParser.parse` would for the same text.
    static func index(_ bytes: UnsafeBufferPointer<UInt8>, into entries: inout [Entry]) throws(JSONSyntaxError) {
        entries.removeAll(keepingCapacity: true)
        var builder = JSONTapeBuilder(bytes: bytes, entries: entries)
        entries = []
        defer { entries = builder.entries }
        try builder.text()
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
                var unit = hex4(raw, i)!
                i += 4
                if (0xD800...0xDBFF).contains(unit) {
                    unit = 0x10000 + ((unit - 0xD800) << 10) + (hex4(raw, i + 2)! - 0xDC00)
                    i += 6
                }
                for byte in UTF8.encode(UnicodeScalar(unit)!)! { put(byte) }
            default: put(e)  // " \ /
            }
        }
        return n
    }

    /// The four hex digits at `bytes[i...]` (checked by the pass).
    static func hex4(_ bytes: UnsafeBufferPointer<UInt8>, _ i: Int) -> UInt32? {
        var value: UInt32 = 0
        for k in i..<i + 4 {
            guard k < bytes.count, let digit = hexDigit(bytes[k]) else { return nil }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    static func hexDigit(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return b - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return b - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return b - UInt8(ascii: "A") + 10
        default: return nil
        }
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
    var entries: [JSONTape.Entry]
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private var depth = 0

    init(bytes: UnsafeBufferPointer<UInt8>, entries: [JSONTape.Entry]) {
        self.bytes = bytes
        self.entries = entries
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

    private mutating func skipWhitespace() {
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
        case UInt8(ascii: "{"): try container(.object)
        case UInt8(ascii: "["): try container(.array)
        case UInt8(ascii: "\""): try string()
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
        entries.append(JSONTape.Entry(kind: kind, start: UInt32(start), end: UInt32(index)))
    }

    /// An object or array, from its bracket.
    private mutating func container(_ kind: JSONTape.Kind) throws(JSONSyntaxError) {
        depth += 1
        if depth > JSONParser.maximumDepth { throw error("nesting deeper than \(JSONParser.maximumDepth) levels") }
        defer { depth -= 1 }
        let at = entries.count
        entries.append(JSONTape.Entry(kind: kind, start: UInt32(index), end: 0))
        let object = kind == .object
        let close = object ? UInt8(ascii: "}") : UInt8(ascii: "]")
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == close {
            index += 1
            entries[at].end = UInt32(entries.count)
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
                    throw error("expected ':' after the key \"\(key.text(entries[entries.count - 1]))\", found \(describeCurrent())")
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
                entries[at].end = UInt32(entries.count)
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
        entries.append(JSONTape.Entry(kind: .number, start: UInt32(start), end: UInt32(index)))
    }

    /// A string from its opening quote: plain runs found eight bytes at a time (`JSONStringScan`), escapes
    /// and UTF-8 checked as `JSONParser` checks them, nothing decoded.
    private mutating func string() throws(JSONSyntaxError) {
        index += 1
        let start = index
        var nonASCII = false
        var runNonASCII = false
        var runStart = start
        var escaped = false
        index = JSONStringScan.firstSpecial(in: bytes, from: start, nonASCII: &runNonASCII)
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
            index = JSONStringScan.firstSpecial(in: bytes, from: index, nonASCII: &runNonASCII)
        }
        entries.append(JSONTape.Entry(kind: .string, escaped: escaped, nonASCII: nonASCII, start: UInt32(start), end: UInt32(index)))
        index += 1
    }

    /// Four hex digits after `\u`, the error at the first that is not one (as `JSONParser`).
    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count, let digit = JSONTape.hexDigit(bytes[index]) else {
                throw error("expected four hex digits after \\u")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }
}
