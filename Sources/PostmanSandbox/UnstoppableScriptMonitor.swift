import Foundation
import ReqRunKit
import Synchronization

/// What `PostmanSandbox.whenAScriptCannotBeStopped`'s handler is told: why, in words, and the signal that
/// asked the run to stop (nil: the time or memory bound).
public struct UnstoppableScript: Sendable {
    /// `a script's promise jobs ran for more than 10 s, past --script-timeout's 5 s, and could not be stopped`.
    public var message: String
    /// SIGINT or SIGTERM when the run was asked to stop and the script did not, else nil.
    public var signal: Int32?
}

/// The last resort for a call into JavaScript that `ScriptWatchdog` cannot stop.
///
/// JavaScriptCore runs the promise jobs a script leaves as the call returns, each as an entry of its own into
/// the VM, and its time limit (`JSContextGroupSetExecutionTimeLimit`) starts again at each entry. So a chain of
/// short jobs that never ends (`(async () => { for (;;) await null; })()`) is never seen by the time-limit
/// callback, and the C API has no other way to stop it. This monitor, a thread of its own, watches each call's
/// wall time and the process's growth, and hands over to the handler (which ends the process: the CLI writes
/// an `error:` line and exits) when a call has run twice `--script-timeout` (at least one second past it), has
/// grown the process by twice `--script-memory`, or is still running a second after Ctrl-C or SIGTERM (which
/// `ScriptWatchdog` turns into a stop at its next callback). A script the watchdog can stop never gets here.
final class UnstoppableScriptMonitor: Sendable {
    /// The handler, set once by the process (`PostmanSandbox.whenAScriptCannotBeStopped`); nil: no monitor runs.
    static let handler = Mutex<(@Sendable (UnstoppableScript) -> Void)?>(nil)
    /// How often the thread looks, in seconds.
    static let interval = 0.1
    /// How long past a bound or a signal a call may still run, in seconds, at least.
    static let grace = 1.0

    let timeLimit: Double
    let memoryLimit: Int
    /// `DispatchTime.now().uptimeNanoseconds` when the call in progress started; 0 between calls.
    private let callStarted = Atomic<UInt64>(0)
    private let watching = Atomic<Bool>(false)
    private let stopped = Atomic<Bool>(false)

    init(timeLimit: Double, memoryLimit: Int) {
        self.timeLimit = timeLimit
        self.memoryLimit = memoryLimit
    }

    /// Before each call into JavaScript; starts the thread at the first call when the process set a handler.
    func enter() {
        callStarted.store(max(1, DispatchTime.now().uptimeNanoseconds), ordering: .relaxed)
        guard !watching.load(ordering: .relaxed), Self.handler.withLock({ $0 != nil }) else { return }
        watching.store(true, ordering: .relaxed)
        Thread.detachNewThread { [self] in watch() }
    }

    /// After each call into JavaScript has returned (its promise jobs included).
    func leave() { callStarted.store(0, ordering: .relaxed) }

    /// When the engine goes: the thread ends at its next look.
    func stop() { stopped.store(true, ordering: .relaxed) }

    private func watch() {
        var call: UInt64 = 0, residentAtStart = 0, signalSeen: UInt64 = 0
        while !stopped.load(ordering: .relaxed) {
            Thread.sleep(forTimeInterval: Self.interval)
            let started = callStarted.load(ordering: .relaxed)
            let now = DispatchTime.now().uptimeNanoseconds
            guard started != 0, now > started else { signalSeen = 0; continue }
            if started != call { (call, residentAtStart, signalSeen) = (started, 0, 0) }
            let seconds = Double(now - started) / 1e9
            if timeLimit > 0, seconds > timeLimit + max(Self.grace, timeLimit) {
                let bound = timeLimit + max(Self.grace, timeLimit)
                return give(UnstoppableScript(message: "a script ran for more than \(bound.formatted()) s (its promise jobs, "
                    + "past --script-timeout's \(timeLimit.formatted()) s) and could not be stopped", signal: nil))
            }
            if memoryLimit > 0, seconds > Self.grace {
                // Read only for a call that has run a while: most end sooner, and a read costs about 40 µs.
                let resident = ScriptWatchdog.residentBytes()
                if residentAtStart == 0 { residentAtStart = resident }
                if resident - residentAtStart > 2 * memoryLimit {
                    return give(UnstoppableScript(message: "a script grew reqrun by more than twice --script-memory's "
                        + "\(PostmanSandbox.size(memoryLimit)) (its promise jobs) and could not be stopped", signal: nil))
                }
            }
            if let signal = Interruption.signalNumber {
                if signalSeen == 0 { signalSeen = now }
                if Double(now - signalSeen) / 1e9 > Self.grace {
                    return give(UnstoppableScript(message: "a script was still running a second after the run was \(Interruption.reason) "
                        + "and could not be stopped", signal: signal))
                }
            }
        }
    }

    private func give(_ unstoppable: UnstoppableScript) {
        Self.handler.withLock { $0 }?(unstoppable)
    }
}
