/// The process environment as `{{process.env.NAME}}` may read it: only variables whose names start with
/// `REQRUN_` (as Hurl reads only `HURL_*` variables) and names the user allows with `--allow-env NAME`.
/// Any other name is an error naming it and the option (`PreparationFailure.environmentVariableNotAllowed`),
/// so a shared collection cannot send `AWS_SECRET_ACCESS_KEY` or `GITHUB_TOKEN` anywhere. Values read from
/// here are secrets: `VariableScope.secretValues()` includes `secrets`, so they are masked in the console, the
/// run record and every report unless `--show-secrets`.
public struct ProcessEnvironment: Sendable, Equatable {
    /// Variables with this prefix are readable without `--allow-env`.
    public static let prefix = "REQRUN_"

    /// The readable variables (and only those), name → value.
    public let values: [String: String]
    /// The values to mask: those of the variables the run refers to (`narrowed`), else every readable one.
    public private(set) var secrets: [String]
    /// Names allowed with `--allow-env NAME`.
    public let allowedNames: Set<String>

    /// Keeps the readable variables of `environment` (e.g. `ProcessInfo.processInfo.environment`).
    public init(_ environment: [String: String], allowing allowedNames: Set<String> = []) {
        self.allowedNames = allowedNames
        values = environment.filter { $0.key.hasPrefix(Self.prefix) || allowedNames.contains($0.key) }
        secrets = values.values.filter { !$0.isEmpty }
    }

    /// Nothing readable.
    public static let empty = ProcessEnvironment([:])

    /// Whether `{{process.env.NAME}}` may read `name` (set or not).
    public func isReadable(_ name: String) -> Bool { name.hasPrefix(Self.prefix) || allowedNames.contains(name) }

    /// The same variables, with `secrets` narrowed to those that `references` refer to as
    /// `{{process.env.NAME}}`, directly or through the values of collection, group and `layerValues`
    /// (environment, `--var`) variables. What a run reads is what becomes a secret: masking every `REQRUN_*`
    /// value would also mask, say, a base URL no request uses. All stay readable.
    public func narrowed(to references: some Sequence<RequestReference>, alsoThrough layerValues: [Variable]) -> ProcessEnvironment {
        guard !values.isEmpty else { return self }
        var names = Set<String>()
        for reference in references {
            for name in reference.referencedVariables(alsoThrough: layerValues) where name.hasPrefix("process.env.") {
                names.insert(String(name.dropFirst("process.env.".count)))
            }
        }
        var narrowed = self
        narrowed.secrets = values.filter { names.contains($0.key) && !$0.value.isEmpty }.map(\.value)
        return narrowed
    }
}
