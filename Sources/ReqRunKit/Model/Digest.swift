internal import CCrypto

/// Message digests from OpenSSL's libcrypto (EVP interface).
public enum Digest {
    /// SHA-1 (FIPS 180-4 §6.1) of `bytes`: 20 bytes. Used only where a protocol requires it (name-based
    /// UUIDs, RFC 9562 §5.5; the WebSocket accept key, RFC 6455 §4.2.2), never for security. Computed here
    /// rather than by OpenSSL: the first group id is derived while the workspace loads, and OpenSSL's first
    /// fetch (its set-up, about 3 M instructions) then ran on the main thread before the first request.
    public static func sha1(_ bytes: [UInt8]) -> [UInt8] {
        var h: (UInt32, UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0)
        // The message, a 1 bit, zeros, and its length in bits (64-bit big-endian) to a multiple of 64 bytes.
        var message = bytes
        message.append(0x80)
        while message.count % 64 != 56 { message.append(0) }
        let bits = UInt64(bytes.count) &* 8
        for shift in stride(from: 56, through: 0, by: -8) { message.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        var w = [UInt32](repeating: 0, count: 80)
        for block in stride(from: 0, to: message.count, by: 64) {
            for t in 0..<16 {
                let i = block + t * 4
                w[t] = UInt32(message[i]) << 24 | UInt32(message[i + 1]) << 16 | UInt32(message[i + 2]) << 8 | UInt32(message[i + 3])
            }
            for t in 16..<80 {
                let x = w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16]
                w[t] = x << 1 | x >> 31
            }
            var (a, b, c, d, e) = h
            for t in 0..<80 {
                let f: UInt32, k: UInt32
                switch t {
                case 0..<20: (f, k) = ((b & c) | (~b & d), 0x5A82_7999)
                case 20..<40: (f, k) = (b ^ c ^ d, 0x6ED9_EBA1)
                case 40..<60: (f, k) = ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                default: (f, k) = (b ^ c ^ d, 0xCA62_C1D6)
                }
                let temp = (a << 5 | a >> 27) &+ f &+ e &+ k &+ w[t]
                (e, d, c, b, a) = (d, c, b << 30 | b >> 2, a, temp)
            }
            h = (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d, h.4 &+ e)
        }
        var out: [UInt8] = []
        out.reserveCapacity(20)
        for word in [h.0, h.1, h.2, h.3, h.4] {
            for shift in stride(from: 24, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: word >> UInt32(shift))) }
        }
        return out
    }

    /// SHA-256 (FIPS 180-4) of `bytes`: 32 bytes.
    public static func sha256(_ bytes: [UInt8]) -> [UInt8] { oneShot(bytes, fetchedSHA256) }

    /// MD5 (RFC 1321) of `bytes`: 16 bytes. Only for the `md5` check subject (Hurl's), never for security.
    public static func md5(_ bytes: [UInt8]) -> [UInt8] { oneShot(bytes, fetchedMD5) }

    // The algorithms fetched from OpenSSL's default provider once: with `EVP_sha256()`
    // every digest fetches again (OpenSSL 3's "implicit fetch", thousands of instructions each; a workspace
    // derives an id per group). The first fetch also sets OpenSSL up (about 5 M instructions).
    nonisolated(unsafe) static let fetchedSHA256 = EVP_MD_fetch(nil, "SHA256", nil)
    nonisolated(unsafe) static let fetchedMD5 = EVP_MD_fetch(nil, "MD5", nil)

    /// Sets OpenSSL's digests up now (see `HTTPExecutor.prepareInBackground`).
    static func warmUp() { _ = fetchedSHA256 }

    private static func oneShot(_ bytes: [UInt8], _ md: OpaquePointer?) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBytes { input in
            out.withUnsafeMutableBufferPointer { EVP_Digest(input.baseAddress, input.count, $0.baseAddress, &length, md, nil) }
        }
        precondition(ok == 1, "EVP_Digest failed")
        return Array(out.prefix(Int(length)))
    }

    /// Lower-case hexadecimal text of `bytes`.
    public static func hex(_ bytes: [UInt8]) -> String {
        // Written into the string's own storage: two arrays and a validating copy had cost 2,200 instructions
        // for a SHA-256 (callgrind; every response's `bodySHA256`).
        let digits: StaticString = "0123456789abcdef"
        return String(unsafeUninitializedCapacity: bytes.count * 2) { out in
            for (i, b) in bytes.enumerated() {
                out[2 * i] = digits.utf8Start[Int(b >> 4)]
                out[2 * i + 1] = digits.utf8Start[Int(b & 0x0F)]
            }
            return bytes.count * 2
        }
    }
}

/// An incremental SHA-256, for response bodies hashed as they stream in (memory stays bounded).
public final class SHA256Hasher {
    private let context: OpaquePointer

    public init() {
        context = EVP_MD_CTX_new()
        // Fetched once (`Digest.fetchedSHA256`): an implicit fetch cost about 8,000 instructions a response.
        precondition(EVP_DigestInit_ex(context, Digest.fetchedSHA256, nil) == 1, "EVP_DigestInit_ex failed")
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Adds `bytes` to the hash.
    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0 else { return }
        precondition(EVP_DigestUpdate(context, bytes.baseAddress, bytes.count) == 1, "EVP_DigestUpdate failed")
    }

    /// The 32-byte digest; call once, after the last `update`.
    public func finish() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        precondition(EVP_DigestFinal_ex(context, &out, &length) == 1, "EVP_DigestFinal_ex failed")
        return Array(out.prefix(Int(length)))
    }
}
