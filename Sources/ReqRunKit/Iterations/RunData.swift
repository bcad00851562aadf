import Foundation

/// What Newman's `-n`, `-d` and `-g` give a run: how many times the selection runs (`--iterations N`), the
/// data row of each iteration (`--iteration-data FILE`) and the globals file (`--globals FILE`).
///
/// Newman's rules (newman `lib/run`, postman-runtime): without `--iterations` a data file gives one
/// iteration per row; with both, an iteration past the last row uses the last row again; an empty data
/// file, or none, gives empty rows.
public struct RunData: Sendable, Equatable {
    /// `--iterations N`, when given.
    public var requestedCount: Int?
    public var data: IterationData?
    /// A Postman globals export (`--globals FILE`): the lowest variable layer, `pm.globals`' starting values.
    public var globals: Environment?

    public init(requestedCount: Int? = nil, data: IterationData? = nil, globals: Environment? = nil) {
        self.requestedCount = requestedCount
        self.data = data
        self.globals = globals
    }

    /// How many times the selection runs (at least 1).
    public var count: Int { max(1, requestedCount ?? data.map { max(1, $0.rows.count) } ?? 1) }

    /// Whether results carry their iteration (`RequestResult.iteration`): with a data file or `--iterations`.
    public var isIterated: Bool { requestedCount != nil || data != nil }

    /// The data row of `iteration` (from 0): its own, else the last one.
    public func row(_ iteration: Int) -> [Variable] {
        guard let rows = data?.rows, !rows.isEmpty else { return [] }
        return rows[min(iteration, rows.count - 1)]
    }

    /// The JSON text of `iteration`'s values that are not strings (`IterationData.jsonValues`), by name.
    public func jsonValues(_ iteration: Int) -> [String: String] {
        guard let data, !data.rows.isEmpty, !data.jsonValues.isEmpty else { return [:] }
        return data.jsonValues[min(iteration, data.jsonValues.count - 1)]
    }

    /// The globals file's values, in file order.
    public var globalValues: VariableList {
        VariableList((globals?.variables ?? []).map { ($0.name, $0.value) })
    }

    /// Adds the globals file's layer (below everything) and the iteration's data layer (just below `--var`:
    /// above the environment and what scripts set in it, as Newman puts data above the environment) to `scope`.
    func apply(to scope: inout VariableScope, iteration: Int) {
        let row = row(iteration)
        if !row.isEmpty, let varLayer = scope.layers.firstIndex(where: { $0.source == "--var" }) {
            scope.layers.insert(VariableLayer(source: "data (iteration \(iteration + 1))",
                                              values: Dictionary(row.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })),
                                at: varLayer)
        }
        if let globals, !globals.variables.isEmpty {
            var layer = globals.layer
            layer.source = "globals '\(globals.name)'"
            scope.layers.insert(layer, at: 0)
        }
    }
}

extension RequestResult {
    /// This result marked as belonging to `iteration` (nil: a run without iterations).
    func inIteration(_ iteration: Int?) -> RequestResult {
        var result = self
        result.iteration = iteration
        return result
    }
}

extension RunData {
    /// Reads `--globals FILE` (relative to `base`): a Postman globals export (`{"values": [{"key", "value",
    /// "type", "enabled"}]}`, `type` `secret` masked) or reqrun's environment format, within
    /// `FileSizeBound.environment`.
    /// - Throws: `InputError` for a file that cannot be read, is too large or cannot be decoded.
    public static func loadGlobals(_ path: String, relativeTo base: URL) throws(InputError) -> Environment {
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        return try Environment.decode(IterationData.readFile(path, relativeTo: base, bound: .environment), name: name, file: path)
    }
}
