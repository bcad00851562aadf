import Foundation

/// The statement text a status check follows, as the scanner builds it one character at a time, with what
/// the scanner's rules ask of it kept up to date on each character: the text itself is copied only for a
/// block's header, never at each position. (Copying it at each character cost memory quadratic in the
/// length of a line: a 100 KB minified line took 4.8 GB.)
struct StatementSummary {
    /// The text so far (read when a block opens, see `StatusCheckScanner.blockKind`).
    private(set) var text = ""
    /// The text as written.
    private(set) var raw = TrimmedTextSummary()
    /// The text with the inside of quoted strings left out (`StatusCheckScanner.withoutQuotedText`).
    private(set) var unquoted = TrimmedTextSummary()
    private var quote: Character?
    private var escaped = false

    /// - Parameter ascii: `char.asciiValue`, which the caller has at hand (comparing bytes rather than
    ///   characters keeps a long line cheap).
    mutating func append(_ char: Character, ascii: UInt8?) {
        text.append(char)
        raw.append(char, ascii: ascii)
        // The same steps as `withoutQuotedText`, one character at a time.
        if let q = quote {
            if escaped { escaped = false } else if ascii == UInt8(ascii: "\\") { escaped = true } else if char == q { quote = nil; unquoted.append(char, ascii: ascii) }
            return
        }
        if ascii == UInt8(ascii: "\"") || ascii == UInt8(ascii: "'") || ascii == UInt8(ascii: "`") { quote = char }
        unquoted.append(char, ascii: ascii)
    }

    mutating func reset() { self = StatementSummary() }
}

/// What the scanner asks of a text once it is trimmed of spaces and tabs at both ends
/// (`trimmingCharacters(in: .whitespaces)`), kept in constant space: its first characters, its length, its
/// last two characters, and whether it contains `!`, `?`, `&&` or `||`.
struct TrimmedTextSummary {
    /// How many leading characters of the trimmed text are kept: enough for the longest prefix asked about
    /// (`pm.test(`, `while( `).
    static let headLength = 16
    /// The first `headLength` characters from the first one that is not a space (trailing spaces included).
    private var head = ""
    private var headCount = 0
    /// Characters from the first non-space one to the end, and to the last non-space one (the trimmed length).
    private var countFromStart = 0
    private(set) var trimmedCount = 0
    /// The last character (its byte when ASCII, else nil).
    private var last: Character?
    private var lastASCII: UInt8?
    /// The last two characters of the trimmed text (the first nil when it has only one).
    private var tail: (Character?, Character?) = (nil, nil)
    private(set) var containsBang = false
    private(set) var containsQuestionMark = false
    private(set) var containsAndAnd = false
    private(set) var containsOrOr = false

    /// - Parameter ascii: `char.asciiValue`.
    mutating func append(_ char: Character, ascii: UInt8?) {
        let space = ascii.map { $0 == 0x20 || $0 == 0x09 } ?? Self.isSpace(char)
        if countFromStart == 0 && space { return }
        countFromStart += 1
        if headCount < Self.headLength { head.append(char); headCount += 1 }
        if !space {
            tail = (countFromStart > 1 ? last : nil, char)
            trimmedCount = countFromStart
        }
        switch ascii {
        case UInt8(ascii: "!"): containsBang = true
        case UInt8(ascii: "?"): containsQuestionMark = true
        case UInt8(ascii: "&"): if lastASCII == UInt8(ascii: "&") { containsAndAnd = true }
        case UInt8(ascii: "|"): if lastASCII == UInt8(ascii: "|") { containsOrOr = true }
        default: break
        }
        last = char
        lastASCII = ascii
    }

    var isEmpty: Bool { trimmedCount == 0 }

    /// The trimmed text's first characters, at most `headLength`.
    private var trimmedHead: Substring { head.prefix(min(trimmedCount, headCount)) }

    /// Whether the trimmed text is `word` (at most `headLength` characters).
    func equals(_ word: String) -> Bool { trimmedCount == word.count && trimmedHead == word[...] }

    /// Whether the trimmed text starts with `prefix` (at most `headLength` characters).
    func hasPrefix(_ prefix: String) -> Bool { trimmedHead.hasPrefix(prefix) }

    /// Whether the trimmed text ends with `suffix` (one or two characters).
    func hasSuffix(_ suffix: String) -> Bool {
        let chars = Array(suffix)
        switch chars.count {
        case 1: return trimmedCount > 0 && tail.1 == chars[0]
        case 2: return trimmedCount > 1 && tail.0 == chars[0] && tail.1 == chars[1]
        default: preconditionFailure("hasSuffix keeps two characters")
        }
    }

    /// A space as `CharacterSet.whitespaces` has it (spaces and tabs, Unicode space separators).
    static func isSpace(_ char: Character) -> Bool {
        if char == " " || char == "\t" { return true }
        if char.isASCII { return false }
        return char.unicodeScalars.allSatisfy(CharacterSet.whitespaces.contains)
    }
}
