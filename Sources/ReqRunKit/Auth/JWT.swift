import Foundation

/// A JSON Web Token (RFC 7519) signed by reqrun for each request, as Postman's `jwt` auth makes it: the
/// header `{"alg": …, "typ": "JWT"}` (plus `header`'s fields), the payload as written, signed with HMAC
/// (HS*, RFC 7518 §3.2), RSASSA-PKCS1-v1_5 (RS*, §3.3), ECDSA on P-256/384/521 (ES*, §3.4, the signature
/// as raw `r || s`) or RSASSA-PSS (PS*, §3.5). Every string is a template.
public struct JWTAuth: Sendable, Equatable {
    public enum Algorithm: String, Sendable, CaseIterable {
        case hs256 = "HS256", hs384 = "HS384", hs512 = "HS512", rs256 = "RS256", rs384 = "RS384", rs512 = "RS512"
        case ps256 = "PS256", ps384 = "PS384", ps512 = "PS512", es256 = "ES256", es384 = "ES384", es512 = "ES512"

        var hash: Signing.HashAlgorithm {
            switch rawValue.suffix(3) {
            case "256": return .sha256
            case "384": return .sha384
            default: return .sha512
            }
        }

        /// The public-key scheme, or nil for the HMAC ones.
        var scheme: Signing.Scheme? {
            switch rawValue.prefix(2) {
            case "RS": return .rsaPKCS1
            case "PS": return .rsaPSS
            case "ES": return .ecdsa(bits: self == .es256 ? 256 : self == .es384 ? 384 : 521)
            default: return nil
            }
        }
    }

    public var algorithm: Algorithm
    /// The HMAC secret (HS*); its bytes, or base64 decoded when `secretIsBase64`.
    public var secret: String
    public var secretIsBase64: Bool
    /// The PEM private key (RS*, PS*: RSA; ES*: EC on the algorithm's curve).
    public var privateKey: String
    /// The claims: a JSON object as text; `{{name}}` inside its strings is resolved and JSON-escaped.
    public var payload: String
    /// More header fields: a JSON object as text (e.g. `{"kid": "k1"}`), or empty.
    public var header: String
    /// Sent as `Authorization: <prefix> <token>` (`Bearer` unless set; empty: the token alone), or in the query.
    public var headerPrefix: String
    public var inQuery: Bool
    /// The query parameter's name (`token` unless set).
    public var queryParameter: String

    public init(algorithm: Algorithm = .hs256, secret: String = "", secretIsBase64: Bool = false, privateKey: String = "", payload: String = "{}",
                header: String = "", headerPrefix: String = "Bearer", inQuery: Bool = false, queryParameter: String = "token") {
        self.algorithm = algorithm
        self.secret = secret
        self.secretIsBase64 = secretIsBase64
        self.privateKey = privateKey
        self.payload = payload
        self.header = header
        self.headerPrefix = headerPrefix
        self.inQuery = inQuery
        self.queryParameter = queryParameter
    }

    var templates: [String] { [secret, privateKey, payload, header, headerPrefix, queryParameter] }
    var secretTemplates: [String] { [secret, privateKey] }
}

enum JWTSigner {
    /// base64url without padding (RFC 7515 §2).
    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The signed token `header.payload.signature` for resolved values; `payload` and `header` are JSON
    /// object texts (`header` may be empty).
    static func token(_ auth: JWTAuth, payload: String, header: String) throws(PreparationFailure) -> String {
        guard let claims = try? JSONParser.parse(Array(payload.utf8)), case .object = claims.value else {
            throw .invalidAuth("the jwt payload is not a JSON object")
        }
        // `alg` is the algorithm's; `typ` is `JWT` unless the header sets another.
        var fields: [(key: String, value: String)] = [("alg", "\"\(auth.algorithm.rawValue)\""), ("typ", "\"JWT\"")]
        if !header.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            guard let extra = try? JSONParser.parse(Array(header.utf8)), case .object(let members) = extra.value else {
                throw .invalidAuth("the jwt header is not a JSON object")
            }
            for member in members where member.key != "alg" {
                if member.key == "typ" { fields[1].value = member.value.compactText } else { fields.append((member.key, member.value.compactText)) }
            }
        }
        var headerText = "{"
        for (i, field) in fields.enumerated() {
            if i > 0 { headerText += "," }
            JSONNode.appendQuoted(field.key, to: &headerText)
            headerText += ":" + field.value
        }
        headerText += "}"
        let input = base64URL(Array(headerText.utf8)) + "." + base64URL(Array(claims.compactText.utf8))
        let signature: [UInt8]
        if let scheme = auth.algorithm.scheme {
            do {
                signature = try Signing.sign(auth.algorithm.hash, scheme, pem: auth.privateKey, message: Array(input.utf8))
            } catch {
                throw .invalidAuth("jwt \(auth.algorithm.rawValue): \(error.description)")
            }
        } else {
            var key = Array(auth.secret.utf8)
            if auth.secretIsBase64 {
                guard let data = Data(base64Encoded: auth.secret) else { throw .invalidAuth("the jwt secret is not base64") }
                key = Array(data)
            }
            signature = Signing.hmac(auth.algorithm.hash, key: key, message: Array(input.utf8))
        }
        return input + "." + base64URL(signature)
    }
}
