import Foundation
import ReqRunKit

/// `reqrun send --body`: writes the response content to standard output as libcurl hands it over
/// (`ResponseBodySink`), whole and raw, where the record keeps only its first 64 KiB.
///
/// Only the final response's content is output. A request is one transfer per redirect and per retry, so
/// the content of a response that may be followed by another (a 3xx while redirects are followed; any
/// response when `--retry` may send the request again) is held in memory until the next response begins
/// (then dropped) or the request ends (then written, by `finish`). Everything else goes out at once.
final class BodyStream: @unchecked Sendable {
    private let followsRedirects: Bool
    private let mayRetry: Bool
    private let lock = NSLock()
    private var holding = false
    private var held: [UInt8] = []

    init(followsRedirects: Bool, mayRetry: Bool) {
        self.followsRedirects = followsRedirects
        self.mayRetry = mayRetry
    }

    /// The sink to put in `ExecutorOptions.bodySink`.
    var sink: ResponseBodySink {
        ResponseBodySink(begin: { [self] status in begin(status) }, receive: { [self] bytes in receive(bytes) })
    }

    private func begin(_ status: Int) {
        lock.lock()
        defer { lock.unlock() }
        held.removeAll()
        holding = mayRetry || (followsRedirects && (300..<400).contains(status))
    }

    private func receive(_ bytes: UnsafeRawBufferPointer) {
        lock.lock()
        defer { lock.unlock() }
        if holding {
            held.append(contentsOf: bytes)
        } else {
            deliver(bytes)
        }
    }

    private func deliver(_ bytes: UnsafeRawBufferPointer) { StandardOutput.shared.append(bytes) }

    /// Outputs what is held for the final response, once the request is done. `response` is the result's
    /// final response: content held for an earlier transfer is never its own when that response has none.
    func finish(_ response: ResponseRecord?) {
        lock.lock()
        defer { lock.unlock() }
        if let response, response.bodySize > 0, holding { held.withUnsafeBytes { deliver($0) } }
        held = []
        holding = false
    }
}
