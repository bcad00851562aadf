/// Byte tests on a string's UTF-8 as one contiguous buffer. The same tests through `utf8.contains` or
/// `utf8.allSatisfy` go byte by byte through the generic view, 15 to 25 instructions a byte (callgrind), and
/// they run on every request's URL and fields and on every console line.
extension String {
    /// Whether some byte of the UTF-8 encoding is `byte`.
    @inlinable public func containsUTF8Byte(_ byte: UInt8) -> Bool {
        var text = self  // a copy of a native string shares its storage; withUTF8 then reads it in place
        return text.withUTF8 { $0.contains(byte) }
    }

    /// Whether some byte of the UTF-8 encoding satisfies `predicate`.
    @inlinable public func containsUTF8Byte(where predicate: (UInt8) -> Bool) -> Bool {
        var text = self
        return text.withUTF8 { $0.contains(where: predicate) }
    }

    /// Whether `part`'s UTF-8 bytes occur in this string's: an exact byte match, without the Unicode
    /// equivalence of Foundation's `contains`, which went through `CFStringFind` at about 40,000 instructions
    /// per call on a script's text (callgrind).
    public func containsUTF8(_ part: String) -> Bool {
        var text = self, part = part
        return text.withUTF8 { haystack in
            part.withUTF8 { needle in
                guard let first = needle.first else { return true }
                guard needle.count <= haystack.count else { return false }
                for start in 0...(haystack.count - needle.count) where haystack[start] == first {
                    if UnsafeBufferPointer(rebasing: haystack[start..<start + needle.count]).elementsEqual(needle) { return true }
                }
                return false
            }
        }
    }

    /// Whether every byte of the UTF-8 encoding satisfies `predicate`.
    @inlinable public func allUTF8Bytes(_ predicate: (UInt8) -> Bool) -> Bool {
        var text = self
        return text.withUTF8 { $0.allSatisfy(predicate) }
    }
}
