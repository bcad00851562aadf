/// Escaping for XML and HTML text and attribute values.
enum XMLText {
    /// Escapes `&`, `<`, `>`, `"`, `'`, and replaces characters XML 1.0 forbids (control characters other
    /// than tab, LF, CR; lone surrogates cannot occur in a Swift String) with U+FFFD.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
