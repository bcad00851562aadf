/// Settings for sending requests. Defaults are documented in the README and `reqrun run --help`.
public struct ExecutorOptions: Sendable, Equatable {
    /// Limit for a whole request, connection to last byte, in milliseconds (`CURLOPT_TIMEOUT_MS`); 0 = none.
    public var timeoutMilliseconds: Int
    /// Limit for connecting (DNS, TCP, TLS), in milliseconds (`CURLOPT_CONNECTTIMEOUT_MS`).
    public var connectTimeoutMilliseconds: Int
    /// The `User-Agent` sent unless a request has its own.
    public var userAgent: String
    /// How many bytes of each response body the record keeps (`RunRecord.bodyLimit`).
    public var bodyLimit: Int
    /// How many bytes of a body are held for expectations and captures that read it: 8 MiB by default.
    /// A longer body is still counted and hashed whole, but body checks on it fail with a clear reason.
    public var inspectLimit: Int
    /// Ask for compressed responses and decode them (`CURLOPT_ACCEPT_ENCODING` = "": every coding this
    /// libcurl supports — gzip, deflate, br, zstd here).
    public var decodeContent: Bool
    /// `--max-size`: the most bytes a response's content may decode to (gzip, br, zstd… undone), 1 GiB by
    /// default; 0 = no limit. A larger body stops the transfer, which ends as an error. Like curl's
    /// `--max-filesize` (`CURLOPT_MAXFILESIZE_LARGE`), but on decoded bytes: a compression bomb is small on the wire.
    public var maxBodySize: Int = 1 << 30
    /// HTTP version to use (`CURLOPT_HTTP_VERSION`).
    public var httpVersion: HTTPVersionChoice
    /// TLS: skip certificate and host name verification (`--insecure`; `CURLOPT_SSL_VERIFYPEER`/`VERIFYHOST` 0).
    public var insecure: Bool
    /// TLS: a PEM file of CA certificates to verify servers with, instead of the system's (`CURLOPT_CAINFO`).
    public var caFile: String?
    /// TLS client certificate and key, PEM files (`CURLOPT_SSLCERT`, `CURLOPT_SSLKEY`).
    public var clientCertificate: String?
    public var clientKey: String?
    /// `--ssl-client-passphrase`: the passphrase of an encrypted `clientKey` (`CURLOPT_KEYPASSWD`); a secret.
    public var clientKeyPassphrase: String?
    /// `--ssl-client-cert-list`: certificates by URL, the first entry that matches a transfer's URL wins over
    /// the three above (`clientCertificate(for:)`).
    public var clientCertificateList: [ClientCertificate] = []
    /// A proxy for every request (`CURLOPT_PROXY`); nil lets libcurl read `http_proxy`, `https_proxy`,
    /// `no_proxy` (and their upper-case forms) from the environment.
    public var proxy: String?
    /// A Netscape-format cookie file to load before the run and save after it (`CURLOPT_COOKIEFILE`/`COOKIEJAR`).
    public var cookieJarFile: String?
    /// Cookies put into the run's store before its first transfer (a Newman cookie jar, `ToughCookieJar`).
    public var initialCookies: [StoredCookie] = []
    /// Keep the store's cookies when the executor closes (`HTTPExecutor.cookiesAtClose`), for a jar the
    /// caller writes (Newman's format).
    public var keepsCookieStore = false
    /// Let HTTPS transfers wait for an HTTP/2 connection to multiplex on (`CURLOPT_PIPEWAIT`); the runner
    /// sets it for `--parallel` above 1.
    public var multiplexWait: Bool = false
    /// Where each response's whole decoded content goes as it arrives, besides the kept prefix (nil: nowhere).
    /// For one request at a time: every transfer of the executor feeds it.
    public var bodySink: ResponseBodySink?
    /// Collect the server certificate's fields (`CURLOPT_CERTINFO`), for `certificate` checks.
    public var certificateInfo = false

    public init(timeoutMilliseconds: Int = 30_000, connectTimeoutMilliseconds: Int = 10_000,
                userAgent: String = "reqrun/\(reqrunVersion)", bodyLimit: Int = RunRecord.bodyLimit,
                inspectLimit: Int = 8 * 1024 * 1024, decodeContent: Bool = true, httpVersion: HTTPVersionChoice = .automatic,
                insecure: Bool = false, caFile: String? = nil, clientCertificate: String? = nil, clientKey: String? = nil,
                proxy: String? = nil, cookieJarFile: String? = nil) {
        self.inspectLimit = inspectLimit
        self.decodeContent = decodeContent
        self.httpVersion = httpVersion
        self.insecure = insecure
        self.caFile = caFile
        self.clientCertificate = clientCertificate
        self.clientKey = clientKey
        self.proxy = proxy
        self.cookieJarFile = cookieJarFile
        self.timeoutMilliseconds = timeoutMilliseconds
        self.connectTimeoutMilliseconds = connectTimeoutMilliseconds
        self.userAgent = userAgent
        self.bodyLimit = bodyLimit
    }
}

/// Which HTTP version to speak.
public enum HTTPVersionChoice: String, Sendable, Equatable {
    /// libcurl's default: HTTP/2 over TLS when the server offers it (ALPN), HTTP/1.1 otherwise.
    case automatic
    /// `--http1.1`: HTTP/1.1 only.
    case http1_1
    /// `--http2`: HTTP/2 over TLS, and HTTP/2 with prior knowledge over cleartext.
    case http2
}

/// What came of sending one request.
public struct TransferResult: Sendable, Equatable {
    /// The header fields curl actually sent (request line excluded), in order.
    public var sentHeaders: [HeaderField]
    /// Content bytes sent (`CURLINFO_SIZE_UPLOAD_T`; for multipart, the encoded size).
    public var uploadedBytes: Int = 0
    /// The final response, when one arrived.
    public var response: ResponseRecord?
    /// The body's first bytes: up to `inspectLimit` when the send asked to inspect the body, else up to
    /// `bodyLimit`.
    public var body: [UInt8]
    /// The transport failure, when the transfer did not complete.
    public var error: ResultError?
    public var timings: Timings
    /// The server's (leaf) certificate as libcurl's `CURLINFO_CERTINFO` gives it (`Subject`, `Issuer`,
    /// `Start date`, `Expire date`, `Serial Number`…), when asked for and a TLS handshake took place.
    public var certificate: [String: String]?
}
