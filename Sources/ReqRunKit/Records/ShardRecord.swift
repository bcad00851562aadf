/// What a run record says about sharding (`selection.shard` of one part, `selection.merged` of a merge).

/// One part of a sharded selection (`reqrun run --shard K/N`).
public struct ShardRecord: Codable, Sendable, Equatable {
    /// The part, from 1, of `n`.
    public var k: Int
    public var n: Int
    /// `group` or `request` (`ShardSpec.Unit`).
    public var by: String
    /// How many requests the whole selection has (every part).
    public var selected: Int
    /// Each result's position (from 0) in the whole selection, in the order of `results`: `reqrun merge`
    /// puts the results of all parts back in list order with these.
    public var positions: [Int]
    /// The run whose durations balanced the parts (`--shard-timings`), if any.
    public var timings: String?

    public init(k: Int, n: Int, by: String, selected: Int, positions: [Int], timings: String? = nil) {
        self.k = k
        self.n = n
        self.by = by
        self.selected = selected
        self.positions = positions
        self.timings = timings
    }

    func write(_ w: inout JSONWriter) {
        w.object { w in
            w.field("by", by); w.field("k", k); w.field("n", n)
            w.field("positions", positions) { w, position in w.int(position) }
            w.field("selected", selected); w.field("timings", timings)
        }
    }
}

/// The parts a merged run was joined from (`reqrun merge`).
public struct MergedShards: Codable, Sendable, Equatable {
    public var n: Int
    public var by: String
    /// The run id of each part, part 1 first.
    public var runs: [String]

    public init(n: Int, by: String, runs: [String]) {
        self.n = n
        self.by = by
        self.runs = runs
    }

    func write(_ w: inout JSONWriter) {
        w.object { w in
            w.field("by", by); w.field("n", n)
            w.field("runs", runs) { w, id in w.string(id) }
        }
    }
}
