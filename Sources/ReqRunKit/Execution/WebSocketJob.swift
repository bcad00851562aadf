import Foundation
import Synchronization

/// A WebSocket request running on a thread of its own (`WebSocketSession.run`), so that with `--parallel`
/// it goes on while the run drives its HTTP transfers; the runner collects the outcome when it is done.
/// The session owns its connection and copies of what it reads (request, scope, options): nothing is shared
/// with the run's thread but the outcome, handed over once under a lock.
final class WebSocketJob: Sendable {
    private let outcome = Mutex<WebSocketOutcome?>(nil)
    /// Signalled once by every job that finishes, so a run with nothing else in flight sleeps until then.
    static let finished = DispatchSemaphore(value: 0)

    init(_ session: WebSocketSession) {
        let box = UncheckedBox(session)
        Thread.detachNewThread { [self] in
            let result = box.value.run()
            outcome.withLock { $0 = result }
            Self.finished.signal()
        }
    }

    /// The outcome once the session is over (taken: later calls return nil).
    func take() -> WebSocketOutcome? {
        outcome.withLock { value in
            defer { value = nil }
            return value
        }
    }

    /// Carries the session to its thread; only that thread uses it from then on.
    private final class UncheckedBox<Value>: @unchecked Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }
}

extension WebSocketOutcome {
    /// Fills `result` (made by the runner with the request's place) with what the session recorded; the
    /// outcome is `response` when the handshake was accepted and nothing failed, else `transportError`.
    func apply(to result: inout RequestResult, startedAt: Date, runStart: Date) {
        result.outcome = response == nil || error != nil ? .transportError : .response
        result.error = error
        result.request = SentRequest(headers: sentHeaders, bodySize: 0)
        result.response = response
        result.timings = timings
        result.startedAt = RunID.iso8601(startedAt)
        result.startOffset = Int((startedAt.timeIntervalSince(runStart) * 1_000_000).rounded())
        result.expectations = expectations
        result.captures = captures
        result.webSocket = record
        result.updateVerdict()
    }
}

extension Request {
    /// The request's captures and those of its `messages` steps: what later requests may wait for.
    var capturesIncludingMessages: [Capture] {
        guard let messages else { return captures }
        return captures + messages.flatMap(\.captures)
    }
}
