import Foundation
import Synchronization

/// Ctrl-C (SIGINT) or SIGTERM (what CI systems send to a cancelled job) during a run: the first signal asks
/// the run to stop (the transfers in flight are abandoned, the requests after them are recorded as not run,
/// and the record is still written); a second one ends the process at once, as the default handler would.
public enum Interruption {
    /// The signal received, 0 for none. Set from the signal handler: a lock-free atomic store is
    /// async-signal-safe.
    private static let received = Atomic<Int32>(0)

    /// Installs the handlers for SIGINT and SIGTERM. Call once, before the run starts.
    public static func install() {
        _ = received.load(ordering: .relaxed)  // initialise the static before any signal can arrive
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber) { number in
                Interruption.received.store(number, ordering: .relaxed)
                signal(number, SIG_DFL)
            }
            sigaddset(&unblock, signalNumber)
        }
        // A parent may start reqrun with these signals blocked (some process launchers do); unblock them so
        // the handlers run.
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
    }

    /// What `received` holds after `cancel()`: no signal, a stop asked for from inside the process.
    private static let cancelled: Int32 = -1

    /// Asks the run in progress to stop as Ctrl-C would, from inside the process: the full-screen UI's
    /// `Esc` on a send in flight. Async-signal-safe (one atomic store). `reason` then says `cancelled`.
    public static func cancel() { received.store(cancelled, ordering: .relaxed) }

    /// Forgets a `cancel()`, before the next run of a process that runs many (the UI). A signal received is
    /// kept: it still ends the process.
    public static func reset() {
        _ = received.compareExchange(expected: cancelled, desired: 0, ordering: .relaxed)
    }

    /// True once a stop was asked for.
    public static var requested: Bool { received.load(ordering: .relaxed) != 0 }

    /// How a stopped transfer or request is described: `interrupted (Ctrl-C)` or `stopped by SIGTERM`.
    public static var reason: String {
        let number = received.load(ordering: .relaxed)
        return number == cancelled ? "cancelled" : number == SIGTERM ? "stopped by SIGTERM" : "interrupted (Ctrl-C)"
    }

    /// The signal that stopped the run, if one did (for the exit code, 128 + the signal's number).
    public static var signalNumber: Int32? {
        let number = received.load(ordering: .relaxed)
        return number <= 0 ? nil : number
    }
}
