import Foundation
internal import CNcurses

/// The terminal as ncurses draws it: the only place that draws or reads keys (`ScreenRestore` restores the
/// terminal on a crash, `DisplayText` asks ncursesw's `wcwidth` for column widths).
///
/// `start` switches to the alternate screen (`smcup`) in cbreak mode without echo, with the keypad's keys
/// decoded (arrows as `KEY_UP`…); `stop` puts the terminal back as it was (`endwin`: `rmcup`, the saved
/// modes). Text must be escaped already (`DisplayText.line`): nothing here filters it.
final class Screen {
    /// A key read from the terminal.
    enum Key: Equatable {
        case character(Character)
        case up, down, left, right, pageUp, pageDown, home, end, enter, escape, tab, backspace, resize
        case other
    }

    /// How a span is drawn. With `NO_COLOR` (or a terminal without colours) only bold, dim and reverse.
    enum Style: Int {
        case plain = 0, green, red, yellow, cyan, bold, dim, selected, heading
    }

    private(set) var isActive = false
    private var colors = false

    var rows: Int { Int(reqrun_rows()) }
    var columns: Int { Int(reqrun_columns()) }

    /// Takes over the terminal. `noColor`: the `NO_COLOR` convention (https://no-color.org).
    func start(noColor: Bool) {
        setlocale(LC_ALL, "")  // ncursesw draws ▸ ▾ and other UTF-8 text in the locale's encoding
        ScreenRestore.saveTerminalModes()
        _ = initscr()
        ScreenRestore.prepare()
        isActive = true
        cbreak()
        noecho()
        nonl()
        reqrun_keypad()
        set_escdelay(25)  // Esc alone arrives within 25 ms, not ncurses' default second
        curs_set(0)
        if !noColor, has_colors() {
            start_color()
            use_default_colors()
            // Eight basic colours only, so 8- and 16-colour terminals show the same.
            init_pair(1, Int16(COLOR_GREEN), -1)
            init_pair(2, Int16(COLOR_RED), -1)
            init_pair(3, Int16(COLOR_YELLOW), -1)
            init_pair(4, Int16(COLOR_CYAN), -1)
            colors = true
        }
    }

    /// Gives the terminal back: the screen as it was before `start`, cursor shown, modes restored. A terminal
    /// without an alternate screen (no `rmcup`: TERM=linux, the Linux console) cannot show the earlier screen
    /// again: it is cleared, so the UI's frame does not stay under the shell's next lines.
    func stop() {
        guard isActive else { return }
        isActive = false
        if !Self.hasCapability("rmcup") {
            CNcurses.clear()
            CNcurses.refresh()
        }
        curs_set(1)
        endwin()
    }

    /// Whether the terminal's description has the string capability `name` (`tigetstr`: nil when absent,
    /// -1 when `name` is not a string capability).
    static func hasCapability(_ name: String) -> Bool {
        guard let pointer = tigetstr(name) else { return false }
        return Int(bitPattern: pointer) > 0 && pointer.pointee != 0
    }

    func erase() { CNcurses.erase() }

    func refresh() { CNcurses.refresh() }

    /// Draws `text` (escaped, fitting the width) at row `y`, column `x`.
    func put(_ y: Int, _ x: Int, _ text: String, _ style: Style = .plain) {
        guard y >= 0, y < rows, x >= 0, x < columns else { return }
        reqrun_put(Int32(y), Int32(x), text, attributes(style))
    }

    /// Clears row `y` from column `x` to its end.
    func clearLine(_ y: Int, from x: Int) { reqrun_clear_to_eol(Int32(y), Int32(x)) }

    private func attributes(_ style: Style) -> Int32 {
        switch style {
        case .plain: return 0
        case .bold: return reqrun_attr_bold()
        case .dim: return reqrun_attr_dim()
        case .selected: return reqrun_attr_reverse()
        case .heading: return reqrun_attr_bold() | reqrun_attr_reverse()
        case .green: return colors ? reqrun_color_pair(1) : reqrun_attr_bold()
        case .red: return colors ? reqrun_color_pair(2) | reqrun_attr_bold() : reqrun_attr_bold()
        case .yellow: return colors ? reqrun_color_pair(3) : reqrun_attr_bold()
        case .cyan: return colors ? reqrun_color_pair(4) : 0
        }
    }

    /// The next key, waiting at most `milliseconds`; nil when none came (or a signal interrupted the wait).
    func readKey(timeoutMilliseconds milliseconds: Int) -> Key? {
        timeout(Int32(milliseconds))
        var value: UInt32 = 0
        let status = reqrun_read_key(&value)
        if status == KEY_CODE_YES {
            switch Int32(value) {
            case KEY_UP: return .up
            case KEY_DOWN: return .down
            case KEY_LEFT: return .left
            case KEY_RIGHT: return .right
            case KEY_PPAGE: return .pageUp
            case KEY_NPAGE: return .pageDown
            case KEY_HOME: return .home
            case KEY_END: return .end
            case KEY_ENTER: return .enter
            case KEY_BACKSPACE: return .backspace
            case KEY_RESIZE: return .resize
            default: return .other
            }
        }
        guard status == OK, let scalar = Unicode.Scalar(value) else { return nil }
        switch value {
        case 0x0D, 0x0A: return .enter
        case 0x1B: return escapeOrSequence()
        case 0x09: return .tab
        case 0x7F, 0x08: return .backspace
        default: return scalar.properties.generalCategory == .control ? .other : .character(Character(scalar))
        }
    }

    /// After an ESC that ncurses could not match to a key (it waited `set_escdelay`'s 25 ms for the rest):
    /// `.escape` when nothing follows at once, as a person presses Esc. Otherwise it was sent with more: Alt+key
    /// (ESC then the key, xterm's `metaSendsEscape`) or a sequence the terminal's description lacks (Ctrl+↑ as
    /// ESC [ 1 ; 5 A, ECMA-48 §5.4: parameter bytes 0x30–0x3F, intermediate bytes 0x20–0x2F, a final byte
    /// 0x40–0x7E; SS3 ESC O and one byte). Those are read to their end and are `.other`, so that Alt+q does not
    /// quit and neither clears the filter or cancels a send as Esc.
    private func escapeOrSequence() -> Key {
        timeout(0)
        var value: UInt32 = 0
        guard reqrun_read_key(&value) == OK else { return .escape }
        switch value {
        case 0x1B:
            _ = unget_wch(wchar_t(value))  // Esc twice: the second one counts on its own
            return .escape
        case 0x5B:  // CSI: to its final byte
            while reqrun_read_key(&value) == OK, !(0x40...0x7E).contains(value) {}
        case 0x4F:  // SS3: one more byte
            _ = reqrun_read_key(&value)
        default: break
        }
        return .other
    }
}
