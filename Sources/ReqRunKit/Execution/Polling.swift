/// Sending a request again until its expectations and captures pass (Hurl's `retry`): `"retry": {"count":
/// 10, "interval": 500}` on a request, or `--retry-until-pass N --retry-interval MS` for every request.
/// A transport error counts as a failed attempt too. Unlike `--retry` (transport errors and 502/503/504,
/// with backoff), the wait is fixed.
public struct PollPolicy: Sendable, Equatable {
    /// How many more times the request may be sent after a failed attempt.
    public var count: Int
    /// Milliseconds from the end of one attempt to the start of the next.
    public var intervalMilliseconds: Int

    public static let defaultIntervalMilliseconds = 1000

    public init(count: Int, intervalMilliseconds: Int = PollPolicy.defaultIntervalMilliseconds) {
        self.count = count
        self.intervalMilliseconds = intervalMilliseconds
    }
}

/// An attempt of a polled request that failed and was sent again, as its record keeps it.
public struct PollAttempt: Codable, Sendable, Equatable {
    public var startedAt: String?
    /// The status code, when a response came.
    public var status: Int?
    /// The transport error, when none came.
    public var error: String?
    /// The expectations that failed (their descriptions) and the captures that found nothing.
    public var failed: [String]
    /// Total time in microseconds.
    public var total: Int?

    public init(_ result: RequestResult) {
        startedAt = result.startedAt
        status = result.response?.status
        error = result.error?.message
        failed = result.expectations.filter { !$0.passed }.map(\.description) + result.captures.compactMap(\.error)
        total = result.timings?.total
    }
}

extension CollectionDecoder {
    /// `retry: {"count": N, "interval": MS}` (interval optional, default 1000).
    static func decodePoll(_ reader: FieldReader) throws(InputError) -> PollPolicy? {
        guard let node = reader.optional("retry") else { return nil }
        let item = try FieldReader(file: reader.file, node: node, path: reader.childPath("retry"))
        try item.rejectUnknownKeys(["count", "interval"])
        func count(_ key: String) throws(InputError) -> Int? {
            guard let value = item.optional(.named(key)) else { return nil }
            guard case .number(let text) = value.value, let n = Int(text), n >= 0 else {
                throw item.error(value, item.childPath(key), "expected a whole number of 0 or more")
            }
            return n
        }
        guard let times = try count("count") else { throw item.error(node, item.path, "retry needs 'count' (how many more attempts)") }
        return PollPolicy(count: times, intervalMilliseconds: try count("interval") ?? PollPolicy.defaultIntervalMilliseconds)
    }
}
