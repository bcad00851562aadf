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

    static func scan(_ lines: [String]) -> [Check] {
        var checks: [Check] = []
        var stack: [Block] = []
        var statement = ""  // the current statement's text so far, across lines
        for (index, line) in lines.enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("//") { continue }
            // Where each character stands: the blocks open and the statement text before it.
            var states: [Int: (conditional: Bool, test: Bool, statement: String)] = [:]
            var quote: Character?
            var previous: Character = " "
            let chars = Array(line)
            var offset = 0
            for (i, char) in chars.enumerated() {
                defer { offset += String(char).utf16.count; previous = char }
                states[offset] = (stack.contains(.conditional), stack.contains(.test), statement)
                if let q = quote {
                    statement.append(char)
                    if char == q && previous != "\\" { quote = nil }
                    continue
                }
                if char == "/" && i + 1 < chars.count && chars[i + 1] == "/" { break }
                switch char {
                case "\"", "'", "`":
                    quote = char
                    statement.append(char)
                case "{":
                    stack.append(blockKind(statement))
                    statement = ""
                case "}":
                    _ = stack.popLast()
                    statement = ""
                case ";":
                    statement = ""
                default:
                    statement.append(char)
                }
            }
            statement.append(" ")
            let range = NSRange(line.startIndex..., in: line)
            for (pattern, meaning) in assertions {
                for match in pattern.matches(in: line, range: range) {
                    guard let state = states[match.range.location], !state.conditional,
                          let value = Range(match.range(at: 1), in: line), let (codes, classes) = meaning(String(line[value])),
                          let whole = Range(match.range, in: line),
                          !isGuarded(before: state.statement, after: line[whole.upperBound...]) else { continue }
                    checks.append(Check(line: index, codes: codes, classes: classes, statement: String(line[whole])))
                }
            }
            for match in comparison.matches(in: line, range: range) {
                guard let state = states[match.range.location], !state.conditional,
                      let value = Range(match.range(at: 1), in: line), let whole = Range(match.range, in: line) else { continue }
                let before = state.statement.trimmingCharacters(in: .whitespaces)
                let after = line[whole.upperBound...].trimmingCharacters(in: .whitespaces)
                let standsAlone = (state.test && (before.isEmpty || before == "return" || before.hasSuffix("=>")))
                    || (before.hasPrefix("tests[") && before.hasSuffix("="))
                    || (before.hasPrefix("pm.test(") && before.hasSuffix("=>"))
                let ends = after.isEmpty || after.first == ";" || after.first == "}" || after.first == ")"
                guard standsAlone, ends, !before.contains("!"), !after.hasPrefix("&&"), !after.hasPrefix("||"), !after.hasPrefix("?") else { continue }
                checks.append(Check(line: index, codes: [Int(line[value])!], classes: [],
                                    statement: String(line[whole]).trimmingCharacters(in: CharacterSet(charactersIn: "() "))))
            }
        }
        return checks.sorted { ($0.line, $0.statement) < ($1.line, $1.statement) }
    }

    /// Whether an assertion runs only under a condition written in the same statement: a brace-less
    /// `if (…)`/`else`/loop before it, or `&&`, `||`, `?`, `!` around it.
    private static func isGuarded(before: String, after: Substring) -> Bool {
        let head = withoutQuotedText(before).trimmingCharacters(in: .whitespaces)
        let tail = after.trimmingCharacters(in: .whitespaces)
        let conditionalStart = ["if", "if(", "else", "while", "while(", "for", "for(", "do"].contains { head == $0 || head.hasPrefix($0 + " ") || head.hasPrefix($0 + "(") }
        return conditionalStart || head.contains("&&") || head.contains("||") || head.contains("?") || head.hasSuffix("!")
            || tail.hasPrefix("&&") || tail.hasPrefix("||") || tail.hasPrefix("?")
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
