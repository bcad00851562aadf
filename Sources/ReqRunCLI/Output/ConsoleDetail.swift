/// How much `run` and `send` print per request: `-q/--quiet` (failures and the summary only), the default
/// (one line per request), `-v/--verbose` (also the whole exchange, `VerboseExchange`). One place reads both
/// options, so they cannot disagree.
enum ConsoleDetail: Sendable {
    case quiet, normal, verbose

    static let quietOption = CommandSpec.Option(
        name: "--quiet", valueName: nil, help: "Print only failed requests and the summary.", short: "-q")

    /// The level `arguments` ask for.
    /// - Throws: `UsageError` when both `--quiet` and `--verbose` are given.
    static func parse(_ arguments: ParsedArguments, _ spec: CommandSpec) throws(UsageError) -> ConsoleDetail {
        switch (arguments.flag("--quiet"), arguments.flag("--verbose")) {
        case (true, true): throw UsageError(message: "give only one of --quiet and --verbose", command: spec)
        case (true, false): return .quiet
        case (false, true): return .verbose
        case (false, false): return .normal
        }
    }
}
