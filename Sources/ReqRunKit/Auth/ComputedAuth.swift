import Foundation

/// Applies the auth kinds reqrun computes (OAuth 1.0a, Hawk, JWT, ASAP, OAuth 2.0, EdgeGrid) and NTLM to a prepared request.
/// `resolve(template, field, kind)` resolves one template (`field` names it, e.g. `consumerKey`).
enum ComputedAuth {
    /// What a field holds: one line (CR, LF and NUL refused), text that may span lines (a PEM key), or a JSON
    /// text whose strings get `{{name}}` resolved and JSON-escaped (like a JSON body).
    enum FieldKind { case line, text, json }

    typealias Resolve = (_ template: String, _ field: String, _ kind: FieldKind) throws(PreparationFailure) -> String

    /// The placeholder sent for an OAuth 2.0 token when no token source is given (dry runs, `show --curl`).
    static func tokenPlaceholder(_ tokenURL: String) -> String { "<OAuth 2.0 token from \(tokenURL)>" }

    /// Before the URL is normalized: NTLM (for libcurl), OAuth 2.0 and JWT (a header field or a query
    /// parameter, like `apikey`). OAuth 1.0a and Hawk are signed after normalization (`sign`).
    static func apply(_ auth: Auth, to prepared: inout PreparedRequest, tokens: OAuth2TokenSource?, _ resolve: Resolve) throws(PreparationFailure) {
        switch auth {
        case .ntlm(let username, let password, let domain):
            let user = try resolve(username, "username", .line), secret = try resolve(password, "password", .line)
            let domainName = try resolve(domain, "domain", .line)
            prepared.transferAuth = .ntlm(username: domainName.isEmpty ? user : domainName + "\\" + user, password: secret)
            prepared.secrets = [secret]
        case .oauth2(let auth):
            let resolved = try AuthTables.oauth2.resolved(auth, resolve)
            let request = OAuth2TokenRequest(resolved)
            prepared.secrets = [resolved.clientSecret, resolved.password, resolved.refreshToken].filter { !$0.isEmpty }
            var token = tokenPlaceholder(resolved.tokenURL)
            if let tokens {
                token = try tokens.accessToken(for: request)
                prepared.secrets.append(token)
            }
            place(token, prefix: resolved.headerPrefix, inQuery: resolved.inQuery, parameter: resolved.queryParameter, &prepared)
        case .jwt(let auth):
            let resolved = try AuthTables.jwt.resolved(auth, resolve)
            let token = try JWTSigner.token(resolved, payload: resolved.payload, header: resolved.header)
            prepared.secrets = [resolved.secret, resolved.privateKey, token].filter { !$0.isEmpty }
            place(token, prefix: resolved.headerPrefix, inQuery: resolved.inQuery, parameter: resolved.queryParameter, &prepared)
        case .asap(let auth):
            let resolved = try AuthTables.asap.resolved(auth, resolve)
            let token = try AsapAuth.token(resolved, now: Int(Date().timeIntervalSince1970), jti: UUID().uuidString.lowercased())
            prepared.secrets = [resolved.privateKey, token].filter { !$0.isEmpty }
            place(token, prefix: "Bearer", inQuery: false, parameter: "", &prepared)
        default:
            return
        }
    }

    /// Whether `auth` signs the URL and content as sent (OAuth 1.0a, Hawk, EdgeGrid), so `sign` must run after normalization.
    static func signsSentForm(_ auth: Auth) -> Bool {
        switch auth {
        case .oauth1, .hawk, .edgegrid: return true
        default: return false
        }
    }

    /// After the URL is normalized and the content is final: OAuth 1.0a, Hawk and EdgeGrid sign both.
    static func sign(_ auth: Auth, _ prepared: inout PreparedRequest, _ resolve: Resolve) throws(PreparationFailure) {
        switch auth {
        case .oauth1(let auth):
            let resolved = try AuthTables.oauth1.resolved(auth, resolve)
            let made = try OAuth1Signer.sign(resolved, &prepared)
            prepared.secrets += [resolved.consumerSecret, resolved.token, resolved.tokenSecret, resolved.privateKey].filter { !$0.isEmpty } + made
        case .hawk(let auth):
            let resolved = try AuthTables.hawk.resolved(auth, resolve)
            prepared.secrets += [resolved.key].filter { !$0.isEmpty } + HawkSigner.sign(resolved, &prepared)
        case .edgegrid(let auth):
            let resolved = try AuthTables.edgegrid.resolved(auth, resolve)
            prepared.secrets += resolved.secretTemplates.filter { !$0.isEmpty } + (try EdgeGridSigner.sign(resolved, &prepared))
        default:
            return
        }
    }

    /// A token as `Authorization: <prefix> <token>` (unless the request sets `Authorization` itself) or as
    /// the query parameter `parameter`.
    private static func place(_ token: String, prefix: String, inQuery: Bool, parameter: String, _ prepared: inout PreparedRequest) {
        if inQuery {
            prepared.url = URLQuery.appending(name: parameter, value: token, to: prepared.url)
        } else if !prepared.headers.contains(named: "authorization") {
            prepared.headers.append(HeaderField(name: "Authorization", value: prefix.isEmpty ? token : prefix + " " + token))
        }
    }

    /// What a curl command line cannot do as `run` does for `auth`, as `# ` comment lines (none: empty).
    static func curlCaveats(_ auth: Auth?) -> [String] {
        switch auth {
        case .oauth1?: return ["# the OAuth 1.0a signature below holds a nonce and a timestamp made now: a server that refuses reused nonces or old timestamps refuses this command"]
        case .hawk?: return ["# the Hawk header below holds a nonce and a timestamp made now: the server refuses it once the timestamp is old or the nonce seen"]
        case .edgegrid?: return ["# the EdgeGrid header below holds a nonce and a timestamp made now: the server refuses it once the timestamp is old or the nonce seen"]
        case .asap?: return ["# the ASAP token below holds a jti, iat and exp made now: a server that refuses a seen jti, or the token after exp, refuses this command"]
        case .oauth2?: return ["# reqrun requests the OAuth 2.0 token from the token endpoint when it runs; curl cannot, so a placeholder stands for it (--show-secrets shows it)"]
        default: return []
        }
    }
}
