/// A JSON syntax error with the place it was found.
public struct JSONSyntaxError: Error, Sendable, Equatable {
    public var location: SourceLocation
    /// What was wrong, e.g. "expected ',' or '}' after an object member".
    public var reason: String
}

/// Parses RFC 8259 JSON into `JSONNode`s that remember their source location.
///
/// Foundation's `JSONSerialization` loses positions, member order and number text; collections need all
/// three (errors name `file:line:column`, bodies are sent exactly as written). Strict: no comments, no
/// trailing commas, no leading zeros; nesting deeper than `maximumDepth` is an error rather than a crash.
public struct JSONParser {
    /// How deep arrays and objects may nest (a guard against stack exhaustion on hostile input).
    public static let maximumDepth = 512

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private var depth = 0

    /// Parses one JSON text (a single value with optional surrounding white space).
    /// - Throws: `JSONSyntaxError` naming line and column of the first problem.
    public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONNode {
        var parser = JSONParser(bytes: bytes)
        // A UTF-8 byte order mark is tolerated (RFC 8259 §8.1 allows parsers to ignore it).
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3; parser.lineStart = 3 }
        parser.skipWhitespace()
        let node = try parser.parseValue()
        parser.skipWhitespace()
        if parser.index < bytes.count {
            throw parser.error("unexpected \(parser.describeCurrent()) after the JSON value")
        }
        return node
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private var location: SourceLocation { SourceLocation(line: line, column: index - lineStart + 1) }

    private func error(_ reason: String) -> JSONSyntaxError { JSONSyntaxError(location: location, reason: reason) }

    private func describeCurrent() -> String {
        guard index < bytes.count else { return "end of file" }
        let b = bytes[index]
        if b >= 0x21 && b < 0x7F { return "character '\(Character(UnicodeScalar(b)))'" }
        return "byte 0x" + String(b, radix: 16, uppercase: true)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D: index += 1
            case 0x0A: index += 1; line += 1; lineStart = index
            default: return
            }
        }
    }

    private mutating func parseValue() throws(JSONSyntaxError) -> JSONNode {
        let start = location
        guard index < bytes.count else { throw error("expected a value, found end of file") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return JSONNode(value: try parseObject(), location: start)
        case UInt8(ascii: "["): return JSONNode(value: try parseArray(), location: start)
        case UInt8(ascii: "\""): return JSONNode(value: .string(try parseString()), location: start)
        case UInt8(ascii: "t"): try expectLiteral("true"); return JSONNode(value: .bool(true), location: start)
        case UInt8(ascii: "f"): try expectLiteral("false"); return JSONNode(value: .bool(false), location: start)
        case UInt8(ascii: "n"): try expectLiteral("null"); return JSONNode(value: .null, location: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONNode(value: .number(try parseNumber()), location: start)
        default:
            throw error("expected a value, found \(describeCurrent())")
        }
    }

    private mutating func expectLiteral(_ word: String) throws(JSONSyntaxError) {
        let start = location
        for expected in word.utf8 {
            guard index < bytes.count, bytes[index] == expected else {
                throw JSONSyntaxError(location: start, reason: "invalid literal: expected '\(word)'")
            }
            index += 1
        }
    }

    private mutating func enterContainer() throws(JSONSyntaxError) {
        depth += 1
        if depth > JSONParser.maximumDepth { throw error("nesting deeper than \(JSONParser.maximumDepth) levels") }
    }

    private mutating func parseObject() throws(JSONSyntaxError) -> JSONNode.Value {
        try enterContainer()
        defer { depth -= 1 }
        index += 1  // {
        var members: [JSONNode.Member] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("expected a string key, found \(describeCurrent())")
            }
            let keyLocation = location
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("expected ':' after the key \"\(key)\", found \(describeCurrent())")
            }
            index += 1
            skipWhitespace()
            let value = try parseValue()
            members.append(JSONNode.Member(key: key, keyLocation: keyLocation, value: value))
            skipWhitespace()
            guard index < bytes.count else { throw error("expected ',' or '}', found end of file") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
            throw error("expected ',' or '}' after an object member, found \(describeCurrent())")
        }
    }

    private mutating func parseArray() throws(JSONSyntaxError) -> JSONNode.Value {
        try enterContainer()
        defer { depth -= 1 }
        index += 1  // [
        var items: [JSONNode] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
        while true {
            skipWhitespace()
            items.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw error("expected ',' or ']', found end of file") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
            throw error("expected ',' or ']' after an array element, found \(describeCurrent())")
        }
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> String {
        let start = index
        func digits(_ p: inout JSONParser) -> Int {
            let s = p.index
            while p.index < p.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(p.bytes[p.index]) { p.index += 1 }
            return p.index - s
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else {
            throw error("expected a digit in a number")
        }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                throw error("a number may not have a leading zero")
            }
        } else {
            _ = digits(&self)
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            if digits(&self) == 0 { throw error("expected a digit after the decimal point") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            if digits(&self) == 0 { throw error("expected a digit in the exponent") }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        index += 1  // opening quote
        // Fast path: no escape before the closing quote, so the string is the bytes themselves.
        let start = index
        let fast: String?? = bytes.withUnsafeBufferPointer { buffer in
            var end = start
            let count = buffer.count
            while end < count {
                let b = buffer[end]
                if b == 0x22 || b == 0x5C || b < 0x20 { break }
                end += 1
            }
            guard end < count, buffer[end] == 0x22 else { return .none }
            return .some(String(validating: UnsafeBufferPointer(rebasing: buffer[start..<end]), as: UTF8.self).map { text in
                index = end + 1
                return text
            })
        }
        if case .some(.some(let text)) = fast { return text }
        var scalars = String.UnicodeScalarView()
        var runStart = index
        func flushRun(_ p: JSONParser, upTo end: Int, into s: inout String.UnicodeScalarView) throws(JSONSyntaxError) {
            guard runStart < end else { return }
            guard let text = String(validating: p.bytes[runStart..<end], as: UTF8.self) else {
                throw JSONSyntaxError(location: p.location, reason: "a string holds bytes that are not UTF-8")
            }
            s.append(contentsOf: text.unicodeScalars)
        }
        while true {
            guard index < bytes.count else { throw error("unterminated string") }
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                try flushRun(self, upTo: index, into: &scalars)
                index += 1
                return String(scalars)
            }
            if b < 0x20 {
                throw error(b == 0x0A ? "unterminated string (a line break must be written \\n)"
                                       : "a control character in a string must be escaped")
            }
            if b != UInt8(ascii: "\\") { index += 1; continue }
            try flushRun(self, upTo: index, into: &scalars)
            index += 1
            guard index < bytes.count else { throw error("unterminated string") }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                let unit = try parseHex4()
                if (0xD800...0xDBFF).contains(unit) {
                    // A high surrogate must be followed by an escaped low surrogate (RFC 8259 §7).
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                        throw error("a high surrogate \\u escape must be followed by a low surrogate")
                    }
                    index += 2
                    let low = try parseHex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw error("invalid low surrogate in \\u escape") }
                    scalars.append(UnicodeScalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))!)
                } else if let scalar = UnicodeScalar(unit) {
                    scalars.append(scalar)
                } else {
                    throw error("a lone low surrogate in \\u escape")
                }
            default:
                index -= 1
                throw error("invalid escape \\\(Character(UnicodeScalar(escape)))")
            }
            runStart = index
        }
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count, let digit = JSONParser.hexValue(bytes[index]) else {
                throw error("expected four hex digits after \\u")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return b - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return b - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return b - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
