/// Writes pretty JSON (two-space indentation, `"key": value`) straight into bytes.
///
/// Run records and `list --json` trees are written with it rather than `JSONEncoder`, whose generic
/// machinery cost a third of a 1,000-request run (measured with callgrind); the types list their keys in
/// sorted order themselves, so the output stays sorted and stable.
public struct JSONWriter {
    public private(set) var bytes: [UInt8] = []
    private var needsComma: [Bool] = []

    /// - Parameter capacity: the expected size in bytes (saves regrowing the buffer).
    public init(capacity: Int = 4096) { bytes.reserveCapacity(capacity) }

    /// Spaces for indentation, copied in one go (a byte-by-byte loop showed in profiles).
    private static let spaces = [UInt8](repeating: 0x20, count: 256)

    private mutating func newline() {
        bytes.append(0x0A)
        let width = min(2 * needsComma.count, Self.spaces.count)
        Self.spaces.withUnsafeBufferPointer { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: $0[0..<width])) }
    }

    /// Separator and indentation before a member or element.
    private mutating func nextItem() {
        if needsComma.last == true { bytes.append(UInt8(ascii: ",")) }
        if !needsComma.isEmpty { needsComma[needsComma.count - 1] = true }
        newline()
    }

    private mutating func open(_ byte: UInt8) {
        bytes.append(byte)
        needsComma.append(false)
    }

    private mutating func close(_ byte: UInt8) {
        let hadItems = needsComma.removeLast()
        if hadItems { newline() }
        bytes.append(byte)
    }

    /// `{`…`}` around `body`, which writes members with `key`.
    public mutating func object(_ body: (inout JSONWriter) -> Void) {
        open(UInt8(ascii: "{"))
        body(&self)
        close(UInt8(ascii: "}"))
    }

    /// `[`…`]` with one element per item, written by `element`.
    public mutating func array<S: Sequence>(_ items: S, _ element: (inout JSONWriter, S.Element) -> Void) {
        open(UInt8(ascii: "["))
        for item in items {
            nextItem()
            element(&self, item)
        }
        close(UInt8(ascii: "]"))
    }

    /// Starts a member: `"key": `; the value follows.
    public mutating func key(_ key: String) {
        nextItem()
        string(key)
        bytes.append(UInt8(ascii: ":"))
        bytes.append(0x20)
    }

    public mutating func string(_ value: String) { JSONNode.appendQuoted(value, to: &bytes) }

    public mutating func int(_ value: Int) { bytes.append(contentsOf: String(value).utf8) }
    public mutating func bool(_ value: Bool) { bytes.append(contentsOf: (value ? "true" : "false").utf8) }

    // Members, for brevity at the call sites; optional ones are left out when nil, as JSONEncoder does.
    public mutating func field(_ name: String, _ value: String) { key(name); string(value) }
    public mutating func field(_ name: String, _ value: Int) { key(name); int(value) }
    public mutating func field(_ name: String, _ value: Bool) { key(name); bool(value) }
    public mutating func field(_ name: String, _ value: String?) { if let value { field(name, value) } }
    public mutating func field(_ name: String, _ value: Int?) { if let value { field(name, value) } }
    public mutating func field<S: Sequence>(_ name: String, _ items: S, _ element: (inout JSONWriter, S.Element) -> Void) {
        key(name)
        array(items, element)
    }
    public mutating func field(_ name: String, object body: (inout JSONWriter) -> Void) {
        key(name)
        object(body)
    }
}
