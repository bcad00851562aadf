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

    subscript(position: Int) -> RequestReference {
        _read {
            let repeated = selection.count * repeats
            if position < repeated { yield selection[position % selection.count] } else { yield added[position - repeated] }
        }
    }

    mutating func append(_ reference: RequestReference) { added.append(reference) }
}
