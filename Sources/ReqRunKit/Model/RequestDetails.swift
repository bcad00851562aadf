/// The fields of a `Request` that most requests leave unset, in one box that requests share until one of
/// them changes a field (copy on write).
///
/// Which fields: what the issue 17 §1 collection and real ones leave unset most of the time. In the 1,240
/// requests of the Postman collections of `../shared/corpus` (2026-12-01), 94 % have header fields (kept
/// inline), 76 % a body, 52 % scripts, 18 % auth, 10 % query parameters, 1 % a protocol profile; a generated
/// collection of a million requests has none of them. A request whose fields here are all unset holds no box:
/// no allocation, and a copy retains nothing for them. (It held one shared box: two threads copying requests,
/// `run --dry-run --json`'s, changed that box's reference count from two cores at every request.)
extension Request {
    /// The fields themselves (their meaning is on the `Request` properties that forward to them).
    struct Details: Sendable, Equatable {
        var query: [Parameter] = []
        var body: RequestBody? = nil
        var timeoutMilliseconds: Int? = nil
        var followRedirects: Bool? = nil
        var maxRedirects: Int? = nil
        var followOriginalMethod: Bool? = nil
        var followAuthorization: Bool? = nil
        var insecure: Bool? = nil
        var disableBodyPruning: Bool? = nil
        var disableCookies: Bool? = nil
        var tlsDisabledProtocols: [String]? = nil
        var tlsCipherSelection: [String]? = nil
        var poll: PollPolicy? = nil
        var auth: Auth? = nil
        var expectations: [ExpectationSpec] = []
        var captures: [Capture] = []
        var scripts: SkippedScripts? = nil
        var eventScripts: [Script] = []
        var messages: [WebSocketStep]? = nil

        /// Every field at its default.
        var isUnset: Bool { self == Details() }

        /// The details of a request without a box.
        static let unset = Details()
    }

    /// A `Details` on the heap. Changed only through `Request.details`, which copies it first unless the
    /// request holds the only reference (`isKnownUniquelyReferenced`), so a box that two requests or two
    /// threads can see is never written: hence `@unchecked Sendable`.
    final class DetailsBox: @unchecked Sendable {
        var details: Details

        init(_ details: Details) { self.details = details }
    }

    /// A request with `details` boxed, or holding no box when every one is unset or
    /// `details` is nil (the collection decoder, which makes the details first, or knows none is there).
    init(id: String?, name: String?, method: String, url: String, headers: [HeaderField], details: Details?) {
        self.id = id
        self.name = name ?? CredentialSecrets.maskingUserInfo(url)
        self.method = method
        self.url = url
        self.headers = headers
        if let details, !details.isUnset { box = DetailsBox(details) } else { box = nil }
    }

    /// The details, for reading, or for changing in place after the box is made this request's own.
    var details: Details {
        get { box?.details ?? Details.unset }
        _modify {
            if box == nil { box = DetailsBox(Details()) } else if !isKnownUniquelyReferenced(&box) { box = DetailsBox(box!.details) }
            yield &box!.details
        }
    }

    /// Query parameters appended to the URL in order (`query`); a name may repeat.
    public var query: [Parameter] {
        get { box?.details.query ?? Details.unset.query }
        _modify { yield &details.query }
    }
    /// The content to send, if any.
    public var body: RequestBody? {
        get { box?.details.body ?? Details.unset.body }
        _modify { yield &details.body }
    }
    /// This request's own limit for the whole transfer in milliseconds (`timeout`, given in seconds), over
    /// `--timeout`.
    public var timeoutMilliseconds: Int? {
        get { box?.details.timeoutMilliseconds ?? Details.unset.timeoutMilliseconds }
        _modify { yield &details.timeoutMilliseconds }
    }
    /// This request's redirect policy (`followRedirects`, `maxRedirects`), over `--no-follow`/`--max-redirs`.
    public var followRedirects: Bool? {
        get { box?.details.followRedirects ?? Details.unset.followRedirects }
        _modify { yield &details.followRedirects }
    }
    public var maxRedirects: Int? {
        get { box?.details.maxRedirects ?? Details.unset.maxRedirects }
        _modify { yield &details.maxRedirects }
    }
    /// A 301, 302 or 303 redirect keeps the method and content (native `followOriginalMethod`; Postman's
    /// `followOriginalHttpMethod`); nil: the rules of `RedirectFollower`.
    public var followOriginalMethod: Bool? {
        get { box?.details.followOriginalMethod ?? Details.unset.followOriginalMethod }
        _modify { yield &details.followOriginalMethod }
    }
    /// Credentials go on to another origin on redirects (native `followAuthorization`, as
    /// `--location-trusted`; Postman's `followAuthorizationHeader`).
    public var followAuthorization: Bool? {
        get { box?.details.followAuthorization ?? Details.unset.followAuthorization }
        _modify { yield &details.followAuthorization }
    }
    /// TLS without certificate or host name verification for this request (native `insecure`, as
    /// `--insecure`; Postman's `strictSSL: false`); `false` verifies even under `--insecure`.
    public var insecure: Bool? {
        get { box?.details.insecure ?? Details.unset.insecure }
        _modify { yield &details.insecure }
    }
    /// Send a body on GET, COPY, HEAD (never sent), PURGE and UNLOCK also under `--compat newman`, which prunes
    /// it there (native `disableBodyPruning`, Postman's `protocolProfileBehavior.disableBodyPruning`); nil:
    /// the run's `RequestRules`.
    public var disableBodyPruning: Bool? {
        get { box?.details.disableBodyPruning ?? Details.unset.disableBodyPruning }
        _modify { yield &details.disableBodyPruning }
    }
    /// No cookie sent from the run's store, none stored from the response, for this request (native
    /// `disableCookies`, Postman's `protocolProfileBehavior.disableCookies`): the transfer is not attached to
    /// the store (`CURLOPT_SHARE` cleared, no `CURLOPT_COOKIEFILE`). A `Cookie` header field is still sent.
    public var disableCookies: Bool? {
        get { box?.details.disableCookies ?? Details.unset.disableCookies }
        _modify { yield &details.disableCookies }
    }
    /// TLS versions this request must not use: `TLSv1`, `TLSv1.1`, `TLSv1.2`, `TLSv1.3` (native and
    /// Postman's `tlsDisabledProtocols`; `SSLv2`, `SSLv3` are never used anyway). See `TLSChoice`.
    public var tlsDisabledProtocols: [String]? {
        get { box?.details.tlsDisabledProtocols ?? Details.unset.tlsDisabledProtocols }
        _modify { yield &details.tlsDisabledProtocols }
    }
    /// OpenSSL cipher names, most preferred first (native and Postman's `tlsCipherSelection`; `TLSChoice`).
    public var tlsCipherSelection: [String]? {
        get { box?.details.tlsCipherSelection ?? Details.unset.tlsCipherSelection }
        _modify { yield &details.tlsCipherSelection }
    }
    /// `retry`: sent again until its expectations and captures pass (see `PollPolicy`), over `--retry-until-pass`.
    public var poll: PollPolicy? {
        get { box?.details.poll ?? Details.unset.poll }
        _modify { yield &details.poll }
    }
    /// The request's own auth; nil inherits (see `RequestReference.effectiveAuth`).
    public var auth: Auth? {
        get { box?.details.auth ?? Details.unset.auth }
        _modify { yield &details.auth }
    }
    /// What the response must satisfy (`expect`); none means a response is enough.
    public var expectations: [ExpectationSpec] {
        get { box?.details.expectations ?? Details.unset.expectations }
        _modify { yield &details.expectations }
    }
    /// Values taken from the response into variables for later requests (`capture`).
    public var captures: [Capture] {
        get { box?.details.captures ?? Details.unset.captures }
        _modify { yield &details.captures }
    }
    /// Which events of its own the request has scripts for (for `list` and `import`, which do not run them;
    /// the scripts themselves are `eventScripts`); nil: none.
    public var scripts: SkippedScripts? {
        get { box?.details.scripts ?? Details.unset.scripts }
        _modify { yield &details.scripts }
    }
    /// Every script that runs for this request in Newman's order: the collection's, the folders' (outer to
    /// inner), then its own; pre-request and test scripts alike (filter by `Script.event`).
    public var eventScripts: [Script] {
        get { box?.details.eventScripts ?? Details.unset.eventScripts }
        _modify { yield &details.eventScripts }
    }
    /// A WebSocket request's conversation (`messages`), in order; nil when not written. Used only when the
    /// URL is `ws://` or `wss://`.
    public var messages: [WebSocketStep]? {
        get { box?.details.messages ?? Details.unset.messages }
        _modify { yield &details.messages }
    }
}

extension Request: Equatable {
    /// Equal when every field is: requests that share a box (or have none) compare only their inline fields.
    public static func == (lhs: Request, rhs: Request) -> Bool {
        lhs.id == rhs.id && lhs.name == rhs.name && lhs.method == rhs.method && lhs.url == rhs.url && lhs.headers == rhs.headers
            && (lhs.box === rhs.box || lhs.details == rhs.details)
    }
}
