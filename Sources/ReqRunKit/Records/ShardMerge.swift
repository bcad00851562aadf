/// Joins the records of the parts of a sharded run (`reqrun run --shard K/N`, one per CI job) into one run
/// record (`reqrun merge`). Pure: the caller reads and saves the records.
public enum ShardMerge {
    /// One record to merge, with how the user named it (a file or a run id), for messages.
    public struct Part: Sendable {
        public var source: String
        public var record: RunRecord

        public init(source: String, record: RunRecord) {
            self.source = source
            self.record = record
        }
    }

    /// The merged run: every part's results in list order (by `ShardRecord.positions`), counts summed
    /// (`RunSummary` of the whole), started at the earliest start and ended at the latest end, the parts'
    /// run ids in `selection.merged`. Each result keeps its `startOffset` from the start of its own part.
    /// - Parameters:
    ///   - id: the merged run's id (`RunID.make`).
    ///   - workspace: the workspace folder it is saved in.
    /// - Throws: `ShardError` when a record is not a part, the parts are not of one selection (N, unit,
    ///   selection, its size, the timings that balanced it) or not of one environment, a part is given twice
    ///   or one is missing.
    public static func merge(_ parts: [Part], id: String, workspace: String) throws(ShardError) -> RunRecord {
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
            guard shard.positions.count == part.record.results.count, shard.positions.allSatisfy({ $0 >= 0 && $0 < shard.selected }) else {
                throw ShardError.inconsistent(part.source, "its \(part.record.results.count) results do not match the \(shard.positions.count) positions of its shard")
            }
        }
        let byK = Dictionary(grouping: parts.indices, by: { shards[$0].k })
        if let (k, twice) = byK.sorted(by: { $0.key < $1.key }).first(where: { $0.value.count > 1 }) {
            throw ShardError.duplicate(k: k, n: reference.n, twice.map { parts[$0].source })
        }
        let missing = (1...reference.n).filter { byK[$0] == nil }
        guard missing.isEmpty else { throw ShardError.missing(missing, n: reference.n) }
        var slots: [RequestResult?] = Array(repeating: nil, count: reference.selected)
        for (part, shard) in zip(parts, shards) {
            for (position, result) in zip(shard.positions, part.record.results) {
                guard slots[position] == nil else {
                    throw ShardError.inconsistent(part.source, "request \(position + 1) of the selection is in another shard too")
                }
                slots[position] = result
            }
        }
        if let unheld = slots.firstIndex(where: { $0 == nil }) {
            throw ShardError.inconsistent(first.source, "no shard holds request \(unheld + 1) of the selection")
        }
        var selection = first.record.selection
        selection.shard = nil
        selection.merged = MergedShards(n: reference.n, by: reference.by, runs: (1...reference.n).map { parts[byK[$0]![0]].record.id })
        let records = parts.map(\.record)
        return RunRecord(id: id, startedAt: records.map(\.startedAt).min()!, endedAt: records.map(\.endedAt).max()!,
                         reqrunVersion: reqrunVersion, libcurlVersion: records.map(\.libcurlVersion).first { !$0.isEmpty } ?? "",
                         workspace: workspace, environment: first.record.environment, selection: selection,
                         results: slots.map { $0! })
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
    case missing([Int], n: Int)
    case inconsistent(String, String)

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
        case .missing(let ks, let n):
            return "shard\(ks.count == 1 ? "" : "s") \(ks.map(String.init).joined(separator: ", ")) of \(n) \(ks.count == 1 ? "is" : "are") missing"
        case .inconsistent(let source, let reason): return "\(source): \(reason)"
        }
    }
}
