import Foundation

/// OAuth 1.0a request signing (RFC 5849 §3), as Postman's `oauth1` auth does it. Every string is a template.
public struct OAuth1Auth: Sendable, Equatable {
    /// `oauth_signature_method` (RFC 5849 §3.4; the SHA-256 and SHA-512 variants are the common extensions
    /// Postman and oauthlib also offer).
    public enum SignatureMethod: String, Sendable, CaseIterable {
        case hmacSHA1 = "HMAC-SHA1", hmacSHA256 = "HMAC-SHA256", hmacSHA512 = "HMAC-SHA512"
        case rsaSHA1 = "RSA-SHA1", rsaSHA256 = "RSA-SHA256", rsaSHA512 = "RSA-SHA512"
        case plaintext = "PLAINTEXT"

        var hash: Signing.HashAlgorithm? {
            switch self {
            case .hmacSHA1, .rsaSHA1: return .sha1
            case .hmacSHA256, .rsaSHA256: return .sha256
            case .hmacSHA512, .rsaSHA512: return .sha512
            case .plaintext: return nil
            }
        }

        var isRSA: Bool { self == .rsaSHA1 || self == .rsaSHA256 || self == .rsaSHA512 }
    }

    /// Where the protocol parameters go (RFC 5849 §3.5).
    public enum Placement: String, Sendable, CaseIterable {
        /// `Authorization: OAuth …` (§3.5.1).
        case header
        /// Added to a form body (§3.5.2); a request without a form body gets them in the query instead, as
        /// Postman does.
        case body
        /// Added to the query (§3.5.3).
        case query
    }

    public var consumerKey: String
    public var consumerSecret: String
    public var token: String
    public var tokenSecret: String
    /// The PEM private key for the RSA methods.
    public var privateKey: String
    public var signatureMethod: SignatureMethod
    public var placement: Placement
    /// The `realm` of the header (§3.5.1); not signed. Empty: none.
    public var realm: String
    /// A fixed `oauth_nonce`; empty: a new random one for each request.
    public var nonce: String
    /// A fixed `oauth_timestamp` (seconds since 1970); empty: the time of sending.
    public var timestamp: String
    /// `oauth_version`, `1.0` unless set; empty is left out (unless `addEmptyParamsToSign`).
    public var version: String
    /// `oauth_callback` and `oauth_verifier` (the temporary-credential and token steps, §2.1, §2.3); empty: none.
    public var callback: String
    public var verifier: String
    /// Adds `oauth_body_hash`, the base64 hash of the content with the signature method's hash (the OAuth
    /// Request Body Hash extension); never for form bodies, nor with PLAINTEXT (as Postman).
    public var includeBodyHash: Bool
    /// Signs and sends the empty ones among `oauth_token` and `oauth_version` too (Postman's option).
    public var addEmptyParamsToSign: Bool

    public init(consumerKey: String, consumerSecret: String = "", token: String = "", tokenSecret: String = "", privateKey: String = "",
                signatureMethod: SignatureMethod = .hmacSHA1, placement: Placement = .header, realm: String = "", nonce: String = "",
                timestamp: String = "", version: String = "1.0", callback: String = "", verifier: String = "",
                includeBodyHash: Bool = false, addEmptyParamsToSign: Bool = false) {
        self.consumerKey = consumerKey
        self.consumerSecret = consumerSecret
        self.token = token
        self.tokenSecret = tokenSecret
        self.privateKey = privateKey
        self.signatureMethod = signatureMethod
        self.placement = placement
        self.realm = realm
        self.nonce = nonce
        self.timestamp = timestamp
        self.version = version
        self.callback = callback
        self.verifier = verifier
        self.includeBodyHash = includeBodyHash
        self.addEmptyParamsToSign = addEmptyParamsToSign
    }

    var templates: [String] {
        [consumerKey, consumerSecret, token, tokenSecret, privateKey, realm, nonce, timestamp, version, callback, verifier]
    }

    var secretTemplates: [String] { [consumerSecret, token, tokenSecret, privateKey] }
}

/// The signing steps of RFC 5849 §3.4, on resolved values.
enum OAuth1Signer {
    /// RFC 5849 §3.6: UTF-8, then every byte but the unreserved `ALPHA DIGIT - . _ ~` as `%XX` (upper case).
    static func percentEncode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(UnicodeScalar(byte))
            default:
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }

    /// The base string URI (§3.4.1.2): scheme and host in lower case, the port only when not the default,
    /// the path as sent; no query, no fragment.
    static func baseStringURI(_ target: RequestTarget) -> String {
        target.scheme + "://" + target.host + (target.hasExplicitPort ? ":\(target.port)" : "") + target.path
    }

    /// The normalized parameters (§3.4.1.3.2): each name and value encoded, sorted by name then value,
    /// `name=value` joined with `&`.
    static func normalizedParameters(_ pairs: [(name: String, value: String)]) -> String {
        // The encoded texts are ASCII, so String's order is the byte order the RFC asks for.
        let encoded: [(name: String, value: String)] = pairs.map { (percentEncode($0.name), percentEncode($0.value)) }
        let sorted = encoded.sorted { (a, b) -> Bool in a.name != b.name ? a.name < b.name : a.value < b.value }
        return sorted.map { $0.name + "=" + $0.value }.joined(separator: "&")
    }

    /// The signature base string (§3.4.1.1): `METHOD&uri&parameters`, the last two encoded.
    static func baseString(method: String, target: RequestTarget, parameters: [(name: String, value: String)]) -> String {
        method.uppercased() + "&" + percentEncode(baseStringURI(target)) + "&" + percentEncode(normalizedParameters(parameters))
    }

    /// The `oauth_signature` value: HMAC (§3.4.2) keyed with `secret&tokenSecret`, RSA (§3.4.3) with the
    /// private key, or the key itself for PLAINTEXT (§3.4.4); base64 for the first two.
    static func signature(_ method: OAuth1Auth.SignatureMethod, baseString: String, consumerSecret: String, tokenSecret: String,
                          privateKey: String) throws(Signing.KeyError) -> String {
        let key = percentEncode(consumerSecret) + "&" + percentEncode(tokenSecret)
        switch method {
        case .plaintext:
            return key
        case .rsaSHA1, .rsaSHA256, .rsaSHA512:
            return Data(try Signing.rsaSign(method.hash!, pem: privateKey, message: Array(baseString.utf8))).base64EncodedString()
        case .hmacSHA1, .hmacSHA256, .hmacSHA512:
            return Data(Signing.hmac(method.hash!, key: Array(key.utf8), message: Array(baseString.utf8))).base64EncodedString()
        }
    }

    /// A fresh nonce: 16 random letters and digits (RFC 5849 §3.3 asks only for uniqueness per timestamp).
    static func randomNonce() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<16).map { _ in alphabet[Int(generator.next(upperBound: UInt(alphabet.count)))] })
    }

    /// Signs `prepared` (its URL normalized, its content final) with `auth`, whose templates are resolved
    /// already, and places the protocol parameters. Returns the secrets it made (the signature).
    static func sign(_ auth: OAuth1Auth, _ prepared: inout PreparedRequest) throws(PreparationFailure) -> [String] {
        let target = RequestTarget(prepared.url)
        let formBody = isForm(prepared)
        var protocolParameters: [(name: String, value: String)] = []
        func add(_ name: String, _ value: String, always: Bool = false) {
            if !value.isEmpty || always { protocolParameters.append((name, value)) }
        }
        add("oauth_consumer_key", auth.consumerKey)
        add("oauth_token", auth.token, always: auth.addEmptyParamsToSign)
        add("oauth_signature_method", auth.signatureMethod.rawValue)
        add("oauth_timestamp", auth.timestamp.isEmpty ? String(Int(Date().timeIntervalSince1970)) : auth.timestamp)
        add("oauth_nonce", auth.nonce.isEmpty ? randomNonce() : auth.nonce)
        add("oauth_version", auth.version, always: auth.addEmptyParamsToSign)
        if auth.includeBodyHash, !formBody, let hash = auth.signatureMethod.hash {
            add("oauth_body_hash", Data(Signing.digest(hash, prepared.body?.bytes ?? fileBytes(prepared))).base64EncodedString())
        }
        add("oauth_callback", auth.callback)
        add("oauth_verifier", auth.verifier)
        var all = protocolParameters
        if let query = target.query { all += RequestTarget.formPairs(query) }
        if formBody, let bytes = prepared.body?.bytes { all += RequestTarget.formPairs(String(decoding: bytes, as: UTF8.self)) }
        let base = baseString(method: prepared.method, target: target, parameters: all)
        let signature: String
        do {
            signature = try self.signature(auth.signatureMethod, baseString: base, consumerSecret: auth.consumerSecret,
                                           tokenSecret: auth.tokenSecret, privateKey: auth.privateKey)
        } catch {
            throw .invalidAuth("OAuth 1.0a \(auth.signatureMethod.rawValue): \(error.description)")
        }
        protocolParameters.append(("oauth_signature", signature))
        let encoded = protocolParameters.map { percentEncode($0.name) + "=" + percentEncode($0.value) }
        switch auth.placement {
        case .header:
            var fields = protocolParameters.map { percentEncode($0.name) + "=\"" + percentEncode($0.value) + "\"" }
            if !auth.realm.isEmpty { fields.insert("realm=\"\(auth.realm.replacingOccurrences(of: "\"", with: "\\\""))\"", at: 0) }
            if !prepared.headers.contains(named: "authorization") {
                prepared.headers.append(HeaderField(name: "Authorization", value: "OAuth " + fields.joined(separator: ", ")))
            }
        case .body where formBody:
            var bytes = prepared.body?.bytes ?? []
            if !bytes.isEmpty { bytes.append(UInt8(ascii: "&")) }
            bytes += Array(encoded.joined(separator: "&").utf8)
            prepared.body = .bytes(bytes)
        case .body, .query:
            let fragmentStart = prepared.url.firstIndex(of: "#") ?? prepared.url.endIndex
            let base = prepared.url[..<fragmentStart]
            let separator = target.query == nil ? "?" : (base.hasSuffix("?") || base.hasSuffix("&") ? "" : "&")
            prepared.url = base + separator + encoded.joined(separator: "&") + prepared.url[fragmentStart...]
        }
        return [signature, percentEncode(signature)]
    }

    /// Whether the content is an `application/x-www-form-urlencoded` body in memory, whose parameters are
    /// signed (§3.4.1.3.1).
    static func isForm(_ prepared: PreparedRequest) -> Bool {
        guard prepared.body?.bytes != nil,
              let type = prepared.headers.last(where: { $0.hasName(in: ["content-type"]) })?.value else { return false }
        return type.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() == "application/x-www-form-urlencoded"
    }

    /// The content of a file body (for body hashes), or nothing.
    static func fileBytes(_ prepared: PreparedRequest) -> [UInt8] {
        guard case .file(let path)? = prepared.body else { return [] }
        return BodyFile.contents(path) ?? []
    }
}
