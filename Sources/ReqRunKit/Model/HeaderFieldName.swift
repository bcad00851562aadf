extension HeaderField {
    /// Whether this field's name is `name`, compared as RFC 9110 §5.1 says: case-insensitively. Names are
    /// tokens (ASCII), so ASCII case folding is exact; it allocates nothing, unlike `lowercased()`, which
    /// matters on the per-request path.
    public func hasName(_ name: String) -> Bool {
        // Different lengths can't match (a constant-time check on native strings: most calls end here).
        guard self.name.utf8.count == name.utf8.count else { return false }
        var a = self.name.utf8.makeIterator(), b = name.utf8.makeIterator()
        while true {
            switch (a.next(), b.next()) {
            case (nil, nil): return true
            case (let x?, let y?):
                if x == y { continue }
                let fx = x >= 0x41 && x <= 0x5A ? x | 0x20 : x, fy = y >= 0x41 && y <= 0x5A ? y | 0x20 : y
                if fx != fy { return false }
            default: return false
            }
        }
    }

    /// Whether the name is one of `names` (given in lower case).
    public func hasName(in names: Set<String>) -> Bool {
        names.contains { hasName($0) }
    }
}

extension Array where Element == HeaderField {
    /// Whether a field named `name` (any case) is present.
    public func contains(named name: String) -> Bool { contains { $0.hasName(name) } }

    /// The values of the fields named `name` (any case), in order.
    public func values(named name: String) -> [String] { filter { $0.hasName(name) }.map(\.value) }

    /// The value of the last field named `name` (any case).
    public func last(named name: String) -> String? { last { $0.hasName(name) }?.value }
}
