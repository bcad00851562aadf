import Foundation
import Synchronization

/// A large collection file parsed and decoded on two threads: the calling thread from the start, a second
/// thread from an element of the root's `groups` array near the middle, each parsing and decoding its own
/// groups (so that each frees the nodes it made, in its own malloc arena).
extension CollectionDecoder {
    /// Files at least this large (in bytes) are parsed on two threads when the machine has two cores or more:
    /// below it, starting a thread costs more than it saves (about 11 ms a MB to parse and decode on one).
    static let splitSize = 1 << 20

    /// Where the second thread starts looking for an element start, in thousandths of the file: a little past
    /// the middle, as it first scans the bytes before it (`JSONSplitPoint.find`, about a twentieth of the time
    /// of parsing and decoding them).
    static let splitShare = 530

    /// The byte from which a file of `size` bytes is split (`decode(_:file:fileName:files:split:)`), nil
    /// for one thread: a file under `splitSize`, or a machine of one core.
    static func splitTarget(size: Int) -> Int? {
        guard size >= splitSize, ProcessInfo.processInfo.activeProcessorCount > 1 else { return nil }
        return size / 1000 * splitShare
    }

    /// How a text is split (`parseGroups`): where, and for tests, how the threads meet.
    struct Split: Sendable {
        /// The byte from which the second thread looks for its place (`splitTarget(size:)`).
        var target: Int
        /// Tests: the calling thread waits, at the target, until the second thread's scan is over. Without it,
        /// a scan not over by then (the second thread had no core) is not waited for: the calling thread parses
        /// on alone.
        var waitsForTheScan = false
        /// Tests: the second thread starts its scan only once the calling thread gave up on it.
        var holdsTheScan = false
        /// Tests: the second thread, after decoding this many elements, waits at the next element start until
        /// the calling thread asks for the rest, and gives it up there (and only there): a take-over at a chosen
        /// element, however fast each thread runs.
        var pausesAfter: Int?
    }

    /// What became of the second thread's part (for tests).
    enum SplitOutcome: Equatable {
        /// Not tried: no `splitTarget`, or a UTF-16 text.
        case oneThread
        /// The calling thread stopped at the second thread's first element and took its groups and the rest of
        /// the root object: the second thread had finished, or did so before its next element.
        case handedOver
        /// The calling thread took the groups the second thread had decoded, and parsed and decoded the rest
        /// from the element start where the second thread stopped when asked.
        case takenOver
        /// Tried, but the calling thread parsed to the end alone: the second thread's place was not where the
        /// calling thread came (the bytes before it are not valid JSON, or the array was not `groups`), its scan
        /// was not over when the calling thread came to the target, or the second thread met a syntax error (the
        /// calling thread then finds the first one in the file).
        case discarded
    }

    /// Parses a collection's text, its root's `groups` elements decoded as they are parsed
    /// (`JSONParser.parse(_:streamingElementsOf:to:)`), on one thread or, with `split`, on two.
    ///
    /// With `split`, a second thread finds the first element start of that array after a comma at or after
    /// `split.target` (`JSONSplitPoint.find`, which also counts the lines before it and the element's index)
    /// and parses and decodes from there towards the end of the text (`JSONParser.parseRest`), with the line
    /// numbers and field paths of the whole file. The calling thread parses from the start. At its first
    /// element start of its `groups` array past the target, if the second thread's scan is not over (it had
    /// no core), it parses on alone. Else, at each element start past the target, it compares its own place
    /// and state (offset, index, line, line start) with the second thread's: the same, it asks the second
    /// thread for the rest and waits for it to stop, which it does at its next element start (at most one
    /// group later) or at the end of the text. The calling thread then takes the second thread's groups and,
    /// when the second thread finished, the root's members after the array; when it stopped at an element
    /// start, the calling thread goes on from that place with its state (the work left is taken, not waited
    /// for). Else (not the same place, or the second thread met a syntax error) it parses on alone as on one
    /// thread and the second thread is told to stop. So the tree, the groups, their values (locations, paths)
    /// and the first error are those of one thread: a syntax error anywhere comes before a field error, and
    /// the first field error in file order is the one kept.
    /// - Throws: `JSONSyntaxError` for the first syntax error of the text.
    static func parseGroups(_ bytes: [UInt8], file: String, fileName: String, base: FileScope,
                            split: Split?) throws(JSONSyntaxError) -> (root: JSONNode, groups: StreamedGroups, outcome: SplitOutcome) {
        var groups = StreamedGroups()
        let sink = { (node: consuming JSONNode, i: Int) in groups.add(node, i, file: file, fileName: fileName, base: base) }
        guard let split, !UTF16Text.byteOrder(bytes).isUTF16, UTF16Text.unmarkedHint(bytes) == nil else {
            let root = try JSONParser.parse(bytes, streamingElementsOf: "groups", to: sink)
            return (root, groups, .oneThread)
        }
        let second = SecondPart(split)
        second.start(bytes, file: file, fileName: fileName, base: base)
        var outcome = SplitOutcome.discarded
        var settled = false
        let result = bytes.withUnsafeBufferPointer { buffer -> Result<JSONNode, JSONSyntaxError> in
            defer { if !settled { second.stop() } }
            do throws(JSONSyntaxError) {
                return .success(try JSONParser.parse(buffer, streamingElementsOf: "groups", to: sink) { here in
                    // The place is after the target: before it, nothing to ask.
                    guard !settled, here.offset > split.target else { return nil }
                    guard let place = second.place(waiting: split.waitsForTheScan) else {
                        settled = true
                        second.stop()
                        return nil
                    }
                    guard here.offset >= place.offset else { return nil }
                    settled = true
                    guard here == place else { second.stop(); return nil }
                    switch second.takeOver() {
                    case .finished(let tail, let later)?:
                        groups.append(later)
                        outcome = .handedOver
                        return .rest(tail)
                    case .stopped(let later, let next)?:
                        groups.append(later)
                        outcome = .takenOver
                        return .resume(at: next)
                    case nil:
                        return nil
                    }
                })
            } catch {
                return .failure(error)
            }
        }
        return (try result.get(), groups, outcome)
    }

    /// The second thread's part: where it starts, once found, and what it parsed.
    private final class SecondPart: @unchecked Sendable {
        /// Where the thread starts looking for its place, and the tests' controls.
        let split: Split
        /// Written once, before `located` is signalled: nil when there is none.
        private var found: JSONSplitPoint?
        private let located = DispatchSemaphore(value: 0)
        /// Whether the calling thread saw `located` signalled (read and written by that thread only).
        private var isLocated = false
        /// Set by the calling thread: stop at the next element start, its work not wanted (`stop()`), or
        /// wanted up to there (`takeOver()`).
        private let stopped = Atomic<Bool>(false)
        private let asked = Atomic<Bool>(false)
        /// Signalled after `stopped` or `asked` is set (what `Split.pausesAfter` and `holdsTheScan` wait for).
        private let told = DispatchSemaphore(value: 0)
        /// What the thread did.
        enum Outcome {
            /// It parsed to the end of the text: the root's members after the array, and its groups.
            case finished(tail: [JSONNode.Member], groups: StreamedGroups)
            /// Asked for the rest, it stopped at this element start: its groups before it.
            case stopped(groups: StreamedGroups, at: JSONSplitPoint)
        }
        /// Written once, before `done` is signalled: nil after a syntax error or a stop.
        private var result: Outcome?
        private let done = DispatchSemaphore(value: 0)

        init(_ split: Split) { self.split = split }

        /// Starts the thread. It holds its own reference to `bytes`, so it may go on (until its next element,
        /// when told to stop) after the caller is gone.
        func start(_ bytes: [UInt8], file: String, fileName: String, base: FileScope) {
            // A copy of its own: every field reader holds the file's name, and a string that both threads
            // retain and release at every request has its reference count change cores each time.
            let file = String(decoding: Array(file.utf8), as: UTF8.self)
            Thread.detachNewThread { [self] in
                bytes.withUnsafeBufferPointer { buffer in
                    defer { done.signal() }
                    if split.holdsTheScan { told.wait() }
                    found = JSONSplitPoint.find(in: buffer, streamingElementsOf: "groups", atOrAfter: split.target)
                    located.signal()
                    guard let found, !stopped.load(ordering: .relaxed) else { return }
                    var groups = StreamedGroups()
                    var next: JSONSplitPoint?
                    do throws(JSONSyntaxError) {
                        let tail = try JSONParser.parseRest(buffer, from: found, to: { node, i in
                            groups.add(node, i, file: file, fileName: fileName, base: base)
                        }, stop: { here in
                            if let pause = split.pausesAfter {
                                let decoded = here.element - found.element
                                guard decoded >= pause else { return stopped.load(ordering: .relaxed) }
                                if decoded == pause { told.wait() }
                            }
                            if stopped.load(ordering: .relaxed) { return true }
                            guard asked.load(ordering: .relaxed) else { return false }
                            next = here
                            return true
                        })
                        if let tail {
                            result = .finished(tail: tail, groups: groups)
                        } else if let next, !stopped.load(ordering: .relaxed) {
                            result = .stopped(groups: groups, at: next)
                        }
                    } catch {
                        // The calling thread parses on alone and finds the first syntax error itself.
                    }
                }
            }
        }

        /// The thread's place (nil: there is none, or, `waiting` false, the scan is not over), waiting the
        /// first time until the thread found it when `waiting`.
        func place(waiting: Bool) -> JSONSplitPoint? {
            if !isLocated {
                if waiting {
                    located.wait()
                } else if located.wait(timeout: .now()) == .timedOut {
                    return nil
                }
                isLocated = true
            }
            return found
        }

        /// Tells the thread to stop at its next element (its work is not wanted).
        func stop() {
            stopped.store(true, ordering: .relaxed)
            told.signal()
        }

        /// Asks the thread for the rest, waits for it to stop (at its next element start or at the end of the
        /// text) and gives what it did (nil after a syntax error).
        func takeOver() -> Outcome? {
            asked.store(true, ordering: .relaxed)
            told.signal()
            done.wait()
            return result
        }
    }
}
