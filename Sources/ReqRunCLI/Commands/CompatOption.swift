import ReqRunKit

/// `--compat newman` (`run`, `send`): Newman's request rules instead of reqrun's (`RequestRules.newman`; the
/// differences are tabled in docs/postman.md).
enum CompatOption {
    static let spec = CommandSpec.Option(
        name: "--compat", valueName: "MODE",
        help: "newman: send requests by Newman's rules (undefined {{name}} sent as text, body pruning on GET, DELETE → GET on 302…; see docs/postman.md). Default: reqrun's.")

    /// The rules `--compat` names; reqrun's when it is not given.
    /// - Throws: `UsageError` for another MODE.
    static func rules(_ arguments: ParsedArguments, _ command: CommandSpec) throws(UsageError) -> RequestRules {
        switch arguments.value("--compat") {
        case nil, "reqrun": return .reqrun
        case "newman": return .newman
        case let mode?: throw UsageError(message: "--compat \(mode): expected 'newman' (or 'reqrun', the default)", command: command)
        }
    }

    /// The rules for loading collections, read without checking MODE (the command checks it first).
    static func loadingRules(_ arguments: ParsedArguments) -> RequestRules {
        arguments.value("--compat") == "newman" ? .newman : .reqrun
    }
}
