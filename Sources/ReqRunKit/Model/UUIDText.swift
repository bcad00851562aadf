import Foundation

extension UUID {
    /// The RFC 9562 §4 text form in lower case (`3f1b6c52-8e0a-4c1d-9f57-2b6e4a9d7c10`), the form reqrun
    /// writes everywhere (records, outlines, state). Written from the bytes: `uuidString.lowercased()`
    /// builds two strings through Foundation, and a run writes a group id into every result.
    public var lowercasedText: String {
        withUnsafeBytes(of: uuid) { raw in
            String(unsafeUninitializedCapacity: 36) { out in
                let hex: StaticString = "0123456789abcdef"
                var o = 0
                for (i, byte) in raw.enumerated() {
                    if i == 4 || i == 6 || i == 8 || i == 10 { out[o] = UInt8(ascii: "-"); o += 1 }
                    out[o] = hex.utf8Start[Int(byte >> 4)]
                    out[o + 1] = hex.utf8Start[Int(byte & 0x0F)]
                    o += 2
                }
                return o
            }
        }
    }
}
