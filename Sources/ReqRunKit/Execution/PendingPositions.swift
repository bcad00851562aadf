/// The positions of a run not started yet, in list order (`Runner`'s queue). Taking the first, which is what a
/// run does for almost every request, costs nothing: an array's `remove(at: 0)` moves every later element,
/// so a run's time per request grew with its size (at 100,000 requests, gigabytes of moves in all). The
/// positions are kept as a range, not one by one (an array of every position was 8 bytes a request): only
/// those passed over while later ones started (`--parallel`, waiting for a capture) are listed.
struct PendingPositions: Sequence, ExpressibleByArrayLiteral {
    /// Positions before `rest`, in order; items before `head` are taken.
    private var items: [Int]
    private var head = 0
    /// The positions after `items`, every one still pending.
    private var rest: Range<Int>

    init(_ positions: Range<Int>) {
        items = []
        rest = positions
    }

    init(_ items: [Int]) {
        self.items = items
        rest = (items.last ?? 0) + 1 ..< (items.last ?? 0) + 1
    }

    init(arrayLiteral elements: Int...) { self.init(elements) }

    private var listed: Int { items.count - head }
    var count: Int { listed + rest.count }
    var isEmpty: Bool { count == 0 }
    subscript(index: Int) -> Int { index < listed ? items[head + index] : rest.lowerBound + index - listed }

    mutating func remove(at index: Int) {
        guard index < listed else {
            // From the range: the positions passed over before it become listed.
            let passed = index - listed
            items += rest.lowerBound ..< rest.lowerBound + passed
            rest = rest.lowerBound + passed + 1 ..< rest.upperBound
            return
        }
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

    /// Puts `position` back at `index` (where `remove(at:)` took it from).
    mutating func insert(_ position: Int, at index: Int) {
        if index == listed, position == rest.lowerBound - 1 {
            rest = position ..< rest.upperBound
        } else if index == 0, head > 0 {
            head -= 1
            items[head] = position
        } else {
            listAll(upTo: index)
            items.insert(position, at: head + index)
        }
    }

    /// Adds `position`, after every pending one.
    mutating func append(_ position: Int) {
        if position == rest.upperBound || rest.isEmpty && listed == 0 {
            rest = (rest.isEmpty ? position : rest.lowerBound) ..< position + 1
        } else {
            listAll(upTo: count)
            items.append(position)
        }
    }

    /// Moves the range's first positions into `items` until `index` is within them.
    private mutating func listAll(upTo index: Int) {
        guard index > listed else { return }
        let moved = Swift.min(index - listed, rest.count)
        items += rest.lowerBound ..< rest.lowerBound + moved
        rest = rest.lowerBound + moved ..< rest.upperBound
    }

    func makeIterator() -> Iterator { Iterator(items: items[head...].makeIterator(), rest: rest.makeIterator()) }

    struct Iterator: IteratorProtocol {
        var items: ArraySlice<Int>.Iterator
        var rest: Range<Int>.Iterator
        mutating func next() -> Int? { items.next() ?? rest.next() }
    }
}
