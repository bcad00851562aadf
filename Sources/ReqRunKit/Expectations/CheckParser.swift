import Foundation

/// Parses the check grammar (README, "Expectations and captures"):
///
///     check     = subject *( filter ) [ predicate ]
///     subject   = "status" | "url" | "redirects" | "httpVersion" | "body" | "bytes" | "sha256" | "md5"
///               | "duration" | "bodySize" | "timings." NAME | PATH | "jsonpath" STRING | "header" STRING
///               | "cookie" STRING | "regex" STRING | "xpath" STRING | "variable" STRING | "certificate" STRING
///     filter    = "count" | "first" | "last" | "nth" INTEGER | "toInt" | "toFloat" | "toString"
///               | "regex" STRING | "split" STRING | "replace" STRING STRING | "replaceRegex" STRING STRING
///               | "urlDecode" | "urlEncode"
///               | "base64Decode" | "base64Encode" | "jsonpath" STRING | "xpath" STRING | "toDate" STRING
///               | "daysBeforeNow" | "daysAfterNow" | "decode" STRING
///     predicate = [ "all" | "any" ] [ "not" ] ( ( "==" | "!=" | "<" | "<=" | ">" | ">=" | "equals" | "notEquals"
///               | "contains" | "startsWith" | "endsWith" | "includes" ) VALUE | "matches" STRING
///               | "exists" | "isEmpty" | TYPE )
///
/// PATH is a JSONPath starting with `$`, up to white space outside brackets and quotes. STRING is
/// `"…"` (JSON escapes) or `'…'` (`\'` and `\\` escape). VALUE is a JSON value (`3`, `"a"`, `true`,
/// `null`, `[1, 2]`, `{"a": 1}`) or a single-quoted string.
public enum CheckParser {
    /// Parses `text`. `capture` forbids a predicate, an expectation requires one.
    /// - Throws: `CheckSyntaxError` with the 0-based offset (Unicode scalars) and a hint.
    public static func parse(_ text: String, capture: Bool = false) throws(CheckSyntaxError) -> Check {
        var scanner = Scanner(text)
        let check = try scanner.check(capture: capture)
        return check
    }

    static let subjects = ["status", "url", "redirects", "httpVersion", "body", "bytes", "sha256", "md5", "duration", "bodySize",
                           "jsonpath", "xpath", "header", "cookie", "regex", "variable", "certificate"] + timingNames.map { "timings.\($0)" }
    static let timingNames = ["namelookup", "connect", "appconnect", "pretransfer", "starttransfer", "total"]
    static let filters = ["count", "first", "last", "nth", "toInt", "toFloat", "toString", "regex", "split", "replace", "replaceRegex", "urlDecode",
                          "urlEncode", "base64Decode", "base64Encode", "jsonpath", "xpath", "toDate", "daysBeforeNow", "daysAfterNow", "decode"]
    static let predicates = ["==", "!=", "<", "<=", ">", ">=", "equals", "notEquals", "contains", "startsWith", "endsWith", "includes",
                             "matches", "exists", "isEmpty", "all", "any"] + Check.Predicate.TypeTest.allCases.map(\.rawValue)

    /// `value` with every location set to 0:0, as a parsed check holds it.
    static func withoutLocations(_ value: JSONNode.Value) -> JSONNode.Value { Scanner.withoutLocations(value) }

    /// True when `path` can be written bare (no white space outside brackets, which would end it).
    static func isBarePath(_ path: String) -> Bool {
        var s = Scanner(path)
        return s.pathToken().count == path.unicodeScalars.count
    }

    private struct Scanner {
        let s: [Unicode.Scalar]
        var i = 0

        init(_ text: String) { s = Array(text.unicodeScalars) }

        var atEnd: Bool { i >= s.count }

        func error(_ reason: String, at offset: Int? = nil) -> CheckSyntaxError { CheckSyntaxError(offset: offset ?? i, reason: reason) }

        mutating func skipBlank() { while i < s.count, s[i].properties.isWhitespace { i += 1 } }

        /// A word: letters, digits, `_`, `.`, or an operator.
        mutating func word() -> (text: String, start: Int)? {
            skipBlank()
            let start = i
            guard i < s.count else { return nil }
            if "=!<>".unicodeScalars.contains(s[i]) {
                i += 1
                if i < s.count, s[i] == "=" { i += 1 }
                return (String(String.UnicodeScalarView(s[start..<i])), start)
            }
            while i < s.count, s[i].properties.isAlphabetic || ("0"..."9").contains(s[i]) || s[i] == "_" || s[i] == "." || s[i] == "-" { i += 1 }
            guard i > start else { return nil }
            return (String(String.UnicodeScalarView(s[start..<i])), start)
        }

        /// The scalars of a bare JSONPath: up to white space outside brackets, parentheses and quotes.
        mutating func pathToken() -> [Unicode.Scalar] {
            let start = i
            var depth = 0
            var quote: Unicode.Scalar?
            while i < s.count {
                let c = s[i]
                if let q = quote {
                    if c == "\\" { i += 2; continue }
                    if c == q { quote = nil }
                } else if c == "'" || c == "\"" {
                    quote = c
                } else if c == "[" || c == "(" {
                    depth += 1
                } else if c == "]" || c == ")" {
                    depth -= 1
                } else if depth <= 0, c.properties.isWhitespace {
                    break
                }
                i += 1
            }
            i = min(i, s.count)
            return Array(s[start..<i])
        }

        mutating func string(_ what: String) throws(CheckSyntaxError) -> String {
            skipBlank()
            guard i < s.count, s[i] == "\"" || s[i] == "'" else { throw error("expected \(what) in quotes (\"…\" or '…')") }
            let quote = s[i]
            let start = i
            i += 1
            var out = String.UnicodeScalarView()
            while true {
                guard i < s.count else { throw error("unterminated string", at: start) }
                let c = s[i]
                if c == quote { i += 1; return String(out) }
                guard c == "\\" else { out.append(c); i += 1; continue }
                guard i + 1 < s.count else { throw error("unterminated string", at: start) }
                let e = s[i + 1]
                i += 2
                if let unescaped = JSONPathParser.simpleEscape(e) { out.append(unescaped); continue }
                switch e {
                case "u" where quote == "\"":
                    guard i + 4 <= s.count, let v = UInt32(String(String.UnicodeScalarView(s[i..<i + 4])), radix: 16),
                          let scalar = Unicode.Scalar(v) else { throw error("expected four hexadecimal digits after \\u", at: i) }
                    out.append(scalar)
                    i += 4
                case "\"", "'": out.append(e)
                default:
                    // In a single-quoted string a backslash stays (regular expressions keep `\d`).
                    guard quote == "'" else { throw error("invalid escape '\\\(e)'", at: i - 2) }
                    out.append("\\")
                    out.append(e)
                }
            }
        }

        mutating func path(_ text: String, at offset: Int) throws(CheckSyntaxError) -> JSONPath {
            do {
                return try JSONPath(text)
            } catch {
                throw self.error("invalid JSONPath: \(error.reason)", at: offset + error.offset)
            }
        }

        mutating func xpath() throws(CheckSyntaxError) -> String {
            skipBlank()
            let start = i
            let expression = try string("an XPath expression")
            if let problem = XPathQuery.problem(expression) { throw error("\(problem) '\(expression)'", at: start) }
            return expression
        }

        mutating func regex(_ what: String) throws(CheckSyntaxError) -> String {
            skipBlank()
            let start = i
            let pattern = try string(what)
            do { _ = try NSRegularExpression(pattern: pattern) } catch { throw self.error("invalid regular expression '\(pattern)'", at: start) }
            return pattern
        }

        /// A JSON value, or a single-quoted string.
        mutating func value() throws(CheckSyntaxError) -> JSONNode.Value {
            skipBlank()
            guard i < s.count else { throw error("expected a value: a number, a string in quotes, true, false, null, a list or an object") }
            let start = i
            if s[i] == "'" { return .string(try string("a string")) }
            if s[i] == "\"" { return .string(try string("a string")) }
            var end = i
            if s[i] == "[" || s[i] == "{" {
                var depth = 0
                var inString = false
                while end < s.count {
                    let c = s[end]
                    if inString {
                        if c == "\\" { end += 1 } else if c == "\"" { inString = false }
                    } else if c == "\"" { inString = true } else if c == "[" || c == "{" { depth += 1 } else if c == "]" || c == "}" {
                        depth -= 1
                        if depth == 0 { end += 1; break }
                    }
                    end += 1
                }
            } else {
                while end < s.count, !s[end].properties.isWhitespace { end += 1 }
            }
            let text = String(String.UnicodeScalarView(s[start..<min(end, s.count)]))
            do {
                let node = try JSONParser.parse(Array(text.utf8))
                i = min(end, s.count)
                return Self.withoutLocations(node.value)
            } catch {
                throw self.error("expected a value: a number, a string in quotes, true, false, null, a list or an object; found '\(text)'", at: start)
            }
        }

        /// The value with every location set to 0:0, so that a check equals the one its text parses to.
        static func withoutLocations(_ value: JSONNode.Value) -> JSONNode.Value {
            switch value {
            case .array(let items): return .array(items.map { CheckValue.node(withoutLocations($0.value)) })
            case .object(let members):
                return .object(members.map { JSONNode.Member(key: $0.key, keyLocation: .init(line: 0, column: 0), value: CheckValue.node(withoutLocations($0.value.value))) })
            default: return value
            }
        }

        mutating func check(capture: Bool) throws(CheckSyntaxError) -> Check {
            skipBlank()
            let subject = try self.subject()
            var filters: [Check.Filter] = []
            var predicate: Check.Predicate?
            while true {
                let mark = i
                guard let (word, start) = word() else {
                    skipBlank()
                    if atEnd { break }
                    throw error("expected a filter or a predicate, found '\(s[i])'")
                }
                if let filter = try self.filter(word, start: start) {
                    filters.append(filter)
                    continue
                }
                i = mark
                guard !capture else {
                    throw error(Self.isPredicate(word)
                        ? "a capture takes a subject and filters, no predicate"
                        : unknown("filter", word, among: CheckParser.filters), at: start)
                }
                predicate = try self.predicate()
                skipBlank()
                guard atEnd else { throw error("unexpected text after the predicate; a check ends with its predicate") }
                break
            }
            if !capture, predicate == nil {
                throw error("a check ends with a predicate such as '== 200', 'contains \"x\"' or 'exists'")
            }
            return Check(subject: subject, filters: filters, predicate: predicate)
        }

        static func isPredicate(_ word: String) -> Bool { CheckParser.predicates.contains(word) || word == "not" }

        func unknown(_ kind: String, _ word: String, among names: [String]) -> String {
            var reason = "unknown \(kind) '\(word)'"
            if let guess = Suggestion.closest(to: word, among: names) { reason += " (did you mean '\(guess)'?)" }
            return reason
        }

        mutating func subject() throws(CheckSyntaxError) -> Check.Subject {
            skipBlank()
            let start = i
            if i < s.count, s[i] == "$" {
                let text = String(String.UnicodeScalarView(pathToken()))
                return .jsonpath(try path(text, at: start))
            }
            guard let (word, _) = word() else { throw error("a check starts with a subject: \(CheckParser.subjects.joined(separator: ", ")) or a JSONPath ($…)") }
            switch word {
            case "status": return .status
            case "url": return .url
            case "redirects": return .redirects
            case "httpVersion": return .httpVersion
            case "body": return .body
            case "bytes": return .bytes
            case "sha256": return .sha256
            case "md5": return .md5
            case "duration": return .duration
            case "bodySize": return .bodySize
            case "header": return .header(try string("a header field name"))
            case "regex": return .regex(try regex("a regular expression"))
            case "xpath": return .xpath(try xpath())
            case "certificate":
                skipBlank()
                let at = i
                let name = try string("a certificate field (\(Check.CertificateField.allCases.map(\.rawValue).joined(separator: ", ")))")
                let names = Check.CertificateField.allCases.map(\.rawValue)
                guard let field = Check.CertificateField.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else {
                    throw error(unknown("certificate field", name, among: names) + "; one of \(names.joined(separator: ", "))", at: at)
                }
                return .certificate(field)
            case "variable": return .variable(try string("a variable name"))
            case "jsonpath":
                skipBlank()
                let at = i + 1
                return .jsonpath(try path(try string("a JSONPath"), at: at))
            case "cookie":
                skipBlank()
                let at = i
                let spec = try string("a cookie name, with an attribute in brackets if wanted (\"session[Path]\")")
                return try cookie(spec, at: at)
            default:
                if word.hasPrefix("timings."), CheckParser.timingNames.contains(String(word.dropFirst(8))) {
                    return .timing(String(word.dropFirst(8)))
                }
                throw error(unknown("subject", word, among: CheckParser.subjects) + "; a check starts with one of \(CheckParser.subjects.joined(separator: ", ")) or a JSONPath ($…)", at: start)
            }
        }

        func cookie(_ spec: String, at offset: Int) throws(CheckSyntaxError) -> Check.Subject {
            guard let open = spec.firstIndex(of: "[") else {
                guard !spec.isEmpty else { throw error("expected a cookie name", at: offset) }
                return .cookie(name: spec, attribute: nil)
            }
            guard spec.hasSuffix("]") else { throw error("expected ']' after the cookie attribute", at: offset) }
            let name = String(spec[..<open])
            let attributeText = String(spec[spec.index(after: open)..<spec.index(before: spec.endIndex)])
            let names = Check.CookieAttribute.allCases.map(\.rawValue)
            let normalized = attributeText.lowercased().replacingOccurrences(of: "-", with: "")
            guard let attribute = Check.CookieAttribute.allCases.first(where: { $0.rawValue.lowercased().replacingOccurrences(of: "-", with: "") == normalized }) else {
                throw error(unknown("cookie attribute", attributeText, among: names) + "; one of \(names.joined(separator: ", "))", at: offset)
            }
            return .cookie(name: name, attribute: attribute)
        }

        /// The filter named `word` with its arguments, or nil when `word` is not a filter.
        mutating func filter(_ word: String, start: Int) throws(CheckSyntaxError) -> Check.Filter? {
            switch word {
            case "count": return .count
            case "first": return .first
            case "last": return .last
            case "nth":
                skipBlank()
                let at = i
                guard case .number(let text)? = try? value(), let n = Int(text) else { throw error("nth takes a whole number (0 is the first; negative counts from the end)", at: at) }
                return .nth(n)
            case "toInt": return .toInt
            case "toFloat": return .toFloat
            case "toString": return .toString
            case "regex": return .regex(try regex("a regular expression"))
            case "split": return .split(try string("a separator"))
            case "replace": return .replace(try string("the text to replace"), try string("its replacement"))
            case "replaceRegex": return .replaceRegex(try regex("a regular expression"), try string("its replacement (\"$1\" is the first group)"))
            case "urlDecode": return .urlDecode
            case "urlEncode": return .urlEncode
            case "base64Decode": return .base64Decode
            case "base64Encode": return .base64Encode
            case "jsonpath":
                skipBlank()
                let at = i + 1
                return .jsonpath(try path(try string("a JSONPath"), at: at))
            case "xpath": return .xpath(try xpath())
            case "toDate": return .toDate(try string("a strptime format such as \"%Y-%m-%d\""))
            case "decode": return .decode(try string("a charset name such as \"latin1\""))
            case "daysBeforeNow": return .daysBeforeNow
            case "daysAfterNow": return .daysAfterNow
            default:
                if Self.isPredicate(word) { return nil }
                throw error(unknown("filter or predicate", word, among: CheckParser.filters + CheckParser.predicates), at: start)
            }
        }

        mutating func predicate() throws(CheckSyntaxError) -> Check.Predicate {
            guard var (word, start) = word() else { throw error("expected a predicate") }
            var quantifier: Check.Predicate.Quantifier?
            if let q = Check.Predicate.Quantifier(rawValue: word) {
                quantifier = q
                guard let next = self.word() else { throw error("expected a predicate after '\(word)', which checks each item of a list ('\(word) > 0')") }
                (word, start) = next
            }
            var negated = false
            if word == "not" {
                negated = true
                guard let next = self.word() else { throw error("expected a predicate after 'not'") }
                (word, start) = next
            }
            if let q = Check.Predicate.Quantifier(rawValue: word) {
                throw error(quantifier != nil ? "one 'all' or 'any' per check"
                    : "'\(q.rawValue)' comes before 'not': write '\(q.rawValue) not …' (each item fails) or use the other quantifier", at: start)
            }
            let test: Check.Predicate.Test
            switch word {
            case "==", "equals": test = .compare(.equal, try value())
            case "!=", "notEquals": test = .compare(.notEqual, try value())
            case "<": test = .compare(.less, try value())
            case "<=": test = .compare(.lessOrEqual, try value())
            case ">": test = .compare(.greater, try value())
            case ">=": test = .compare(.greaterOrEqual, try value())
            case "contains": test = .contains(try value())
            case "startsWith": test = .startsWith(try value())
            case "endsWith": test = .endsWith(try value())
            case "includes": test = .includes(try value())
            case "matches": test = .matches(try regex("a regular expression"))
            case "exists": test = .exists
            case "isEmpty": test = .isEmpty
            default:
                guard let type = Check.Predicate.TypeTest(rawValue: word) else {
                    throw error(unknown("predicate", word, among: CheckParser.predicates), at: start)
                }
                test = .isType(type)
            }
            return Check.Predicate(negated: negated, quantifier: quantifier, test)
        }
    }
}

/// A check that cannot be parsed: `offset` counts Unicode scalars from 0 in the check's text.
public struct CheckSyntaxError: Error, Sendable, Equatable {
    public var offset: Int
    public var reason: String
}
