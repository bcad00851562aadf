/// What a report is written from: a record's head and its results in list order, read one at a time and
/// again from a position seen earlier, so that a report needs memory for its counts, not for the run
/// (`RecordReader` for a recorded run, `RunRecord` for one in memory).
public protocol RecordSource {
    /// The record without its results (a `RunRecord` in memory may keep them; reports do not read them there).
    var head: RunRecord { get }
    /// Calls `body` with each result from `start` (a position `body` was given before; nil: the first), and its
    /// position, until `body` returns false or the results end.
    /// - Throws: what reading the record throws (`RunStoreError`), or `body` throws.
    func scan(from start: Int?, _ body: (_ position: Int, _ result: RequestResult) throws -> Bool) throws
}

extension RecordSource {
    /// Every result, in list order.
    func forEach(_ body: (RequestResult) throws -> Void) throws {
        try scan(from: nil) { _, result in try body(result); return true }
    }
}

extension RunRecord: RecordSource {
    public var head: RunRecord { self }

    public func scan(from start: Int?, _ body: (Int, RequestResult) throws -> Bool) throws {
        for index in (start ?? 0)..<results.count where try !body(index, results[index]) { return }
    }
}

extension RecordReader: RecordSource {
    public func scan(from start: Int?, _ body: (Int, RequestResult) throws -> Bool) throws {
        let stream = results(from: start)
        while let result = try stream.nextResult() {
            guard try body(stream.position, result) else { return }
        }
    }
}

/// A report's text on its way to a file or standard output, through a 64 KiB buffer.
public final class ReportOutput {
    private var buffer: [UInt8] = []
    private let sink: (UnsafeRawBufferPointer) -> Void

    public init(_ sink: @escaping (UnsafeRawBufferPointer) -> Void) {
        self.sink = sink
        buffer.reserveCapacity(1 << 16)
    }

    public func write(_ text: String) {
        buffer += text.utf8
        if buffer.count >= 1 << 16 { flush() }
    }

    public func write(bytes: UnsafeRawBufferPointer) {
        buffer += bytes
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Passes on what is buffered.
    public func flush() {
        guard !buffer.isEmpty else { return }
        buffer.withUnsafeBytes(sink)
        buffer.removeAll(keepingCapacity: true)
    }

    /// The text `write` renders into, for one in memory (tests, small runs).
    public static func text(_ write: (ReportOutput) throws -> Void) rethrows -> String {
        var bytes: [UInt8] = []
        let output = ReportOutput { bytes += $0 }
        try write(output)
        output.flush()
        return String(decoding: bytes, as: UTF8.self)
    }
}
