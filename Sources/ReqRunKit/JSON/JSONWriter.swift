/// Writes pretty JSON (two-space indentation, `"key": value`) straight into a byte buffer it owns.
///
/// Run records and `list --json` trees are written with it rather than `JSONEncoder`, whose generic
/// machinery cost a third of a 1,000-request run (measured with callgrind). The types list their keys in
/// sorted order themselves, so the output stays sorted and stable. The buffer is raw memory grown by
/// doubling: with `[UInt8]`, the uniqueness and capacity checks of each small append were most of the cost
/// of a record (callgrind, 1,000 results: 68 M instructions before, see `scripts/bench`).
///
/// Keys are `StaticString`s: every key is a literal at its call site, so it is copied without escaping.
/// Nesting is limited to 64 levels (records and outlines use 7); deeper nesting stops the program.
///
/// With a `sink`, the buffer is handed over whenever it fills instead of growing, so a large document (a
/// 100,000-request outline, a long run's record) goes out through a fixed 64 KiB buffer: growing one
/// buffer to the whole size touched megabytes of fresh pages (thousands of page faults a run).
public struct JSONWriter: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var count = 0
    private var capacity: Int
    private let sink: ((UnsafeRawBufferPointer) -> Void)?
    /// Open containers, innermost last; bit `depth - 1` of `hasItems` says whether that one has an item yet,
    /// for the first 64 levels, and `deeperHasItems[depth - 65]` below them (groups nested 31 deep in a
    /// collection, which allows any depth, are 64 levels of `list --json`).
    private var depth = 0
    private var hasItems: UInt64 = 0
    private var deeperHasItems: [Bool] = []
    /// No line feeds nor indentation, `"key":value`: one JSON text per line (JSON Lines, run records of format 2).
    private var compact = false
    /// `"key" : value` and empty containers as two line feeds (`[`, a blank line, `]`): the layout of
    /// Foundation's `JSONEncoder` with `.prettyPrinted`, which `run --dry-run --json` printed first.
    private var encoderLayout = false

    /// - Parameter capacity: the expected size in bytes (saves regrowing the buffer).
    public init(capacity: Int = 4096) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
        sink = nil
    }

    /// A writer for one value that will sit `depth` containers deep in a larger document (see `raw(_:)`):
    /// its lines are indented for that depth. Take the bytes with `fragment()`.
    public init(capacity: Int = 4096, depth: Int) {
        self.init(capacity: capacity)
        precondition(depth < 64, "JSONWriter nests at most 64 levels")
        self.depth = depth
    }

    /// A writer of compact JSON (no line feeds, `"key":value`), for one line of a JSON Lines file.
    public init(capacity: Int = 4096, compact: Bool) {
        self.init(capacity: capacity)
        self.compact = compact
    }

    /// A writer that passes its output to `sink` in order, in chunks of up to `bufferSize` bytes (a longer
    /// run of bytes, such as a long string, is passed as it is); call `finishToSink()` at the end.
    public init(bufferSize: Int = 65_536, sink: @escaping (UnsafeRawBufferPointer) -> Void) {
        capacity = max(bufferSize, 64)
        base = .allocate(capacity: capacity)
        self.sink = sink
    }

    /// A writer to `sink` (as `init(bufferSize:sink:)`) in the layout of Foundation's `JSONEncoder` with
    /// `[.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]`, byte for byte when the caller writes the keys in
    /// sorted order: `"key" : value`, an empty array or object as `[`, a blank line and `]` at its indentation,
    /// and the same escapes (`\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t`, other control characters as `\u00xx`).
    public init(bufferSize: Int = 65_536, encoderLayout: Bool, sink: @escaping (UnsafeRawBufferPointer) -> Void) {
        self.init(bufferSize: bufferSize, sink: sink)
        self.encoderLayout = encoderLayout
    }

    /// A writer to `sink` in `encoderLayout` of elements of an array that another writer opens and closes, `depth`
    /// containers deep (1: the elements of a top-level array). `element(_:)` writes each: the first after a line feed
    /// and the indentation, the others after `,`, a line feed and the indentation, so that the output of consecutive
    /// such writers, joined with a `,` between non-empty ones, is the bytes one writer's `array` writes between its
    /// `[` and its closing line (`run --dry-run --json` planned in chunks on two threads). Call `flushToSink()` at the
    /// end.
    public init(bufferSize: Int = 65_536, encoderLayout: Bool, elementsAtDepth depth: Int,
                sink: @escaping (UnsafeRawBufferPointer) -> Void) {
        self.init(bufferSize: bufferSize, encoderLayout: encoderLayout, sink: sink)
        precondition(depth > 0 && depth <= 64, "JSONWriter writes elements 1 to 64 levels deep")
        self.depth = depth
    }

    /// A writer of members (or elements) of a container that another writer opens, `depth` containers deep, in
    /// `encoderLayout` or not: `hasItems` says whether the container already has one, so the first member written
    /// here starts with `,`. Take the bytes with `fragment()` and copy them with `raw(_:)` (`run --dry-run --json`'s
    /// members that are the same for the requests of a group, `DryRunFragments`).
    init(capacity: Int = 256, encoderLayout: Bool, depth: Int, hasItems: Bool) {
        self.init(capacity: capacity, depth: depth)
        precondition(depth > 0, "members are written inside a container")
        self.encoderLayout = encoderLayout
        if hasItems { self.hasItems = 1 << UInt64(depth - 1) }
    }

    /// How many containers are open (elements of `init(bufferSize:encoderLayout:elementsAtDepth:sink:)` count the
    /// one another writer opened).
    var openContainers: Int { depth }

    deinit { base.deallocate() }

    /// The bytes written so far followed by a line feed, as an array (one copy).
    public consuming func finish() -> [UInt8] {
        append(0x0A)
        return [UInt8](UnsafeBufferPointer(start: base, count: count))
    }

    /// The bytes of a value written with `init(capacity:depth:)`, without a final line feed.
    public consuming func fragment() -> [UInt8] {
        [UInt8](UnsafeBufferPointer(start: base, count: count))
    }

    /// Writes the final line feed and hands what is left to the sink.
    public consuming func finishToSink() {
        append(0x0A)
        drain()
    }

    /// Hands what is left to the sink, without a final line feed (a writer of `init(bufferSize:encoderLayout:elementsAtDepth:sink:)`).
    public consuming func flushToSink() {
        drain()
    }

    private mutating func drain() {
        guard count > 0, let sink else { return }
        sink(UnsafeRawBufferPointer(start: base, count: count))
        count = 0
    }

    // MARK: Bytes

    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(extra) }
    }

    private mutating func grow(_ extra: Int) {
        if sink != nil {
            drain()
            return  // appends are at most `capacity` bytes with a sink
        }
        var newCapacity = capacity * 2
        while count + extra > newCapacity { newCapacity *= 2 }
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        grown.update(from: base, count: count)
        base.deallocate()
        base = grown
        capacity = newCapacity
    }

    @inline(__always)
    private mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    @inline(__always)
    private mutating func append(_ bytes: UnsafePointer<UInt8>, _ n: Int) {
        if n > capacity, let sink {
            drain()
            sink(UnsafeRawBufferPointer(start: bytes, count: n))
            return
        }
        reserve(n)
        (base + count).update(from: bytes, count: n)
        count += n
    }

    @inline(__always)
    private mutating func append(_ text: StaticString) { append(text.utf8Start, text.utf8CodeUnitCount) }

    /// A comma, a line feed and 128 spaces (64 levels): a separator at any depth is one copy of a slice of
    /// this literal (from the start after an item, from the line feed before the first).
    private static let separator: StaticString = ",\n                                                                                                                                "

    @inline(__always)
    private mutating func newline(comma: Bool = false) {
        if compact {
            if comma { append(UInt8(ascii: ",")) }
            return
        }
        let skip = comma ? 0 : 1
        guard depth > 64 else { return append(Self.separator.utf8Start + skip, 2 - skip + 2 * depth) }
        // Deeper than the literal's 128 spaces: the rest of the indentation in pieces of it.
        append(Self.separator.utf8Start + skip, 2 - skip + 128)
        var rest = 2 * (depth - 64)
        while rest > 0 {
            let piece = min(rest, 128)
            append(Self.separator.utf8Start + 2, piece)
            rest -= piece
        }
    }

    /// Separator and indentation before a member or element.
    @inline(__always)
    private mutating func nextItem() {
        var comma = false
        if depth > 64 {
            comma = deeperHasItems[depth - 65]
            deeperHasItems[depth - 65] = true
        } else if depth > 0 {
            let bit: UInt64 = 1 << UInt64(depth - 1)
            comma = hasItems & bit != 0
            hasItems |= bit
        }
        newline(comma: comma)
    }

    private mutating func open(_ byte: UInt8) {
        append(byte)
        depth += 1
        if depth > 64 { deeperHasItems.append(false) } else { hasItems &= ~(1 << UInt64(depth - 1)) }
    }

    private mutating func close(_ byte: UInt8) {
        let hadItems = depth > 64 ? deeperHasItems.removeLast() : hasItems & (1 << UInt64(depth - 1)) != 0
        depth -= 1
        if hadItems {
            newline()
        } else if encoderLayout {
            append(0x0A)
            newline()
        }
        append(byte)
    }

    // MARK: Values

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

    /// One element of the array the writer is in, written by `body`: the separator and indentation, then the value
    /// (see `init(bufferSize:encoderLayout:elementsAtDepth:sink:)`).
    public mutating func element(_ body: (inout JSONWriter) -> Void) {
        nextItem()
        body(&self)
    }

    /// `element(_:)` without a closure: the separator and indentation of the next element, whose value follows.
    mutating func nextElement() { nextItem() }

    /// Starts a member: `"key": `; the value follows. `key` needs no escaping (it is a literal name).
    ///
    /// In the pretty layouts at most 64 levels deep, the separator, the indentation, the quoted key and the
    /// colon are written with one capacity check (about 4,800 instructions a `run --dry-run --json` entry
    /// went to the writer, callgrind, most of it in checks and calls around a few bytes each).
    public mutating func key(_ key: StaticString) {
        let n = key.utf8CodeUnitCount
        if !compact, depth > 0, depth <= 64 {
            let bit: UInt64 = 1 << UInt64(depth - 1)
            let skip = hasItems & bit != 0 ? 0 : 1
            let indent = 2 - skip + 2 * depth
            let total = indent + n + 5
            if total <= capacity {
                hasItems |= bit
                reserve(total)
                var p = base + count
                p.update(from: Self.separator.utf8Start + skip, count: indent)
                p += indent
                p[0] = UInt8(ascii: "\"")
                (p + 1).update(from: key.utf8Start, count: n)
                p += n + 1
                // `" : ` (JSONEncoder's layout) or `": `, stored as one word; `count` moves past what belongs.
                let suffix: UInt32 = encoderLayout ? 0x203A_2022 : 0x0020_3A22
                UnsafeMutableRawPointer(p).storeBytes(of: suffix.littleEndian, as: UInt32.self)
                count += total - (encoderLayout ? 0 : 1)
                return
            }
        }
        nextItem()
        append(UInt8(ascii: "\""))
        append(key)
        if compact { append("\":") } else if encoderLayout { append("\" : ") } else { append("\": ") }
    }

    /// A JSON string literal (RFC 8259 §7: quote, reverse solidus and control characters escaped; other
    /// characters, non-ASCII included, copied as UTF-8).
    public mutating func string(_ value: String) {
        // Native and small strings lend their UTF-8 without the copy `withUTF8` needs on a `var`.
        if value.utf8.withContiguousStorageIfAvailable({ string(utf8: $0) }) != nil { return }
        var value = value
        value.withUTF8 { string(utf8: $0) }
    }

    /// `string(_:)` of the string whose UTF-8 is `utf8`: when no byte needs escaping (one scan), the quotes and
    /// the bytes go in with one capacity check and one copy.
    mutating func string(utf8: UnsafeBufferPointer<UInt8>) {
        let n = utf8.count
        if n + 2 <= capacity, let start = utf8.baseAddress {
            var nonASCII = false
            if JSONStringScan.firstSpecial(in: utf8, from: 0, nonASCII: &nonASCII) == n {
                reserve(n + 2)
                let p = base + count
                p[0] = UInt8(ascii: "\"")
                (p + 1).update(from: start, count: n)
                p[n + 1] = UInt8(ascii: "\"")
                count += n + 2
                return
            }
        }
        do {
            append(UInt8(ascii: "\""))
            var runStart = 0
            var nonASCII = false
            while true {
                let i = JSONStringScan.firstSpecial(in: utf8, from: runStart, nonASCII: &nonASCII)
                if runStart < i { append(utf8.baseAddress! + runStart, i - runStart) }
                guard i < utf8.count else { break }
                // Escapes are rare: the shared table's small array costs nothing that shows.
                let escaped = JSONNode.escape(utf8[i])
                escaped.withUnsafeBufferPointer { append($0.baseAddress!, $0.count) }
                runStart = i + 1
            }
            append(UInt8(ascii: "\""))
        }
    }

    /// A decimal integer, written in place without going through `String`.
    public mutating func int(_ value: Int) {
        var magnitude = value.magnitude
        var digits = 1
        var rest = magnitude
        while rest >= 10 { rest /= 10; digits += 1 }
        let length = digits + (value < 0 ? 1 : 0)
        reserve(length)
        var end = count + length
        repeat {
            end -= 1
            base[end] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
        if value < 0 { base[count] = UInt8(ascii: "-") }
        count += length
    }

    public mutating func bool(_ value: Bool) { append(value ? "true" : "false") }

    /// Bytes of JSON written as they are, the caller's (`DryRunFragments`).
    mutating func raw(_ text: StaticString) { append(text) }

    /// A value already written by a fragment writer at this depth (`init(capacity:depth:)`), copied as is.
    public mutating func raw(_ fragment: [UInt8]) {
        fragment.withUnsafeBufferPointer { if let start = $0.baseAddress { append(start, $0.count) } }
    }

    // Members, for brevity at the call sites; optional ones are left out when nil, as JSONEncoder does.
    public mutating func field(_ name: StaticString, _ value: String) { key(name); string(value) }
    public mutating func field(_ name: StaticString, _ value: Int) { key(name); int(value) }
    public mutating func field(_ name: StaticString, _ value: Bool) { key(name); bool(value) }
    public mutating func field(_ name: StaticString, _ value: String?) { if let value { field(name, value) } }
    public mutating func field(_ name: StaticString, _ value: Int?) { if let value { field(name, value) } }
    public mutating func field<S: Sequence>(_ name: StaticString, _ items: S, _ element: (inout JSONWriter, S.Element) -> Void) {
        key(name)
        array(items, element)
    }
    public mutating func field(_ name: StaticString, object body: (inout JSONWriter) -> Void) {
        key(name)
        object(body)
    }
}
