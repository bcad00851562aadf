/// The positions of a run not started yet, in list order (`Runner`'s queue). Taking the first, which is what a
/// run does for almost every request, costs nothing: an array's `remove(at: 0)` moves every later element,
/// so a run's time per request grew with its size (at 100,000 requests, gigabytes of moves in all).
struct PendingPositions: Sequence, ExpressibleByArrayLiteral {
    private var items: [Int]
    /// Items before `head` are taken.
    private var head = 0

    init(_ items: [Int]) { self.items = items }
    init(arrayLiteral elements: Int...) { items = elements }

    var count: Int { items.count - head }
    var isEmpty: Bool { head == items.count }
    subscript(index: Int) -> Int { items[head + index] }

    mutating func remove(at index: Int) {
        guard index == 0 else {
            items.remove(at: head + index)
            return
        }
        head += 1
        // Memory of what was taken goes back now and then, in one move.
        if head >= 4096, head * 2 >= items.count {
            items.removeFirst(head)
            head = 0
        }
    }

    mutating func insert(_ position: Int, at index: Int) {
        if index == 0, head > 0 {
            head -= 1
            items[head] = position
        } else {
            items.insert(position, at: head + index)
        }
    }

    mutating func append(_ position: Int) { items.append(position) }

    func makeIterator() -> ArraySlice<Int>.Iterator { items[head...].makeIterator() }
}
