internal import CCrypto

/// Message digests from OpenSSL's libcrypto (EVP interface).
public enum Digest {
    /// SHA-1 (FIPS 180-4) of `bytes`: 20 bytes. Used only for name-based UUIDs, where RFC 9562 requires it.
    public static func sha1(_ bytes: [UInt8]) -> [UInt8] { oneShot(bytes, EVP_sha1()) }

    /// SHA-256 (FIPS 180-4) of `bytes`: 32 bytes.
    public static func sha256(_ bytes: [UInt8]) -> [UInt8] { oneShot(bytes, EVP_sha256()) }

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

    /// SHA-256 fetched from the default provider once: `EVP_sha256()` makes every `EVP_DigestInit_ex` fetch
    /// it again (OpenSSL 3 "implicit fetch", about 8,000 instructions a response in callgrind).
    nonisolated(unsafe) private static let sha256 = EVP_MD_fetch(nil, "SHA256", nil)

    public init() {
        context = EVP_MD_CTX_new()
        precondition(EVP_DigestInit_ex(context, Self.sha256, nil) == 1, "EVP_DigestInit_ex failed")
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
