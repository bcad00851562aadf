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

    public init(timeoutMilliseconds: Int = 30_000, connectTimeoutMilliseconds: Int = 10_000,
                userAgent: String = "reqrun/\(reqrunVersion)", bodyLimit: Int = RunRecord.bodyLimit,
                inspectLimit: Int = 8 * 1024 * 1024) {
        self.inspectLimit = inspectLimit
        self.timeoutMilliseconds = timeoutMilliseconds
        self.connectTimeoutMilliseconds = connectTimeoutMilliseconds
        self.userAgent = userAgent
        self.bodyLimit = bodyLimit
    }
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
}
