/// An object key or field name in one word when it is ASCII of 1 to 8 bytes (nearly every key of a
/// collection), so that looking a field up compares words rather than strings.
///
/// Matching keys against field names was a quarter of `list --all --json`'s instructions on 100,000
/// requests (callgrind: 5.6 M calls into the standard library's string comparison, nearly all for keys that
/// differ). The answers must stay those of `String ==`, which is canonical equivalence (U+212A KELVIN SIGN
/// equals "K"): two codes decide only when both strings are ASCII, where equality is equality of bytes;
/// anything non-ASCII, and two long ASCII strings, go to `==`.
struct KeyCode: Equatable, Sendable {
    /// 0: not ASCII. `UInt64.max`: ASCII, but empty or longer than 8 bytes. Otherwise the bytes, 7 bits
    /// each, with the length in bits 56 to 59 (so "a" and "a\u{0}" differ).
    let raw: UInt64

    private init(raw: UInt64) { self.raw = raw }

    /// A string with a byte of 0x80 or more.
    static let nonASCII = KeyCode(raw: 0)
    /// ASCII, but empty or longer than 8 bytes.
    static let longASCII = KeyCode(raw: .max)

    /// The code of `bytes`, which the caller knows to be ASCII.
    @inline(__always)
    init(ascii bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count >= 1, bytes.count <= 8 else { self = .longASCII; return }
        var raw = UInt64(bytes.count) << 56
        for i in 0..<bytes.count { raw |= UInt64(bytes[i]) << UInt64(7 * i) }
        self.raw = raw
    }

    /// The code of a literal (its length and ASCII-ness come with it).
    @inline(__always)
    init(_ literal: StaticString) {
        guard literal.hasPointerRepresentation, literal.isASCII else { self = .nonASCII; return }
        self.init(ascii: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// The code of any string.
    init(_ text: String) {
        var text = text
        self = text.withUTF8 { bytes in bytes.allSatisfy { $0 < 0x80 } ? KeyCode(ascii: bytes) : .nonASCII }
    }

    /// This key's bit in a set of keys (`FieldReader.presentKeys`): bit 63 for a key that only `String ==`
    /// can compare (not ASCII, or long), one of bits 0 to 62 for the others, by a hash of the code.
    @inline(__always)
    var presenceBit: UInt64 {
        if raw == 0 || raw == .max { return 1 << 63 }
        return 1 << (((raw &* 0x9E37_79B9_7F4A_7C15) >> 58) % 63)
    }

    /// Whether a key with this code may be in the set `keys` of presence bits: false only when no key of the
    /// set can be equal to it. An ASCII key equals only the same ASCII key or one that is not ASCII (bit 63);
    /// a key that is not ASCII may equal any (`String ==` is canonical equivalence: U+212A equals "K").
    @inline(__always)
    func mayBeAmong(_ keys: UInt64) -> Bool {
        raw == 0 || keys & (presenceBit | 1 << 63) != 0
    }

    /// Whether the strings of `self` and `other` are equal, when the codes alone say; nil when only
    /// `String ==` can (either one not ASCII, or both long).
    @inline(__always)
    func equals(_ other: KeyCode) -> Bool? {
        if raw == 0 || other.raw == 0 { return nil }
        if raw != other.raw { return false }
        return raw == UInt64.max ? nil : true
    }
}
