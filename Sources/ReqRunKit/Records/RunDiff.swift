import Foundation

/// What changed between two runs, request by request: status, expectation outcome, body hash and time.
///
/// Requests are matched by collection, group path and name (the n-th request with the same key in one run
/// matches the n-th in the other), so a reordered collection still pairs them; in runs with iterations, by
/// iteration too (`label` ends in ` [iteration N]`).
public struct RunDiff: Sendable, Equatable {
    public struct Row: Sendable, Equatable {
        /// `Collection › group › request`.
        public var label: String
        /// Nil when the request is only in the other run.
        public var before: RequestResult?
        public var after: RequestResult?

        /// `200 → 500`, or nil when the same.
        public var statusChange: String? {
            let a = Self.statusText(before), b = Self.statusText(after)
            return a == b ? nil : "\(a) → \(b)"
        }

        /// `passed → failed`, or nil when the same.
        public var outcomeChange: String? {
            let a = Self.verdict(before), b = Self.verdict(after)
            return a == b ? nil : "\(a) → \(b)"
        }

        /// True when both bodies can be compared: both responses recorded their content as text (JSON
        /// included: `encoding` `utf8`). Binary content (images, archives) is not compared: a changed hash
        /// there is mostly noise (timestamps, compression).
        public var bodyCompared: Bool {
            before?.response?.body.encoding == "utf8" && after?.response?.body.encoding == "utf8"
        }

        /// True when both bodies are text (`bodyCompared`) and their SHA-256 differ.
        public var bodyChanged: Bool {
            guard bodyCompared, let a = before?.response?.bodySHA256, let b = after?.response?.bodySHA256 else { return false }
            return a != b
        }

        /// Change of total time in percent (+12.5 is 12.5 % slower), when both got a response (a refused
        /// connection's time is not comparable with a response's).
        public var timeChangePercent: Double? {
            guard before?.outcome == .response, after?.outcome == .response,
                  let a = before?.timings?.total, let b = after?.timings?.total, a > 0 else { return nil }
            return (Double(b) - Double(a)) / Double(a) * 100
        }

        /// `200`, the outcome when there was no response, `(absent)`.
        public static func statusText(_ result: RequestResult?) -> String {
            guard let result else { return "(absent)" }
            if let status = result.response?.status { return String(status) }
            return result.outcome.rawValue
        }

        /// `passed`, `failed`, `error`, `skipped`, `not run` or `(absent)`.
        public static func verdict(_ result: RequestResult?) -> String {
            guard let result else { return "(absent)" }
            switch result.outcome {
            case .response: return result.passed ? "passed" : "failed"
            case .skipped: return "skipped"
            case .notRun: return "not run"
            case .invalid, .transportError, .scriptError: return "error"
            }
        }
    }

    public var before: RunRecord
    public var after: RunRecord
    public var rows: [Row]

    public init(before: RunRecord, after: RunRecord) {
        self.before = before
        self.after = after
        func keyed(_ record: RunRecord) -> [(key: String, result: RequestResult)] {
            var seen: [String: Int] = [:]
            return record.results.map { result in
                // In iterated runs, the same request of the same iteration pairs.
                let base = ([result.collection] + result.groupPath + [result.name]).joined(separator: " › ")
                    + (result.iteration.map { " [iteration \($0 + 1)]" } ?? "")
                seen[base, default: 0] += 1
                return (seen[base]! == 1 ? base : "\(base) (\(seen[base]!))", result)
            }
        }
        let a = keyed(before), b = keyed(after)
        var rows = a.map { pair in Row(label: pair.key, before: pair.result, after: b.first { $0.key == pair.key }?.result) }
        for pair in b where !a.contains(where: { $0.key == pair.key }) {
            rows.append(Row(label: pair.key, before: nil, after: pair.result))
        }
        self.rows = rows
    }
}
