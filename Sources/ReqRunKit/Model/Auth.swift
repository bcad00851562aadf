/// How a request authenticates (`auth` on a collection, a group or a request). A request without `auth`
/// inherits its group's, then an outer group's, then the collection's; `{"type": "none"}` stops that.
/// Every string may use `{{name}}`. Credentials are secrets: masked in output unless `--show-secrets`.
public enum Auth: Sendable, Equatable {
    /// No authentication, and no inheritance from above.
    case none
    /// `Authorization: Basic base64(username:password)` (RFC 7617).
    case basic(username: String, password: String)
    /// `Authorization: Bearer token` (RFC 6750).
    case bearer(token: String)
    /// An API key sent as a header field or a query parameter.
    case apiKey(name: String, value: String, inQuery: Bool)
    /// HTTP Digest (RFC 7616), negotiated by libcurl (`CURLOPT_HTTPAUTH` = `CURLAUTH_DIGEST`).
    case digest(username: String, password: String)
    /// AWS Signature Version 4, computed by libcurl (`CURLOPT_AWS_SIGV4`, `aws:amz:REGION:SERVICE`).
    case awsSigV4(accessKey: String, secretKey: String, region: String, service: String, sessionToken: String?)
    /// OAuth 1.0a (RFC 5849), signed by reqrun for each request.
    case oauth1(OAuth1Auth)
    /// Hawk 1, computed by reqrun for each request.
    case hawk(HawkAuth)
    /// NTLM, negotiated by libcurl (`CURLAUTH_NTLM`); `domain` goes before the user name (`DOMAIN\user`).
    case ntlm(username: String, password: String, domain: String)
    /// OAuth 2.0 with the token requested by reqrun (client credentials, password, refresh token).
    case oauth2(OAuth2Auth)
    /// A JSON Web Token signed by reqrun for each request.
    case jwt(JWTAuth)
    /// Atlassian S2S (ASAP): a JWT signed by reqrun for each request.
    case asap(AsapAuth)
    /// Akamai EdgeGrid (`EG1-HMAC-SHA256`), signed by reqrun for each request.
    case edgegrid(EdgeGridAuth)

    /// The templates that hold credentials (masked as secrets once resolved).
    var secretTemplates: [String] {
        switch self {
        case .none: return []
        case .basic(_, let password), .digest(_, let password): return [password]
        case .bearer(let token): return [token]
        case .apiKey(_, let value, _): return [value]
        case .awsSigV4(_, let secretKey, _, _, let sessionToken): return [secretKey] + (sessionToken.map { [$0] } ?? [])
        case .oauth1(let auth): return auth.secretTemplates
        case .hawk(let auth): return [auth.key]
        case .ntlm(_, let password, _): return [password]
        case .oauth2(let auth): return auth.secretTemplates
        case .jwt(let auth): return auth.secretTemplates
        case .asap(let auth): return auth.secretTemplates
        case .edgegrid(let auth): return auth.secretTemplates
        }
    }
}

/// Credentials the executor hands to libcurl (the kinds libcurl computes itself); resolved, no templates.
public enum TransferAuth: Sendable, Equatable {
    case digest(username: String, password: String)
    case awsSigV4(accessKey: String, secretKey: String, region: String, service: String)
    /// `username` is `DOMAIN\user` when a domain is given (libcurl's form).
    case ntlm(username: String, password: String)
}

extension RequestReference {
    /// The auth that applies: the request's, else the innermost group's, else the collection's; `.none`
    /// stops inheritance. Nil when nothing sets one.
    public var effectiveAuth: Auth? {
        if let auth = request.auth { return auth }
        for group in groups.reversed() { if let auth = group.auth { return auth } }
        return collectionAuth
    }
}

extension Auth {
    /// Every template string in the auth (for finding the variables it uses).
    var templates: [String] {
        switch self {
        case .none: return []
        case .basic(let u, let p), .digest(let u, let p): return [u, p]
        case .bearer(let token): return [token]
        case .apiKey(let name, let value, _): return [name, value]
        case .awsSigV4(let a, let s, let r, let v, let t): return [a, s, r, v] + (t.map { [$0] } ?? [])
        case .oauth1(let auth): return auth.templates
        case .hawk(let auth): return auth.templates
        case .ntlm(let u, let p, let d): return [u, p, d]
        case .oauth2(let auth): return auth.templates
        case .jwt(let auth): return auth.templates
        case .asap(let auth): return auth.templates
        case .edgegrid(let auth): return auth.templates
        }
    }
}
