import Foundation

/// The width help text wraps to: `COLUMNS` when it is a number of 20 or more, else the width of the
/// terminal on stdout (`TIOCGWINSZ`), else 80 (a pipe or file), as most command-line tools do.
enum TerminalWidth {
    static func columns(environment: [String: String] = ProcessInfo.processInfo.environment) -> Int {
        if let text = environment["COLUMNS"], let columns = Int(text), columns >= 20 { return columns }
        var size = winsize()
        if isatty(1) == 1, ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col >= 20 { return Int(size.ws_col) }
        return 80
    }

    /// `text` broken at spaces into lines of at most `width` characters (a longer word gets a line of its own).
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if current.isEmpty {
                current = String(word)
            } else if current.count + 1 + word.count <= width {
                current += " " + word
            } else {
                lines.append(current)
                current = String(word)
            }
        }
        if !current.isEmpty || lines.isEmpty { lines.append(current) }
        return lines
    }

    /// Paragraphs (separated by blank lines) re-flowed to `width`; a paragraph whose lines start with a
    /// space (a list, an example) is kept as written.
    static func reflow(_ text: String, width: Int) -> String {
        text.components(separatedBy: "\n\n").map { paragraph in
            if paragraph.split(separator: "\n").contains(where: { $0.hasPrefix(" ") }) { return paragraph }
            return wrap(paragraph.replacingOccurrences(of: "\n", with: " "), width: width).joined(separator: "\n")
        }.joined(separator: "\n\n")
    }
}
