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

    /// The byte from which a file of `size` bytes is split (`decode(_:file:fileName:files:splitTarget:)`), nil
    /// for one thread: a file under `splitSize`, or a machine of one core.
    static func splitTarget(size: Int) -> Int? {
        guard size >= splitSize, ProcessInfo.processInfo.activeProcessorCount > 1 else { return nil }
        return size / 1000 * splitShare
    }

    /// What became of the second thread's part (for tests).
    enum SplitOutcome: Equatable {
        /// Not tried: no `splitTarget`, or a UTF-16 text.
        case oneThread
        /// The calling thread stopped at the second thread's first element and took its groups and the rest of
        /// the root object.
        case handedOver
        /// Tried, but the calling thread parsed to the end alone: the second thread's place was not where the
        /// calling thread came (the bytes before it are not valid JSON, or the array was not `groups`), or the
        /// second thread met a syntax error (the calling thread then finds the first one in the file).
        case discarded
    }

    /// Parses a collection's text, its root's `groups` elements decoded as they are parsed
    /// (`JSONParser.parse(_:streamingElementsOf:to:)`), on one thread or, with `splitTarget`, on two.
    ///
    /// With `splitTarget`, a second thread finds the first element start of that array after a comma at or
    /// after that byte (`JSONSplitPoint.find`, which also counts the lines before it and the element's index)
    /// and parses and decodes from there to the end of the text (`JSONParser.parseRest`), with the line
    /// numbers and field paths of the whole file. The calling thread parses from the start; at each element
    /// start of its `groups` array past the target it compares its own place and state (offset, index, line,
    /// line start) with the second thread's (waiting, the first time, until the scan has found it): the same,
    /// it waits for the second thread and, when that one met no syntax error, takes its groups and the root's
    /// members after the array. Else (not the same place, or a syntax error
    /// there) it parses on alone as on one thread and the second thread is told to stop. So the tree, the
    /// groups, their values (locations, paths) and the first error are those of one thread: a syntax error
    /// anywhere comes before a field error, and the first field error in file order is the one kept.
    /// - Throws: `JSONSyntaxError` for the first syntax error of the text.
    static func parseGroups(_ bytes: [UInt8], file: String, fileName: String, base: FileScope,
                            splitTarget: Int?) throws(JSONSyntaxError) -> (root: JSONNode, groups: StreamedGroups, outcome: SplitOutcome) {
        var groups = StreamedGroups()
        let sink = { (node: consuming JSONNode, i: Int) in groups.add(node, i, file: file, fileName: fileName, base: base) }
        guard let splitTarget, !UTF16Text.byteOrder(bytes).isUTF16, UTF16Text.unmarkedHint(bytes) == nil else {
            let root = try JSONParser.parse(bytes, streamingElementsOf: "groups", to: sink)
            return (root, groups, .oneThread)
        }
        let second = SecondPart(target: splitTarget)
        second.start(bytes, file: file, fileName: fileName, base: base)
        var outcome = SplitOutcome.discarded
        var settled = false
        let result = bytes.withUnsafeBufferPointer { buffer -> Result<JSONNode, JSONSyntaxError> in
            defer { if !settled { second.stop() } }
            do throws(JSONSyntaxError) {
                return .success(try JSONParser.parse(buffer, streamingElementsOf: "groups", to: sink) { here in
                    // The place is after the target: before it, nothing to ask.
                    guard !settled, here.offset > splitTarget else { return nil }
                    guard let place = second.place() else { settled = true; return nil }
                    guard here.offset >= place.offset else { return nil }
                    settled = true
                    guard here == place else { second.stop(); return nil }
                    guard let (tail, later) = second.wait() else { return nil }
                    groups.append(later)
                    outcome = .handedOver
                    return tail
                })
            } catch {
                return .failure(error)
            }
        }
        return (try result.get(), groups, outcome)
    }

    /// The second thread's part: where it starts, once found, and what it parsed.
    private final class SecondPart: @unchecked Sendable {
        /// Where the thread starts looking for its place.
        let target: Int
        /// Written once, before `located` is signalled: nil when there is none.
        private var found: JSONSplitPoint?
        private let located = DispatchSemaphore(value: 0)
        /// Whether the calling thread waited for `located` (read and written by that thread only).
        private var isLocated = false
        private let stopped = Atomic<Bool>(false)
        /// Written once, before `done` is signalled: nil after a syntax error or a stop.
        private var result: (tail: [JSONNode.Member], groups: StreamedGroups)?
        private let done = DispatchSemaphore(value: 0)

        init(target: Int) { self.target = target }

        /// Starts the thread. It holds its own reference to `bytes`, so it may go on (until its next element,
        /// when told to stop) after the caller is gone.
        func start(_ bytes: [UInt8], file: String, fileName: String, base: FileScope) {
            // A copy of its own: every field reader holds the file's name, and a string that both threads
            // retain and release at every request has its reference count change cores each time.
            let file = String(decoding: Array(file.utf8), as: UTF8.self)
            Thread.detachNewThread { [self] in
                bytes.withUnsafeBufferPointer { buffer in
                    defer { done.signal() }
                    found = JSONSplitPoint.find(in: buffer, streamingElementsOf: "groups", atOrAfter: target)
                    located.signal()
                    guard let found, !stopped.load(ordering: .relaxed) else { return }
                    var groups = StreamedGroups()
                    do throws(JSONSyntaxError) {
                        let tail = try JSONParser.parseRest(buffer, from: found, to: { node, i in
                            groups.add(node, i, file: file, fileName: fileName, base: base)
                        }, stop: { stopped.load(ordering: .relaxed) })
                        if let tail { result = (tail, groups) }
                    } catch {
                        // The calling thread parses on alone and finds the first syntax error itself.
                    }
                }
            }
        }

        /// The thread's place (nil: there is none), waiting the first time until the thread found it (its scan
        /// is far faster than the calling thread's parse up to `target`, so this wait is short or none).
        func place() -> JSONSplitPoint? {
            if !isLocated {
                located.wait()
                isLocated = true
            }
            return found
        }

        /// Tells the thread to stop at its next element (its work is not wanted).
        func stop() { stopped.store(true, ordering: .relaxed) }

        /// Waits for the thread to end and gives what it parsed (nil after a syntax error).
        func wait() -> (tail: [JSONNode.Member], groups: StreamedGroups)? {
            done.wait()
            return result
        }
    }
}
