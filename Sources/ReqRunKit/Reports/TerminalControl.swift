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
        // Fast path, the common case: printable ASCII and (when multiline) line feeds and tabs only.
        if allUTF8Bytes({ ($0 >= 0x20 && $0 < 0x7F) || (multiline && ($0 == 0x0A || $0 == 0x09)) }) { return self }
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
}
