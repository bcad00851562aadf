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
        let pemBytes = Array(pem.utf8)
        let bio = pemBytes.withUnsafeBytes { BIO_new_mem_buf($0.baseAddress, Int32($0.count)) }
        guard let bio else { throw KeyError(description: "cannot read the private key") }
        defer { BIO_free(bio) }
        guard let key = PEM_read_bio_PrivateKey(bio, nil, nil, nil) else {
            throw KeyError(description: "the private key is not an unencrypted PEM private key")
        }
        defer { EVP_PKEY_free(key) }
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_RSA else { throw KeyError(description: "the private key is not an RSA key") }
        guard let context = EVP_MD_CTX_new() else { throw KeyError(description: "cannot sign") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit_ex(context, nil, hash.rawValue, nil, nil, key, nil) == 1 else {
            throw KeyError(description: "cannot sign with this key")
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
        return Array(signature.prefix(length))
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
