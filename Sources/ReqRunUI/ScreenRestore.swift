import Foundation
internal import CNcurses

/// Puts the terminal back when the process dies without `Screen.stop`: a crash (SIGSEGV, SIGBUS, SIGILL,
/// SIGTRAP — what a Swift runtime trap raises —, SIGABRT, SIGFPE). The handler does only what is
/// async-signal-safe (POSIX.1-2017 §2.4.3): `write(2)` of bytes worked out beforehand — the keypad back in
/// normal mode (`rmkx`, undoing `keypad`'s `smkx`, as `endwin` does: else the shell gets `ESC O A` for ↑),
/// leave the alternate screen (`rmcup`), show the cursor (`cnorm`), plain attributes (`sgr0`) — and `tcsetattr(3)` with the
/// modes saved before ncurses changed them; then the signal is raised again with its default action, so
/// the process still dies of it (and dumps core if it would have).
enum ScreenRestore {
    /// The restoring bytes, then their count; filled once by `prepare` before the handlers are installed.
    nonisolated(unsafe) private static var bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
    nonisolated(unsafe) private static var count = 0
    nonisolated(unsafe) private static var modes = termios()
    nonisolated(unsafe) private static var haveModes = false

    static let crashSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE]

    /// Saves the terminal's modes; call before `initscr`.
    static func saveTerminalModes() {
        haveModes = tcgetattr(1, &modes) == 0
    }

    /// Works out the restoring bytes from the terminal's description (after `initscr`) and installs the
    /// crash handlers.
    static func prepare() {
        var sequence: [UInt8] = []
        for capability in ["rmkx", "rmcup", "cnorm", "sgr0"] {
            guard let pointer = tigetstr(capability), Int(bitPattern: pointer) > 0 else { continue }  // -1: not a string capability
            sequence += Array(String(cString: pointer).utf8)
        }
        sequence.append(0x0A)
        count = min(sequence.count, 256)
        for (i, byte) in sequence.prefix(count).enumerated() { bytes[i] = byte }
        for number in crashSignals {
            signal(number) { number in
                ScreenRestore.restoreFromSignal()
                signal(number, SIG_DFL)
                raise(number)
            }
        }
    }

    /// Restores the terminal from a signal handler (async-signal-safe calls only).
    static func restoreFromSignal() {
        _ = write(1, bytes, count)
        if haveModes { _ = tcsetattr(1, TCSANOW, &modes) }
    }

    /// Puts the default actions back once the screen was stopped normally.
    static func uninstall() {
        for number in crashSignals { signal(number, SIG_DFL) }
    }
}
