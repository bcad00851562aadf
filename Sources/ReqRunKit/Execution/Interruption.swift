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

    /// True once a stop was asked for.
    public static var requested: Bool { received.load(ordering: .relaxed) != 0 }

    /// How a stopped transfer or request is described: `interrupted (Ctrl-C)` or `stopped by SIGTERM`.
    public static var reason: String { signalNumber == SIGTERM ? "stopped by SIGTERM" : "interrupted (Ctrl-C)" }

    /// The signal that stopped the run, if one did (for the exit code, 128 + the signal's number).
    public static var signalNumber: Int32? {
        let number = received.load(ordering: .relaxed)
        return number == 0 ? nil : number
    }
}
