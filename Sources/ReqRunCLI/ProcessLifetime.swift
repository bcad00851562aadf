/// Values a command leaves to the end of the process rather than freeing them itself.
///
/// When a command is done with a large model (a workspace of 100,000 requests and the tree printed from
/// it), freeing it object by object only delays the exit, which returns all the memory at once anyway; clang
/// skips freeing for the same reason (`-disable-free`). `list --all --json` on 100,000 requests spent about
/// 6 % of its instructions there (callgrind).
enum ProcessLifetime {
    /// Keeps `value` alive until the process exits. Only for what a command holds at its very end.
    static func keepUntilExit<T>(_ value: T) {
        _ = Unmanaged.passRetained(Box(value))
    }

    private final class Box<T> {
        let value: T
        init(_ value: T) { self.value = value }
    }
}
