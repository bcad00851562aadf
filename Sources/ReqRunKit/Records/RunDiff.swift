import Foundation

/// What changed between two runs, request by request: status, expectation outcome, each Postman script
/// assertion, body hash and time.
///
/// Requests are matched by collection, group path and name (the n-th request with the same key in one run
/// matches the n-th in the other), so a reordered collection still pairs them; in runs with iterations, by
/// iteration too (`label` ends in ` [iteration N]`). Script assertions (`pm.test`) are matched by name within
/// a request the same way (issue 11: a test that turned red is named, not only its request).
///
/// Each side keeps only what is compared (`Side`: about 500 bytes a result with the row key and the
/// dictionaries, measured on two 1,000,000-result runs: 1.05 GB), read one result at a
/// time: two 100,000-request runs are compared without loading either record whole, with one dictionary
/// lookup per request.
public struct RunDiff: Sendable, Equatable {
    /// What a diff compares of one result.
    public struct Side: Sendable, Equatable {
        /// `200`, or the outcome when there was no response (`transportError`…).
        public var status: String
        /// `passed`, `failed`, `error`, `skipped` or `not run`.
        public var verdict: String
        /// The body's SHA-256, when it was recorded as text (`utf8`): only text bodies are compared.
        public var textBodySHA256: String?
        /// Total time in microseconds, when a response came (a refused connection's few microseconds are no
        /// time to compare with a response's).
        public var total: Int?
        /// Each script assertion: its name (the n-th of a name suffixed ` (n)`) and whether it passed.
        public var assertions: [Assertion]

        public struct Assertion: Sendable, Equatable {
            public var name: String
            /// `passed`, `failed` or `skipped`.
            public var outcome: String
        }

        public init(_ result: RequestResult) {
            self.init(DiffLine(result))
        }

        init(_ line: DiffLine) {
            status = line.response.map { String($0.status) } ?? line.outcome.rawValue
            verdict = Row.verdict(outcome: line.outcome, passed: line.passed)
            textBodySHA256 = line.response.flatMap { $0.body.encoding == "utf8" ? $0.bodySHA256 : nil }
            total = line.outcome == .response ? line.timings?.total : nil
            var seen: [String: Int] = [:]
            assertions = line.expectations.filter { $0.kind == ExpectationResult.scriptKind || $0.kind == ExpectationResult.skippedScriptKind }.map { e in
                seen[e.description, default: 0] += 1
                let n = seen[e.description]!
                return Assertion(name: n == 1 ? e.description : "\(e.description) (\(n))",
                                 outcome: e.kind == ExpectationResult.skippedScriptKind ? "skipped" : e.passed ? "passed" : "failed")
            }
        }
    }

    /// The fields of a result line a diff reads: building only these is faster than a whole `RequestResult`.
    /// The request's place is kept as the bytes of its row key, not as strings (`RowKey`).
    struct DiffLine: RecordDecodable {
        /// `Collection › group › name`, then ` [iteration N]` in iterated runs, as UTF-8.
        var key: [UInt8]
        /// Whether a part of `key` may hold a character that is not ASCII (then it is normalised to be compared).
        var nonASCII: Bool
        var outcome: RequestResult.Outcome
        var passed: Bool
        var response: Response?
        var timings: Total?
        var expectations: [Expectation]

        struct Response {
            var status: Int
            var bodySHA256: String
            var body: Body
            struct Body { var encoding: String }
        }
        struct Total { var total: Int }
        struct Expectation {
            var description: String
            var passed: Bool
            var kind: String?
        }

        /// ` › `, between the parts of a key.
        static let separator: [UInt8] = Array(" › ".utf8)

        init(record f: inout RecordFields) throws(RecordFields.Failure) {
            typealias F = RecordFields
            key = []
            key.reserveCapacity(96)
            nonASCII = try f.appendString("collection", to: &key)
            if try f.appendStrings("groupPath", separatedBy: Self.separator, to: &key) { nonASCII = true }
            key += Self.separator
            if try f.appendString("name", to: &key) { nonASCII = true }
            if let iteration = try f.optionalInt("iteration") { Self.appendIteration(iteration, to: &key) }
            let outcomeText = try f.string("outcome")
            guard let outcome = RequestResult.Outcome(rawValue: outcomeText) else { throw F.Failure(reason: "outcome: '\(outcomeText)' is not an outcome") }
            self.outcome = outcome
            passed = try f.bool("passed")
            response = try f.optionalObject("response") { (r: inout F) throws(F.Failure) in
                Response(status: try r.int("status"), bodySHA256: try r.string("bodySHA256"),
                         body: .init(encoding: try r.object("body") { (b: inout F) throws(F.Failure) in try b.string("encoding") }))
            }
            timings = try f.optionalObject("timings") { (t: inout F) throws(F.Failure) in Total(total: try t.int("total")) }
            expectations = try f.objects("expectations") { (e: inout F) throws(F.Failure) in
                Expectation(description: try e.string("description"), passed: try e.bool("passed"), kind: try e.optionalString("kind"))
            }
        }

        init(_ r: RequestResult) {
            key = Array(r.collection.utf8)
            nonASCII = !r.collection.utf8.allSatisfy { $0 < 0x80 }
            for part in r.groupPath + [r.name] {
                key += Self.separator
                key += part.utf8
                if !part.utf8.allSatisfy({ $0 < 0x80 }) { nonASCII = true }
            }
            if let iteration = r.iteration { Self.appendIteration(iteration, to: &key) }
            (outcome, passed) = (r.outcome, r.passed)
            response = r.response.map { Response(status: $0.status, bodySHA256: $0.bodySHA256, body: .init(encoding: $0.body.encoding)) }
            timings = r.timings.map { Total(total: $0.total) }
            expectations = r.expectations.map { Expectation(description: $0.description, passed: $0.passed, kind: $0.kind) }
        }

        /// ` [iteration N]`, N counted from 1.
        private static func appendIteration(_ iteration: Int, to key: inout [UInt8]) {
            key += " [iteration ".utf8
            key += String(iteration + 1).utf8
            key.append(UInt8(ascii: "]"))
        }
    }

    /// A row key as it is compared: UTF-8 bytes, hashed and compared as bytes (`String`'s hashing and `==` go
    /// through Unicode normalisation for any key that is not ASCII, and each key holds ` › `). A key whose
    /// parts are all ASCII is its own normal form; any other is put in Unicode Normalization Form C first
    /// (Foundation's `precomposedStringWithCanonicalMapping`), so that canonically equivalent keys (`café`
    /// typed precomposed or with a combining accent, `K` and the Kelvin sign) are equal, as `String ==` has
    /// them (it compares canonical equivalence). Compatibility equivalents (`ﬁ` and `fi`) stay apart.
    struct RowKey: Hashable, Sendable {
        var bytes: [UInt8]

        /// `label`'s key: its bytes, or those of its NFC form when `nonASCII`.
        init(_ label: [UInt8], nonASCII: Bool) {
            bytes = nonASCII ? Array(String(decoding: label, as: UTF8.self).precomposedStringWithCanonicalMapping.utf8) : label
        }

        static func == (a: RowKey, b: RowKey) -> Bool {
            a.bytes.count == b.bytes.count && a.bytes.withUnsafeBytes { x in
                b.bytes.withUnsafeBytes { y in x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 }
            }
        }

        func hash(into hasher: inout Hasher) {
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }

    public struct Row: Sendable, Equatable {
        /// `Collection › group › request`.
        public var label: String
        /// Nil when the request is only in the other run.
        public var before: Side?
        public var after: Side?

        /// `200 → 500`, or nil when the same.
        public var statusChange: String? {
            let a = before?.status ?? "(absent)", b = after?.status ?? "(absent)"
            return a == b ? nil : "\(a) → \(b)"
        }

        /// `passed → failed`, or nil when the same.
        public var outcomeChange: String? {
            let a = before?.verdict ?? "(absent)", b = after?.verdict ?? "(absent)"
            return a == b ? nil : "\(a) → \(b)"
        }

        /// The script assertions whose outcome changed, in the later run's order then the earlier's:
        /// `'status is 200' passed → failed`, `(absent)` for one only in one run. Empty when the request is
        /// only in one run.
        public var assertionChanges: [String] {
            guard let before, let after else { return [] }
            var changes: [String] = []
            let old = Dictionary(before.assertions.map { ($0.name, $0.outcome) }, uniquingKeysWith: { a, _ in a })
            let new = Set(after.assertions.map(\.name))
            for assertion in after.assertions where old[assertion.name] != assertion.outcome {
                changes.append("'\(assertion.name)' \(old[assertion.name] ?? "(absent)") → \(assertion.outcome)")
            }
            for assertion in before.assertions where !new.contains(assertion.name) {
                changes.append("'\(assertion.name)' \(assertion.outcome) → (absent)")
            }
            return changes
        }

        /// True when both bodies can be compared: both responses recorded their content as text (JSON
        /// included: `encoding` `utf8`). Binary content (images, archives) is not compared: a changed hash
        /// there is mostly noise (timestamps, compression).
        public var bodyCompared: Bool { before?.textBodySHA256 != nil && after?.textBodySHA256 != nil }

        /// True when both bodies are text (`bodyCompared`) and their SHA-256 differ.
        public var bodyChanged: Bool { bodyCompared && before?.textBodySHA256 != after?.textBodySHA256 }

        /// Change of total time in percent (+12.5 is 12.5 % slower), when both got a response (a refused
        /// connection's time is not comparable with a response's).
        public var timeChangePercent: Double? {
            guard let a = before?.total, let b = after?.total, a > 0 else { return nil }
            return (Double(b) - Double(a)) / Double(a) * 100
        }

        /// `passed`, `failed`, `error`, `skipped`, `not run` or `(absent)`.
        public static func verdict(_ result: RequestResult?) -> String {
            guard let result else { return "(absent)" }
            return verdict(outcome: result.outcome, passed: result.passed)
        }

        static func verdict(outcome: RequestResult.Outcome, passed: Bool) -> String {
            switch outcome {
            case .response: return passed ? "passed" : "failed"
            case .skipped: return "skipped"
            case .notRun: return "not run"
            case .invalid, .transportError, .scriptError: return "error"
            }
        }
    }

    /// The two records' heads (their `results` are not kept).
    public var before: RunRecord
    public var after: RunRecord
    public var rows: [Row]

    public init(before: RunRecord, after: RunRecord) {
        var a = before, b = after
        (a.results, b.results) = ([], [])
        self.init(before: a, beforeResults: before.results, after: b, afterResults: after.results)
    }

    /// Compares two records read one result at a time, each on a thread of its own (checking each line's
    /// JSON is most of a diff: the two records take the time of one on two cores).
    /// - Throws: `RunStoreError` when a record cannot be read (the earlier record's error first).
    public init(before: RecordReader, after: RecordReader) throws {
        self.before = before.head
        self.after = after.head
        rows = []
        let readers = Readers(pair: (before, after))
        let sides = ConcurrentResults<Result<[Keyed], any Error>>(count: 2)
        DispatchQueue.concurrentPerform(iterations: 2) { part in
            sides.set(part, Result { try Self.keyed(Self.lines(part == 0 ? readers.pair.0 : readers.pair.1)) })
        }
        join(try sides.get(0).get(), try sides.get(1).get())
    }

    /// The two readers, each used by one thread only.
    private final class Readers: @unchecked Sendable {
        let pair: (RecordReader, RecordReader)
        init(pair: (RecordReader, RecordReader)) { self.pair = pair }
    }

    /// One result of one run: its row's label and key (UTF-8) and what is compared.
    private struct Keyed: Sendable {
        var label: [UInt8]
        var key: RowKey
        var side: Side
    }

    /// A record's results as `DiffLine`s, one at a time.
    private static func lines(_ reader: RecordReader) -> () throws -> DiffLine? {
        let stream = reader.results()
        if reader.format == 1 { return { try stream.nextResult().map(DiffLine.init) } }
        return { try stream.nextLine(as: DiffLine.self) }
    }

    init(before: RunRecord, beforeResults: some Sequence<RequestResult>, after: RunRecord, afterResults: some Sequence<RequestResult>) {
        self.before = before
        self.after = after
        rows = []
        var a = beforeResults.makeIterator(), b = afterResults.makeIterator()
        join(Self.keyed { a.next().map(DiffLine.init) }, Self.keyed { b.next().map(DiffLine.init) })
    }

    /// One run's results with their row keys, in list order.
    private static func keyed(_ next: () throws -> DiffLine?) rethrows -> [Keyed] {
        var seen: [RowKey: Int] = [:]
        var out: [Keyed] = []
        while let result = try next() { out.append(keyed(result, &seen)) }
        return out
    }

    /// The rows: the earlier run's results in its order, each paired with the later result of the same key,
    /// then the later run's results that have none.
    private mutating func join(_ before: [Keyed], _ after: [Keyed]) {
        var rowOf: [RowKey: Int] = Dictionary(minimumCapacity: before.count)
        rows.reserveCapacity(before.count)
        for result in before {
            rowOf[result.key] = rows.count
            rows.append(Row(label: String(decoding: result.label, as: UTF8.self), before: result.side, after: nil))
        }
        for result in after {
            if let row = rowOf[result.key] {
                rows[row].after = result.side
            } else {
                rows.append(Row(label: String(decoding: result.label, as: UTF8.self), before: nil, after: result.side))
            }
        }
    }

    /// The result with its label and key: `Collection › group › name`, ` [iteration N]` in iterated runs,
    /// ` (n)` for the n-th with that key (counted by `RowKey`, so canonically equivalent keys count together).
    private static func keyed(_ result: DiffLine, _ seen: inout [RowKey: Int]) -> Keyed {
        var key = RowKey(result.key, nonASCII: result.nonASCII)
        let n = increment(&seen[key, default: 0])  // one lookup
        guard n != 1 else { return Keyed(label: result.key, key: key, side: Side(result)) }
        let suffix = Array(" (\(n))".utf8)
        key.bytes += suffix
        return Keyed(label: result.key + suffix, key: key, side: Side(result))
    }

    private static func increment(_ count: inout Int) -> Int {
        count += 1
        return count
    }
}
