/// Parses RFC 9535 JSONPath text into a `JSONPathQuery`, checking the function types of §2.4.3 (a
/// comparison takes values, a test takes a logical or node-list function), so that a query that parses
/// is well-typed. Integers must lie in ±(2^53 − 1) and `-0` is not an index (§2.1).
struct JSONPathParser {
    private let s: [Unicode.Scalar]
    private var i = 0

    /// Parses a whole query, `$…`.
    /// - Throws: `JSONPathError` with the 0-based offset (in Unicode scalars) of the problem.
    static func parse(_ text: String) throws(JSONPathError) -> JSONPathQuery {
        var parser = JSONPathParser(s: Array(text.unicodeScalars))
        guard parser.peek == "$" else { throw JSONPathError(offset: 0, reason: "a path starts with '$'") }
        let query = try parser.query()
        guard parser.i == parser.s.count else { throw parser.error("unexpected '\(parser.s[parser.i])'; a segment starts with '.', '..' or '['") }
        return query
    }

    private init(s: [Unicode.Scalar]) { self.s = s }

    private var peek: Unicode.Scalar? { i < s.count ? s[i] : nil }
    private func peek(_ k: Int) -> Unicode.Scalar? { i + k < s.count ? s[i + k] : nil }
    private func error(_ reason: String, at offset: Int? = nil) -> JSONPathError { JSONPathError(offset: offset ?? i, reason: reason) }

    private mutating func skipBlank() {
        while let c = peek, c == " " || c == "\t" || c == "\n" || c == "\r" { i += 1 }
    }

    private mutating func expect(_ c: Unicode.Scalar, _ what: String) throws(JSONPathError) {
        guard peek == c else { throw error("expected \(what)") }
        i += 1
    }

    /// `$` or `@`, then segments (blank space allowed before each, §2.5).
    private mutating func query() throws(JSONPathError) -> JSONPathQuery {
        let relative = peek == "@"
        i += 1
        var segments: [JSONPathQuery.Segment] = []
        while true {
            let mark = i
            skipBlank()
            guard let c = peek, c == "." || c == "[" else { i = mark; break }
            segments.append(try segment())
        }
        return JSONPathQuery(relative: relative, segments: segments)
    }

    private mutating func segment() throws(JSONPathError) -> JSONPathQuery.Segment {
        if peek == "[" { return .init(descendant: false, selectors: try bracketed()) }
        i += 1 // "."
        var descendant = false
        if peek == "." { descendant = true; i += 1 }
        if peek == "[", descendant { return .init(descendant: true, selectors: try bracketed()) }
        if peek == "*" { i += 1; return .init(descendant: descendant, selectors: [.wildcard]) }
        guard let c = peek, Self.isNameFirst(c) else {
            throw error(descendant ? "expected a name, '*' or '[' after '..'" : "expected a name or '*' after '.'")
        }
        let start = i
        // `-` inside a name is an extension (RFC 9535 has none), kept from reqrun's first JSONPath: `$.content-type`.
        while let c = peek, Self.isNameFirst(c) || ("0"..."9").contains(c) || c == "-" { i += 1 }
        return .init(descendant: descendant, selectors: [.name(String(String.UnicodeScalarView(s[start..<i])))])
    }

    private static func isNameFirst(_ c: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(c) || ("A"..."Z").contains(c) || c == "_" || (0x80...0xD7FF).contains(c.value) || c.value >= 0xE000
    }

    /// `[ selector, selector … ]`.
    private mutating func bracketed() throws(JSONPathError) -> [JSONPathQuery.Selector] {
        i += 1
        var selectors: [JSONPathQuery.Selector] = []
        while true {
            skipBlank()
            selectors.append(try selector())
            skipBlank()
            if peek == "," { i += 1; continue }
            guard peek == "]" else { throw error(peek == nil ? "expected ']'" : "expected ',' or ']'") }
            i += 1
            return selectors
        }
    }

    private mutating func selector() throws(JSONPathError) -> JSONPathQuery.Selector {
        guard let c = peek else { throw error("expected a selector: a quoted name, '*', an index, a slice or '?'") }
        switch c {
        case "'", "\"": return .name(try string())
        case "*": i += 1; return .wildcard
        case "?":
            i += 1
            skipBlank()
            return .filter(try logicalOr())
        default:
            let start = i
            let first: Int? = (c == ":") ? nil : try integer()
            skipBlank()
            guard peek == ":" else {
                guard let first else { throw error("expected a selector", at: start) }
                return .index(first)
            }
            i += 1
            skipBlank()
            var end: Int?, step: Int?
            if let c = peek, c == "-" || ("0"..."9").contains(c) { end = try integer(); skipBlank() }
            if peek == ":" {
                i += 1
                skipBlank()
                if let c = peek, c == "-" || ("0"..."9").contains(c) { step = try integer() }
            }
            return .slice(start: first, end: end, step: step)
        }
    }

    /// `int = "0" / (["-"] DIGIT1 *DIGIT)` within ±(2^53 − 1) (RFC 9535 §2.1).
    private mutating func integer() throws(JSONPathError) -> Int {
        let start = i
        if peek == "-" { i += 1 }
        let digitsStart = i
        while let c = peek, ("0"..."9").contains(c) { i += 1 }
        let text = String(String.UnicodeScalarView(s[start..<i]))
        guard i > digitsStart else { throw error("expected a selector: a quoted name, '*', an index, a slice or '?'", at: start) }
        if s[digitsStart] == "0", i - digitsStart > 1 || digitsStart > start {
            throw error("an integer has no leading zeros and '-0' is not one", at: start)
        }
        guard let value = Int(text), abs(value) <= (1 << 53) - 1 else { throw error("an integer must lie within ±(2^53 − 1)", at: start) }
        return value
    }

    /// What JSON's one-character escapes stand for (`\b \f \n \r \t \/ \\`, RFC 8259 §7, which RFC 9535
    /// §2.3.1.1 and the check grammar's strings share); nil for any other character.
    static func simpleEscape(_ e: Unicode.Scalar) -> Unicode.Scalar? {
        switch e {
        case "b": "\u{08}"
        case "f": "\u{0C}"
        case "n": "\n"
        case "r": "\r"
        case "t": "\t"
        case "/": "/"
        case "\\": "\\"
        default: nil
        }
    }

    /// A single- or double-quoted string with JSON's escapes (RFC 9535 §2.3.1.1); `\'` only inside `'…'`.
    private mutating func string() throws(JSONPathError) -> String {
        let quote = s[i]
        i += 1
        var out = String.UnicodeScalarView()
        while true {
            guard let c = peek else { throw error("unterminated string") }
            if c == quote { i += 1; return String(out) }
            if c.value < 0x20 { throw error("a control character must be escaped in a string") }
            guard c == "\\" else { out.append(c); i += 1; continue }
            i += 1
            guard let e = peek else { throw error("unterminated string") }
            i += 1
            if let unescaped = Self.simpleEscape(e) { out.append(unescaped); continue }
            switch e {
            case "'" where quote == "'", "\"" where quote == "\"": out.append(e)
            case "u":
                let high = try hex4()
                if (0xD800...0xDBFF).contains(high) {
                    guard peek == "\\", peek(1) == "u" else { throw error("a high surrogate must be followed by a low one") }
                    i += 2
                    let low = try hex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw error("expected a low surrogate") }
                    out.append(Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!)
                } else {
                    guard let scalar = Unicode.Scalar(high) else { throw error("a lone low surrogate") }
                    out.append(scalar)
                }
            default: throw error("invalid escape '\\\(e)'", at: i - 2)
            }
        }
    }

    private mutating func hex4() throws(JSONPathError) -> UInt32 {
        guard i + 4 <= s.count, let value = UInt32(String(String.UnicodeScalarView(s[i..<i + 4])), radix: 16),
              s[i..<i + 4].allSatisfy({ $0.properties.isASCIIHexDigit }) else { throw error("expected four hexadecimal digits") }
        i += 4
        return value
    }

    // MARK: Filter expressions (RFC 9535 §2.3.5.1)

    private mutating func logicalOr() throws(JSONPathError) -> JSONPathQuery.LogicalExpression {
        var parts = [try logicalAnd()]
        while true {
            skipBlank()
            guard peek == "|", peek(1) == "|" else { break }
            i += 2
            skipBlank()
            parts.append(try logicalAnd())
        }
        return parts.count == 1 ? parts[0] : .or(parts)
    }

    private mutating func logicalAnd() throws(JSONPathError) -> JSONPathQuery.LogicalExpression {
        var parts = [try basic()]
        while true {
            skipBlank()
            guard peek == "&", peek(1) == "&" else { break }
            i += 2
            skipBlank()
            parts.append(try basic())
        }
        return parts.count == 1 ? parts[0] : .and(parts)
    }

    private mutating func basic() throws(JSONPathError) -> JSONPathQuery.LogicalExpression {
        let start = i
        if peek == "!" {
            i += 1
            skipBlank()
            if peek == "(" { return .not(try parenthesized()) }
            // `!` applies to a test only (§2.3.5.1), not to a comparison.
            let operand = try comparableOrTest()
            guard case .test(let test) = operand else { throw error("'!' applies to a test or a parenthesized expression", at: start) }
            return .not(test)
        }
        if peek == "(" { return try parenthesized() }
        switch try comparableOrTest() {
        case .test(let test):
            skipBlank()
            if comparisonOperatorAhead() { break }
            return test
        case .comparable(let left):
            skipBlank()
            return try comparison(left, start: start)
        }
        // A test followed by an operator: only a singular query or a value function may be compared.
        i = start
        guard case .comparable(let left) = try comparableOrTest(asComparable: true) else {
            throw error("only a singular query (names and indexes only) or a function returning a value can be compared", at: start)
        }
        skipBlank()
        return try comparison(left, start: start)
    }

    private mutating func parenthesized() throws(JSONPathError) -> JSONPathQuery.LogicalExpression {
        i += 1
        skipBlank()
        let inner = try logicalOr()
        skipBlank()
        try expect(")", "')'")
        return inner
    }

    private func comparisonOperatorAhead() -> Bool {
        guard let c = peek else { return false }
        return c == "<" || c == ">" || (c == "=" && peek(1) == "=") || (c == "!" && peek(1) == "=")
    }

    private mutating func comparison(_ left: JSONPathQuery.Comparable, start: Int) throws(JSONPathError) -> JSONPathQuery.LogicalExpression {
        let operatorStart = i
        var op: JSONPathQuery.ComparisonOperator
        switch (peek, peek(1)) {
        case ("=", "="): op = .equal; i += 2
        case ("!", "="): op = .notEqual; i += 2
        case ("<", "="): op = .lessOrEqual; i += 2
        case (">", "="): op = .greaterOrEqual; i += 2
        case ("<", _): op = .less; i += 1
        case (">", _): op = .greater; i += 1
        default: throw error("a literal, or a function returning a value, must be compared (==, !=, <, <=, >, >=)", at: operatorStart)
        }
        skipBlank()
        let rightStart = i
        guard case .comparable(let right) = try comparableOrTest(asComparable: true) else {
            throw error("only a singular query (names and indexes only) or a function returning a value can be compared", at: rightStart)
        }
        return .comparison(left, op, right)
    }

    private enum Operand {
        case test(JSONPathQuery.LogicalExpression)
        case comparable(JSONPathQuery.Comparable)
    }

    /// A literal, a query or a function call. A query or function is a test unless `asComparable`
    /// (then it must be singular, or of value type).
    private mutating func comparableOrTest(asComparable: Bool = false) throws(JSONPathError) -> Operand {
        let start = i
        guard let c = peek else { throw error("expected an expression") }
        if c == "@" || c == "$" {
            let query = try query()
            if asComparable {
                guard query.isSingular else { throw error("only a singular query (names and indexes only) can be compared", at: start) }
                return .comparable(.query(query))
            }
            return .test(.exists(query))
        }
        if ("a"..."z").contains(c), let call = try functionCall() {
            let type = Self.resultType(call.name)
            if asComparable {
                guard type == .value else { throw error("\(call.name)() does not return a value and cannot be compared", at: start) }
                return .comparable(.function(call))
            }
            guard type != .value else {
                // A value function is compared, never a test: look for the operator.
                return .comparable(.function(call))
            }
            return .test(.function(call))
        }
        return .comparable(.literal(try literal()))
    }

    /// A JSON literal: string (either quote), number, `true`, `false`, `null` (§2.3.5.1).
    private mutating func literal() throws(JSONPathError) -> JSONNode.Value {
        guard let c = peek else { throw error("expected a literal") }
        if c == "'" || c == "\"" { return .string(try string()) }
        for (word, value) in [("true", JSONNode.Value.bool(true)), ("false", .bool(false)), ("null", .null)] where matchesWord(word) {
            i += word.unicodeScalars.count
            return value
        }
        if c == "-" || ("0"..."9").contains(c) { return .number(try number()) }
        throw error("expected a literal (a string, a number, true, false or null), '@', '$' or a function")
    }

    private func matchesWord(_ word: String) -> Bool {
        let w = Array(word.unicodeScalars)
        guard i + w.count <= s.count, Array(s[i..<i + w.count]) == w else { return false }
        if let next = i + w.count < s.count ? s[i + w.count] : nil, Self.isNameFirst(next) || ("0"..."9").contains(next) { return false }
        return true
    }

    /// `number = (int / "-0") [frac] [exp]`: the text as written.
    private mutating func number() throws(JSONPathError) -> String {
        let start = i
        if peek == "-" { i += 1 }
        let digitsStart = i
        while let c = peek, ("0"..."9").contains(c) { i += 1 }
        guard i > digitsStart else { throw error("expected a number", at: start) }
        if s[digitsStart] == "0", i - digitsStart > 1 { throw error("a number has no leading zeros", at: start) }
        if peek == "." {
            i += 1
            let fraction = i
            while let c = peek, ("0"..."9").contains(c) { i += 1 }
            guard i > fraction else { throw error("expected digits after '.'") }
        }
        if peek == "e" || peek == "E" {
            i += 1
            if peek == "+" || peek == "-" { i += 1 }
            let exponent = i
            while let c = peek, ("0"..."9").contains(c) { i += 1 }
            guard i > exponent else { throw error("expected digits in the exponent") }
        }
        return String(String.UnicodeScalarView(s[start..<i]))
    }

    enum FunctionType { case value, logical, nodes }

    /// The five functions of RFC 9535 §2.4.4–2.4.8: their parameter types and result type.
    static let functions: [String: (parameters: [FunctionType], result: FunctionType)] = [
        "length": ([.value], .value),
        "count": ([.nodes], .value),
        "match": ([.value, .value], .logical),
        "search": ([.value, .value], .logical),
        "value": ([.nodes], .value),
    ]

    static func resultType(_ name: String) -> FunctionType { functions[name]?.result ?? .logical }

    /// `name(arguments)` when a function name and `(` follow; nil (nothing read) otherwise.
    private mutating func functionCall() throws(JSONPathError) -> JSONPathQuery.FunctionCall? {
        let start = i
        while let c = peek, ("a"..."z").contains(c) || c == "_" || ("0"..."9").contains(c) { i += 1 }
        guard peek == "(" else { i = start; return nil }
        let name = String(String.UnicodeScalarView(s[start..<i]))
        guard let signature = Self.functions[name] else {
            var reason = "unknown function '\(name)'; RFC 9535 defines length, count, match, search and value"
            if let guess = Suggestion.closest(to: name, among: Array(Self.functions.keys).sorted()) { reason += " (did you mean '\(guess)'?)" }
            throw error(reason, at: start)
        }
        i += 1
        var arguments: [JSONPathQuery.Argument] = []
        skipBlank()
        if peek != ")" {
            while true {
                skipBlank()
                let argumentStart = i
                guard arguments.count < signature.parameters.count else {
                    throw error("\(name)() takes \(signature.parameters.count) argument\(signature.parameters.count == 1 ? "" : "s")", at: argumentStart)
                }
                arguments.append(try argument(signature.parameters[arguments.count], function: name))
                skipBlank()
                if peek == "," { i += 1; continue }
                break
            }
        }
        skipBlank()
        try expect(")", "')' to close \(name)(")
        guard arguments.count == signature.parameters.count else {
            throw error("\(name)() takes \(signature.parameters.count) argument\(signature.parameters.count == 1 ? "" : "s")", at: start)
        }
        return .init(name: name, arguments: arguments)
    }

    /// An argument of the declared type (§2.4.3): a value is a literal, a singular query or a value
    /// function; nodes is a query; logical is a logical expression (a query there tests for existence).
    private mutating func argument(_ type: FunctionType, function: String) throws(JSONPathError) -> JSONPathQuery.Argument {
        let start = i
        switch type {
        case .nodes:
            guard peek == "@" || peek == "$" else {
                if ("a"..."z").contains(peek ?? " "), let call = try functionCall(), Self.resultType(call.name) == .nodes { return .function(call) }
                throw error("\(function)() takes a query ('@…' or '$…')", at: start)
            }
            return .query(try query())
        case .value:
            switch try comparableOrTest(asComparable: peek == "@" || peek == "$") {
            case .comparable(.literal(let value)): return .literal(value)
            case .comparable(.query(let query)): return .query(query)
            case .comparable(.function(let call)): return .function(call)
            case .test: throw error("\(function)() takes a value here: a literal, a singular query or a function returning a value", at: start)
            }
        case .logical:
            return .logical(try logicalOr())
        }
    }
}
