import Foundation
import Synchronization

/// Ctrl-C (SIGINT), SIGTERM and SIGHUP while the UI runs: the handler only records the signal (an atomic
/// store, async-signal-safe); the UI loop sees it within its 100 ms key wait (the signal also ends that wait),
/// cancels a send in flight, gives the terminal back and exits with 128 + the signal's number.
enum SignalFlag {
    private static let received = Atomic<Int32>(0)

    static func install() {
        _ = received.load(ordering: .relaxed)
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for number in [SIGINT, SIGTERM, SIGHUP] {
            signal(number) { number in SignalFlag.received.store(number, ordering: .relaxed) }
            sigaddset(&unblock, number)
        }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
    }

    /// The signal received, if any.
    static var signalNumber: Int32? {
        let number = received.load(ordering: .relaxed)
        return number == 0 ? nil : number
    }
}
