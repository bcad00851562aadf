import Foundation

/// Compares numbers kept as their JSON text (RFC 8259 §6), the way checks and JSONPath filters do:
/// - two integers (no fraction, no exponent) compare exactly, at any size: `9007199254740993` is greater
///   than `9007199254740992`, although both are the same IEEE double;
/// - otherwise both are read as IEEE 754 doubles (as Hurl compares floats): `1.50` equals `1.5`, and
///   `0.33333333333333333333` equals `0.3333333333333333` (a double holds about 17 significant digits).
public enum NumberText {
    /// True when `text` is written without fraction or exponent.
    public static func isInteger(_ text: String) -> Bool {
        !text.isEmpty && !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" })
    }

    /// The order of two numbers written as JSON number text; nil when either is not a number.
    public static func compare(_ a: String, _ b: String) -> ComparisonResult? {
        if isInteger(a), isInteger(b), let x = integerParts(a), let y = integerParts(b) {
            if x.negative != y.negative { return x.negative ? .orderedAscending : .orderedDescending }
            let magnitude: ComparisonResult = x.digits.count != y.digits.count
                ? (x.digits.count < y.digits.count ? .orderedAscending : .orderedDescending)
                : (x.digits == y.digits ? .orderedSame : (x.digits < y.digits ? .orderedAscending : .orderedDescending))
            guard x.negative else { return magnitude }
            return magnitude == .orderedAscending ? .orderedDescending : magnitude == .orderedDescending ? .orderedAscending : .orderedSame
        }
        guard let x = Double(a), let y = Double(b), !x.isNaN, !y.isNaN else { return nil }
        return x == y ? .orderedSame : x < y ? .orderedAscending : .orderedDescending
    }

    /// Sign and digits without leading zeros (`-0` is `0`).
    private static func integerParts(_ text: String) -> (negative: Bool, digits: String)? {
        var t = Substring(text)
        var negative = false
        if t.first == "-" { negative = true; t = t.dropFirst() } else if t.first == "+" { t = t.dropFirst() }
        guard !t.isEmpty, t.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        let digits = String(t.drop(while: { $0 == "0" }))
        return (digits.isEmpty ? false : negative, digits)
    }
}
