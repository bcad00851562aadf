import Foundation

/// A named set of variables for one target (staging, production…): `environments/NAME.json` in the
/// workspace, a JSON object of name → value, where a value is a string or `{"value": "…", "secret": true}`.
/// Secret values are masked as `****` in the console, run records and reports unless `--show-secrets`.
public struct Environment: Sendable, Equatable {
    /// The file name without `.json`, or the file's name when given as a path.
    public var name: String
    /// The file, as messages show it.
    public var file: String
    public var variables: [Variable]
    public var secretNames: Set<String>
    /// A Postman export's own `id` and `name` (nil in reqrun's format, or when the export has none), which
    /// `--export-environment` and `--export-globals` write back, as Newman keeps them.
    public var postmanID: String?
    public var postmanName: String?

    public init(name: String, file: String, variables: [Variable], secretNames: Set<String> = [],
                postmanID: String? = nil, postmanName: String? = nil) {
        self.name = name
        self.file = file
        self.variables = variables
        self.secretNames = secretNames
        self.postmanID = postmanID
        self.postmanName = postmanName
    }

    /// The environment as a variable layer.
    public var layer: VariableLayer {
        VariableLayer(source: "environment '\(name)'", values: Dictionary(variables.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 }),
                      secretNames: secretNames)
    }

    /// Decodes an environment file: reqrun's format, or a Postman environment export (`PostmanEnvironment`).
    /// - Throws: `InputError` with the file, line and column and the field path.
    public static func decode(_ bytes: [UInt8], name: String, file: String) throws(InputError) -> Environment {
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw InputError(file: file, location: error.location, reason: error.reason)
        }
        if PostmanFormat.isEnvironment(root) { return try PostmanEnvironment.decode(root, name: name, file: file) }
        guard case .object(let members) = root.value else {
            throw InputError(file: file, location: root.location, reason: "expected an object of name → value, found \(root.kindDescription)")
        }
        var variables: [Variable] = []
        var secrets = Set<String>()
        for member in members {
            if variables.contains(where: { $0.name == member.key }) {
                throw InputError(file: file, location: member.keyLocation, fieldPath: member.key, reason: "the variable '\(member.key)' is defined twice")
            }
            switch member.value.value {
            case .string(let value):
                variables.append(Variable(name: member.key, value: value))
            case .object:
                let reader = try FieldReader(file: file, node: member.value, path: member.key)
                try reader.rejectUnknownKeys(["value", "secret"])
                variables.append(Variable(name: member.key, value: try reader.requiredString("value")))
                if let secret = reader.optional("secret") {
                    guard case .bool(let isSecret) = secret.value else {
                        throw reader.error(secret, reader.childPath("secret"), "expected true or false, found \(secret.kindDescription)")
                    }
                    if isSecret { secrets.insert(member.key) }
                }
            default:
                throw InputError(file: file, location: member.value.location, fieldPath: member.key,
                                 reason: "expected a string or {\"value\": …, \"secret\": true}, found \(member.value.kindDescription)")
            }
        }
        return Environment(name: name, file: file, variables: variables, secretNames: secrets)
    }
}

extension Workspace {
    /// `environments/`: one JSON file per environment.
    public var environmentsDirectory: URL { root.appendingPathComponent("environments") }

    /// Names of the environments in `environments/` (file names without `.json`), sorted.
    public func environmentNames() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: environmentsDirectory.path)) ?? []
        return names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.map { String($0.dropLast(5)) }
            .sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }

    /// The hint of a command with `--file-root DIR` and `--env FILE` (`run`, `send`, `show`, `ui`) for an
    /// environment the workspace chose that lies outside the file roots.
    public static let runOutsideHint = "allow its folder with --file-root DIR, or name the file with --env FILE"

    /// Whether `--env`'s value names a file (it contains `/` or ends in `.json`) rather than an environment.
    public static func isEnvironmentPath(_ nameOrPath: String) -> Bool {
        nameOrPath.contains("/") || nameOrPath.hasSuffix(".json")
    }

    /// Loads `environments/NAME.json`, or the file at `nameOrPath` when it names a file (it contains `/` or
    /// ends in `.json`; relative to `base`).
    /// - Parameter roots: when given, the file (its symbolic links resolved) must lie in one of them: for an
    ///   environment the workspace chose (`environments/NAME.json`, which a repository can carry as a link to
    ///   a credentials file, or the one saved in `.reqrun/state.json`), as for body files (`FileRoots`).
    /// - Throws: `InputError` for an unknown name (with a hint) or a file that cannot be read (or is larger
    ///   than `FileSizeBound.environment`), lies outside `roots`, is not a regular file (a FIFO) when it is
    ///   `environments/NAME.json` or `roots` is given, or cannot be decoded.
    /// - Parameter outsideHint: what the error for a file outside `roots` tells the user to do, after the
    ///   refusal's place: by default `run`'s (`runOutsideHint`); `reqrun env`, which has neither option, gives its own.
    public func loadEnvironment(_ nameOrPath: String, relativeTo base: URL, within roots: FileRoots? = nil,
                                outsideHint: String = Workspace.runOutsideHint) throws(InputError) -> Environment {
        let isPath = Self.isEnvironmentPath(nameOrPath)
        let url = isPath ? URL(fileURLWithPath: nameOrPath, relativeTo: base).standardizedFileURL
                         : environmentsDirectory.appendingPathComponent("\(nameOrPath).json")
        let display = displayPath(url)
        if let roots, case .failure(let refusal) = roots.resolve(url.path, from: "/"), FileManager.default.fileExists(atPath: url.path) {
            throw InputError(file: display, location: nil, reason: refusal.place + "; " + outsideHint)
        }
        // FileBytes also reads a pipe (`--env <(…)`), which FileManager does not; `environments/NAME.json` and
        // one the workspace chose (`roots` given) must be a regular file, so that a FIFO there does not block.
        let read = FileBytes.read(atPath: url.path, bound: .environment, regularOnly: !isPath || roots != nil)
        if case .failure(.tooLarge(let reason)) = read { throw InputError(file: display, location: nil, reason: reason) }
        if case .failure(let failure) = read, let reason = failure.notRegularReason { throw InputError(file: display, location: nil, reason: reason) }
        guard case .success(let bytes) = read else {
            if !isPath {
                var reason = "no such environment"
                let known = environmentNames()
                if let guess = Suggestion.closest(to: nameOrPath, among: known) {
                    reason += "; did you mean '\(guess)'?"
                } else if !known.isEmpty {
                    reason += "; known: \(known.joined(separator: ", "))"
                }
                throw InputError(file: display, location: nil, reason: reason)
            }
            throw InputError(file: display, location: nil, reason: FileManager.default.fileExists(atPath: url.path) ? "cannot be read" : "no such file")
        }
        let name = isPath ? url.deletingPathExtension().lastPathComponent : nameOrPath
        return try Environment.decode(bytes, name: name, file: display)
    }
}
