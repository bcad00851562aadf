/// The statement text a status check follows, as the scanner builds it one byte of UTF-8 at a time, with
/// what the scanner's rules ask of it kept up to date on each byte: the text itself is decoded only for a
/// block's header, never copied at each position. (Copying it at each character cost memory quadratic in
/// the length of a line: a 100 KB minified line took 4.8 GB.) Every byte the rules look at is ASCII, and
/// no byte of a multi-byte UTF-8 sequence is ASCII, so reading bytes finds the same places as reading
/// characters.
struct StatementSummary {
    /// The text so far, as UTF-8 (decoded by `text` when a block opens, see `StatusCheckScanner.blockKind`).
    private var bytes: [UInt8] = []
    /// The text as written.
    private(set) var raw = TrimmedTextSummary()
    /// The text with the inside of quoted strings left out (`StatusCheckScanner.withoutQuotedText`).
    private(set) var unquoted = TrimmedTextSummary()
    private var quote: UInt8?
    private var escaped = false

    var text: String { String(decoding: bytes, as: UTF8.self) }

    mutating func append(_ byte: UInt8) {
        bytes.append(byte)
        raw.append(byte)
        // The same steps as `withoutQuotedText`, one byte at a time.
        if let q = quote {
            if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == q { quote = nil; unquoted.append(byte) }
            return
        }
        if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") || byte == UInt8(ascii: "`") { quote = byte }
        unquoted.append(byte)
    }

    mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        raw = TrimmedTextSummary()
        unquoted = TrimmedTextSummary()
        quote = nil
        escaped = false
    }
}

/// What the scanner asks of a text once it is trimmed of spaces and tabs at both ends, kept in constant
/// space: its first bytes, its length, its last two bytes, and whether it contains `!`, `?`, `&&` or `||`.
struct TrimmedTextSummary {
    /// How many leading bytes of the trimmed text are kept: enough for the longest prefix asked about
    /// (`pm.test(`, `while( `).
    static let headLength = 16
    /// The first `headLength` bytes from the first one that is not a space (trailing spaces included).
    private var head: [UInt8] = []
    /// Bytes from the first non-space one to the end, and to the last non-space one (the trimmed length).
    private var countFromStart = 0
    private var trimmedCount = 0
    private var last: UInt8 = 0
    /// The last two bytes of the trimmed text (the first 0 when it has only one).
    private var tail: (UInt8, UInt8) = (0, 0)
    private(set) var containsBang = false
    private(set) var containsQuestionMark = false
    private(set) var containsAndAnd = false
    private(set) var containsOrOr = false

    mutating func append(_ byte: UInt8) {
        let space = Self.isSpace(byte)
        if countFromStart == 0 && space { return }
        countFromStart += 1
        if head.count < Self.headLength { head.append(byte) }
        if !space {
            tail = (countFromStart > 1 ? last : 0, byte)
            trimmedCount = countFromStart
        }
        switch byte {
        case UInt8(ascii: "!"): containsBang = true
        case UInt8(ascii: "?"): containsQuestionMark = true
        case UInt8(ascii: "&"): if last == UInt8(ascii: "&") { containsAndAnd = true }
        case UInt8(ascii: "|"): if last == UInt8(ascii: "|") { containsOrOr = true }
        default: break
        }
        last = byte
    }

    var isEmpty: Bool { trimmedCount == 0 }

    /// The trimmed text's first bytes, at most `headLength`.
    private var trimmedHead: ArraySlice<UInt8> { head.prefix(trimmedCount) }

    /// Whether the trimmed text is `word` (at most `headLength` bytes).
    func equals(_ word: String) -> Bool { trimmedCount == word.utf8.count && hasPrefix(word) }

    /// Whether the trimmed text starts with `prefix` (at most `headLength` bytes).
    func hasPrefix(_ prefix: String) -> Bool { trimmedHead.starts(with: prefix.utf8) }

    /// Whether the trimmed text ends with `suffix` (one or two ASCII bytes).
    func hasSuffix(_ suffix: String) -> Bool {
        let bytes = Array(suffix.utf8)
        switch bytes.count {
        case 1: return trimmedCount > 0 && tail.1 == bytes[0]
        case 2: return trimmedCount > 1 && tail.0 == bytes[0] && tail.1 == bytes[1]
        default: preconditionFailure("hasSuffix keeps two bytes")
        }
    }

    /// A space or a tab (what `trimmingCharacters(in: .whitespaces)` trims in scripts; other Unicode spaces
    /// before a statement are not seen in practice).
    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
}
