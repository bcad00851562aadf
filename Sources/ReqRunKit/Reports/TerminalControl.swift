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
