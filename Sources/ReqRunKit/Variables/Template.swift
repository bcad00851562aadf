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
    static func forEachSegment(_ template: String, _ body: (Segment) -> Void) {
        let utf8 = template.utf8
        var textStart = utf8.startIndex
        var i = utf8.startIndex
        let brace = UInt8(ascii: "{"), close = UInt8(ascii: "}")
        while i < utf8.endIndex {
            let next = utf8.index(after: i)
            guard utf8[i] == brace, next < utf8.endIndex, utf8[next] == brace else { i = next; continue }
            // Find the closing "}}" after "{{".
            var j = utf8.index(after: next)
            var found: String.UTF8View.Index?
            while j < utf8.endIndex {
                let k = utf8.index(after: j)
                if utf8[j] == close, k < utf8.endIndex, utf8[k] == close { found = j; break }
                j = k
            }
            guard let end = found else { break }
            if textStart < i { body(.text(template[textStart..<i])) }
            body(.reference(trimmedName(template, from: utf8.index(after: next), to: end)))
            i = utf8.index(end, offsetBy: 2)
            textStart = i
        }
        if textStart < utf8.endIndex { body(.text(template[textStart...])) }
    }

    /// `template[start..<end]` without the spaces and tabs around it. An ASCII name is trimmed on its bytes
    /// (each ASCII byte is a character of its own there, but for CR LF, which is neither): going through
    /// `Character`s and `reversed()` was a third of `run --dry-run` on 100,000 requests (perf), as it runs for
    /// every reference of every template, several times a request.
    private static func trimmedName(_ template: String, from start: String.Index, to end: String.Index) -> String {
        let utf8 = template.utf8
        let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t")
        // On the string's own bytes by offset (the view's indices cost more than the bytes' tests).
        let lower = utf8.distance(from: utf8.startIndex, to: start), upper = utf8.distance(from: utf8.startIndex, to: end)
        var text = template
        let ascii: String? = text.withUTF8 { bytes in
            var first = lower, last = upper
            guard !bytes[first..<last].contains(where: { $0 >= 0x80 }) else { return nil }
            while first < last, bytes[first] == space || bytes[first] == tab { first += 1 }
            while first < last, bytes[last - 1] == space || bytes[last - 1] == tab { last -= 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[first..<last]), as: UTF8.self)
        }
        guard let ascii else {
            let name = template[start..<end]
            return String(name.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
        }
        return ascii
    }

    /// The names `template` refers to, in order of first use.
    public static func references(_ template: String) -> [String] {
        var names: [String] = []
        for case .reference(let name) in segments(template) where !names.contains(name) { names.append(name) }
        return names
    }
}
