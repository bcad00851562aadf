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

    /// Whether every byte of the UTF-8 encoding satisfies `predicate`.
    @inlinable public func allUTF8Bytes(_ predicate: (UInt8) -> Bool) -> Bool {
        var text = self
        return text.withUTF8 { $0.allSatisfy(predicate) }
    }
}
