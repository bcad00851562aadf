import Foundation

/// `run --dry-run --json` planned and written on several threads, the output in list order, in bounded memory
/// (issue 17 §1, S10 and S12).
///
/// Without scripts nothing changes what a request comes to during a dry run (nothing is sent, captured or run),
/// so the selection is cut into chunks of `chunkSize` requests and each thread takes the next chunk, plans it with
/// a planner of its own (its own caches: `lastLayers`, `lastScope` and the kept values of its scope, `lastMasker`)
/// and writes its entries into a byte buffer; the calling thread hands the finished buffers to the sink in order.
/// At most `2 × threads` chunks are taken and not yet written (a thread waits for the one due), so the memory is
/// that many buffers of about 160 KB (512 entries of `scripts/bench`'s collection; chunks of 2,048 took 6 MB more
/// than `list --all --json` of 20,000 requests, of 512 about 2 MB, the thread's stack and heap included).
///
/// The one state carried in order is which literal `{{…}}` names were already warned of (Newman's rules warn once
/// per name, at the first request that sends it): a chunk's planner stops before the first request that sends a
/// `{{…}}` as text (`defersLiteralWarnings`), and the calling thread, when that chunk is due, plans the rest of it
/// in order with the planner it was given, which holds the warned names.
final class DryRunChunks: @unchecked Sendable {
    /// A chunk's entries as written: `bytes` holds the elements of `range.lowerBound..<end`.
    struct Chunk {
        var range: Range<Int>
        var end: Int
        var failed: Int
        var bytes: Buffer
    }

    /// A chunk's bytes, reused from one chunk to the next. Held by one thread at a time: handed over under `condition`.
    final class Buffer: @unchecked Sendable {
        var bytes: [UInt8] = []
    }

    let references: RequestSelection
    let configuration: RunConfiguration
    let chunkSize: Int
    let chunkCount: Int
    let inFlight: Int
    private let condition = NSCondition()
    /// The next chunk to take, the next to hand out in order, and the chunks planned and not handed out yet.
    private var nextToPlan = 0
    private var nextToWrite = 0
    private var planned: [Int: Chunk] = [:]
    private var spare: [Buffer] = []

    init(_ references: RequestSelection, _ configuration: RunConfiguration, chunkSize: Int, threads: Int) {
        self.references = references
        self.configuration = configuration
        self.chunkSize = chunkSize
        chunkCount = (references.count + chunkSize - 1) / chunkSize
        inFlight = 2 * threads
    }

    /// A planner for chunks: no scripts, literal warnings left to the planner in order.
    func chunkPlanner() -> DryRunEntry.Planner {
        var planner = DryRunEntry.Planner(configuration: configuration)
        planner.defersLiteralWarnings = true
        return planner
    }

    /// A helper thread's work: plans chunks until none is left to take.
    func work() {
        var planner = chunkPlanner()
        let references = references.unshared()
        condition.lock()
        while nextToPlan < chunkCount {
            if nextToPlan < nextToWrite + inFlight {
                plan(&planner, references)
                condition.broadcast()
            } else {
                condition.wait()
            }
        }
        condition.unlock()
    }

    /// The next chunk in order, planning others with `planner` (the calling thread's chunk planner) while it is
    /// not ready; nil after the last. Hand its buffer back with `recycle` once written.
    func next(_ planner: inout DryRunEntry.Planner) -> Chunk? {
        condition.lock()
        defer { condition.unlock() }
        while nextToWrite < chunkCount {
            if let chunk = planned.removeValue(forKey: nextToWrite) {
                nextToWrite += 1
                condition.broadcast()
                return chunk
            }
            if nextToPlan < chunkCount, nextToPlan < nextToWrite + inFlight { plan(&planner, references) } else { condition.wait() }
        }
        return nil
    }

    func recycle(_ buffer: Buffer) {
        condition.lock()
        spare.append(buffer)
        condition.unlock()
    }

    /// Takes the next chunk and plans it from `references` (the selection, or the thread's `unshared()` copy), outside
    /// the lock (held on entry and on return).
    private func plan(_ planner: inout DryRunEntry.Planner, _ references: RequestSelection) {
        let index = nextToPlan
        nextToPlan += 1
        let buffer = spare.popLast() ?? Buffer()
        condition.unlock()
        let range = index * chunkSize..<min(references.count, (index + 1) * chunkSize)
        buffer.bytes.removeAll(keepingCapacity: true)
        var w = JSONWriter(encoderLayout: true, elementsAtDepth: 1) { buffer.bytes.append(contentsOf: $0) }
        let (failed, end) = planner.writeElements(references, range, to: &w)
        w.flushToSink()
        let chunk = Chunk(range: range, end: end, failed: failed, bytes: buffer)
        condition.lock()
        planned[index] = chunk
    }
}

extension DryRunEntry.Planner {
    /// Requests a thread plans at a time in `writeJSON(_:threads:chunkSize:to:)`.
    public static let chunkSize = 512

    /// `writeJSON(_:to:)` to `sink` with a writer in `encoderLayout`, the final line feed included: the same bytes,
    /// planned on `threads` threads (this one and `threads - 1` others, see `DryRunChunks`) when there are no
    /// scripts and more than one chunk; else on this one, by `writeElements` as well. `sink` is called on this thread
    /// only, in order.
    /// - Returns: how many could not be prepared (skipped schemes are not counted).
    public mutating func writeJSON(_ references: RequestSelection, threads: Int, chunkSize: Int = chunkSize,
                                   to sink: @escaping (UnsafeRawBufferPointer) -> Void) -> Int {
        let open: StaticString = "["
        guard scripting == nil, threads > 1, references.count > chunkSize else {
            // On this thread, the elements as the chunks write them (`writeElements`: requests read in place and written
            // without being prepared where they can be), between the bytes of the array's ends: those of `writeJSON(_:to:)`.
            sink(UnsafeRawBufferPointer(start: open.utf8Start, count: 1))
            var w = JSONWriter(encoderLayout: true, elementsAtDepth: 1, sink: sink)
            let failed = writeElements(references, 0..<references.count, to: &w).failed
            w.flushToSink()
            let close: StaticString = references.isEmpty ? "\n\n]\n" : "\n]\n"
            sink(UnsafeRawBufferPointer(start: close.utf8Start, count: close.utf8CodeUnitCount))
            return failed
        }
        let chunks = DryRunChunks(references, configuration, chunkSize: chunkSize, threads: threads)
        for _ in 1..<threads { Thread.detachNewThread { chunks.work() } }
        var planner = chunks.chunkPlanner()
        var failed = 0
        var wroteAny = false
        func separate() {
            let comma: StaticString = ","
            if wroteAny { sink(UnsafeRawBufferPointer(start: comma.utf8Start, count: 1)) }
            wroteAny = true
        }
        sink(UnsafeRawBufferPointer(start: open.utf8Start, count: 1))
        while let chunk = chunks.next(&planner) {
            failed += chunk.failed
            if !chunk.bytes.bytes.isEmpty {
                separate()
                chunk.bytes.bytes.withUnsafeBytes(sink)
            }
            chunks.recycle(chunk.bytes)
            guard chunk.end < chunk.range.upperBound else { continue }
            // From the first request that sends a `{{…}}` as text: planned here, in order, with the warned names.
            separate()
            var w = JSONWriter(encoderLayout: true, elementsAtDepth: 1, sink: sink)
            failed += writeElements(references, chunk.end..<chunk.range.upperBound, to: &w).failed
            w.flushToSink()
        }
        let close: StaticString = wroteAny ? "\n]\n" : "\n\n]\n"
        sink(UnsafeRawBufferPointer(start: close.utf8Start, count: close.utf8CodeUnitCount))
        return failed
    }
}
