/// The process environment as `{{process.env.NAME}}` may read it: only variables whose names start with
/// `REQRUN_` (as Hurl reads only `HURL_*` variables) and names the user allows with `--allow-env NAME`.
/// Any other name is an error naming it and the option (`PreparationFailure.environmentVariableNotAllowed`),
/// so a shared collection cannot send `AWS_SECRET_ACCESS_KEY` or `GITHUB_TOKEN` anywhere. Values read from
/// here are secrets: `VariableScope.secretValues()` includes them, so they are masked in the console, the run
/// record and every report unless `--show-secrets`.
public struct ProcessEnvironment: Sendable, Equatable {
    /// Variables with this prefix are readable without `--allow-env`.
    public static let prefix = "REQRUN_"

    /// The readable variables (and only those), name → value.
    public private(set) var values: [String: String]
    /// Names allowed with `--allow-env NAME`.
    public let allowedNames: Set<String>

    /// Keeps the readable variables of `environment` (e.g. `ProcessInfo.processInfo.environment`).
    public init(_ environment: [String: String], allowing allowedNames: Set<String> = []) {
        self.allowedNames = allowedNames
        values = environment.filter { $0.key.hasPrefix(Self.prefix) || allowedNames.contains($0.key) }
    }

    /// Nothing readable.
    public static let empty = ProcessEnvironment([:])

    /// Whether `{{process.env.NAME}}` may read `name` (set or not).
    public func isReadable(_ name: String) -> Bool { name.hasPrefix(Self.prefix) || allowedNames.contains(name) }

    /// Only the variables that `references` refer to as `{{process.env.NAME}}`, directly or through the
    /// values of collection, group and `layerValues` (environment, `--var`) variables. What a run reads is
    /// what becomes a secret: masking every `REQRUN_*` value would also mask, say, a base URL no request uses.
    public func narrowed(to references: [RequestReference], alsoThrough layerValues: [Variable]) -> ProcessEnvironment {
        guard !values.isEmpty else { return self }
        var names = Set<String>()
        for reference in references {
            for name in reference.referencedVariables(alsoThrough: layerValues) where name.hasPrefix("process.env.") {
                names.insert(String(name.dropFirst("process.env.".count)))
            }
        }
        var narrowed = self
        narrowed.values = values.filter { names.contains($0.key) }
        return narrowed
    }
}
