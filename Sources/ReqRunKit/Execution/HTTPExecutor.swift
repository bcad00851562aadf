/// Settings for sending requests. Defaults are documented in the README and `reqrun run --help`.
public struct ExecutorOptions: Sendable, Equatable {
    /// Limit for a whole request, connection to last byte, in milliseconds (`CURLOPT_TIMEOUT_MS`); 0 = none.
    public var timeoutMilliseconds: Int
    /// Limit for connecting (DNS, TCP, TLS), in milliseconds (`CURLOPT_CONNECTTIMEOUT_MS`).
    public var connectTimeoutMilliseconds: Int
    /// The `User-Agent` sent unless a request has its own.
    public var userAgent: String
    /// How many bytes of each response body are kept (`RunRecord.bodyLimit`).
    public var bodyLimit: Int

    public init(timeoutMilliseconds: Int = 30_000, connectTimeoutMilliseconds: Int = 10_000,
                userAgent: String = "reqrun/\(reqrunVersion)", bodyLimit: Int = RunRecord.bodyLimit) {
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
    /// The final response, when one arrived.
    public var response: ResponseRecord?
    /// The transport failure, when the transfer did not complete.
    public var error: ResultError?
    public var timings: Timings
}
