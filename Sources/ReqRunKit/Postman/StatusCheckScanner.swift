import Foundation

/// Finds the status-code checks of a Postman test script that are safe to translate (see `PostmanScripts`).
///
/// Not a JavaScript parser: it follows string literals, `//` comments and braces well enough to know
/// whether a check sits inside a conditional block (`if`, `else`, `for`, `while`, `do`, `switch`, `catch`),
/// inside a `pm.test` callback, or at the top level of the script.
enum StatusCheckScanner {
    struct Check: Equatable {
        /// Index of the line the check is on.
        var line: Int
        var codes: [Int]
        var classes: [Int]
        /// The statement as written, e.g. `pm.response.to.have.status(200)`.
        var statement: String
    }

    private static let code = #"(?:pm\.response\.code|responseCode\.code)"#
    /// Checks that assert by themselves (a chai assertion): translated anywhere outside a conditional block.
    private static let assertions: [(NSRegularExpression, @Sendable (String) -> ([Int], [Int])?)] = [
        (regex(#"pm\.response\.to\.have\.status\(\s*(\d{3})\s*\)"#), { ([Int($0)!], []) }),
        (regex(#"pm\.expect\(\s*\#(code)\s*\)\.to\.(?:be\.)?(?:eql|equal|equals|eq)\(\s*(\d{3})\s*\)"#), { ([Int($0)!], []) }),
        (regex(#"pm\.expect\(\s*\#(code)\s*\)\.to\.be\.oneOf\(\s*\[\s*(\d{3}(?:\s*,\s*\d{3})*)\s*\]\s*\)"#), { list in
            (list.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces))! }, [])
        }),
        (regex(#"pm\.response\.to\.be\.([A-Za-z]+)\b(?!\s*[(.\w])"#), { name in namedStatus[name] }),
    ]
    /// A comparison, which asserts only as the whole value of a `pm.test` callback or a `tests[…]` entry.
    private static let comparison = regex(#"\(?\s*\#(code)\s*===?\s*(\d{3})\s*\)?"#)

    /// chai-postman's named response assertions.
    static let namedStatus: [String: ([Int], [Int])] = [
        "ok": ([200], []), "accepted": ([202], []), "badRequest": ([400], []), "unauthorized": ([401], []),
        "forbidden": ([403], []), "notFound": ([404], []), "rateLimited": ([429], []),
        "info": ([], [1]), "success": ([], [2]), "redirection": ([], [3]), "clientError": ([], [4]), "serverError": ([], [5]),
        "error": ([], [4, 5]),
    ]

    private static func regex(_ pattern: String) -> NSRegularExpression { try! NSRegularExpression(pattern: pattern) }

    private enum Block { case conditional, test, plain }

    /// The checks of a script given as its lines. Time and memory are linear in the script's length: what
    /// the rules need to know about the text before a check is kept in a `StatementSummary`, taken only
    /// where a pattern matched.
    ///
    /// Scanned once per distinct script: collections repeat the same test script on many requests, and a
    /// scan (Foundation's regular expressions on each line) cost about 430,000 instructions, 70 % of loading
    /// 1,000 requests that share one script (callgrind).
    static func scan(_ lines: [String]) -> [Check] {
        if let known = Cache.shared.checks(lines) { return known }
        let checks = uncachedScan(lines)
        Cache.shared.remember(checks, for: lines)
        return checks
    }

    /// Scans of the scripts seen so far, by their lines (collections load on up to two threads).
    private final class Cache: @unchecked Sendable {
        static let shared = Cache()
        private let lock = NSLock()
        private var byLines: [[String]: [Check]] = [:]

        func checks(_ lines: [String]) -> [Check]? {
            lock.lock()
            defer { lock.unlock() }
            return byLines[lines]
        }

        func remember(_ checks: [Check], for lines: [String]) {
            lock.lock()
            defer { lock.unlock() }
            byLines[lines] = checks
        }
    }

    /// Whether `line` holds `response`, which each pattern needs (`pm.response`, `responseCode`): a line
    /// without it is not given to the regular expressions.
    private static func mayMatch(_ line: String) -> Bool {
        let needle = Array("response".utf8)
        var line = line
        return line.withUTF8 { bytes in
            guard bytes.count >= needle.count else { return false }
            for start in 0...(bytes.count - needle.count) where bytes[start] == needle[0] {
                if (1..<needle.count).allSatisfy({ bytes[start + $0] == needle[$0] }) { return true }
            }
            return false
        }
    }

    private static func uncachedScan(_ lines: [String]) -> [Check] {
        var checks: [Check] = []
        var stack: [Block] = []
        var conditionalDepth = 0, testDepth = 0  // how many of the blocks on the stack are of each kind
        var statement = StatementSummary()  // the current statement so far, across lines
        for (index, line) in lines.enumerated() {
            // A comment line: `//` after spaces and tabs (CharacterSet.whitespaces: tab and Unicode's Zs).
            let start = line.unicodeScalars.drop { $0 == "\t" || $0.properties.generalCategory == .spaceSeparator }
            if start.starts(with: "//".unicodeScalars) { continue }
            let range = NSRange(line.startIndex..., in: line)
            let matching = mayMatch(line)
            let assertionMatches = matching ? assertions.map { ($0.1, $0.0.matches(in: line, range: range)) } : []
            let comparisonMatches = matching ? comparison.matches(in: line, range: range) : []
            // Match starts in UTF-16 offsets (NSRange), in order, to meet while walking the line.
            let starts = Set(assertionMatches.flatMap { $0.1.map(\.range.location) } + comparisonMatches.map(\.range.location)).sorted()
            var nextStart = 0
            // Where each match stands (by UTF-16 offset): inside which blocks, after what statement text (its
            // summaries only: a copy of the text itself at each match would make many matches quadratic again).
            var states: [Int: (conditional: Bool, test: Bool, raw: TrimmedTextSummary, unquoted: TrimmedTextSummary)] = [:]
            var quote: UInt8?
            var previous: UInt8 = 0x20
            var offset = 0  // in UTF-16 code units, as NSRange counts
            let bytes = Array(line.utf8)
            var i = 0
            walk: while i < bytes.count {
                let byte = bytes[i]
                defer {
                    // A UTF-16 unit per scalar, two for one beyond U+FFFF (a 4-byte sequence); none for continuation bytes.
                    offset += byte & 0xC0 == 0x80 ? 0 : byte >= 0xF0 ? 2 : 1
                    previous = byte
                    i += 1
                }
                while nextStart < starts.count, starts[nextStart] < offset { nextStart += 1 }
                if nextStart < starts.count, starts[nextStart] == offset, byte & 0xC0 != 0x80 {
                    states[offset] = (conditionalDepth > 0, testDepth > 0, statement.raw, statement.unquoted)
                }
                if let q = quote {
                    statement.append(byte)
                    if byte == q && previous != UInt8(ascii: "\\") { quote = nil }
                    continue
                }
                switch byte {
                case UInt8(ascii: "/") where i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "/"):
                    break walk  // a comment to the end of the line
                case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "`"):
                    quote = byte
                    statement.append(byte)
                case UInt8(ascii: "{"):
                    let kind = blockKind(statement.text)
                    stack.append(kind)
                    if kind == .conditional { conditionalDepth += 1 } else if kind == .test { testDepth += 1 }
                    statement.reset()
                case UInt8(ascii: "}"):
                    let kind = stack.popLast()
                    if kind == .conditional { conditionalDepth -= 1 } else if kind == .test { testDepth -= 1 }
                    statement.reset()
                case UInt8(ascii: ";"):
                    statement.reset()
                default:
                    statement.append(byte)
                }
            }
            statement.append(0x20)
            for (meaning, matches) in assertionMatches {
                for match in matches {
                    guard let state = states[match.range.location], !state.conditional,
                          let value = Range(match.range(at: 1), in: line), let (codes, classes) = meaning(String(line[value])),
                          let whole = Range(match.range, in: line),
                          !isGuarded(before: state.unquoted, after: line[whole.upperBound...]) else { continue }
                    checks.append(Check(line: index, codes: codes, classes: classes, statement: String(line[whole])))
                }
            }
            for match in comparisonMatches {
                guard let state = states[match.range.location], !state.conditional,
                      let value = Range(match.range(at: 1), in: line), let whole = Range(match.range, in: line) else { continue }
                let before = state.raw
                let after = withoutLeadingSpaces(line[whole.upperBound...])
                let standsAlone = (state.test && (before.isEmpty || before.equals("return") || before.hasSuffix("=>")))
                    || (before.hasPrefix("tests[") && before.hasSuffix("="))
                    || (before.hasPrefix("pm.test(") && before.hasSuffix("=>"))
                let ends = after.isEmpty || after.first == ";" || after.first == "}" || after.first == ")"
                guard standsAlone, ends, !before.containsBang, !after.hasPrefix("&&"), !after.hasPrefix("||"), !after.hasPrefix("?") else { continue }
                checks.append(Check(line: index, codes: [Int(line[value])!], classes: [],
                                    statement: String(line[whole]).trimmingCharacters(in: CharacterSet(charactersIn: "() "))))
            }
        }
        return checks.sorted { ($0.line, $0.statement) < ($1.line, $1.statement) }
    }

    /// Whether an assertion runs only under a condition written in the same statement: a brace-less
    /// `if (…)`/`else`/loop before it, or `&&`, `||`, `?`, `!` around it.
    /// - Parameter before: the statement before the assertion, quoted text left out.
    private static func isGuarded(before head: TrimmedTextSummary, after: Substring) -> Bool {
        let tail = withoutLeadingSpaces(after)
        let conditionalStart = ["if", "if(", "else", "while", "while(", "for", "for(", "do"].contains { head.equals($0) || head.hasPrefix($0 + " ") || head.hasPrefix($0 + "(") }
        return conditionalStart || head.containsAndAnd || head.containsOrOr || head.containsQuestionMark || head.hasSuffix("!")
            || tail.hasPrefix("&&") || tail.hasPrefix("||") || tail.hasPrefix("?")
    }

    /// `text` from its first character that is not a space or tab (what follows a check: only its first
    /// characters are read, so a long line is not copied for each check on it).
    private static func withoutLeadingSpaces(_ text: Substring) -> Substring {
        text.drop(while: { $0 == " " || $0 == "\t" })
    }

    /// `text` with the inside of each quoted string ('…', "…" or `…`, backslash escapes included) left
    /// out: quoted text (a test's name such as "is it ok?") says nothing about conditions.
    static func withoutQuotedText(_ text: String) -> String {
        var out = ""
        var quote: Character?
        var escaped = false
        for char in text {
            if let q = quote {
                if escaped { escaped = false } else if char == "\\" { escaped = true } else if char == q { quote = nil; out.append(char) }
                continue
            }
            if char == "\"" || char == "'" || char == "`" { quote = char }
            out.append(char)
        }
        return out
    }

    /// What a block opened after `header` is: a conditional branch, a `pm.test` callback or anything else.
    private static func blockKind(_ header: String) -> Block {
        let text = withoutQuotedText(header).trimmingCharacters(in: .whitespacesAndNewlines)
        for keyword in ["if", "else", "for", "while", "do", "switch", "catch", "case", "default"] {
            if text == keyword || text.hasPrefix(keyword + " ") || text.hasPrefix(keyword + "(") { return .conditional }
        }
        if text.contains("?") || text.contains("&&") || text.contains("||") { return .conditional }
        if text.hasPrefix("pm.test(") || text.hasPrefix("pm.test (") { return .test }
        return .plain
    }
}
