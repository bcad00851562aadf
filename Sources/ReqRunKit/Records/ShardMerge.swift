import Foundation

/// Joins the records of the parts of a sharded run (`reqrun run --shard K/N`, one per CI job) into one run
/// record (`reqrun merge`): `plan` checks the parts from their heads (no result read yet), `join` then takes
/// each result in list order from the part that holds it, one at a time. Each part's results are in list
/// order (`ShardRecord.positions` ascending), so this is a k-way merge by position, and `write` streams it
/// from the parts' files into the merged record: memory for one result and the parts' positions, not the run.
public enum ShardMerge {
    /// One record to merge, with how the user named it (a file or a run id), for messages.
    public struct Part: Sendable {
        public var source: String
        /// The record; its `results` may be empty when they are read from its file (`resultCount`).
        public var record: RunRecord
        /// How many results the record has.
        public var resultCount: Int
        /// False for a record without its summary line (`RecordReader.complete`): its run was cut short, and
        /// `resultCount` is the results present.
        public var complete: Bool

        /// A record held whole.
        public init(source: String, record: RunRecord) {
            self.init(source: source, head: record, resultCount: record.results.count)
        }

        /// A record whose results stay in its file (`RecordReader.head`, its summary's total, or the results
        /// present when `complete` is false).
        public init(source: String, head: RunRecord, resultCount: Int, complete: Bool = true) {
            self.source = source
            self.record = head
            self.resultCount = resultCount
            self.complete = complete
        }
    }

    /// The merged run before its results: what `plan` checked and worked out.
    public struct Plan: Sendable {
        /// The merged record without results: started at the earliest start and ended at the latest end, the
        /// parts' run ids in `selection.merged`.
        public var record: RunRecord
        /// For each position of the whole selection, the index (in the `parts` given to `plan`) of the part
        /// holding it.
        let owners: [Int32]
        let sources: [String]
    }

    /// Checks that `parts` are the parts of one run, from their heads, and orders their results.
    /// - Parameters:
    ///   - id: the merged run's id (`RunID.make`).
    ///   - workspace: the workspace folder it is saved in.
    /// - Throws: `ShardError` when a record is not a part, the parts are not of one selection (N, unit,
    ///   selection, its size, the timings that balanced it) or not of one environment, a part is given twice
    ///   or one is missing, or a part's positions do not match its results, are not in list order, or do
    ///   not cover the selection once.
    public static func plan(_ parts: [Part], id: String, workspace: String) throws(ShardError) -> Plan {
        guard let first = parts.first else { throw ShardError.noRecords }
        var shards: [ShardRecord] = []
        for part in parts {
            guard let shard = part.record.selection.shard else {
                throw ShardError.notAShard(part.source, merged: part.record.selection.merged != nil)
            }
            shards.append(shard)
        }
        let reference = shards[0]
        for (part, shard) in zip(parts, shards) {
            // A record written by hand or damaged: refused before `n` or `selected` size anything.
            guard shard.n >= 1, shard.k >= 1, shard.k <= shard.n, shard.selected >= 0 else {
                throw ShardError.inconsistent(part.source, "its shard \(shard.k)/\(shard.n) of a selection of \(shard.selected) requests is not a part (1 ≤ K ≤ N, a selection of 0 or more)")
            }
        }
        for (part, shard) in zip(parts, shards) {
            let differs = [
                shard.n != reference.n ? "shard \(shard.k)/\(shard.n) against \(reference.k)/\(reference.n)" : nil,
                shard.by != reference.by ? "split by \(shard.by) against by \(reference.by)" : nil,
                shard.selected != reference.selected ? "a selection of \(shard.selected) requests against \(reference.selected)" : nil,
                shard.timings != reference.timings ? "balanced by \(shard.timings ?? "request counts") against \(reference.timings ?? "request counts")" : nil,
                !sameSelection(part.record.selection, first.record.selection) ? "another selection (\(describe(part.record.selection)) against \(describe(first.record.selection)))" : nil,
                // Shards run against different servers or credentials are not one run (issue 17).
                part.record.environment != first.record.environment
                    ? "recorded with \(environment(part.record)) against \(environment(first.record))" : nil,
            ].compactMap { $0 }
            if let difference = differs.first {
                throw ShardError.mismatch(part.source, first.source, difference)
            }
            if let outside = shard.positions.first(where: { $0 < 0 || $0 >= shard.selected }) {
                throw ShardError.inconsistent(part.source, "its shard holds position \(outside), outside its selection of \(shard.selected) requests")
            }
            guard shard.positions.count == part.resultCount else {
                // A part killed before its end has no summary line: say so, since running it again is the fix.
                if !part.complete {
                    throw ShardError.inconsistent(part.source, "it has no summary line (its run was cut short) and holds \(part.resultCount) of the \(shard.positions.count) results of its shard \(shard.k)/\(shard.n); run that shard again")
                }
                throw ShardError.inconsistent(part.source, "its summary counts \(part.resultCount) results against the \(shard.positions.count) positions of its shard")
            }
        }
        let byK = Dictionary(grouping: parts.indices, by: { shards[$0].k })
        if let (k, twice) = byK.sorted(by: { $0.key < $1.key }).first(where: { $0.value.count > 1 }) {
            throw ShardError.duplicate(k: k, n: reference.n, twice.map { parts[$0].source })
        }
        // Every K is in 1...n and none twice, so n - byK.count are missing; the first few of them are among
        // the first byK.count + 10 numbers, whatever n a header claims.
        if byK.count < reference.n {
            let missing = (1...reference.n).lazy.filter { byK[$0] == nil }.prefix(ShardError.missingListed)
            throw ShardError.missing(Array(missing), count: reference.n - byK.count, n: reference.n)
        }
        // Each position is held once, so the parts' positions add up to the selection: checked before
        // `selected` sizes the table of owners.
        let held = shards.reduce(0) { $0 + $1.positions.count }
        guard held == reference.selected else {
            throw ShardError.inconsistent(first.source, "the shards hold \(held) results of a selection of \(reference.selected) requests")
        }
        var owners = [Int32](repeating: -1, count: reference.selected)
        for (i, (part, shard)) in zip(parts, shards).enumerated() {
            var previous = -1
            for position in shard.positions {
                guard owners[position] < 0 else {
                    throw ShardError.inconsistent(part.source, "request \(position + 1) of the selection is in another shard too")
                }
                // reqrun writes them ascending (`ShardOptions`); a merge by position needs it.
                guard position > previous else {
                    throw ShardError.inconsistent(part.source, "its results are not in list order (request \(position + 1) after request \(previous + 1))")
                }
                owners[position] = Int32(i)
                previous = position
            }
        }
        if let unheld = owners.firstIndex(where: { $0 < 0 }) {
            throw ShardError.inconsistent(first.source, "no shard holds request \(unheld + 1) of the selection")
        }
        var selection = first.record.selection
        selection.shard = nil
        selection.merged = MergedShards(n: reference.n, by: reference.by, runs: (1...reference.n).map { parts[byK[$0]![0]].record.id })
        let records = parts.map(\.record)
        let record = RunRecord(id: id, startedAt: records.map(\.startedAt).min()!, endedAt: records.map(\.endedAt).max()!,
                               reqrunVersion: reqrunVersion, libcurlVersion: records.map(\.libcurlVersion).first { !$0.isEmpty } ?? "",
                               workspace: workspace, environment: first.record.environment, selection: selection, results: [])
        return Plan(record: record, owners: owners, sources: parts.map(\.source))
    }

    /// Gives `body` every result of the merged run in list order, each taken with `next(i)`, the next result
    /// of part `i` (nil after its last). Each result keeps its `startOffset` from the start of its own part.
    /// - Throws: what `next` or `body` throw; `ShardError.inconsistent` when a part has fewer or more results
    ///   than its head said.
    public static func join(_ plan: Plan, next: (Int) throws -> RequestResult?, _ body: (RequestResult) throws -> Void) throws {
        for owner in plan.owners {
            guard let result = try next(Int(owner)) else {
                throw ShardError.inconsistent(plan.sources[Int(owner)], "it has fewer results than the positions of its shard")
            }
            try body(result)
        }
        for i in plan.sources.indices where try next(i) != nil {
            throw ShardError.inconsistent(plan.sources[i], "it has more results than the positions of its shard")
        }
    }

    /// The merged run, held whole: `plan` and `join` over records held whole.
    /// - Throws: `ShardError` as `plan` and `join`.
    public static func merge(_ parts: [Part], id: String, workspace: String) throws(ShardError) -> RunRecord {
        let plan = try plan(parts, id: id, workspace: workspace)
        var record = plan.record
        var cursors = parts.map { $0.record.results.makeIterator() }
        do {
            try join(plan, next: { cursors[$0].next() }) { record.results.append($0) }
        } catch {
            throw error as! ShardError  // `next` and the body do not throw
        }
        record.summary = RunSummary(record.results)
        return record
    }

    /// Writes the merged run to `store` as a format 2 record (`RecordWriter`), reading each part's results
    /// from `readers` (in `plan`'s order of parts) one at a time. A merge that fails half-way leaves no file.
    /// - Returns: the merged record's head (its summary counted) and its file.
    /// - Throws: `ShardError` as `join`, `RunStoreError` for a result line that cannot be read, `FileError`
    ///   when the record cannot be written.
    public static func write(_ plan: Plan, from readers: [RecordReader], to store: RunStore) throws -> (record: RunRecord, file: URL) {
        let streams = readers.map { $0.results() }
        let writer = try RecordWriter(store: store, header: plan.record)
        do {
            try join(plan, next: { try streams[$0].nextResult() }) { result in
                writer.append(result, encoded: RecordLines.result(result), maskedWith: [])
            }
            let file = try writer.finish(endedAt: plan.record.endedAt, libcurlVersion: plan.record.libcurlVersion, lateSecrets: [], showSecrets: false)
            var record = plan.record
            record.summary = writer.summary
            return (record, file)
        } catch {
            writer.discard()
            throw error
        }
    }

    private static func sameSelection(_ a: RunSelection, _ b: RunSelection) -> Bool {
        a.mode == b.mode && a.groups == b.groups && a.named == b.named && a.overriddenVariables == b.overriddenVariables
    }

    /// `environment 'staging'`, or `no environment`.
    private static func environment(_ record: RunRecord) -> String {
        record.environment.map { "environment '\($0)'" } ?? "no environment"
    }

    private static func describe(_ selection: RunSelection) -> String {
        ([selection.mode] + (selection.named ?? selection.groups.map(\.path))).joined(separator: " ")
    }
}

/// Why `--shard` or `reqrun merge` refused (exit code 2, bad input).
public enum ShardError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A request uses a value captured by a request in another part (both as `#index path`).
    case crossingCapture(dependent: String, dependentPart: Int, capturer: String, capturerPart: Int, n: Int, by: ShardSpec.Unit)
    case noRecords
    /// The record (source) is not one part of a sharded run; `merged`: it is a merged run.
    case notAShard(String, merged: Bool)
    /// Two records are not parts of one selection: (source, source of the first, how).
    case mismatch(String, String, String)
    case duplicate(k: Int, n: Int, [String])
    /// Shards not given: the first of them (at most `missingListed`), how many in all, N.
    case missing([Int], count: Int, n: Int)
    case inconsistent(String, String)

    /// How many missing shards a `missing` message names.
    public static let missingListed = 10

    public var description: String {
        switch self {
        case .crossingCapture(let dependent, let dependentPart, let capturer, let capturerPart, let n, let by):
            let hint = by == .request ? "split by group (--shard-by group) or keep them in one group"
                                      : "keep them in one top-level group"
            return "request \(dependent) (shard \(dependentPart)/\(n)) uses a value captured by request \(capturer) (shard \(capturerPart)/\(n)): shards do not share captures; \(hint)"
        case .noRecords: return "give the records of the shards to merge (files or run ids)"
        case .notAShard(let source, let merged):
            return "\(source) is \(merged ? "a merged run" : "not a shard (it was not run with --shard K/N)"): merge joins the records of 'reqrun run --shard K/N'"
        case .mismatch(let source, let other, let how):
            return "\(source) and \(other) are not shards of one selection: \(how)"
        case .duplicate(let k, let n, let sources):
            return "shard \(k)/\(n) is given \(sources.count) times: \(sources.joined(separator: ", "))"
        case .missing(let ks, let count, let n):
            let listed = ks.map(String.init).joined(separator: ", ") + (count > ks.count ? ", … (\(count) in all)" : "")
            return "shard\(count == 1 ? "" : "s") \(listed) of \(n) \(count == 1 ? "is" : "are") missing"
        case .inconsistent(let source, let reason): return "\(source): \(reason)"
        }
    }
}
