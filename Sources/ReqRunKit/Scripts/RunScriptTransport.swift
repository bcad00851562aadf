import Foundation

/// `ScriptTransport` on the run's executor: `pm.sendRequest` goes through the same libcurl multi handle,
/// options and cookie store as the run's requests, and what it learns is kept for the request's result.
///
/// Rules (postman-runtime's `execution.request` handler, and reqrun's own for every request):
/// - the script's values are data: `{{name}}` in them is sent as written (postman-runtime does not resolve
///   variables in script requests); a CR, LF or NUL in the URL or a header field refuses the request;
/// - only `http` and `https` (`ws://` and other schemes are refused), redirects followed as the run follows them
///   (`--no-follow`, `--max-redirs`, `--location-trusted`), credentials kept to the original origin;
/// - a body on any method (postman-runtime sends script requests with `disableBodyPruning`);
/// - the transfer is bounded by `--timeout` and what is left of the script's time limit;
/// - the credentials it sent (auth, `Authorization`, `Cookie` and API-key fields as sent) are secrets for the
///   rest of the run (`secrets`), and each exchange is recorded (`exchanges`, masked with the result).
/// Used from the one thread that runs scripts.
public final class RunScriptTransport: ScriptTransport, @unchecked Sendable {
    /// The executor the exchanges used: the run's, or one made here when the run had none yet (the runner
    /// then keeps it, so the cookie store stays one for the run).
    public private(set) var executor: HTTPExecutor?
    private let options: ExecutorOptions
    private let redirects: RedirectPolicy
    /// What the scripts sent, in order.
    public private(set) var exchanges: [ScriptExchange] = []
    /// Values that reached a credential in those exchanges.
    public private(set) var secrets: [String] = []

    /// The host the request is sent to: the only one whose cookies the script may use (`cookieAccessRefusal`).
    /// Found from `cookieURL` when first read: parsing the request's URL for every scripted request cost about
    /// 8,500 instructions (`URLComponents`, callgrind), and most scripts never use the jar.
    public lazy var cookieHost: String? = cookieURL.flatMap { url in
        URLComponents(string: URLNormalizer.schemeEnd(url) == nil ? "http://" + url : url)?.host?.lowercased()
    }
    /// The request's URL (no scheme: `http://` assumed, as the run sends it), read by `cookieHost`.
    private let cookieURL: String?

    /// - Parameter cookieHost: the host whose cookies scripts may use (nil: none).
    public init(executor: HTTPExecutor?, options: ExecutorOptions, redirects: RedirectPolicy, cookieHost: String? = nil) {
        cookieURL = nil
        self.executor = executor
        self.options = options
        self.redirects = redirects
        self.cookieHost = cookieHost?.lowercased()
    }

    /// - Parameter url: the request's URL as it is sent: its host is the one whose cookies scripts may use.
    public init(executor: HTTPExecutor?, options: ExecutorOptions, redirects: RedirectPolicy, cookiesOf url: String) {
        cookieURL = url
        self.executor = executor
        self.options = options
        self.redirects = redirects
    }

    private func ensureExecutor() -> HTTPExecutor {
        if let executor { return executor }
        let made = HTTPExecutor(options: options)
        executor = made
        return made
    }

    public func send(_ request: ScriptRequest, timeLimitMilliseconds: Int?, place: String) -> ScriptResponse {
        let started = ContinuousClock.now
        func elapsed() -> Int { Int((ContinuousClock.now - started) / .microseconds(1)) }
        var prepared: PreparedRequest
        switch Self.prepare(request) {
        case .failure(let failure):
            let message = failure.description
            exchanges.append(ScriptExchange(place: place, method: request.method, url: request.url, status: nil, error: message, total: 0))
            return .failure(message: message, curlCode: nil)
        case .success(let value):
            prepared = value
        }
        secrets += prepared.secrets
        guard !prepared.isWebSocket else {
            let message = "pm.sendRequest sends only http and https, not \(prepared.scheme)://"
            exchanges.append(ScriptExchange(place: place, method: prepared.method, url: prepared.url, status: nil, error: message, total: 0))
            return .failure(message: message, curlCode: nil)
        }
        if let timeLimitMilliseconds {
            let own = options.timeoutMilliseconds
            prepared.timeoutMilliseconds = max(1, own > 0 ? min(own, timeLimitMilliseconds) : timeLimitMilliseconds)
        }
        let executor = ensureExecutor()
        var current = prepared, hops = 0
        while true {
            let transfer = executor.sendAside(current, inspectBody: true)
            secrets += CredentialSecrets.inHeaders(transfer.sentHeaders, names: current.credentialHeaderNames)
            switch RedirectFollower.decide(transfer, request: current, original: prepared, policy: redirects, hopsSoFar: hops) {
            case .follow(let next, _):
                current = next
                hops += 1
                continue
            case .done(let stopReason):
                guard stopReason == nil, let response = transfer.response else {
                    let message = stopReason ?? transfer.error?.message ?? "no response"
                    exchanges.append(ScriptExchange(place: place, method: prepared.method, url: prepared.url, status: nil, error: message,
                                                    total: elapsed()))
                    return .failure(message: message, curlCode: stopReason == nil ? transfer.error?.curlCode : nil)
                }
                exchanges.append(ScriptExchange(place: place, method: prepared.method, url: prepared.url, status: response.status, error: nil,
                                                total: elapsed()))
                return .response(status: response.status, reason: response.reasonPhrase, headers: response.headers,
                                 body: String(decoding: transfer.body, as: UTF8.self), bodySize: response.bodySize,
                                 totalMicroseconds: transfer.timings.total)
            }
        }
    }

    public func cookieAccessRefusal(for url: String) -> String? {
        let host = Self.host(url)
        guard let host, let cookieHost, host == cookieHost else {
            return "CookieStore: programmatic access to \"\(host ?? url)\" is denied (a script may use the cookies of its request's host only)"
        }
        return nil
    }

    public func cookies(for url: String) -> [JarCookie] {
        guard let components = URLComponents(string: url), let host = components.host?.lowercased() else { return [] }
        let path = components.path.isEmpty ? "/" : components.path
        let secure = components.scheme?.lowercased() == "https"
        return ensureExecutor().storedCookiesWithScope().filter { cookie, hostOnly in
            let domain = cookie.domain?.lowercased() ?? ""
            let domainMatches = hostOnly ? host == domain : (host == domain || host.hasSuffix("." + domain))
            return domainMatches && Self.pathMatches(path, cookie.path) && (!cookie.secure || secure)
        }.map(\.cookie)
    }

    public func setCookie(_ cookie: JarCookie, for url: String) -> String? {
        guard let host = Self.host(url) else { return "CookieStore: '\(url)' has no host" }
        guard !cookie.name.isEmpty else { return "CookieStore: a cookie needs a name" }
        var stored = cookie
        var hostOnly = true
        if let domain = cookie.domain?.lowercased(), !domain.isEmpty, domain != host {
            guard host.hasSuffix("." + domain) else { return "CookieStore: the domain '\(domain)' does not match '\(host)'" }
            hostOnly = false
        }
        stored.domain = hostOnly ? host : cookie.domain?.lowercased()
        ensureExecutor().storeCookie(stored, hostOnly: hostOnly)
        return nil
    }

    public func removeCookies(named name: String?, for url: String) {
        let matching = cookies(for: url)
        ensureExecutor().removeStoredCookies { cookie in
            matching.contains { $0.name == cookie.name && $0.domain == cookie.domain && $0.path == cookie.path } && (name == nil || cookie.name == name)
        }
    }

    private static func host(_ url: String) -> String? { URLComponents(string: url)?.host?.lowercased() }

    /// RFC 6265 §5.1.4.
    private static func pathMatches(_ path: String, _ cookiePath: String) -> Bool {
        if path == cookiePath { return true }
        guard path.hasPrefix(cookiePath) else { return false }
        return cookiePath.hasSuffix("/") || path.dropFirst(cookiePath.count).hasPrefix("/")
    }

    /// The request as the executor sends it, every field taken literally: a field holding `{{` goes through a
    /// literal variable layer (`VariableLayer.isLiteral`), so nothing in it is resolved.
    static func prepare(_ request: ScriptRequest) -> Result<PreparedRequest, PreparationFailure> {
        var literal = VariableLayer(source: "pm.sendRequest", values: [:], isLiteral: true)
        func data(_ text: String) -> String {
            guard Template.mayHaveReferences(text) else { return text }
            let name = "reqrun.sendRequest.\(literal.values.count)"
            literal.values[name] = text
            return "{{\(name)}}"
        }
        var model = Request(name: "pm.sendRequest", method: request.method.isEmpty ? "GET" : request.method.uppercased(), url: data(request.url))
        model.headers = request.headers.map { HeaderField(name: $0.name, value: data($0.value)) }
        switch request.body {
        case .text(let text): model.body = .text(data(text))
        case .json(let text): model.body = .json(data(text))
        case .form(let fields): model.body = .form(fields.map { Parameter(name: data($0.name), value: data($0.value)) })
        case .multipart(let parts):
            model.body = .multipart(parts.map { part in
                var part = part
                part.name = data(part.name)
                if case .text(let value) = part.content { part.content = .text(data(value)) }
                return part
            })
        case .graphQL(let query, let variables, let operationName):
            model.body = .graphQL(query: data(query), variables: variables.map(data), operationName: operationName.map(data))
        case .file, nil: model.body = nil
        }
        let auth = request.auth.map { auth -> Auth in
            switch auth {
            case .none: return .none
            case .basic(let user, let password): return .basic(username: data(user), password: data(password))
            case .bearer(let token): return .bearer(token: data(token))
            case .apiKey(let name, let value, let inQuery): return .apiKey(name: data(name), value: data(value), inQuery: inQuery)
            case .digest(let user, let password): return .digest(username: data(user), password: data(password))
            case .awsSigV4(let key, let secret, let region, let service, let token):
                return .awsSigV4(accessKey: data(key), secretKey: data(secret), region: data(region), service: data(service),
                                 sessionToken: token.map(data))
            case .ntlm(let user, let password, let domain): return .ntlm(username: data(user), password: data(password), domain: data(domain))
            // Computed kinds are signed from their fields as given; a field holding `{{` is an undefined
            // variable here (script requests resolve nothing), and OAuth 2.0 sends its placeholder token.
            case .oauth1, .hawk, .oauth2, .jwt, .asap, .edgegrid: return auth
            }
        }
        return RequestPreparation.prepare(model, scope: VariableScope(layers: [literal]), auth: auth)
    }
}
