/// Which earlier positions of a run each position waits for before it starts (`Runner.dependencies` gives
/// the rules), computed from the position instead of kept per position. Position p of a run that repeats a
/// selection of n requests (`RunSequence`, `--iterations`) is request p % n of iteration p / n, so what it
/// waits for follows from what the selection's n requests capture and refer to: the n lists below, whatever
/// the length of the run. One set per position had cost 8 bytes a request in every run, and in an iterated
/// run with captures each set held the capturing positions of every earlier iteration.
///
/// Positions after the repeated selection (added by `setNextRequest`, which runs one request at a time)
/// wait for nothing.
struct RunDependencies {
    /// Requests in the selection; 0 when nothing waits (no request captures or has scripts).
    private let count: Int
    /// Positions below this repeat the selection.
    private let repeated: Int
    /// For each request of the selection, the requests of the selection (anywhere in it) that capture a
    /// variable it refers to: their positions before its own are waited for, in this iteration and earlier ones.
    private let capturers: [[Int]]
    /// For each request that captures a variable, the previous request that captures it (in list order, into
    /// the iteration before) and the requests that refer to it since: only their latest position before its
    /// own is waited for (the earlier ones waited for the same before them). Started before those, its value
    /// would replace one they were still to send, or be replaced by the previous capture's (with --parallel,
    /// the next iteration's login replaced the token before this iteration's requests sent it). Empty for
    /// shards (`runAlone` false): the parts are other processes.
    private let latestOf: [[Int]]
    /// Whether each request runs alone (it captures a cookie or has scripts; not with `runAlone` false).
    private let runsAlone: [Bool]
    /// For each request, the last request before it in the selection that runs alone (nil: none), and the
    /// selection's last: the barrier a request that runs alone waits from.
    private let lastAloneBefore: [Int?]
    private let lastAlone: Int?
    /// For each request, the last request before it in the selection that captures a cookie (also from a
    /// message) or has scripts, and the selection's last: what every request waits for.
    private let lastMarkBefore: [Int?]
    private let lastMark: Int?
    /// Whether each request is such a mark (runs alone, captures a cookie or has scripts).
    private let marks: [Bool]

    /// - Parameters:
    ///   - selection: the requests of one iteration.
    ///   - repeats: how many times the run repeats them.
    ///   - runAlone: false: only the waits for captured variables (`ShardPartition`), as `Runner.dependencies`.
    init(_ selection: [RequestReference], repeats: Int, _ configuration: RunConfiguration, runAlone: Bool = true) {
        let n = selection.contains(where: { !$0.request.capturesIncludingMessages.isEmpty || !$0.request.eventScripts.isEmpty }) ? selection.count : 0
        count = n
        repeated = n * repeats
        // Without captures nothing waits: skip finding every request's variables.
        guard n > 0 else {
            (capturers, latestOf, runsAlone, lastAloneBefore, lastAlone, lastMarkBefore, lastMark, marks) = ([], [], [], [], nil, [], nil, [])
            return
        }
        let layerValues = (configuration.environment?.variables ?? []) + configuration.overrides.map { Variable(name: $0.key, value: $0.value) }
        var capturedBy: [String: [Int]] = [:]
        for (offset, reference) in selection.enumerated() {
            for capture in reference.request.capturesIncludingMessages where capturedBy[capture.variable]?.last != offset {
                capturedBy[capture.variable, default: []].append(offset)
            }
        }
        let referenced = selection.map { Set($0.referencedVariables(alsoThrough: layerValues)) }
        capturers = selection.indices.map { offset in Set(referenced[offset].flatMap { capturedBy[$0] ?? [] }).sorted() }
        latestOf = runAlone ? Self.latestWaits(selection, capturedBy: capturedBy, referenced: referenced) : Array(repeating: [], count: n)
        let alone = selection.map { reference in
            runAlone && (!reference.request.eventScripts.isEmpty || reference.request.captures.contains(where: \.takesCookie))
        }
        let marks = selection.map { reference in
            runAlone && (!reference.request.eventScripts.isEmpty || reference.request.capturesIncludingMessages.contains(where: \.takesCookie))
        }
        runsAlone = alone
        self.marks = marks
        (lastAloneBefore, lastAlone) = Self.lastBefore(alone)
        (lastMarkBefore, lastMark) = Self.lastBefore(marks)
    }

    /// `latestOf`: for each capturing request and each variable it captures, the previous capturer (cyclically:
    /// itself when it is the only one) and the requests after that one and before it (cyclically) that refer
    /// to the variable. Each reader is listed for one capturer per variable, so the lists stay as long as the
    /// selection however many requests capture the same variable.
    private static func latestWaits(_ selection: [RequestReference], capturedBy: [String: [Int]], referenced: [Set<String>]) -> [[Int]] {
        var readBy: [String: [Int]] = [:]
        for (offset, names) in referenced.enumerated() { for name in names where capturedBy[name] != nil { readBy[name, default: []].append(offset) } }
        var waits = Array(repeating: [Int](), count: selection.count)
        for (variable, capturing) in capturedBy {
            let readers = readBy[variable] ?? []
            for (i, offset) in capturing.enumerated() {
                let previous = capturing[(i + capturing.count - 1) % capturing.count]
                waits[offset].append(previous)
                // Readers strictly between `previous` and `offset`, going round the end of the selection when
                // `previous` is not before it; `readers` is in list order.
                let afterPrevious = firstIndex(in: readers, above: previous)
                let beforeOffset = firstIndex(in: readers, above: offset - 1)
                if previous < offset {
                    waits[offset] += readers[afterPrevious..<max(afterPrevious, beforeOffset)]
                } else {
                    waits[offset] += readers[afterPrevious...] + readers[..<beforeOffset]
                }
            }
        }
        return waits.map { Set($0).sorted() }
    }

    /// The index of the first element of `sorted` (ascending) greater than `value`, or its count.
    private static func firstIndex(in sorted: [Int], above value: Int) -> Int {
        var (low, high) = (0, sorted.count)
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] <= value { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// For each index, the last index before it whose flag is set, and the last of all.
    private static func lastBefore(_ flags: [Bool]) -> ([Int?], Int?) {
        var last: Int?
        var before: [Int?] = []
        before.reserveCapacity(flags.count)
        for (index, flag) in flags.enumerated() {
            before.append(last)
            if flag { last = index }
        }
        return (before, last)
    }

    /// The position of the last request before `position` whose selection index is `before[...]`'s kind.
    private func last(before position: Int, _ before: [Int?], _ lastOfAll: Int?) -> Int? {
        let (iteration, offset) = position.quotientAndRemainder(dividingBy: count)
        if let index = before[offset] { return iteration * count + index }
        if iteration > 0, let index = lastOfAll { return (iteration - 1) * count + index }
        return nil
    }

    /// Whether `isDone` holds for every position `position` waits for from `lowest` on (those before
    /// `lowest` are known to be done); stops at the first that is not. A position may be asked about twice.
    func allSatisfy(_ position: Int, from lowest: Int = 0, _ isDone: (Int) -> Bool) -> Bool {
        guard count > 0, position < repeated else { return true }
        let offset = position % count
        if runsAlone[offset] {
            // It waits for the last request that ran alone and those after it: that one started only when every
            // request before it was done.
            let start = max(lowest, last(before: position, lastAloneBefore, lastAlone) ?? 0)
            return start >= position || (start..<position).allSatisfy(isDone)
        }
        for index in capturers[offset] {
            var waited = index + (lowest > index ? (lowest - index + count - 1) / count * count : 0)
            while waited < position {
                if !isDone(waited) { return false }
                waited += count
            }
        }
        let iteration = position / count
        for index in latestOf[offset] {
            // Its latest position before this one: in this iteration, or in the one before.
            let waited = index < offset ? iteration * count + index : (iteration - 1) * count + index
            if waited >= lowest, !isDone(waited) { return false }
        }
        if let mark = last(before: position, lastMarkBefore, lastMark), mark >= lowest, !isDone(mark) { return false }
        return true
    }

    /// Whether every later position of the repeated selection waits for `position`, directly or through the
    /// marks between them: it is a mark (it runs alone, captures a cookie or has scripts), and every request
    /// waits for the last mark before it, which waits for the one before it. So when it cannot start yet, no
    /// position after it can: `Runner` stops looking there instead of checking every position left, which
    /// made a `--parallel` run of scripted requests quadratic (2,000 took 7 times the CPU of 500).
    func holdsBackLater(_ position: Int) -> Bool {
        guard count > 0, position < repeated else { return false }
        return marks[position % count]
    }

    /// Every position `position` waits for.
    func positions(before position: Int) -> Set<Int> {
        var waited: Set<Int> = []
        _ = allSatisfy(position) { waited.insert($0); return true }
        return waited
    }
}
