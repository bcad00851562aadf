import Synchronization

/// Tells a command, once and as early as it can be known, that a collection being loaded holds a script: `run
/// --all` then starts the script sandbox on a thread of its own while the load goes on (`RunScripting`), rather
/// than after it (JavaScriptCore and chai take 25–45 ms to start: docs/performance.md, "tenth pass").
///
/// The Postman decoder signals at the first script it keeps (`PostmanScripts.read`), from the loading thread; a
/// native collection's scripts are seen after the load, where the run looks at its selection.
public enum ScriptLoadSignal {
    private static let armed = Atomic<Bool>(false)
    private static let handler = Mutex<(@Sendable () -> Void)?>(nil)

    /// Sets what the next signal calls (once: the handler is dropped as it is called), replacing one not yet called.
    public static func onFirstScript(_ body: @escaping @Sendable () -> Void) {
        handler.withLock { $0 = body }
        armed.store(true, ordering: .releasing)
    }

    /// Drops a handler not yet called.
    public static func cancel() {
        armed.store(false, ordering: .relaxed)
        handler.withLock { $0 = nil }
    }

    /// A script was decoded. One atomic load when no handler waits (every script of every load passes here).
    static func scriptLoaded() {
        guard armed.load(ordering: .acquiring) else { return }
        armed.store(false, ordering: .relaxed)
        let body = handler.withLock { handler in
            defer { handler = nil }
            return handler
        }
        body?()
    }
}
