import Foundation
import ReqRunKit

/// Sends off the UI's thread: one run at a time on a thread of its own (`RecordedRun.run`, so every send is
/// recorded with the same masking as `reqrun run`), its results posted here for the UI loop to take.
/// `Esc` stops it through `Interruption.cancel()`, as Ctrl-C stops `reqrun run`.
final class SendWorker: @unchecked Sendable {
    enum Event {
        /// One request done (masked), in list order.
        case result(RequestResult)
        /// The run is over and its record saved in `file`.
        case finished(RunRecord, file: URL)
        /// The record could not be saved.
        case failed(String)
    }

    private let lock = NSLock()
    private var events: [Event] = []
    private let done = DispatchSemaphore(value: 0)
    /// Read and written on the UI's thread only.
    private(set) var busy = false
    private(set) var startedAt = Date()

    /// Sends one request alone (`RecordedRun.send`) unless a run is going on.
    /// - Returns: false when one is going on.
    func send(_ reference: RequestReference, configuration: RunConfiguration, workspace: Workspace, historyLimit: Int,
              scripting: RequestScripting?) -> Bool {
        let scripting = Unshared(scripting)
        return start { _ in
            let sent = RecordedRun.send(reference, configuration: configuration, workspace: workspace, historyLimit: historyLimit,
                                        scripting: scripting.value)
            return (sent.run.record, try sent.file.get())
        }
    }

    /// Runs `references` (`RecordedRun.run`), posting each result as it is done, unless a run is going on.
    /// - Returns: false when one is going on.
    func run(_ references: [RequestReference], configuration: RunConfiguration, workspace: Workspace, historyLimit: Int,
             scripting: RequestScripting?) -> Bool {
        let scripting = Unshared(scripting)
        return start { post in
            let outcome = RecordedRun.run(references, configuration: configuration, workspace: workspace,
                                          historyLimit: historyLimit, scripting: scripting.value) { result in post(.result(result)) }
            return (outcome.run.record, try outcome.file.get())
        }
    }

    /// Runs `job` on a thread of its own; it returns the record saved and its file.
    private func start(_ job: @escaping @Sendable (@escaping @Sendable (Event) -> Void) throws -> (RunRecord, URL)) -> Bool {
        guard !busy else { return false }
        busy = true
        startedAt = Date()
        Interruption.reset()
        HTTPExecutor.prepareInBackground()
        Thread.detachNewThread { [self] in
            do {
                let (record, file) = try job { [self] event in post(event) }
                post(.finished(record, file: file))
            } catch {
                post(.failed("\(error)"))
            }
            done.signal()
        }
        return true
    }

    /// Events posted since the last call; the run is no longer busy after its `finished` or `failed`.
    func take() -> [Event] {
        lock.lock()
        let taken = events
        events = []
        lock.unlock()
        for event in taken {
            switch event {
            case .finished, .failed:
                busy = false
                done.wait()
                Interruption.reset()
            case .result: break
            }
        }
        return taken
    }

    /// Asks the run in flight to stop (its record is still saved).
    func cancel() {
        if busy { Interruption.cancel() }
    }

    /// Cancels the run in flight and waits up to `seconds` for its record to be saved.
    func cancelAndWait(seconds: Double) {
        guard busy else { return }
        Interruption.cancel()
        if done.wait(timeout: .now() + seconds) == .success { done.signal() }
    }

    private func post(_ event: Event) {
        lock.lock()
        events.append(event)
        lock.unlock()
    }
}

/// The sandbox handed to the worker's thread: `SendWorker` runs one job at a time (`busy`), so it is never
/// used by two threads at once (JavaScriptCore takes its own lock on each call too).
private struct Unshared: @unchecked Sendable {
    let value: RequestScripting?
    init(_ value: RequestScripting?) { self.value = value }
}
