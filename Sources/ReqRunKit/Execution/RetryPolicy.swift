import Foundation

/// When `--retry` sends a request again, and how long it waits first.
public enum RetryPolicy {
    /// Status codes that say "try again later" (RFC 9110 §15.6.3-5): 502, 503, 504.
    public static let retriedStatusCodes: Set<Int> = [502, 503, 504]
    /// The longest wait between attempts, in seconds.
    public static let maximumDelay = 10.0

    /// A transport error (no response) or a 502, 503 or 504.
    public static func shouldRetry(_ transfer: TransferResult) -> Bool {
        guard let response = transfer.response else { return true }
        return retriedStatusCodes.contains(response.status)
    }

    /// Seconds before attempt `attempt + 1`: a `Retry-After` of whole seconds when the response gave one
    /// (RFC 9110 §10.2.3), else 0.5 s doubled each time (0.5, 1, 2, 4…); at most `maximumDelay`.
    public static func delay(attempt: Int, after transfer: TransferResult) -> TimeInterval {
        if let value = transfer.response?.headers.last(named: "retry-after"),
           let seconds = Double(value.trimmingCharacters(in: .whitespaces)), seconds >= 0 {
            return min(seconds, maximumDelay)
        }
        return min(0.5 * pow(2, Double(attempt - 1)), maximumDelay)
    }
}
