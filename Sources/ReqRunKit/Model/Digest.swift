internal import CCrypto

/// Message digests from OpenSSL's libcrypto (EVP interface).
public enum Digest {
    /// SHA-1 (FIPS 180-4) of `bytes`: 20 bytes. Used only for name-based UUIDs, where RFC 9562 requires it.
    public static func sha1(_ bytes: [UInt8]) -> [UInt8] { oneShot(bytes, fetchedSHA1) }

    /// SHA-256 (FIPS 180-4) of `bytes`: 32 bytes.
    public static func sha256(_ bytes: [UInt8]) -> [UInt8] { oneShot(bytes, fetchedSHA256) }

    /// MD5 (RFC 1321) of `bytes`: 16 bytes. Only for the `md5` check subject (Hurl's), never for security.
    public static func md5(_ bytes: [UInt8]) -> [UInt8] { oneShot(bytes, fetchedMD5) }

    // The algorithms fetched from OpenSSL's default provider once: with `EVP_sha1()` and `EVP_sha256()`
    // every digest fetches again (OpenSSL 3's "implicit fetch", thousands of instructions each; a workspace
    // derives an id per group). The first fetch also sets OpenSSL up (about 5 M instructions).
    nonisolated(unsafe) static let fetchedSHA1 = EVP_MD_fetch(nil, "SHA1", nil)
    nonisolated(unsafe) static let fetchedSHA256 = EVP_MD_fetch(nil, "SHA256", nil)
    nonisolated(unsafe) static let fetchedMD5 = EVP_MD_fetch(nil, "MD5", nil)

    /// Sets OpenSSL's digests up now (see `HTTPExecutor.prepareInBackground`).
    static func warmUp() { _ = (fetchedSHA1, fetchedSHA256) }

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
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for b in bytes { out.append(digits[Int(b >> 4)]); out.append(digits[Int(b & 0x0F)]) }
        return String(decoding: out, as: UTF8.self)
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
