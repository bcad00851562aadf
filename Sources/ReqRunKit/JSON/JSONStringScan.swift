/// Finding the bytes that end a plain run inside a JSON string: `"`, `\` and the C0 controls (RFC 8259 §7).
///
/// Both the parser (where does a string end?) and the writer (what must be escaped?) ask this of every
/// byte of every string, so it looks at eight bytes at a time ("SWAR": the `hasless`/`haszero` tests from
/// Sean Anderson's *Bit Twiddling Hacks*), and only the word holding a special byte is looked at bytewise.
enum JSONStringScan {
    /// The value of the four hex digits of a `\uXXXX` escape at `bytes[i...]` (RFC 8259 §7), nil when one of
    /// them is not a hex digit or the bytes end first.
    static func hex4(_ bytes: UnsafeBufferPointer<UInt8>, _ i: Int) -> UInt32? {
        var value: UInt32 = 0
        for k in i..<i + 4 {
            guard k < bytes.count, let digit = hexDigit(bytes[k]) else { return nil }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// The value of one hex digit (either case), nil for any other byte.
    static func hexDigit(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return b - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return b - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return b - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// `hex4` at `index`, moving past the four digits; when they are not four hex digits, `index` is left at the
    /// first that is not one (where a parser's error points) and the result is nil.
    static func hex4(_ bytes: UnsafeBufferPointer<UInt8>, advancing index: inout Int) -> UInt32? {
        guard let value = hex4(bytes, index) else {
            while index < bytes.count, hexDigit(bytes[index]) != nil { index += 1 }
            return nil
        }
        index += 4
        return value
    }

    /// Whether `byte` ends a plain run.
    @inline(__always)
    static func isSpecial(_ byte: UInt8) -> Bool { byte < 0x20 || byte == 0x22 || byte == 0x5C }

    /// Whether any of the eight bytes in `word` is special (exact, no false positives).
    @inline(__always)
    static func hasSpecial(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        let control = (word &- 0x2020_2020_2020_2020) & ~word & highs
        let quote = word ^ 0x2222_2222_2222_2222
        let backslash = word ^ 0x5C5C_5C5C_5C5C_5C5C
        return (control | ((quote &- ones) & ~quote & highs) | ((backslash &- ones) & ~backslash & highs)) != 0
    }

    /// The index of the first special byte in `bytes[from...]`, or `bytes.count`; `nonASCII` is set when a
    /// byte of 0x80 or more was passed on the way (so callers know whether UTF-8 needs validating).
    @inline(__always)
    static func firstSpecial(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, nonASCII: inout Bool) -> Int {
        guard let base = bytes.baseAddress else { return start }
        let count = bytes.count
        var i = start
        var seen: UInt64 = 0
        while i + 8 <= count {
            let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
            if hasSpecial(word) { break }
            seen |= word
            i += 8
        }
        while i < count {
            let byte = base[i]
            if isSpecial(byte) { break }
            seen |= UInt64(byte)
            i += 1
        }
        if seen & 0x8080_8080_8080_8080 != 0 { nonASCII = true }
        return i
    }
}
