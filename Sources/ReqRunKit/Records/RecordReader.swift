import Foundation

/// A run record opened for reading in pieces: its head (every field but the results) at once, its results one
/// at a time (`forEachResult`), so `show`, `diff`, `history` and the reports need memory for one result, not
/// the run. Reads both formats: 2 (JSON Lines, `RecordWriter`) line by line; 1 (one JSON document, reqrun
/// before format 2) whole, within `FileSizeBound.runRecord`, as before.
public final class RecordReader {
    /// The file, for messages (`.reqrun/runs/<id>.jsonl` or as given).
    public let file: String
    /// 1 or 2.
    public let format: Int
    /// The record without its results (`results` is empty). Its `summary` is the summary line's, or when the
    /// record has none (a run killed before its end: `complete` false) the counts of the results present;
    /// `endedAt` is then empty and `libcurlVersion` unknown (empty).
    public private(set) var head: RunRecord
    /// False for a format 2 record without its summary line.
    public private(set) var complete = true
    private let descriptor: Int32
    /// Where the first result line starts (format 2).
    private var resultsOffset = 0
    /// A format 1 record, read whole.
    private var whole: RunRecord?

    /// Opens the record read from `descriptor` (closed with the reader).
    /// - Parameter counting: for a record without a summary line, count its results now (else its head's
    ///   summary stays zero until `forEachResult` has gone through them).
    /// - Throws: `RunStoreError.unreadable` for a format it cannot read, a bad header, or a line that is not
    ///   JSON; `.tooLarge` for a format 1 record over `FileSizeBound.runRecord`.
    init(descriptor: Int32, file: String, counting: Bool = true) throws {
        self.descriptor = descriptor
        self.file = file
        // Format 2 starts with `{"` (a compact header line), format 1 with `{` and a line feed (pretty JSON).
        var start: [UInt8] = [0, 0]
        let peeked = start.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 2, 0) }
        var first: [UInt8] = []
        var firstEnd = 0
        if peeked == 2, start == Array(#"{""#.utf8) {
            do {
                var lines = LineReader(descriptor: descriptor, from: 0)
                if let (line, end) = try lines.next() { (first, firstEnd) = (line, end) }
            } catch {
                close(descriptor)
                throw Self.failure(error, file)
            }
        }
        let decoder = JSONDecoder()
        if !first.isEmpty, let header = try? decoder.decode(HeaderLine.self, from: Data(first)), header.line == "header" {
            guard header.format == 2 else {
                close(descriptor)
                throw RunStoreError.unreadable(file, "record format \(header.format) is not supported by reqrun \(reqrunVersion) (it reads formats 1 and 2)")
            }
            format = 2
            resultsOffset = firstEnd
            head = RunRecord(id: header.id, startedAt: header.startedAt, endedAt: "", reqrunVersion: header.reqrunVersion,
                             libcurlVersion: "", workspace: header.workspace, environment: header.environment,
                             selection: header.selection, results: [])
            head.format = 2
            if let summary = tail(decoder) {
                (head.endedAt, head.libcurlVersion, head.summary) = (summary.endedAt, summary.libcurlVersion, summary.summary)
            } else {
                complete = false
                if counting {
                    var counts = RunSummary([])
                    try forEachResult { counts.add($0) }
                    head.summary = counts
                }
            }
        } else {
            format = 1
            var info = stat()
            fstat(descriptor, &info)
            if let reason = FileSizeBound.runRecord.refusal(size: Int(info.st_size)) {
                close(descriptor)
                throw RunStoreError.tooLarge(file, reason)
            }
            var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
            var done = 0
            while done < bytes.count {
                let n = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, $0.count - done, off_t(done)) }
                if n < 0, errno == EINTR { continue }
                guard n > 0 else {
                    close(descriptor)
                    throw Self.failure(LineReader.Failure.unreadable(n == 0 ? EIO : errno), file)
                }
                done += n
            }
            do {
                let record = try RunStore.decode(bytes, file: file)
                whole = record
                head = record
                head.results = []
            } catch {
                close(descriptor)
                throw error
            }
        }
    }

    deinit { close(descriptor) }

    /// Calls `body` with each result in list order.
    /// - Throws: `RunStoreError.unreadable` naming the line that is not a result (a last line cut short by a
    ///   killed run is left out, not an error), or what `body` throws.
    public func forEachResult(_ body: (RequestResult) throws -> Void) throws {
        let stream = results()
        while let result = try stream.nextResult() { try body(result) }
    }

    /// The results in list order, read one at a time, from `position` (a `ResultStream.position` of an
    /// earlier stream of this reader) or the first.
    /// - Parameter failedOnly: leave out the results that did not fail (`RequestResult.isFailure`), picked
    ///   from the line's bytes before it is decoded (`show --failed` of a large run decodes only those).
    /// - Parameter sent: false to leave out what was sent (`request`: its body size only, see
    ///   `RequestResult.WithoutSent`) from a format 2 record's results, for a reader that does not show it.
    public func results(from position: Int? = nil, failedOnly: Bool = false, sent: Bool = true) -> ResultStream {
        ResultStream(self, from: position, failedOnly: failedOnly, sent: sent)
    }

    /// Whether a result line may be of a result that failed: not when, at its top level, it is a response that
    /// passed, or skipped, or not run. Keys are sorted, so `outcome` and `passed` sit side by side, and inside a
    /// JSON string a quote is escaped: these bytes occur in no value.
    static func mayHaveFailed(_ line: [UInt8]) -> Bool {
        !Self.passedOrSkipped.contains { needle in Self.find(needle, in: line) }
    }

    /// Whether `needle` (not empty) occurs in `haystack`: `memchr(3)` for its first byte, `memcmp(3)` there.
    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Bool {
        haystack.withUnsafeBufferPointer { h in
            needle.withUnsafeBufferPointer { n in
                guard n.count <= h.count, let base = h.baseAddress, let first = n.baseAddress else { return false }
                var i = 0
                let last = h.count - n.count
                while i <= last {
                    guard let hit = memchr(base + i, Int32(n[0]), last - i + 1) else { return false }
                    i = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
                    if memcmp(base + i, first, n.count) == 0 { return true }
                    i += 1
                }
                return false
            }
        }
    }

    private static let passedOrSkipped = [#""outcome":"response","passed":true"#, #""outcome":"skipped""#, #""outcome":"notRun""#]
        .map { Array($0.utf8) }

    /// The results of a record read one line at a time (`RecordReader.results()`); as a `Sequence` (for
    /// writers that take one) a line that cannot be read ends it, and `error` says why.
    public final class ResultStream: Sequence, IteratorProtocol {
        private let reader: RecordReader
        private var lines: LineReader
        /// For a format 1 record: the index of the next result.
        private var index: Int?
        /// Where the result last returned starts: a byte offset (format 2) or an index (format 1), for
        /// `RecordReader.results(from:)`.
        public private(set) var position = 0
        private var number = 1  // the header is line 1 (format 2: not known when starting at a position)
        private let size: Int
        /// Why the sequence ended early, if it did.
        public private(set) var error: (any Error)?

        private let failedOnly: Bool
        private let sent: Bool

        fileprivate init(_ reader: RecordReader, from start: Int?, failedOnly: Bool = false, sent: Bool = true) {
            self.reader = reader
            self.failedOnly = failedOnly
            self.sent = sent
            lines = LineReader(descriptor: reader.descriptor, from: start ?? reader.resultsOffset)
            if reader.whole != nil { index = start ?? 0 }
            if start != nil { number = Int.min }  // line numbers unknown: errors name the byte offset
            var info = stat()
            fstat(reader.descriptor, &info)
            size = Int(info.st_size)
        }

        /// The next result, nil after the last.
        /// - Throws: `RunStoreError.unreadable` naming a line that is not a result.
        public func nextResult() throws -> RequestResult? {
            if var index, let whole = reader.whole {
                while index < whole.results.count, failedOnly, !whole.results[index].isFailure { index += 1 }
                guard index < whole.results.count else { return nil }
                (position, self.index) = (index, index + 1)
                return whole.results[index]
            }
            return sent ? try nextLine(as: RequestResult.self) : try nextLine(as: RequestResult.WithoutSent.self)?.result
        }

        /// The next result line decoded as `T` (`RecordJSONReader`): a type with some of a result's fields
        /// builds fewer strings and arrays (`RunDiff`). Format 2 only (a format 1 record has no lines: use `nextResult`).
        /// - Throws: `RunStoreError.unreadable` naming a line that is not a result.
        func nextLine<T: RecordDecodable>(as type: T.Type) throws -> T? {
            do {
                while true {
                    let start = lines.offset
                    guard let (line, end) = try lines.next() else { break }
                    number += 1
                    position = start
                    guard !line.isEmpty, !RecordReader.isSummary(line), !failedOnly || RecordReader.mayHaveFailed(line) else { continue }
                    do throws(RecordFields.Failure) {
                        let value = try T(recordJSON: line)
                        if failedOnly, let result = (value as? RequestResult) ?? (value as? RequestResult.WithoutSent)?.result,
                           !result.isFailure { continue }
                        return value
                    } catch {
                        // The last line of a killed run may be cut short.
                        if end == size, !reader.complete { return nil }
                        throw RunStoreError.unreadable(reader.file, (number > 0 ? "line \(number)" : "at byte \(start)") + ": \(error.reason)")
                    }
                }
                return nil
            } catch let error as LineReader.Failure {
                throw RecordReader.failure(error, reader.file)
            }
        }

        public func next() -> RequestResult? {
            guard error == nil else { return nil }
            do {
                return try nextResult()
            } catch {
                self.error = error
                return nil
            }
        }
    }

    /// Every result, for what needs them together (`reqrun merge`, the full-screen UI's last run).
    public func allResults() throws -> [RequestResult] {
        if let whole { return whole.results }
        var all: [RequestResult] = []
        try forEachResult { all.append($0) }
        return all
    }

    /// The whole record.
    public func record() throws -> RunRecord {
        var record = head
        record.results = try allResults()
        if format == 2 { record.format = 1 }  // as `show --json` prints it: one document, format 1's shape
        return record
    }

    /// A summary line's start: keys are sorted, and only the summary line has `endedAt` first.
    fileprivate static func isSummary(_ line: [UInt8]) -> Bool { line.starts(with: Array(#"{"endedAt""#.utf8)) }

    /// The summary line, when it is the last line (read from the last 4 KiB of the file).
    private func tail(_ decoder: JSONDecoder) -> SummaryLine? {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        let size = Int(info.st_size), length = min(size - resultsOffset, 4096)
        guard length > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: length)
        let n = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, length, off_t(size - length)) }
        guard n == length, bytes.last == 0x0A else { return nil }
        let body = bytes.dropLast()
        let start = body.lastIndex(of: 0x0A).map { $0 + 1 } ?? body.startIndex
        let line = Array(body[start...])
        guard Self.isSummary(line), let summary = try? decoder.decode(SummaryLine.self, from: Data(line)), summary.line == "summary" else { return nil }
        return summary
    }

    fileprivate static func failure(_ error: any Error, _ file: String) -> RunStoreError {
        switch error as? LineReader.Failure {
        case .tooLong: return .unreadable(file, "a line is longer than \(LineReader.lineLimit >> 20) MiB")
        case .unreadable(let code): return .unreadable(file, "cannot be read: \(String(cString: strerror(code)))")
        case nil: return .unreadable(file, "\(error)")
        }
    }

    private struct HeaderLine: Decodable {
        var format: Int
        var line: String
        var id: String
        var startedAt: String
        var reqrunVersion: String
        var workspace: String
        var environment: String?
        var selection: RunSelection
    }

    private struct SummaryLine: Decodable {
        var line: String
        var endedAt: String
        var libcurlVersion: String
        var summary: RunSummary
    }
}
