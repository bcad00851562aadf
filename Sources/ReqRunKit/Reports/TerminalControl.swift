extension Unicode.Scalar {
    /// Whether this scalar, printed raw, can drive a terminal or make text display as something else: the C0
    /// controls and DEL (ESC starts ECMA-48 sequences, BEL ends OSC ones such as a window title), the C1
    /// controls U+0080–U+009F (CSI and OSC as single characters), and Unicode's bidirectional overrides and
    /// isolates U+202A–U+202E and U+2066–U+2069, which show text in another order than it is ("Trojan
    /// Source", CVE-2021-42574). The console escapes them (`Terminal.sanitized`), and so does
    /// `CurlCommand.shellQuoted` in its `$'…'` form.
    public var isTerminalControl: Bool {
        value < 0x20 || value == 0x7F || (0x80..<0xA0).contains(value)
            || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
    }
}

extension String {
    /// The text made safe for a terminal: each `isTerminalControl` scalar becomes a `\u{…}` escape (ESC is
    /// `\u{1b}`), keeping line feeds and tabs when `multiline`. Used by the console (`Terminal.sanitized`)
    /// and the full-screen UI alike.
    public func escapingTerminalControls(multiline: Bool = false) -> String {
        // Fast path, the common case: nothing to escape, found from the bytes (a `diff` row's ` › ` is not
        // ASCII: going scalar by scalar there was 17 % of `diff`'s instructions, callgrind).
        var text = self
        if text.withUTF8({ Self.holdsNoTerminalControl($0, multiline: multiline) }) { return self }
        var out = ""
        for scalar in unicodeScalars {
            let keep = multiline && (scalar == "\n" || scalar == "\t")
            if !keep && scalar.isTerminalControl {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Whether UTF-8 `bytes` hold no `isTerminalControl` scalar (line feeds and tabs allowed when
    /// `multiline`): C0 and DEL are single bytes, U+0080–U+009F are `C2 80`–`C2 9F`, U+202A–U+202E are
    /// `E2 80 AA`–`E2 80 AE` and U+2066–U+2069 `E2 81 A6`–`E2 81 A9` (a continuation byte, 80–BF, is never
    /// taken for the lead bytes C2 and E2).
    static func holdsNoTerminalControl(_ bytes: UnsafeBufferPointer<UInt8>, multiline: Bool) -> Bool {
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b < 0x20 || b == 0x7F {
                guard multiline, b == 0x0A || b == 0x09 else { return false }
            } else if b == 0xC2 {
                if i + 1 < n, bytes[i + 1] < 0xA0 { return false }
            } else if b == 0xE2, i + 2 < n {
                let (second, third) = (bytes[i + 1], bytes[i + 2])
                if second == 0x80, (0xAA...0xAE).contains(third) { return false }
                if second == 0x81, (0xA6...0xA9).contains(third) { return false }
            }
            i += 1
        }
        return true
    }
}
