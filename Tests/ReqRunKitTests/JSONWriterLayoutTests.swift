import Testing
@testable import ReqRunKit

/// `JSONWriter`'s three layouts, byte for byte, against a plain recursive printer of the same tree: keys and
/// strings go in through fast paths (one capacity check for a member's separator, indentation, quoted key and
/// colon; one copy for a string without escapes), which must write what the byte-at-a-time path wrote, at any
/// depth (past the 64 levels of the separator literal) and through a sink's small buffer.
@Suite struct JSONWriterLayoutTests {
    indirect enum Value {
        case string(String), int(Int), bool(Bool), array([Value]), object([(StaticString, Value)])
    }

    enum Layout { case pretty, encoder, compact }

    /// The expected text, from RFC 8259's grammar and each layout's documented spacing.
    func printed(_ value: Value, _ layout: Layout, depth: Int = 0) -> String {
        let pad = { (d: Int) in layout == .compact ? "" : "\n" + String(repeating: "  ", count: d) }
        switch value {
        case .string(let s): return quoted(s)
        case .int(let n): return String(n)
        case .bool(let b): return b ? "true" : "false"
        case .array(let items):
            if items.isEmpty { return layout == .encoder ? "[\n" + pad(depth) + "]" : "[]" }
            return "[" + items.map { pad(depth + 1) + printed($0, layout, depth: depth + 1) }.joined(separator: ",") + pad(depth) + "]"
        case .object(let members):
            if members.isEmpty { return layout == .encoder ? "{\n" + pad(depth) + "}" : "{}" }
            let colon = layout == .compact ? ":" : layout == .encoder ? " : " : ": "
            return "{" + members.map { pad(depth + 1) + "\"\($0.0)\"" + colon + printed($0.1, layout, depth: depth + 1) }
                .joined(separator: ",") + pad(depth) + "}"
        }
    }

    /// RFC 8259 §7's escapes for `"`, `\` and the C0 controls (short forms where they exist); other bytes,
    /// non-ASCII UTF-8 included, as they are.
    func quoted(_ s: String) -> String {
        var out: [UInt8] = [0x22]
        for byte in s.utf8 {
            switch byte {
            case 0x22: out += Array("\\\"".utf8)
            case 0x5C: out += Array("\\\\".utf8)
            case 0x08: out += Array("\\b".utf8)
            case 0x0C: out += Array("\\f".utf8)
            case 0x0A: out += Array("\\n".utf8)
            case 0x0D: out += Array("\\r".utf8)
            case 0x09: out += Array("\\t".utf8)
            case ..<0x20: out += Array(("\\u00" + String(byte >> 4, radix: 16) + String(byte & 15, radix: 16)).utf8)
            default: out.append(byte)
            }
        }
        out.append(0x22)
        return String(decoding: out, as: UTF8.self)
    }

    func write(_ value: Value, _ w: inout JSONWriter) {
        switch value {
        case .string(let s): w.string(s)
        case .int(let n): w.int(n)
        case .bool(let b): w.bool(b)
        case .array(let items): w.array(items) { w, item in write(item, &w) }
        case .object(let members): w.object { w in for (key, member) in members { w.key(key); write(member, &w) } }
        }
    }

    /// Objects and arrays nested `levels` deep, with strings that need escaping, empty ones, long ones (longer
    /// than a 64-byte buffer) and non-ASCII ones at each level.
    func document(_ levels: Int) -> Value {
        var value = Value.object([])
        for level in 0..<levels {
            let nested = level % 2 == 0 ? value : Value.array([value, .array([]), .bool(level % 4 == 1)])
            let members: [(StaticString, Value)] = [
                ("a", .string(level % 3 == 0 ? "" : "plain \(level)")),
                ("escapes", .string("q\"b\\c\u{01}\n\t/é ✓ 😀")),
                ("long", .string(String(repeating: "x", count: 70 + level))),
                ("n", .int(level % 2 == 0 ? -level : level * 1_000_003)),
                ("nested", nested),
                ("z", .string("smallsmallsmall")),
            ]
            value = .object(members)
        }
        return value
    }

    /// Writes `doc` through a writer of `layout` with a sink of `bufferSize` bytes (nil: no sink).
    func written(_ doc: Value, _ layout: Layout, bufferSize: Int?) -> [UInt8] {
        var out: [UInt8] = []
        let sink = { (bytes: UnsafeRawBufferPointer) in out.append(contentsOf: bytes) }
        switch (layout, bufferSize) {
        case (.compact, _):
            var w = JSONWriter(compact: true)
            write(doc, &w)
            return w.finish()
        case (.pretty, nil):
            var w = JSONWriter()
            write(doc, &w)
            return w.finish()
        case (.pretty, let size?):
            var w = JSONWriter(bufferSize: size, sink: sink)
            write(doc, &w)
            w.finishToSink()
        case (.encoder, let size):
            var w = JSONWriter(bufferSize: size ?? 65_536, encoderLayout: true, sink: sink)
            write(doc, &w)
            w.finishToSink()
        }
        return out
    }

    @Test(arguments: [1, 5, 40, 70])
    func everyLayoutMatchesThePlainPrinter(levels: Int) {
        let doc = document(levels)
        for layout in [Layout.pretty, .encoder, .compact] {
            let expected = Array((printed(doc, layout) + "\n").utf8)
            for size in [nil, 64, 100, 65_536] {
                #expect(written(doc, layout, bufferSize: size) == expected, "\(layout), buffer \(size ?? 0), \(levels) levels")
            }
        }
    }
}
