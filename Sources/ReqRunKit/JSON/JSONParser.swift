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
public struct JSONParser: ~Copyable {
    /// How deep arrays and objects may nest (a guard against stack exhaustion on hostile input).
    public static let maximumDepth = 512

    /// The text being parsed; it outlives the parser (`parse` holds the array's storage for the call).
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private var depth = 0
    /// Children of the containers being parsed, innermost container's last; each container takes its own
    /// as one array of its exact size when it closes (see `MoveStack`).
    private var members = MoveStack<JSONNode.Member>()
    private var items = MoveStack<JSONNode>()
    /// The decoded bytes of a string with escapes, reused from string to string.
    private var unescaped: [UInt8] = []
    /// The root object's member whose array elements go to `sink` (see `parse(_:streamingElementsOf:to:)`);
    /// nil once its first array has been streamed, or when nothing is streamed.
    private var streamedKey: String?
    private var sink: ((consuming JSONNode, Int) -> Void)?
    /// Asked at the start of each streamed element but the first (see `parse(_:streamingElementsOf:to:handover:)`).
    private var handover: ((JSONSplitPoint) -> Handover?)?
    /// The root's members after the streamed array, once `handover` answered with them (an empty array from
    /// `parseRest`'s `stop`); the parse ends there.
    private var tail: [JSONNode.Member]?

    /// What another parser did from a streamed element on (`parse(_:streamingElementsOf:to:handover:)`).
    enum Handover {
        /// It parsed the rest of the text: these are the root's members after the streamed array.
        case rest([JSONNode.Member])
        /// It parsed the elements up to this place (each to its own sink), and stopped there: the parse goes on
        /// from it, with its state.
        case resume(at: JSONSplitPoint)
    }

    /// Parses one JSON text (a single value with optional surrounding white space), in UTF-8, or in UTF-16
    /// with a byte order mark (`UTF16Text`).
    /// - Throws: `JSONSyntaxError` naming line and column of the first problem.
    public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONNode {
        if UTF16Text.byteOrder(bytes).isUTF16 || UTF16Text.unmarkedHint(bytes) != nil { return try parse(try UTF16Text.utf8(bytes)) }
        let result = bytes.withUnsafeBufferPointer { buffer -> Result<JSONNode, JSONSyntaxError> in
            var parser = JSONParser(bytes: buffer)
            do throws(JSONSyntaxError) { return .success(try parser.parseText()) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Parses one JSON text as `parse(_:)` does, except that when the root is an object, each element of the
    /// array that is the value of its first member named `key` is handed to `sink` with its index as soon
    /// as it is parsed, and is not kept: that member's value in the returned tree is an empty array (at the
    /// array's place). A caller that makes its own values of each element then never holds the whole tree,
    /// and the memory of one element is reused for the next (`CollectionDecoder`, a collection's groups).
    /// A `null`, an object or a second member of that name is parsed as usual.
    ///
    /// The text is checked to its end whatever `sink` does: a syntax error anywhere is thrown, even after
    /// elements went to `sink`.
    /// - Throws: `JSONSyntaxError` naming line and column of the first problem, as `parse(_:)`.
    static func parse(_ bytes: [UInt8], streamingElementsOf key: String,
                      to sink: (consuming JSONNode, Int) -> Void) throws(JSONSyntaxError) -> JSONNode {
        if UTF16Text.byteOrder(bytes).isUTF16 || UTF16Text.unmarkedHint(bytes) != nil {
            return try parse(try UTF16Text.utf8(bytes), streamingElementsOf: key, to: sink)
        }
        let result = bytes.withUnsafeBufferPointer { buffer -> Result<JSONNode, JSONSyntaxError> in
            do throws(JSONSyntaxError) {
                return .success(try parse(buffer, streamingElementsOf: key, to: sink, handover: { _ in nil }))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// `parse(_:streamingElementsOf:to:)` on the text's UTF-8 bytes, which may also stop at the start of a streamed
    /// element or skip elements: `handover` is asked at each one but the first, with the parser's place and state
    /// there. When it answers `.rest` (the members another parser read from there on, `parseRest`), the parse
    /// stops: the array ends there, the root object ends with those members, and the text is taken as checked to
    /// its end. When it answers `.resume(at:)` (another parser read the elements up to that place), the parse goes
    /// on from that place as if it had read them, with that element index, line and line start; `handover` is
    /// asked again at the next elements.
    /// - Throws: `JSONSyntaxError` naming line and column of the first problem before the parse stopped.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, streamingElementsOf key: String, to sink: (consuming JSONNode, Int) -> Void,
                      handover: (JSONSplitPoint) -> Handover?) throws(JSONSyntaxError) -> JSONNode {
        try withoutActuallyEscaping(sink) { sink throws(JSONSyntaxError) in
            try withoutActuallyEscaping(handover) { handover throws(JSONSyntaxError) in
                var parser = JSONParser(bytes: bytes)
                parser.streamedKey = key
                parser.sink = sink
                parser.handover = handover
                return try parser.parseText()
            }
        }
    }

    /// The rest of a text from `point` on, as the streaming parse that reached `point` would parse it: the
    /// streamed array's elements from `point.element` on (each to `sink`), the root object's members after
    /// the array, and the end of the text. Line and column numbers are those of the whole text.
    /// - Parameter stop: asked before each element (`point`'s first), with the place and state there; true stops
    ///   the parse before that element (the result is then nil).
    /// - Returns: the root's members after the streamed array, nil when stopped.
    /// - Throws: `JSONSyntaxError` for the first problem from `point` on.
    static func parseRest(_ bytes: UnsafeBufferPointer<UInt8>, from point: JSONSplitPoint, to sink: (consuming JSONNode, Int) -> Void,
                          stop: (JSONSplitPoint) -> Bool) throws(JSONSyntaxError) -> [JSONNode.Member]? {
        try withoutActuallyEscaping(sink) { sink throws(JSONSyntaxError) in
            try withoutActuallyEscaping(stop) { stop throws(JSONSyntaxError) in
                var parser = JSONParser(bytes: bytes)
                parser.index = point.offset
                parser.line = point.line
                parser.lineStart = point.lineStart
                parser.depth = 2  // the root object and its array
                parser.sink = sink
                parser.handover = { stop($0) ? .rest([]) : nil }
                _ = try parser.parseElements(from: 0, streamed: true, element: point.element)
                if parser.tail != nil { return nil }
                parser.depth = 1
                guard case .object(let members) = try parser.parseMembers(from: 0, afterAMember: true) else { return nil }
                parser.depth = 0
                parser.skipWhitespace()
                if parser.index < bytes.count { throw parser.error("unexpected \(parser.describeCurrent()) after the JSON value") }
                return members
            }
        }
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    private mutating func parseText() throws(JSONSyntaxError) -> JSONNode {
        // A UTF-8 byte order mark is tolerated (RFC 8259 §8.1 allows parsers to ignore it).
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3; lineStart = 3 }
        skipWhitespace()
        let node = try parseValue()
        if tail != nil { return node }  // handed over: the rest was checked by the parser that read it
        skipWhitespace()
        if index < bytes.count {
            throw error("unexpected \(describeCurrent()) after the JSON value")
        }
        return node
    }

    private var location: SourceLocation { SourceLocation(line: line, column: index - lineStart + 1) }

    private func error(_ reason: String) -> JSONSyntaxError { JSONSyntaxError(location: location, reason: reason) }

    private func describeCurrent() -> String {
        guard index < bytes.count else { return "end of file" }
        let b = bytes[index]
        if b >= 0x21 && b < 0x7F { return "character '\(Character(UnicodeScalar(b)))'" }
        return "byte 0x" + String(b, radix: 16, uppercase: true)
    }

    @inline(__always)  // in every loop of the parser
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
        case UInt8(ascii: "\""):
            var isASCII = false
            return JSONNode(value: .string(try parseString(isASCII: &isASCII)), location: start)
        case UInt8(ascii: "t"): try expectLiteral("true"); return JSONNode(value: .bool(true), location: start)
        case UInt8(ascii: "f"): try expectLiteral("false"); return JSONNode(value: .bool(false), location: start)
        case UInt8(ascii: "n"): try expectLiteral("null"); return JSONNode(value: .null, location: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONNode(value: .number(try parseNumber()), location: start)
        default:
            throw error("expected a value, found \(describeCurrent())")
        }
    }

    private mutating func expectLiteral(_ word: StaticString) throws(JSONSyntaxError) {
        let start = location
        for i in 0..<word.utf8CodeUnitCount {
            guard index < bytes.count, bytes[index] == word.utf8Start[i] else {
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
        let first = members.count
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object([]) }
        return try parseMembers(from: first, afterAMember: false)
    }

    /// The members of an object from here to its closing brace (included), those on `members` from `first` on
    /// included; `afterAMember`: a member was just read (the next byte that is not white space must be `,` or
    /// `}`), else the next is a member's key. Once `tail` is set (the streamed array was handed over), the
    /// object ends with the tail's members.
    @inline(__always)  // parseObject's loop, as it was before parseRest shared it
    private mutating func parseMembers(from first: Int, afterAMember: Bool) throws(JSONSyntaxError) -> JSONNode.Value {
        var afterAMember = afterAMember
        while true {
            if !afterAMember {
                members.push(try parseMember())
                if let tail {
                    for member in tail { members.push(member) }
                    return .object(members.popArray(from: first))
                }
            }
            afterAMember = false
            skipWhitespace()
            guard index < bytes.count else { throw error("expected ',' or '}', found end of file") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members.popArray(from: first)) }
            throw error("expected ',' or '}' after an object member, found \(describeCurrent())")
        }
    }

    /// One `"key": value` member, from the white space before its key.
    @inline(__always)
    private mutating func parseMember() throws(JSONSyntaxError) -> JSONNode.Member {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
            throw error("expected a string key, found \(describeCurrent())")
        }
        let keyLocation = location
        let keyStart = index + 1
        var keyIsASCII = false
        let key = try parseString(isASCII: &keyIsASCII)
        // Without escapes (the raw and decoded lengths agree, as an escape is two or more bytes for one)
        // the key's bytes are the ones just read, up to the closing quote.
        let raw = UnsafeBufferPointer(rebasing: bytes[keyStart..<index - 1])
        let keyCode = !keyIsASCII ? KeyCode.nonASCII : raw.count == key.utf8.count ? KeyCode(ascii: raw) : KeyCode(key)
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
            throw error("expected ':' after the key \"\(key)\", found \(describeCurrent())")
        }
        index += 1
        skipWhitespace()
        let value: JSONNode
        if depth == 1, let streamed = streamedKey, index < bytes.count, bytes[index] == UInt8(ascii: "["), key == streamed {
            streamedKey = nil
            let start = location
            value = JSONNode(value: try parseArray(streamed: true), location: start)
        } else {
            value = try parseValue()
        }
        return JSONNode.Member(key: key, keyCode: keyCode, keyLocation: keyLocation, value: value)
    }

    /// - Parameter streamed: the elements go to `sink` as they are parsed, and the array returned is empty.
    private mutating func parseArray(streamed: Bool = false) throws(JSONSyntaxError) -> JSONNode.Value {
        try enterContainer()
        defer { depth -= 1 }
        index += 1  // [
        let first = items.count
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array([]) }
        return try parseElements(from: first, streamed: streamed, element: 0)
    }

    /// The elements of an array from here to its closing bracket (included), those on `items` from `first` on
    /// included; streamed, each goes to `sink` with its index, from `element` on, and the parse stops before
    /// one (the array returned empty) when `handover` gives the `tail`.
    @inline(__always)  // parseArray's loop, as it was before parseRest shared it
    private mutating func parseElements(from first: Int, streamed: Bool, element: Int) throws(JSONSyntaxError) -> JSONNode.Value {
        var element = element
        while true {
            skipWhitespace()
            if streamed {
                if element > 0, let handover,
                   let answer = handover(JSONSplitPoint(offset: index, element: element, line: line, lineStart: lineStart)) {
                    switch answer {
                    case .rest(let tail):
                        self.tail = tail
                        return .array([])
                    case .resume(let place):
                        index = place.offset
                        line = place.line
                        lineStart = place.lineStart
                        element = place.element
                    }
                }
                sink!(try parseValue(), element)
                element += 1
            } else {
                items.push(try parseValue())
            }
            skipWhitespace()
            guard index < bytes.count else { throw error("expected ',' or ']', found end of file") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items.popArray(from: first)) }
            throw error("expected ',' or ']' after an array element, found \(describeCurrent())")
        }
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> String {
        let start = index
        let scan = JSONNumberScan.scan(bytes, from: index)
        index = scan.end
        if let reason = scan.failure { throw error(reason) }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }

    /// The string starting at the opening quote; `isASCII` says whether its decoded text is all ASCII
    /// (known from the scan, so object keys can be compared by length, see `JSONNode.Member.keyIsASCII`).
    private mutating func parseString(isASCII: inout Bool) throws(JSONSyntaxError) -> String {
        index += 1  // opening quote
        let start = index
        // Fast path, nearly every string of a collection: no escape before the closing quote, so the string
        // is the bytes themselves. ASCII needs no validation (the scan says whether a byte was 0x80 or
        // more); the generic `String(validating:as:)` cost about 800 instructions per string (callgrind),
        // so it is kept for non-ASCII text only.
        var nonASCII = false
        let end = JSONStringScan.firstSpecial(in: bytes, from: start, nonASCII: &nonASCII)
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            let run = UnsafeBufferPointer(rebasing: bytes[start..<end])
            if !nonASCII {
                index = end + 1
                isASCII = true
                return String(decoding: run, as: UTF8.self)
            }
            if let text = String(validating: run, as: UTF8.self) {
                index = end + 1
                return text
            }
            // Not UTF-8: the loop below reports it where the run ends, at the closing quote.
        }
        let text = try parseEscapedString(runStart: start, runEnd: end, runIsASCII: !nonASCII)
        isASCII = unescaped.allSatisfy { $0 < 0x80 }  // rare: escapes can spell non-ASCII (`\u00e9`)
        return text
    }

    /// The rest of a string whose first plain run is `bytes[runStart..<runEnd]` (ending at the first
    /// special byte or the end of the file): escapes decoded into `unescaped`, plain runs validated as UTF-8.
    private mutating func parseEscapedString(runStart start: Int, runEnd end: Int, runIsASCII: Bool) throws(JSONSyntaxError) -> String {
        unescaped.removeAll(keepingCapacity: true)
        var runStart = start
        var runIsASCII = runIsASCII
        index = end
        while true {
            guard index < bytes.count else { throw error("unterminated string") }
            let b = bytes[index]
            if b < 0x20 {
                throw error(b == 0x0A ? "unterminated string (a line break must be written \\n)"
                                       : "a control character in a string must be escaped")
            }
            // The run up to here (an escape is ASCII, so a run never splits a UTF-8 sequence).
            let run = UnsafeBufferPointer(rebasing: bytes[runStart..<index])
            if !runIsASCII && String(validating: run, as: UTF8.self) == nil {
                throw error("a string holds bytes that are not UTF-8")
            }
            unescaped.append(contentsOf: run)
            index += 1
            if b == UInt8(ascii: "\"") {
                // Valid by construction: validated runs and encoded scalars.
                return String(decoding: unescaped, as: UTF8.self)
            }
            guard index < bytes.count else { throw error("unterminated string") }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): unescaped.append(escape)
            case UInt8(ascii: "b"): unescaped.append(0x08)
            case UInt8(ascii: "f"): unescaped.append(0x0C)
            case UInt8(ascii: "n"): unescaped.append(0x0A)
            case UInt8(ascii: "r"): unescaped.append(0x0D)
            case UInt8(ascii: "t"): unescaped.append(0x09)
            case UInt8(ascii: "u"):
                let unit = try parseHex4()
                let scalar: UnicodeScalar
                if (0xD800...0xDBFF).contains(unit) {
                    // A high surrogate must be followed by an escaped low surrogate (RFC 8259 §7).
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                        throw error("a high surrogate \\u escape must be followed by a low surrogate")
                    }
                    index += 2
                    let low = try parseHex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw error("invalid low surrogate in \\u escape") }
                    scalar = UnicodeScalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))!
                } else if let single = UnicodeScalar(unit) {
                    scalar = single
                } else {
                    throw error("a lone low surrogate in \\u escape")
                }
                unescaped.append(contentsOf: UTF8.encode(scalar)!)
            default:
                index -= 1
                throw error("invalid escape \\\(Character(UnicodeScalar(escape)))")
            }
            runStart = index
            var nonASCII = false
            index = JSONStringScan.firstSpecial(in: bytes, from: index, nonASCII: &nonASCII)
            runIsASCII = !nonASCII
        }
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        guard let value = JSONStringScan.hex4(bytes, advancing: &index) else { throw error("expected four hex digits after \\u") }
        return value
    }
}
