import Foundation

/// Frees a large parsed JSON tree on a thread of its own, so that the caller goes on with the values it
/// decoded from it while the second core returns the tree's memory.
///
/// A 100,000-request collection is some 200,000 arrays and strings; freeing them one by one cost about
/// 15 % of `list --all --json` (callgrind), all of it on the critical path. Small trees are freed in place:
/// starting a thread costs more than freeing them.
enum BackgroundRelease {
    /// Trees from files at least this large (in bytes) are freed on another thread.
    static let minimumSize = 1 << 20

    /// Takes over `node` and frees it on a new detached thread when `size` (the source's length in bytes)
    /// is at least `minimumSize`, else frees it here. The caller must hold no other reference to the tree
    /// (e.g. a `FieldReader`), or the last one to let go frees it.
    static func release(_ node: consuming JSONNode, size: Int) {
        guard size >= minimumSize else { return }
        let handoff = Handoff(node)
        Thread.detachNewThread { handoff.take() }
    }

    /// Carries the tree to the thread; `take` drops it there.
    private final class Handoff: @unchecked Sendable {
        private var node: JSONNode?
        init(_ node: consuming JSONNode) { self.node = node }
        func take() { node = nil }
    }
}
