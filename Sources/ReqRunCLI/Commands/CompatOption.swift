import ReqRunKit

/// `--compat newman` (`run`, `send`): Newman's request rules instead of reqrun's (`RequestRules.newman`; the
/// differences are tabled in docs/postman.md), for every collection of the command, over each collection's own
/// setting (a native collection's `compat`, the workspace's `reqrun.json`); `--compat reqrun` likewise.
enum CompatOption {
    static let spec = CommandSpec.Option(
        name: "--compat", valueName: "MODE",
        help: "newman: send requests by Newman's rules (undefined {{name}} sent as text, body pruning on GET, DELETE → GET on 302…; see docs/postman.md); reqrun: reqrun's. For every collection, over its own setting (compat in the collection or reqrun.json). Default: each collection's, else reqrun's.")

    /// The rules `--compat` names; nil when it is not given (each collection's own, else reqrun's).
    /// - Throws: `UsageError` for another MODE.
    static func rules(_ arguments: ParsedArguments, _ command: CommandSpec) throws(UsageError) -> RequestRules? {
        guard let mode = arguments.value("--compat") else { return nil }
        guard let rules = RequestRules.named(mode) else {
            throw UsageError(message: "--compat \(mode): expected 'newman' (or 'reqrun', the default)", command: command)
        }
        return rules
    }

    /// The rules for loading collections, read without checking MODE (the command checks it first).
    static func loadingRules(_ arguments: ParsedArguments) -> RequestRules? {
        arguments.value("--compat").flatMap(RequestRules.named)
    }
}
