import Foundation
import ReqRunKit

/// Where the CLI writes: stdout and stderr, with colour as `--color` and the environment say (`ColorChoice`).
struct Terminal: Sendable {
    var out: @Sendable (String) -> Void
    /// Writes bytes that are already UTF-8 text to stdout as `out` would write their text, without making a
    /// `String` of them first (a 20 MB `list --json` was validated and copied twice on the way). The bytes
    /// are only borrowed for the call, so a writer can pass its buffer each time it fills.
    var outBytes: @Sendable (UnsafeRawBufferPointer) -> Void
    var err: @Sendable (String) -> Void
    /// Whether stdout gets ANSI colour.
    var colorOut: Bool
    /// Whether `out` goes to a terminal (where a progress line can be drawn and erased).
    var isTerminal = false
    /// What `--color` said, kept for `onStandardError`.
    var color = ColorChoice.auto

    static func standard(color: ColorChoice = .auto) -> Terminal {
        let interactive = isatty(1) == 1
        // On a terminal each line shows at once; into a pipe or file, output is buffered as C's stdio does
        // (a write per line cost a tenth of a 1,000-request run).
        StandardOutput.shared.unbuffered = interactive
        return Terminal(out: { text in StandardOutput.shared.append(text) },
                        outBytes: { bytes in StandardOutput.shared.append(bytes) },
                        err: { text in
                            StandardOutput.shared.flush()  // keep stdout and stderr in order
                            var text = text
                            text.withUTF8 { _ = StandardOutput.writeAll(2, UnsafeRawBufferPointer($0)) }
                        },
                        colorOut: color.enabled(isTerminal: interactive), isTerminal: interactive, color: color)
    }

    /// The same terminal with everything meant for stdout written to stderr (coloured when stderr is a
    /// terminal), for a command whose stdout carries a report (`--report json=-`).
    func onStandardError() -> Terminal {
        let err = self.err
        return Terminal(out: err, outBytes: { err(String(decoding: $0, as: UTF8.self)) }, err: err,
                        colorOut: color.enabled(isTerminal: isatty(2) == 1), isTerminal: isatty(2) == 1, color: color)
    }

    enum Style: String {
        case green = "32", red = "31", yellow = "33", dim = "2", bold = "1", blue = "34", magenta = "35", cyan = "36"
    }

    func styled(_ text: String, _ style: Style) -> String {
        colorOut ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
    }

    func line(_ text: String = "") { out(text + "\n") }

    /// `text` followed by spaces up to `width` characters (at least one character wide column).
    static func padded(_ text: String, _ width: Int) -> String {
        let count = characterCount(text)
        return count >= width ? text : text + String(repeating: " ", count: width - count)
    }

    /// `text.count`, counted in bytes when they are all printable ASCII (one character each): `count` walks
    /// grapheme clusters, about 2,000 instructions for a 40-character URL (callgrind), and the console
    /// measures several columns of every line.
    static func characterCount(_ text: String) -> Int {
        text.allUTF8Bytes { $0 >= 0x20 && $0 < 0x7F } ? text.utf8.count : text.count
    }
    /// Messages can quote names and arguments that came from files or the command line, so control
    /// characters in them are escaped like any other outside text (line feeds kept for lists).
    func warning(_ text: String) { err("warning: \(Terminal.sanitized(text, multiline: true))\n") }
    func error(_ text: String) { err("error: \(Terminal.sanitized(text, multiline: true))\n") }

    /// Text from a server or a file made safe to print: control characters (escape sequences, bells…)
    /// become `\u{…}` escapes, keeping line feeds and tabs when `multiline`.
    static func sanitized(_ text: String, multiline: Bool = false) -> String {
        // C0 and C1 controls, and the bidirectional overrides and isolates (`isTerminalControl`).
        text.escapingTerminalControls(multiline: multiline)
    }
}

/// Buffered standard output for pipes and files: flushed at 64 KiB, before anything goes to stderr, and when
/// the command ends (`ReqRunCommand.main`).
///
/// A write that fails (a full disk, a closed descriptor, a reader that went away) stops all further output to
/// stdout rather than killing the process: SIGPIPE is ignored (see `ReqRunCommand.main`), so a run whose
/// output goes to `head` still sends every request and writes its record. `failure` says what happened.
final class StandardOutput: @unchecked Sendable {
    static let shared = StandardOutput()
    private var buffer: [UInt8] = []
    private let lock = NSLock()
    /// Write through at once (stdout is a terminal).
    var unbuffered = false
    /// The `errno` of the first failed write to stdout, if any.
    private(set) var failure: Int32?
    /// Whether anything was written (or meant to be) to stdout.
    private(set) var wroteAnything = false

    private static let capacity = 65_536

    func append(_ text: String) {
        lock.lock()
        buffer.append(contentsOf: text.utf8)
        let full = unbuffered || buffer.count >= Self.capacity
        lock.unlock()
        if full { flush() }
    }

    /// Appends `bytes`; a block that does not fit in the buffer goes to stdout directly after what is
    /// buffered, rather than being copied into the buffer first.
    func append(_ bytes: UnsafeRawBufferPointer) {
        lock.lock()
        defer { lock.unlock() }
        if !unbuffered, buffer.count + bytes.count < Self.capacity {
            buffer.append(contentsOf: bytes)
            return
        }
        writeBuffer()
        write(bytes)
    }

    func flush() {
        lock.lock()
        defer { lock.unlock() }
        writeBuffer()
    }

    /// Writes and empties the buffer; the caller holds the lock.
    private func writeBuffer() {
        guard !buffer.isEmpty else { return }
        buffer.withUnsafeBytes { write($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes to stdout unless an earlier write failed; the caller holds the lock.
    private func write(_ bytes: UnsafeRawBufferPointer) {
        wroteAnything = wroteAnything || bytes.count > 0
        guard failure == nil else { return }
        failure = Self.writeAll(1, bytes)
    }

    /// Writes all of `raw` to `fd`; returns the `errno` of a failed write (nil when all went out).
    @discardableResult
    static func writeAll(_ fd: Int32, _ raw: UnsafeRawBufferPointer) -> Int32? {
        var offset = 0
        while offset < raw.count {
            let n = Foundation.write(fd, raw.baseAddress! + offset, raw.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += n
        }
        return nil
    }
}
