/// What a script may do on the network and with the run's cookies: `pm.sendRequest` and `pm.cookies.jar()`.
///
/// The runner hands one to each script call (`ScriptContext.transport`), backed by the run's own libcurl
/// executor (`RunScriptTransport`): the same transfer options (timeouts, `--max-size`, TLS, proxy), only
/// `http` and `https`, the run's cookie store, and every credential learned for masking. The sandbox calls it
/// on the thread that runs the scripts, while the script waits (postman-runtime: a script's event ends when
/// its pending requests are answered).
public protocol ScriptTransport: AnyObject, Sendable {
    /// Sends `request` and waits for its final response (redirects followed as the run follows them).
    /// - Parameters:
    ///   - timeLimitMilliseconds: what is left of the script's time limit (nil: no limit besides the run's own
    ///     `--timeout`); the transfer is bounded by the smaller of the two.
    ///   - place: the script that sent it (`Script.place`), for the record.
    /// - Returns: the response, or the transport error (never throws: Postman's callback gets an `err`).
    func send(_ request: ScriptRequest, timeLimitMilliseconds: Int?, place: String) -> ScriptResponse

    /// Why a script may not use the jar for `url` (postman-runtime's `CookieStore: programmatic access to
    /// "HOST" is denied`), or nil when it may: only the host the request is sent to is allowed.
    func cookieAccessRefusal(for url: String) -> String?
    /// The run's cookies that go with a request to `url` (RFC 6265 §5.4: domain, path and secure match).
    func cookies(for url: String) -> [JarCookie]
    /// Stores `cookie` as a `Set-Cookie` from `url` would: host-only unless `domain` is set, which must then
    /// domain-match `url`'s host (RFC 6265 §5.3 step 6). Returns why it was refused, or nil.
    func setCookie(_ cookie: JarCookie, for url: String) -> String?
    /// Removes the cookies named `name` (every one when nil) among `cookies(for: url)`.
    func removeCookies(named name: String?, for url: String)
}

/// A request made by `pm.sendRequest`, its fields as the script gave them (never `{{…}}` templates:
/// postman-runtime sends script requests without resolving variables).
public struct ScriptRequest: Sendable, Equatable {
    public var method: String
    public var url: String
    public var headers: [HeaderField]
    /// Raw text, urlencoded fields, text form-data parts or GraphQL; file bodies are left out by the sandbox
    /// (postman-runtime: "uploading files from scripts is not allowed").
    public var body: RequestBody?
    /// Postman's `auth` of the request (`basic`, `bearer`, `apikey`, `digest`, `awsv4`, `oauth2` with a token).
    public var auth: Auth?

    public init(method: String, url: String, headers: [HeaderField] = [], body: RequestBody? = nil, auth: Auth? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.auth = auth
    }
}

/// Why a script's request cannot be read (`pm.sendRequest: the request has no URL`).
public struct ScriptRequestRefusal: Error, Sendable, Equatable {
    public var reason: String

    public init(_ reason: String) { self.reason = reason }
}

/// What came back to a `pm.sendRequest`.
public enum ScriptResponse: Sendable, Equatable {
    /// The final response: status, reason phrase, header fields, the body's first bytes (up to the inspection
    /// limit) as text, its whole size, and curl's total time in microseconds.
    case response(status: Int, reason: String, headers: [HeaderField], body: String, bodySize: Int, totalMicroseconds: Int)
    /// The request could not be prepared or the transfer failed (`curlCode`: libcurl's, when it came from there).
    case failure(message: String, curlCode: Int?)
}

/// One cookie of the run's jar, as `pm.cookies.jar()` shows and sets it (postman-collection's Cookie fields).
public struct JarCookie: Sendable, Equatable {
    public var name: String
    public var value: String
    /// The domain without a leading dot; nil when set through `jar().set` without one (host-only).
    public var domain: String?
    public var path: String
    public var secure: Bool
    public var httpOnly: Bool
    /// Seconds since 1970 (UTC); nil for a session cookie.
    public var expires: Int?

    public init(name: String, value: String, domain: String? = nil, path: String = "/", secure: Bool = false, httpOnly: Bool = false,
                expires: Int? = nil) {
        self.name = name
        self.value = value
        self.domain = domain
        self.path = path
        self.secure = secure
        self.httpOnly = httpOnly
        self.expires = expires
    }
}

/// One `pm.sendRequest` exchange, recorded under the result of the request whose script made it.
public struct ScriptExchange: Codable, Sendable, Equatable {
    /// The script's place (`collections/shop.json: item[3].event[0] (prerequest)`).
    public var place: String
    public var method: String
    /// The URL as sent (before redirects).
    public var url: String
    /// The final response's status code; nil after a transport error.
    public var status: Int?
    /// Why no response came (a transport error, a URL that cannot be sent).
    public var error: String?
    /// Total time of the exchange in microseconds (every hop).
    public var total: Int

    public init(place: String, method: String, url: String, status: Int?, error: String?, total: Int) {
        self.place = place
        self.method = method
        self.url = url
        self.status = status
        self.error = error
        self.total = total
    }
}
