import Foundation

/// Where the CLI writes: stdout and stderr, with colour only on a terminal and when `NO_COLOR` is unset
/// (https://no-color.org).
struct Terminal: Sendable {
    var out: @Sendable (String) -> Void
    var err: @Sendable (String) -> Void
    /// Whether stdout gets ANSI colour.
    var colorOut: Bool

    static func standard() -> Terminal {
        let noColor = ProcessInfo.processInfo.environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        return Terminal(out: { FileHandle.standardOutput.write(Data($0.utf8)) },
                        err: { FileHandle.standardError.write(Data($0.utf8)) },
                        colorOut: isatty(1) == 1 && !noColor)
    }

    enum Style: String {
        case green = "32", red = "31", yellow = "33", dim = "2", bold = "1"
    }

    func styled(_ text: String, _ style: Style) -> String {
        colorOut ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
    }

    func line(_ text: String = "") { out(text + "\n") }
    /// Messages can quote names and arguments that came from files or the command line, so control
    /// characters in them are escaped like any other outside text (line feeds kept for lists).
    func warning(_ text: String) { err("warning: \(Terminal.sanitized(text, multiline: true))\n") }
    func error(_ text: String) { err("error: \(Terminal.sanitized(text, multiline: true))\n") }

    /// Text from a server or a file made safe to print: control characters (escape sequences, bells…)
    /// become `\u{…}` escapes, keeping line feeds and tabs when `multiline`.
    static func sanitized(_ text: String, multiline: Bool = false) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            let keep = multiline && (scalar == "\n" || scalar == "\t")
            if !keep && (scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value)) {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
