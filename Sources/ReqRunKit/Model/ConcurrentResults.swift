import Foundation

/// One result slot per part of a job split over threads (`DispatchQueue.concurrentPerform`): each part
/// writes its own slot once, and the caller reads them all after the job returns.
final class ConcurrentResults<Value: Sendable>: @unchecked Sendable {
    private var slots: [Value?]
    private let lock = NSLock()

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ part: Int, _ value: Value) {
        lock.lock()
        slots[part] = value
        lock.unlock()
    }

    /// The value part `part` set; it must have set one.
    func get(_ part: Int) -> Value {
        lock.lock()
        defer { lock.unlock() }
        return slots[part]!
    }
}
