import Foundation

/// Atlassian S2S Authentication (ASAP), as Postman's `asap` auth: a JWT (RFC 7519) signed by reqrun for each
/// request with an asymmetric key, the header `{"alg", "typ": "JWT", "kid"}` and the claims `iss`, `sub`
/// (the issuer unless set), `aud`, `jti` (a new UUID), `iat` (now) and `exp` (`iat` + the expiry), then
/// `claims`' members, which replace those of the same name (Postman: "values defined here have higher
/// priority"). Sent as `Authorization: Bearer <token>` (the ASAP specification's form). Every string is a template.
public struct AsapAuth: Sendable, Equatable {
    /// RS*, PS* or ES* (ASAP allows no HMAC).
    public var algorithm: JWTAuth.Algorithm
    public var issuer: String
    public var audience: String
    public var keyId: String
    /// The PEM private key.
    public var privateKey: String
    /// Empty: the issuer.
    public var subject: String
    /// More claims: a JSON object as text, or empty.
    public var claims: String
    /// The lifetime: seconds, or a number with `s`, `m`, `h` or `d` (`1h` unless set, Postman's default).
    public var expiry: String

    public init(algorithm: JWTAuth.Algorithm = .rs256, issuer: String = "", audience: String = "", keyId: String = "", privateKey: String = "",
                subject: String = "", claims: String = "", expiry: String = "1h") {
        self.algorithm = algorithm
        self.issuer = issuer
        self.audience = audience
        self.keyId = keyId
        self.privateKey = privateKey
        self.subject = subject
        self.claims = claims
        self.expiry = expiry
    }

    var templates: [String] { [issuer, audience, keyId, privateKey, subject, claims, expiry] }
    var secretTemplates: [String] { [privateKey] }

    /// `expiry` in seconds, or nil when it is not a non-negative whole number with an optional unit.
    static func seconds(_ expiry: String) -> Int? {
        let text = expiry.trimmingCharacters(in: .whitespaces)
        let units: [Character: Int] = ["s": 1, "m": 60, "h": 3600, "d": 86400]
        let unit = text.last.flatMap { units[$0] }
        guard let number = Int(unit == nil ? text : String(text.dropLast())), number >= 0 else { return nil }
        return number.multipliedReportingOverflow(by: unit ?? 1).overflow ? nil : number * (unit ?? 1)
    }

    /// The signed token for resolved values, issued at `now` (seconds since 1970) with `jti`.
    /// - Throws: `PreparationFailure.invalidAuth` for an HMAC algorithm, a bad expiry, claims that are not a
    ///   JSON object, or a key that does not fit the algorithm.
    static func token(_ auth: AsapAuth, now: Int, jti: String) throws(PreparationFailure) -> String {
        guard auth.algorithm.scheme != nil else { throw .invalidAuth("asap needs an RS, PS or ES algorithm, not \(auth.algorithm.rawValue)") }
        guard let lifetime = seconds(auth.expiry) else { throw .invalidAuth("the asap expiry '\(auth.expiry)' is not a number of seconds (or with s, m, h, d)") }
        var members: [(key: String, value: String)] = []
        func add(_ key: String, _ value: String) {
            var text = ""
            JSONNode.appendQuoted(value, to: &text)
            members.append((key, text))
        }
        add("iss", auth.issuer)
        add("sub", auth.subject.isEmpty ? auth.issuer : auth.subject)
        add("aud", auth.audience)
        add("jti", jti)
        members.append(("iat", String(now)))
        members.append(("exp", String(now + lifetime)))
        if !auth.claims.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            guard let extra = try? JSONParser.parse(Array(auth.claims.utf8)), case .object(let claims) = extra.value else {
                throw .invalidAuth("the asap claims are not a JSON object")
            }
            for claim in claims {
                if let index = members.firstIndex(where: { $0.key == claim.key }) { members[index].value = claim.value.compactText } else {
                    members.append((claim.key, claim.value.compactText))
                }
            }
        }
        var payload = "{", header = "{"
        for (i, member) in members.enumerated() {
            if i > 0 { payload += "," }
            JSONNode.appendQuoted(member.key, to: &payload)
            payload += ":" + member.value
        }
        payload += "}"
        JSONNode.appendQuoted("kid", to: &header)
        header += ":"
        JSONNode.appendQuoted(auth.keyId, to: &header)
        header += "}"
        return try JWTSigner.token(JWTAuth(algorithm: auth.algorithm, privateKey: auth.privateKey), payload: payload, header: header)
    }
}
