internal import CCrypto

/// Keyed hashes and signatures from OpenSSL's libcrypto, for the auth kinds reqrun computes itself
/// (OAuth 1.0a, Hawk, JWT).
public enum Signing {
    /// A hash function by its OpenSSL name.
    public enum HashAlgorithm: String, Sendable {
        case sha1 = "SHA1", sha256 = "SHA256", sha384 = "SHA384", sha512 = "SHA512"
    }

    /// HMAC (RFC 2104) of `message` under `key` with `hash`: 20 bytes for SHA-1, 32 for SHA-256, and so on.
    public static func hmac(_ hash: HashAlgorithm, key: [UInt8], message: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length = 0
        // OpenSSL rejects a NULL key pointer even with length 0 (an empty OAuth 1.0a secret is "&"-only, but a
        // Hawk or JWT key may be empty): a one-byte buffer stands in for the empty key.
        let keyBytes = key.isEmpty ? [0] : key
        let result = keyBytes.withUnsafeBytes { k in
            message.withUnsafeBytes { m in
                out.withUnsafeMutableBytes { o in
                    EVP_Q_mac(nil, "HMAC", nil, hash.rawValue, nil, k.baseAddress, key.count, m.baseAddress, m.count,
                              o.baseAddress?.assumingMemoryBound(to: UInt8.self), o.count, &length)
                }
            }
        }
        precondition(result != nil, "EVP_Q_mac failed")
        return Array(out.prefix(length))
    }

    /// Why an RSA signature could not be made.
    public struct KeyError: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// The RSASSA-PKCS1-v1_5 signature (RFC 8017 §8.2) of `message` with `hash`, under the PEM private key
    /// `pem` (`-----BEGIN PRIVATE KEY-----` or `-----BEGIN RSA PRIVATE KEY-----`, unencrypted).
    /// - Throws: `KeyError` when the text is not such a key.
    public static func rsaSign(_ hash: HashAlgorithm, pem: String, message: [UInt8]) throws(KeyError) -> [UInt8] {
        try sign(hash, .rsaPKCS1, pem: pem, message: message)
    }

    /// A public-key signature scheme.
    public enum Scheme: Sendable, Equatable {
        /// RSASSA-PKCS1-v1_5 (RFC 8017 §8.2): JWT RS*, OAuth 1.0a RSA-SHA*.
        case rsaPKCS1
        /// RSASSA-PSS (RFC 8017 §8.1) with MGF1 of the same hash and a salt as long as the hash (RFC 7518 §3.5): JWT PS*.
        case rsaPSS
        /// ECDSA on the curve of `bits` (256: P-256, 384: P-384, 521: P-521), as JWS's raw `r || s`, each padded
        /// to the curve's byte length (RFC 7518 §3.4): JWT ES*.
        case ecdsa(bits: Int32)
    }

    /// The signature of `message` with `hash` and `scheme` under the unencrypted PEM private key `pem`
    /// (PKCS #8 `PRIVATE KEY`, or `RSA PRIVATE KEY` / `EC PRIVATE KEY`).
    /// - Throws: `KeyError` when the text is not a key of the scheme (an RSA key for RSA, an EC key on the
    ///   scheme's curve for ECDSA), or OpenSSL cannot sign.
    public static func sign(_ hash: HashAlgorithm, _ scheme: Scheme, pem: String, message: [UInt8]) throws(KeyError) -> [UInt8] {
        let pemBytes = Array(pem.utf8)
        let bio = pemBytes.withUnsafeBytes { BIO_new_mem_buf($0.baseAddress, Int32($0.count)) }
        guard let bio else { throw KeyError(description: "cannot read the private key") }
        defer { BIO_free(bio) }
        guard let key = PEM_read_bio_PrivateKey(bio, nil, nil, nil) else {
            throw KeyError(description: "the private key is not an unencrypted PEM private key")
        }
        defer { EVP_PKEY_free(key) }
        switch scheme {
        case .rsaPKCS1, .rsaPSS:
            guard EVP_PKEY_get_base_id(key) == EVP_PKEY_RSA else { throw KeyError(description: "the private key is not an RSA key") }
        case .ecdsa(let bits):
            let curve = "P-\(bits)"
            guard EVP_PKEY_get_base_id(key) == EVP_PKEY_EC, EVP_PKEY_get_bits(key) == bits else {
                throw KeyError(description: "the private key is not a \(curve) key")
            }
        }
        guard let context = EVP_MD_CTX_new() else { throw KeyError(description: "cannot sign") }
        defer { EVP_MD_CTX_free(context) }
        var keyContext: OpaquePointer?
        guard EVP_DigestSignInit_ex(context, &keyContext, hash.rawValue, nil, nil, key, nil) == 1 else {
            throw KeyError(description: "cannot sign with this key")
        }
        if scheme == .rsaPSS {
            guard EVP_PKEY_CTX_set_rsa_padding(keyContext, RSA_PKCS1_PSS_PADDING) == 1,
                  EVP_PKEY_CTX_set_rsa_pss_saltlen(keyContext, RSA_PSS_SALTLEN_DIGEST) == 1 else {
                throw KeyError(description: "cannot sign with RSASSA-PSS")
            }
        }
        var length = 0
        let sized = message.withUnsafeBytes { EVP_DigestSign(context, nil, &length, $0.baseAddress, $0.count) }
        guard sized == 1 else { throw KeyError(description: "cannot sign with this key") }
        var signature = [UInt8](repeating: 0, count: length)
        let signed = message.withUnsafeBytes { m in
            signature.withUnsafeMutableBytes { s in
                EVP_DigestSign(context, s.baseAddress?.assumingMemoryBound(to: UInt8.self), &length, m.baseAddress, m.count)
            }
        }
        guard signed == 1 else { throw KeyError(description: "cannot sign with this key") }
        let der = Array(signature.prefix(length))
        guard case .ecdsa(let bits) = scheme else { return der }
        return try rawECDSA(der: der, size: (Int(bits) + 7) / 8)
    }

    /// The DER `ECDSA-Sig-Value` (SEC 1 / RFC 3279 §2.2.3) OpenSSL makes, as `r || s` of `size` bytes each.
    static func rawECDSA(der: [UInt8], size: Int) throws(KeyError) -> [UInt8] {
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, buffer.count)
        }
        guard let parsed else { throw KeyError(description: "cannot read the ECDSA signature") }
        defer { ECDSA_SIG_free(parsed) }
        var raw = [UInt8](repeating: 0, count: 2 * size)
        let written = raw.withUnsafeMutableBufferPointer { out in
            (BN_bn2binpad(ECDSA_SIG_get0_r(parsed), out.baseAddress, Int32(size)),
             BN_bn2binpad(ECDSA_SIG_get0_s(parsed), out.baseAddress! + size, Int32(size)))
        }
        guard written.0 == Int32(size), written.1 == Int32(size) else { throw KeyError(description: "cannot encode the ECDSA signature") }
        return raw
    }

    /// The digest of `bytes` with `hash`.
    static func digest(_ hash: HashAlgorithm, _ bytes: [UInt8]) -> [UInt8] {
        switch hash {
        case .sha1: return Digest.sha1(bytes)
        case .sha256: return Digest.sha256(bytes)
        case .sha384, .sha512:
            var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
            var length: UInt32 = 0
            let md = EVP_MD_fetch(nil, hash.rawValue, nil)
            defer { EVP_MD_free(md) }
            _ = bytes.withUnsafeBytes { EVP_Digest($0.baseAddress, $0.count, &out, &length, md, nil) }
            return Array(out.prefix(Int(length)))
        }
    }
}
