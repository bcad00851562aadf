/// RFC 8259 §6's number grammar (`-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`), scanned once for
/// both of reqrun's readers (`JSONParser`, `JSONTape`), so they accept and refuse the same numbers with the same
/// reasons at the same place.
enum JSONNumberScan {
    /// Scans the number starting at `start` (a `-` or a digit).
    /// - Returns: where it ends, or where it went wrong and why (the caller's error names that place).
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (end: Int, failure: String?) {
        var index = start
        func isDigit(_ i: Int) -> Bool { i < bytes.count && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i]) }
        func skipDigits() -> Int {
            let first = index
            while isDigit(index) { index += 1 }
            return index - first
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard isDigit(index) else { return (index, "expected a digit in a number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if isDigit(index) { return (index, "a number may not have a leading zero") }
        } else {
            _ = skipDigits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            if skipDigits() == 0 { return (index, "expected a digit after the decimal point") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            if skipDigits() == 0 { return (index, "expected a digit in the exponent") }
        }
        return (index, nil)
    }
}
