import Dispatch

/// The work on a finished result that no later request waits for — masking its secrets, reporting it
/// (`onResult`: the console line) and writing it to the run record (`RecordWriter`) — kept off the path from one
/// transfer to the next. Measured with callgrind on 1,000 requests, it was about a sixth of a run's
/// instructions.
///
/// Where it goes depends on the run:
/// - one request at a time: into the gaps while the run sleeps waiting for the network
///   (`HTTPExecutor.waitForCompletions`' `whileWaiting`), which cost nothing and keep each console line
///   prompt; a second thread there cost more in wake-ups (a context switch per result, `perf stat`) than it saved;
/// - `--parallel`: the run rarely sleeps (two thirds of the results were still waiting at its end), so
///   batches of `batchSize` go to a second thread, one wake-up per batch.
/// Either way results go through in submission order, so console lines and the record keep list order.
///
/// At most `maxPending` results wait at once: one at a time, `submit` processes the oldest itself when that
/// many wait (the network's waits were too short to process them); with `--parallel` it waits for the second
/// thread when `maxHandedOver` were handed over and not yet processed. Unbounded, the queue grew with the run
/// wherever results came faster than they were written, and kept its storage afterwards.
final class ResultPipeline: @unchecked Sendable {
    /// Results handed over together to the second thread.
    static let batchSize = 32
    /// The most results waiting to be processed (about 2 KB each with their strings): 1,024.
    static let maxPending = 1024
    /// With `--parallel`, the most results handed over to the second thread and not yet processed: 8,192 (about
    /// 16 MiB). Higher than `maxPending` because the run loop drives no transfer while it waits: at 1,024 it
    /// waited often enough at `--parallel 16` against nginx on loopback to lengthen the run (S13 1.51 against
    /// 1.19 of curl's wall time, docs/performance.md); this bound is met only when the second thread falls far behind.
    static let maxHandedOver = 8192

    private typealias Item = (result: RequestResult, secrets: [String])
    /// Submitted, not yet processed or handed over (only touched by the submitting thread).
    private var pending: [Item?] = []
    private var nextPending = 0
    /// Output, in order, when results are kept (`keep`): touched by the submitting thread when `background` is
    /// nil, else only on `background`.
    private var masked: [RequestResult] = []
    /// The secret values each of `masked` was masked with, so `finish` masks again only where one is new.
    private var maskedWith: [Set<String>] = []
    private let keep: Bool
    /// The last result's secret values with their set and masker, reused while the next result's are the same
    /// (they change only when the run learns a secret): a masker spells each value some ten ways, which for a
    /// 2 MB token a server handed out cost seconds a result. Confined as `masked` is.
    private var lastSecrets: (values: [String], set: Set<String>, masker: SecretMasker)?
    /// Where each result goes as it is processed (the record), if anywhere.
    let writer: RecordWriter?
    /// When the writer last wrote its buffer (it writes at least every `flushInterval` while the run goes).
    private var lastFlush = ContinuousClock.now
    static let flushInterval = Duration.milliseconds(100)
    private let background: DispatchQueue?
    /// Batches that may still be handed over to `background` before `submit` waits (`maxHandedOver` / `batchSize`
    /// at most; made at 0 and signalled up, so that libdispatch never sees it released below its start value).
    private let room = DispatchSemaphore(value: 0)
    private let showSecrets: Bool
    private let onResult: @Sendable (RequestResult) -> Void

    /// - Parameters:
    ///   - expectedCount: how many results will come (the arrays are sized once).
    ///   - showSecrets: `--show-secrets`: nothing is masked.
    ///   - inBackground: process on a second thread, in batches (for `--parallel`).
    ///   - onResult: called with each masked result, in submission order, on either thread.
    ///   - writer: the run record, written result by result.
    ///   - keep: keep every masked result for `finish` (runs of a few requests: `send`, the full-screen UI).
    init(expectedCount: Int, showSecrets: Bool, inBackground: Bool, writer: RecordWriter?, keep: Bool,
         onResult: @escaping @Sendable (RequestResult) -> Void) {
        self.showSecrets = showSecrets
        self.onResult = onResult
        self.writer = writer
        self.keep = keep
        background = inBackground ? DispatchQueue(label: "reqrun.results") : nil
        for _ in 0..<(Self.maxHandedOver / Self.batchSize) { room.signal() }
        if keep {
            masked.reserveCapacity(expectedCount)
            maskedWith.reserveCapacity(expectedCount)
        }
    }

    /// Keeps `result` (not yet masked) with the secret values to mask in it. Call in list order.
    func submit(_ result: consuming RequestResult, secrets: [String]) {
        pending.append((result, secrets))
        if background != nil {
            if waitingCount >= Self.batchSize { handOver() }
        } else if waitingCount > Self.maxPending, let item = takeNext() {
            process(item)
        }
    }

    /// Results submitted and not yet processed or handed over (for tests).
    var waitingCount: Int { pending.count - nextPending }
    /// The storage of those results, in results (for tests).
    var waitingCapacity: Int { pending.capacity }

    /// For idle moments: processes the oldest waiting result, if any, and returns whether it did; in the
    /// background mode hands over what waits instead (returns false: nothing more to do here).
    func processOne() -> Bool {
        if background != nil {
            if nextPending < pending.count { handOver() }
            return false
        }
        guard let item = takeNext() else {
            flushIfDue()
            return false
        }
        process(item)
        return true
    }

    /// Writes the record's buffer when `flushInterval` has passed since it last did.
    private func flushIfDue() {
        guard let writer, ContinuousClock.now - lastFlush >= Self.flushInterval else { return }
        writer.flush()
        lastFlush = .now
    }

    /// Processes what is left; returns every result masked in submission order when they are kept (else
    /// none; the writer masks the record again: `RecordWriter.finish`).
    /// - Parameter lateSecrets: secret values learned during the run (values that reached a credential,
    ///   captured cookies), masked again in every result that was masked without them: a token captured by
    ///   one request and sent as a credential by a later one, a cookie set by an earlier response that goes
    ///   out with requests that finished before the request capturing it did. Their console lines were
    ///   printed already; the record and reports are not.
    func finish(lateSecrets: [String] = []) -> [RequestResult] {
        if let background {
            handOver()
            return background.sync { remask(lateSecrets) }
        }
        while processOne() {}
        return remask(lateSecrets)
    }

    private func remask(_ secrets: [String]) -> [RequestResult] {
        if !secrets.isEmpty && !showSecrets {
            for i in masked.indices {
                let missing = secrets.filter { !maskedWith[i].contains($0) }
                guard !missing.isEmpty else { continue }
                // A new secret that holds one masked already is now spelled with the mask inside it.
                let earlier = SecretMasker(values: Array(maskedWith[i]))
                let again = SecretMasker(values: missing + missing.map { earlier.mask($0) }).mask(masked[i])
                if again != masked[i] { masked[i] = again }
            }
        }
        return masked
    }

    private func takeNext() -> Item? {
        guard nextPending < pending.count else { return nil }
        let item = pending[nextPending].take()  // moved out: no copy of the result
        nextPending += 1
        if nextPending == pending.count {
            // Kept for the next results unless a burst made it large.
            pending.removeAll(keepingCapacity: pending.capacity <= 4 * Self.batchSize)
            nextPending = 0
        } else if nextPending >= Self.maxPending {
            // Never emptied while results keep coming: the taken slots go, so the array holds at most about twice the bound.
            pending.removeFirst(nextPending)
            nextPending = 0
        }
        return item
    }

    private func handOver() {
        var batch: [Item] = []
        while let item = takeNext() { batch.append(item) }
        guard !batch.isEmpty else { return }
        let handoff = Batch(batch)
        room.wait()
        background?.async { [self] in
            for item in handoff.take() { process(item) }
            flushIfDue()
            room.signal()
        }
    }

    private func process(_ item: Item) {
        if lastSecrets?.values != item.secrets {
            lastSecrets = (item.secrets, Set(item.secrets), SecretMasker(values: item.secrets, enabled: !showSecrets))
        }
        let (_, secrets, masker) = lastSecrets!
        let result = masker.mask(item.result)
        onResult(result)
        writer?.append(result, encoded: RecordLines.result(result), maskedWith: secrets)
        if keep {
            masked.append(result)
            maskedWith.append(secrets)
        }
    }

    /// Carries a batch to the second thread (results are values; nothing else holds them).
    private final class Batch: @unchecked Sendable {
        private var items: [Item]
        init(_ items: [Item]) { self.items = items }
        func take() -> [Item] { let taken = items; items = []; return taken }
    }
}
