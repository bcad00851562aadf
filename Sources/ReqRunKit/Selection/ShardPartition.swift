import Foundation

/// Which part of a selection one CI job runs: `--shard K/N` (1 ≤ K ≤ N), whole groups or single requests.
public struct ShardSpec: Sendable, Equatable {
    /// What is kept together in one part.
    public enum Unit: String, Sendable, CaseIterable {
        /// A top-level group of a collection with everything in and below it (its captures and cookies stay in
        /// one job): the default.
        case group
        /// Each request on its own, for independent requests.
        case request
    }

    /// The part, from 1.
    public var k: Int
    /// How many parts.
    public var n: Int
    public var by: Unit

    public init(k: Int, n: Int, by: Unit = .group) {
        self.k = k
        self.n = n
        self.by = by
    }

    /// Reads `K/N` (`3/4`); nil unless both are whole numbers with 1 ≤ K ≤ N.
    public static func parse(_ text: String, by: Unit = .group) -> ShardSpec? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let k = Int(parts[0]), let n = Int(parts[1]), k >= 1, k <= n else { return nil }
        return ShardSpec(k: k, n: n, by: by)
    }

    /// The part from GitLab CI's `CI_NODE_INDEX` (from 1) and `CI_NODE_TOTAL` (`parallel: N`), for `--shard auto`.
    /// - Returns: nil when either is missing or they are not 1 ≤ index ≤ total.
    public static func fromCI(_ environment: [String: String], by: Unit = .group) -> ShardSpec? {
        guard let index = environment["CI_NODE_INDEX"], let total = environment["CI_NODE_TOTAL"] else { return nil }
        return parse("\(index)/\(total)", by: by)
    }
}

/// Splits a selection into `N` disjoint parts, pure (no I/O).
///
/// - Units: with `by: .group` the requests of one top-level group of a collection (in and below it) form one
///   unit; with `by: .request` each request does.
/// - Balance: each unit weighs its request count, or with `durations` its measured time; the units go, heaviest
///   first, each to the lightest part so far (greedy longest-processing-time-first, Graham 1969: at most 4/3 of
///   the best split). Ties go to the earlier unit and the lower part, so the same selection (and the same
///   durations) always gives the same parts: every job of a CI pipeline computes the same split on its own.
/// - A part runs its requests in list order.
public enum ShardPartition {
    /// One request whose capture dependency would cross parts.
    public struct CrossingCapture: Error, Sendable, Equatable {
        /// Positions in the selection and the parts (from 1) of the request that uses the value and of the
        /// request that captures it.
        public var dependent: Int, dependentPart: Int
        public var capturer: Int, capturerPart: Int
    }

    /// The part (from 0) of each position of `references`.
    /// - Parameter durations: measured time of each request (any unit), nil where unknown (those weigh the
    ///   mean of the known ones, or 1 when none is known); nil: every request weighs 1.
    /// - Throws: `CrossingCapture` for the first request (in list order) that uses a variable captured by a
    ///   request in another part (`Runner.dependencies` without its cookie and script rules), so every job
    ///   refuses the same split before anything is sent.
    public static func parts(_ references: [RequestReference], n: Int, by unit: ShardSpec.Unit, durations: [Double?]? = nil,
                             configuration: RunConfiguration) throws(CrossingCapture) -> [Int] {
        let units = self.units(references, by: unit)
        let weights = requestWeights(count: references.count, durations: durations)
        let unitParts = assign(units.map { $0.reduce(0) { $0 + weights[$1] } }, n: n)
        var parts = Array(repeating: 0, count: references.count)
        for (unit, part) in zip(units, unitParts) { for position in unit { parts[position] = part } }
        let dependencies = Runner.dependencies(references, configuration, runAlone: false)
        for (position, waitsFor) in dependencies.enumerated() {
            if let other = waitsFor.sorted().first(where: { parts[$0] != parts[position] }) {
                throw CrossingCapture(dependent: position, dependentPart: parts[position] + 1, capturer: other, capturerPart: parts[other] + 1)
            }
        }
        return parts
    }

    /// The positions of `references` grouped into units, units in order of their first request.
    static func units(_ references: [RequestReference], by unit: ShardSpec.Unit) -> [[Int]] {
        guard unit == .group else { return references.indices.map { [$0] } }
        var order: [[Int]] = []
        var byKey: [String: Int] = [:]
        for (position, reference) in references.enumerated() {
            // A top-level group's id is unique in the workspace; the collection keeps two copies of one file apart.
            let key = "\(reference.collectionIndex)/\(reference.groups.first!.id.uuidString)"
            if let existing = byKey[key] {
                order[existing].append(position)
            } else {
                byKey[key] = order.count
                order.append([position])
            }
        }
        return order
    }

    static func requestWeights(count: Int, durations: [Double?]?) -> [Double] {
        guard let durations else { return Array(repeating: 1, count: count) }
        let known = durations.compactMap { $0 }
        let fallback = known.isEmpty ? 1 : known.reduce(0, +) / Double(known.count)
        return (0..<count).map { durations[$0] ?? fallback }
    }

    /// Greedy longest-first: the part (from 0) of each unit of `weights`.
    ///
    /// Only the first `min(n, weights.count)` parts can receive a unit (each unit goes to the lowest part of
    /// the least weight, and an empty one is always among those while a unit is left), so only their loads
    /// are kept: `--shard 1/1000000000` costs what `1/300` does, not 8 GB and a scan of every part per unit.
    static func assign(_ weights: [Double], n: Int) -> [Int] {
        let order = weights.indices.sorted { weights[$0] != weights[$1] ? weights[$0] > weights[$1] : $0 < $1 }
        var loads = Array(repeating: 0.0, count: max(1, min(n, weights.count)))
        var result = Array(repeating: 0, count: weights.count)
        for unit in order {
            let lightest = loads.indices.min { loads[$0] != loads[$1] ? loads[$0] < loads[$1] : $0 < $1 }!
            result[unit] = lightest
            loads[lightest] += weights[unit]
        }
        return result
    }

    /// Each reference's measured duration in `record` (microseconds, `timings.total` summed over its
    /// results, a request run more than once counted once per run), matched by its group id and name (the
    /// n-th request of a name in a group to the n-th result of it), nil where the record has none.
    public static func durations(of references: [RequestReference], in record: RunRecord) -> [Double?] {
        durations(of: references, results: record.results)
    }

    /// `durations(of:in:)` over results read one at a time (`RecordReader.results()`): only the durations are kept.
    public static func durations(of references: [RequestReference], results: some Sequence<RequestResult>) -> [Double?] {
        var measured: [String: [Double]] = [:]
        for result in results {
            let key = result.groupID + "\u{0}" + result.name
            measured[key, default: []].append(Double(result.timings?.total ?? 0))
        }
        var seen: [String: Int] = [:]
        return references.map { reference in
            let key = reference.groups.last!.id.lowercasedText + "\u{0}" + reference.request.name
            let occurrence = seen[key, default: 0]
            seen[key] = occurrence + 1
            guard let values = measured[key], occurrence < values.count else { return nil }
            return values[occurrence]
        }
    }
}
