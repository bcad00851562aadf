import Foundation

/// One value a run captured, as the run had it (not masked), for `CaptureStore`.
public struct CapturedValue: Codable, Sendable, Equatable {
    public var variable: String
    public var value: String
    /// The run that captured it, and the name of the request whose capture it was (the last one).
    public var run: String
    public var request: String
    /// Whether it is a secret: captured from a cookie, sent as a credential, or masked in the record for
    /// holding one. Output masks it wherever it is used later.
    public var secret: Bool

    /// Where the value comes from, as `send` and the UI announce it: `token from run 20261201-… (captured by 'login')`
    /// (not escaped for a terminal).
    public var origin: String { "\(variable) from run \(run) (captured by '\(request)')" }

    public init(variable: String, value: String, run: String, request: String, secret: Bool) {
        self.variable = variable
        self.value = value
        self.run = run
        self.request = request
        self.secret = secret
    }
}

/// `.reqrun/captures.json` (mode 0600, in the private `.reqrun` folder, like the run records): the newest
/// value each variable was captured with, by any recorded run, kept as captured, secrets included, so
/// that `reqrun send` and `--dry-run` can use them (`EarlierCaptures`). The records cannot serve: they mask
/// a token wherever the run sent it as a credential.
///
/// Written after each run's record (atomically, never through a symbolic link: `PrivateDirectory`); two
/// runs that end together keep the values of the later write. A missing, oversized or unreadable file is
/// an empty store (it only ever costs the carry-over) and is replaced at the next write.
public struct CaptureStore: Sendable {
    /// The workspace's `.reqrun` folder.
    public let directory: URL
    static let fileName = "captures.json"

    public init(directory: URL) { self.directory = directory }

    private struct File: Codable {
        var format = 1
        var values: [String: CapturedValue]
    }

    /// The stored values by variable name; empty when there are none or the file cannot be read.
    public func load() -> [String: CapturedValue] {
        guard let folder = try? PrivateDirectory.open(directory, ownComponents: 1, create: false),
              folder.size(Self.fileName).map({ FileSizeBound.state.refusal(size: $0) == nil }) ?? false,
              let bytes = try? folder.read(Self.fileName),
              let file = try? JSONDecoder().decode(File.self, from: Data(bytes)), file.format == 1 else { return [:] }
        return file.values
    }

    /// Stores `values` over the ones of the same names. Nothing to store writes nothing.
    /// - Throws: `FileError` when the folder or the file cannot be written (or is a symbolic link).
    public func remember(_ values: [CapturedValue]) throws(FileError) {
        guard !values.isEmpty else { return }
        var all = load()
        for value in values { all[value.variable] = value }
        guard let folder = try PrivateDirectory.open(directory, ownComponents: 1, create: true) else {
            throw FileError(path: directory.path, operation: "create the folder", errno: ENOENT)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let bytes = [UInt8]((try? encoder.encode(File(values: all))) ?? Data())
        try folder.write(Self.fileName, mode: 0o600) { output in bytes.withUnsafeBytes { output.write($0) } }
    }
}

extension CompletedRun {
    /// Each variable captured by the end of the run, with the last request that captured it (`origins`: its
    /// name and the value as recorded); a secret when it came from a cookie, reached a credential, or the
    /// record masked something in it.
    static func values(_ captured: VariableLayer, credentials: Set<String>, run: String,
                       origins: [String: (request: String, value: String)]) -> [CapturedValue] {
        captured.values.keys.sorted().map { name in
            let value = captured.values[name]!
            let recorded = origins[name]
            return CapturedValue(variable: name, value: value, run: run, request: recorded?.request ?? "",
                                 secret: captured.secretNames.contains(name) || credentials.contains(value) || recorded?.value != value)
        }
    }

    /// For each captured variable, the last of `results` that captured a value: its name and the value recorded.
    static func captureOrigins(_ results: [RequestResult]) -> [String: (request: String, value: String)] {
        var origins: [String: (request: String, value: String)] = [:]
        for result in results {
            for capture in result.captures { if let value = capture.value { origins[capture.variable] = (result.name, value) } }
        }
        return origins
    }
}
