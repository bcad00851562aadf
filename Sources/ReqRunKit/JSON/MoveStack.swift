/// A stack that the parser pushes a container's children onto, and that hands them back as one array of
/// exactly their number when the container closes.
///
/// Appending to an array per object cost several reallocations per object of a large collection (capacity
/// 1, 2, 4, …), plus the retain and release of every element copied on the way. Here the children are
/// moved, not copied: from the stack into the new array's storage, with no reference counting, and the
/// stack's own memory is reused by every container of the file.
struct MoveStack<Element>: ~Copyable {
    private var base: UnsafeMutablePointer<Element>
    private var capacity: Int
    /// How many elements the stack holds.
    private(set) var count = 0

    /// - Parameter capacity: the initial capacity in elements (it doubles when full).
    init(capacity: Int = 64) {
        self.capacity = max(capacity, 1)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        // Left over when parsing stopped at an error.
        base.deinitialize(count: count)
        base.deallocate()
    }

    mutating func push(_ element: consuming Element) {
        if count == capacity {
            let grown = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
            grown.moveInitialize(from: base, count: count)
            base.deallocate()
            base = grown
            capacity *= 2
        }
        (base + count).initialize(to: element)
        count += 1
    }

    /// Moves the elements from position `start` to the top into a new array, in push order, and pops them.
    mutating func popArray(from start: Int) -> [Element] {
        let n = count - start
        guard n > 0 else { return [] }
        let source = base + start
        count = start
        return Array(unsafeUninitializedCapacity: n) { buffer, initialized in
            buffer.baseAddress!.moveInitialize(from: source, count: n)
            initialized = n
        }
    }
}
