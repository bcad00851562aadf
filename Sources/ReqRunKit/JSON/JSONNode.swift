/// A position in a source file: 1-based line and column. Columns count UTF-8 bytes, as compilers do.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// 1-based line number.
    public var line: Int
    /// 1-based column, in UTF-8 bytes from the start of the line.
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// `line:column`, the form used in `file:line:column:` error prefixes.
    public var description: String { "\(line):\(column)" }
}

/// One JSON value as written in a file, with where it starts.
///
/// Numbers keep their source text (`1e3`, `9007199254740993`) so that a body written in a collection can be
/// sent exactly as written: nothing passes through `Double`. Object members keep their order and duplicates.
public struct JSONNode: Sendable, Equatable {
    /// The value and, for containers, its children.
    ///
    /// Not `indirect`: the arrays already give containers their indirection, and an indirect enum put every
    /// node, strings and numbers included, in a heap box of its own to allocate and free.
    public enum Value: Sendable, Equatable {
        case null
        case bool(Bool)
        /// The number's text exactly as in the source (RFC 8259 §6 grammar).
        case number(String)
        case string(String)
        case array([JSONNode])
        /// Members in source order; a key may repeat.
        case object([Member])
    }

    /// One `"key": value` pair of an object.
    public struct Member: Sendable, Equatable {
        /// The key. Not settable, so that `keyIsASCII` always describes it.
        public private(set) var key: String
        /// `key` in one word when it is short ASCII, from the bytes the parser just read: field lookups
        /// compare words rather than strings (see `KeyCode`).
        var keyCode: KeyCode
        /// Where the key's opening quote is.
        public var keyLocation: SourceLocation
        public var value: JSONNode

        /// A member whose key's code is worked out here.
        public init(key: String, keyLocation: SourceLocation, value: JSONNode) {
            self.init(key: key, keyCode: KeyCode(key), keyLocation: keyLocation, value: value)
        }

        /// A member whose key's code the caller already made (the parser, from the key's bytes).
        init(key: String, keyCode: KeyCode, keyLocation: SourceLocation, value: JSONNode) {
            self.key = key
            self.keyCode = keyCode
            self.keyLocation = keyLocation
            self.value = value
        }
    }

    public var value: Value
    /// Where the value's first character is.
    public var location: SourceLocation

    /// A short name of the value's type for error messages: "a string", "an object", …
    public var kindDescription: String {
        switch value {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// The value as compact JSON text (no insignificant white space), keeping key order, duplicate keys and
    /// each number's source text. Strings are escaped as RFC 8259 §7 requires and no more (non-ASCII stays UTF-8).
    public var compactText: String {
        var out = ""
        appendCompact(to: &out)
        return out
    }

    private func appendCompact(to out: inout String) {
        switch value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let text): out += text
        case .string(let s): JSONNode.appendQuoted(s, to: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.appendCompact(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, m) in members.enumerated() {
                if i > 0 { out += "," }
                JSONNode.appendQuoted(m.key, to: &out)
                out += ":"
                m.value.appendCompact(to: &out)
            }
            out += "}"
        }
    }

    /// Appends `s` as a JSON string literal (RFC 8259 §7: quote, reverse solidus and control characters escaped).
    public static func appendQuoted(_ s: String, to out: inout String) {
        var bytes: [UInt8] = []
        appendQuoted(s, to: &bytes)
        out += String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `s` as a JSON string literal to UTF-8 bytes, copying runs that need no escape in one go.
    public static func appendQuoted(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { utf8 in
            var runStart = 0
            var nonASCII = false
            while true {
                let i = JSONStringScan.firstSpecial(in: utf8, from: runStart, nonASCII: &nonASCII)
                if runStart < i { out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i])) }
                guard i < utf8.count else { break }
                out.append(contentsOf: escape(utf8[i]))
                runStart = i + 1
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// The escape sequence of a byte that `JSONStringScan.isSpecial` (RFC 8259 §7: the short forms where
    /// there is one, `\u00XX` for the other controls).
    static func escape(_ byte: UInt8) -> [UInt8] {
        switch byte {
        case 0x22: return [0x5C, 0x22]
        case 0x5C: return [0x5C, 0x5C]
        case 0x0A: return [0x5C, UInt8(ascii: "n")]
        case 0x0D: return [0x5C, UInt8(ascii: "r")]
        case 0x09: return [0x5C, UInt8(ascii: "t")]
        case 0x08: return [0x5C, UInt8(ascii: "b")]
        case 0x0C: return [0x5C, UInt8(ascii: "f")]
        default:
            let hex = Array("0123456789abcdef".utf8)
            return [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
        }
    }
}
