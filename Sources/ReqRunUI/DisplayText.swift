import Foundation
import ReqRunKit
internal import CNcurses

/// Text on its way to the screen: escaped (`escapingTerminalControls`: no control character of a collection,
/// a record or a server reaches the terminal) and cut to a number of terminal columns (`wcwidth(3)`:
/// East Asian wide characters take two, combining marks none).
enum DisplayText {
    /// `text` escaped, on one line (line feeds and tabs escaped too), at most `width` columns; a cut shows `…`.
    static func line(_ text: String, width: Int) -> String {
        fit(text.escapingTerminalControls(), width: width)
    }

    /// Cuts already escaped text to `width` columns, `…` marking the cut.
    static func fit(_ text: String, width: Int) -> String {
        guard width > 0 else { return "" }
        if text.utf8.count <= width, text.utf8.allSatisfy({ $0 < 0x80 }) { return text }
        var out = ""
        var used = 0
        for scalar in text.unicodeScalars {
            let w = columns(scalar)
            if used + w > width {
                // Room for the ellipsis: drop what it covers.
                while used + 1 > width, let last = out.unicodeScalars.last {
                    out.unicodeScalars.removeLast()
                    used -= columns(last)
                }
                return out + "…"
            }
            out.unicodeScalars.append(scalar)
            used += w
        }
        return out
    }

    /// Columns `text` (escaped) takes.
    static func columnCount(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + columns($1) }
    }

    private static func columns(_ scalar: Unicode.Scalar) -> Int {
        if scalar.value < 0x80 { return 1 }
        let w = Int(reqrun_column_width(scalar.value))
        return max(0, w)
    }

    /// Multi-line text (a body) as escaped lines: tabs as spaces, each line escaped on its own.
    static func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map {
            String($0).replacingOccurrences(of: "\t", with: "    ").replacingOccurrences(of: "\r", with: "").escapingTerminalControls()
        }
    }

    /// Breaks escaped `text` into pieces of at most `width` columns (for the detail pane).
    static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        if columnCount(text) <= width { return [text] }
        var pieces: [String] = []
        var current = ""
        var used = 0
        for scalar in text.unicodeScalars {
            let w = columns(scalar)
            if used + w > width, !current.isEmpty {
                pieces.append(current)
                current = ""
                used = 0
            }
            current.unicodeScalars.append(scalar)
            used += w
        }
        if !current.isEmpty { pieces.append(current) }
        return pieces
    }
}
