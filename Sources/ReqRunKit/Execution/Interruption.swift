import Foundation
import Synchronization

/// Ctrl-C during a run: the first SIGINT asks the run to stop (the transfer in flight is abandoned, the
/// requests after it are recorded as not run, and the record is still written); a second one ends the
/// process at once, as the default handler would.
public enum Interruption {
    /// Set from the signal handler: a lock-free atomic store is async-signal-safe.
    private static let flag = Atomic<Bool>(false)

    /// Installs the SIGINT handler. Call once, before the run starts.
    public static func install() {
        _ = flag.load(ordering: .relaxed)  // initialise the static before any signal can arrive
        signal(SIGINT) { _ in
            Interruption.flag.store(true, ordering: .relaxed)
            signal(SIGINT, SIG_DFL)
        }
    }

    /// True once Ctrl-C was pressed.
    public static var requested: Bool { flag.load(ordering: .relaxed) }
}
