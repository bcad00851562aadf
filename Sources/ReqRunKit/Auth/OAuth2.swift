import Foundation

/// OAuth 2.0 (RFC 6749) with the access token requested by reqrun from the token endpoint, once per run for
/// the same parameters (and again when it expires), then sent as Postman sends it. Every string is a template.
public struct OAuth2Auth: Sendable, Hashable {
    /// The grant reqrun runs (RFC 6749 §4.4 client credentials, §4.3 resource owner password, §6 refresh).
    public enum Grant: String, Sendable, CaseIterable {
        case clientCredentials = "client_credentials", password, refreshToken = "refresh_token"
    }

    /// How the client authenticates to the token endpoint (RFC 6749 §2.3.1): HTTP Basic with the form-encoded
    /// id and secret, or `client_id` and `client_secret` in the request body.
    public enum ClientAuthentication: String, Sendable, CaseIterable {
        case header, body
    }

    public var grant: Grant
    public var tokenURL: String
    public var clientId: String
    public var clientSecret: String
    /// The resource owner's credentials (`password` grant).
    public var username: String
    public var password: String
    /// The refresh token (`refresh_token` grant).
    public var refreshToken: String
    /// `scope` (space-separated), and `audience` and `resource` as many servers take them; empty: not sent.
    public var scope: String
    public var audience: String
    public var resource: String
    public var clientAuthentication: ClientAuthentication
    /// `Authorization: <prefix> <token>` (`Bearer` unless set; empty: the token alone), or in the query.
    public var headerPrefix: String
    public var inQuery: Bool
    /// The query parameter's name (`access_token`, RFC 6750 §2.3, unless set).
    public var queryParameter: String

    public init(grant: Grant, tokenURL: String, clientId: String, clientSecret: String = "", username: String = "", password: String = "",
                refreshToken: String = "", scope: String = "", audience: String = "", resource: String = "",
                clientAuthentication: ClientAuthentication = .header, headerPrefix: String = "Bearer", inQuery: Bool = false,
                queryParameter: String = "access_token") {
        self.grant = grant
        self.tokenURL = tokenURL
        self.clientId = clientId
        self.clientSecret = clientSecret
        self.username = username
        self.password = password
        self.refreshToken = refreshToken
        self.scope = scope
        self.audience = audience
        self.resource = resource
        self.clientAuthentication = clientAuthentication
        self.headerPrefix = headerPrefix
        self.inQuery = inQuery
        self.queryParameter = queryParameter
    }

    var templates: [String] {
        [tokenURL, clientId, clientSecret, username, password, refreshToken, scope, audience, resource, headerPrefix, queryParameter]
    }
    var secretTemplates: [String] { [clientSecret, password, refreshToken] }
}

/// A token request with every template resolved: what goes to the token endpoint, and the cache's key (the
/// fields that say where the token goes are left at their defaults, so they do not make another request).
public struct OAuth2TokenRequest: Sendable, Hashable {
    public var auth: OAuth2Auth

    init(_ resolved: OAuth2Auth) {
        auth = resolved
        auth.headerPrefix = "Bearer"
        auth.inQuery = false
        auth.queryParameter = "access_token"
    }

    /// The request sent: `POST tokenURL` with a form body (`grant_type` and the grant's parameters, RFC 6749
    /// §4.3.2, §4.4.2, §6), `Accept: application/json`, and the client's credentials.
    func prepared() throws(PreparationFailure) -> PreparedRequest {
        var form: [(String, String)] = [("grant_type", auth.grant.rawValue)]
        switch auth.grant {
        case .clientCredentials: break
        case .password: form += [("username", auth.username), ("password", auth.password)]
        case .refreshToken: form.append(("refresh_token", auth.refreshToken))
        }
        for (name, value) in [("scope", auth.scope), ("audience", auth.audience), ("resource", auth.resource)] where !value.isEmpty {
            form.append((name, value))
        }
        var headers = [HeaderField(name: "Content-Type", value: "application/x-www-form-urlencoded"), HeaderField(name: "Accept", value: "application/json")]
        switch auth.clientAuthentication {
        case .header:
            let pair = URLQuery.formEncode(auth.clientId) + ":" + URLQuery.formEncode(auth.clientSecret)
            headers.append(HeaderField(name: "Authorization", value: "Basic " + Data(pair.utf8).base64EncodedString()))
        case .body:
            form.append(("client_id", auth.clientId))
            if !auth.clientSecret.isEmpty { form.append(("client_secret", auth.clientSecret)) }
        }
        let body = form.map { URLQuery.formEncode($0.0) + "=" + URLQuery.formEncode($0.1) }.joined(separator: "&")
        var url = auth.tokenURL
        if URLNormalizer.schemeEnd(url) == nil { url = "http://" + url }
        url = try URLNormalizer.normalize(url)
        guard URLNormalizer.hasHTTPScheme(url) else { throw .invalidAuth("the OAuth 2.0 token URL must be http or https: \(auth.tokenURL)") }
        try URLNormalizer.validate(url)
        return PreparedRequest(method: "POST", url: url, headers: headers, body: .bytes(Array(body.utf8)))
    }
}

/// Where `RequestPreparation` gets OAuth 2.0 access tokens from. Without one (dry runs, `show --curl`),
/// a placeholder stands for the token.
public protocol OAuth2TokenSource: AnyObject {
    /// The access token for `request`, requested or from the cache.
    /// - Throws: `PreparationFailure.invalidAuth` when the token endpoint gave none.
    func accessToken(for request: OAuth2TokenRequest) throws(PreparationFailure) -> String
}

/// The tokens of one run: one token request per set of parameters, repeated only when the token has expired
/// (`expires_in`, RFC 6749 §5.1), with its `refresh_token` when the endpoint gave one. A failed token request
/// is not repeated in the run (every request that needs it fails with the same message).
public final class OAuth2TokenCache: OAuth2TokenSource {
    private struct Entry {
        var token: String
        var refreshToken: String?
        var expiresAt: Date?
    }

    private let options: ExecutorOptions
    private var entries: [OAuth2TokenRequest: Result<Entry, PreparationFailure>] = [:]
    /// Token requests sent so far.
    public private(set) var requestsSent = 0
    /// Every token and secret the endpoint returned (masked for the rest of the run).
    public private(set) var secrets: [String] = []

    /// - Parameter options: the run's executor options (TLS, proxy, timeouts); no cookie jar is used.
    public init(options: ExecutorOptions) {
        var options = options
        options.cookieJarFile = nil
        (options.initialCookies, options.keepsCookieStore) = ([], false)
        options.bodySink = nil
        self.options = options
    }

    public func accessToken(for request: OAuth2TokenRequest) throws(PreparationFailure) -> String {
        switch entries[request] {
        case .success(let entry)? where entry.expiresAt.map { $0 > Date() } ?? true:
            return entry.token
        case .failure(let failure)?:
            throw failure
        case .success(let entry)?:
            var refresh = request
            if let token = entry.refreshToken {
                refresh.auth.grant = .refreshToken
                refresh.auth.refreshToken = token
            }
            entries[request] = fetch(refresh)
        case nil:
            entries[request] = fetch(request)
        }
        return try entries[request]!.get().token
    }

    private func fetch(_ request: OAuth2TokenRequest) -> Result<Entry, PreparationFailure> {
        do throws(PreparationFailure) {
            let prepared = try request.prepared()
            let executor = HTTPExecutor(options: options)
            defer { executor.close() }
            requestsSent += 1
            let result = executor.send(prepared, inspectBody: true)
            let endpoint = "the OAuth 2.0 token request to \(prepared.url)"
            if let error = result.error { throw .invalidAuth("\(endpoint) failed: \(error.message)") }
            let status = result.response?.status ?? 0
            let document = try? JSONParser.parse(result.body)
            func member(_ name: String) -> String? {
                guard case .object(let members)? = document?.value, let node = members.first(where: { $0.key == name })?.value else { return nil }
                switch node.value {
                case .string(let text): return text
                case .number(let text): return text
                default: return nil
                }
            }
            guard (200..<300).contains(status), let token = member("access_token"), !token.isEmpty else {
                // RFC 6749 §5.2: `error` and `error_description`.
                var reason = "\(endpoint) answered \(status)"
                // The endpoint's text is repeated by every request that needs the token: cut, whatever its size.
                func cut(_ text: String) -> String { text.count <= 200 ? text : text.prefix(200) + "… (\(text.count) characters)" }
                if let error = member("error") { reason += ": \(cut(error))" }
                if let description = member("error_description") { reason += " (\(cut(description)))" }
                if status >= 200 && status < 300 { reason += " without an access_token" }
                throw .invalidAuth(reason)
            }
            let refreshToken = member("refresh_token")
            secrets += [token] + (refreshToken.map { [$0] } ?? [])
            let expiresAt = member("expires_in").flatMap(Double.init).map { Date().addingTimeInterval($0) }
            return .success(Entry(token: token, refreshToken: refreshToken, expiresAt: expiresAt))
        } catch {
            return .failure(error)
        }
    }
}
