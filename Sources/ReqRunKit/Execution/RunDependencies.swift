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
    /// variable it refers to, and for one that captures, those that refer to or capture the same variable:
    /// their positions before its own are waited for, in this iteration and earlier ones.
    private let capturers: [[Int]]
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
            (capturers, runsAlone, lastAloneBefore, lastAlone, lastMarkBefore, lastMark) = ([], [], [], nil, [], nil)
            return
        }
        let layerValues = (configuration.environment?.variables ?? []) + configuration.overrides.map { Variable(name: $0.key, value: $0.value) }
        var capturedBy: [String: [Int]] = [:]
        for (offset, reference) in selection.enumerated() {
            for capture in reference.request.capturesIncludingMessages { capturedBy[capture.variable, default: []].append(offset) }
        }
        let referenced = selection.map { Set($0.referencedVariables(alsoThrough: layerValues)) }
        var readBy: [String: [Int]] = [:]
        if runAlone {
            for (offset, names) in referenced.enumerated() { for name in names where capturedBy[name] != nil { readBy[name, default: []].append(offset) } }
        }
        capturers = selection.indices.map { offset in
            var waits = Set(referenced[offset].flatMap { capturedBy[$0] ?? [] })
            // A request that captures a variable also waits for the earlier requests that read it or capture it
            // (in this iteration and earlier ones): started before them, its value would replace the one they
            // were still to read, or be replaced by theirs (with --parallel, the second iteration's login set the
            // token the first iteration's next request then sent). Not for shards, which are other processes.
            if runAlone {
                for capture in selection[offset].request.capturesIncludingMessages {
                    waits.formUnion(readBy[capture.variable] ?? [])
                    waits.formUnion(capturedBy[capture.variable] ?? [])
                }
            }
            return waits.sorted()
        }
        let alone = selection.map { reference in
            runAlone && (!reference.request.eventScripts.isEmpty || reference.request.captures.contains(where: \.takesCookie))
        }
        let marks = selection.map { reference in
            runAlone && (!reference.request.eventScripts.isEmpty || reference.request.capturesIncludingMessages.contains(where: \.takesCookie))
        }
        runsAlone = alone
        (lastAloneBefore, lastAlone) = Self.lastBefore(alone)
        (lastMarkBefore, lastMark) = Self.lastBefore(marks)
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
        if let mark = last(before: position, lastMarkBefore, lastMark), mark >= lowest, !isDone(mark) { return false }
        return true
    }

    /// Every position `position` waits for.
    func positions(before position: Int) -> Set<Int> {
        var waited: Set<Int> = []
        _ = allSatisfy(position) { waited.insert($0); return true }
        return waited
    }
}
