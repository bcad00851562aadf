/// The requests of a run in the order they run: the selection once per iteration (`--iterations`,
/// `--iteration-data`: iteration i is positions i × count ..< (i + 1) × count), then those added as the run
/// goes (`setNextRequest`). The selection is not copied per iteration: a `RequestReference` holds its
/// `Request` (hundreds of bytes), so 1,000 requests run 1,000 times had cost half a gigabyte of copies.
struct RunSequence: RandomAccessCollection {
    let selection: [RequestReference]
    let repeats: Int
    private var added: [RequestReference] = []

    init(_ selection: [RequestReference], repeats: Int) {
        self.selection = selection
        self.repeats = selection.isEmpty ? 0 : repeats
    }

    var startIndex: Int { 0 }
    var endIndex: Int { selection.count * repeats + added.count }

    /// A getter, not a `_read` coroutine: the coroutine's frame was allocated with `malloc` at each access
    /// (nine a request, 1,100 instructions each, callgrind), while an inlined getter lets the caller read
    /// the field it needs in place (always inlined: called, it copied the whole reference, about 950
    /// instructions of retains and releases at each of four accesses a request).
    subscript(position: Int) -> RequestReference {
        @inline(__always) get {
            let repeated = selection.count * repeats
            return position < repeated ? selection[position % selection.count] : added[position - repeated]
        }
    }

    /// Where `position` is in `selection` (nil for a request added as the run goes).
    func selectionIndex(_ position: Int) -> Int? { position < selection.count * repeats ? position % selection.count : nil }

    mutating func append(_ reference: RequestReference) { added.append(reference) }
}
