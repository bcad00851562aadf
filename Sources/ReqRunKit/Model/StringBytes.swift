import Foundation

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

    /// Whether `other`'s UTF-8 bytes are this string's (`memcmp(3)`): no Unicode equivalence, which `==`
    /// works out for a string not known to be NFC (one decoded from a collection's JSON), about 20
    /// instructions a byte of a script's text (callgrind). Two JavaScript texts that differ only in their
    /// normal form are different scripts.
    public func sameUTF8(_ other: String) -> Bool {
        var text = self, other = other
        return text.withUTF8 { a in
            other.withUTF8 { b in a.count == b.count && (a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0) }
        }
    }

    /// Whether every byte of the UTF-8 encoding satisfies `predicate`.
    @inlinable public func allUTF8Bytes(_ predicate: (UInt8) -> Bool) -> Bool {
        var text = self
        return text.withUTF8 { $0.allSatisfy(predicate) }
    }
}
