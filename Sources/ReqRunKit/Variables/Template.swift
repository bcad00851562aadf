/// `{{name}}` references in URL, header, body and capture templates (Postman's syntax).
public enum Template {
    /// A piece of a template: text as written, or a reference to a variable.
    public enum Segment: Sendable, Equatable {
        case text(Substring)
        /// The name between the braces, surrounding spaces and tabs trimmed.
        case reference(String)
    }

    /// Whether `template` contains `{{` (a possible reference): without one, it is plain text as written.
    /// On bytes, without building segments: most templates of most requests have no reference.
    public static func mayHaveReferences(_ template: String) -> Bool {
        var text = template  // a copy of a native string shares its storage; withUTF8 reads it in place
        return text.withUTF8 { utf8 in
            var previous: UInt8 = 0
            for byte in utf8 {
                if byte == UInt8(ascii: "{") && previous == UInt8(ascii: "{") { return true }
                previous = byte
            }
            return false
        }
    }

    /// Splits `template` into text and `{{name}}` references. `{{` without a closing `}}` is text.
    /// Scans UTF-8 bytes (the braces are ASCII), as this runs for every template of every request.
    public static func segments(_ template: String) -> [Segment] {
        var result: [Segment] = []
        forEachSegment(template) { result.append($0) }
        return result
    }

    /// Passes each segment of `template` (as `segments` splits it) to `body` in order, without an array of them.
    /// The braces are found on the string's own bytes by offset (`withUTF8`), and a text segment is made from
    /// the offsets of its ends: through `String.UTF8View`'s indices, a template like `{{base}}/items/0/0` cost
    /// some 1,000 instructions before any name was read (callgrind, `run --all --dry-run --json`). UTF-8 offsets
    /// at a brace or just after `}}` are on scalar boundaries (the braces are ASCII), so the `Substring`s are the
    /// ones the view's indices made.
    static func forEachSegment(_ template: String, _ body: (Segment) -> Void) {
        var bytes = template  // a copy of a native string shares its storage; withUTF8 reads it in place
        bytes.withUTF8 { utf8 in
            scan(template, utf8, text: { body(.text(substring(template, $0, $1))) },
                 reference: { body(.reference(trimmedName(template, utf8, $0))) })
        }
    }

    /// `forEachSegment` with each text segment as its UTF-8 bytes, valid only during the call of `text`, and no
    /// `Substring` made: `URLSubstitution` copies the bytes into the URL it makes (a `Substring` and its own
    /// `withUTF8` cost some 1,100 instructions a segment, callgrind, `run --all --dry-run --json`). Each reference is
    /// handed as the template's UTF-8 and the offsets of the name between its braces, untrimmed, valid only during the
    /// call of `reference`: `trimmedName(template, utf8, name)` is the name `segments` has, `trimmedASCIIName` its bytes
    /// (making the `String` of each name cost some 200 instructions a reference, callgrind).
    static func forEachSegment(_ template: String, text: (UnsafeBufferPointer<UInt8>) -> Void,
                               reference: (_ utf8: UnsafeBufferPointer<UInt8>, _ name: Range<Int>) -> Void) {
        var bytes = template
        bytes.withUTF8 { utf8 in
            scan(template, utf8, text: { text(UnsafeBufferPointer(rebasing: utf8[$0..<$1])) }, reference: { reference(utf8, $0) })
        }
    }

    /// The scan of `forEachSegment` over `utf8`, `template`'s UTF-8: each text segment as the offsets of its ends,
    /// each reference as the offsets of the name between its braces, in order.
    private static func scan(_ template: String, _ utf8: UnsafeBufferPointer<UInt8>, text: (Int, Int) -> Void, reference: (Range<Int>) -> Void) {
        let count = utf8.count
        let brace = UInt8(ascii: "{"), close = UInt8(ascii: "}")
        var textStart = 0
        var i = 0
        while i < count {
            guard utf8[i] == brace, i + 1 < count, utf8[i + 1] == brace else { i += 1; continue }
            // Find the closing "}}" after "{{".
            var j = i + 2
            var found: Int?
            while j < count {
                if utf8[j] == close, j + 1 < count, utf8[j + 1] == close { found = j; break }
                j += 1
            }
            guard let end = found else { break }
            if textStart < i { text(textStart, i) }
            reference((i + 2)..<end)
            i = end + 2
            textStart = i
        }
        if textStart < count { text(textStart, count) }
    }

    /// `template`'s characters between two UTF-8 offsets on scalar boundaries.
    private static func substring(_ template: String, _ lower: Int, _ upper: Int) -> Substring {
        let utf8 = template.utf8
        let start = utf8.index(utf8.startIndex, offsetBy: lower)
        return template[start..<utf8.index(start, offsetBy: upper - lower)]
    }

    /// `template[start..<end]` (UTF-8 offsets, `bytes` its UTF-8) without the spaces and tabs around it. An ASCII
    /// name is trimmed on its bytes (each ASCII byte is a character of its own there, but for CR LF, which is
    /// neither): going through `Character`s and `reversed()` was a third of `run --dry-run` on 100,000 requests
    /// (perf), as it runs for every reference of every template, several times a request.
    static func trimmedName(_ template: String, _ bytes: UnsafeBufferPointer<UInt8>, _ name: Range<Int>) -> String {
        let (lower, upper) = (name.lowerBound, name.upperBound)
        let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t")
        guard !bytes[lower..<upper].contains(where: { $0 >= 0x80 }) else {
            let name = substring(template, lower, upper)
            return String(name.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
        }
        var first = lower, last = upper
        while first < last, bytes[first] == space || bytes[first] == tab { first += 1 }
        while first < last, bytes[last - 1] == space || bytes[last - 1] == tab { last -= 1 }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[first..<last]), as: UTF8.self)
    }

    /// The bytes of `trimmedName(_, bytes, name)` when the name is ASCII (spaces and tabs around it trimmed, as
    /// there); nil for a name with a non-ASCII byte, which `trimmedName` trims by characters.
    static func trimmedASCIIName(_ bytes: UnsafeBufferPointer<UInt8>, _ name: Range<Int>) -> UnsafeBufferPointer<UInt8>? {
        var first = name.lowerBound, last = name.upperBound
        for i in first..<last where bytes[i] >= 0x80 { return nil }
        while first < last, bytes[first] == UInt8(ascii: " ") || bytes[first] == UInt8(ascii: "\t") { first += 1 }
        while first < last, bytes[last - 1] == UInt8(ascii: " ") || bytes[last - 1] == UInt8(ascii: "\t") { last -= 1 }
        return UnsafeBufferPointer(rebasing: bytes[first..<last])
    }

    /// The names `template` refers to, in order of first use.
    public static func references(_ template: String) -> [String] {
        var names: [String] = []
        for case .reference(let name) in segments(template) where !names.contains(name) { names.append(name) }
        return names
    }
}
