import ReqRunKit

/// The parsed command line of one command.
struct ParsedArguments {
    var flags: Set<String> = []
    var values: [String: [String]] = [:]
    var positionals: [String] = []

    func flag(_ name: String) -> Bool { flags.contains(name) }
    /// The last value given for `name` (a later option wins, as in most tools).
    func value(_ name: String) -> String? { values[name]?.last }
    func all(_ name: String) -> [String] { values[name] ?? [] }
}

/// A wrong command line: the CLI prints `error: <message>`, the usage line and a help hint, and exits 64.
struct UsageError: Error {
    var message: String
    /// The command whose usage to show; nil for the top level.
    var command: CommandSpec?
}

/// Parses arguments the way swift-argument-parser does: `--name value`, `--name=value`, flags, `--` to end
/// options, `-h`/`--help` anywhere.
enum ArgumentParser {
    static func parse(_ arguments: [String], for spec: CommandSpec) throws(UsageError) -> ParsedArguments {
        var result = ParsedArguments()
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
                result.positionals.append(argument)
                continue
            }
            if argument == "--" { onlyPositionals = true; continue }
            if argument == "-h" || argument == "--help" { result.flags.insert("--help"); continue }
            if argument.hasPrefix("--help=") { throw UsageError(message: "the flag '--help' takes no value", command: spec) }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let option = spec.options.first(where: { $0.name == name || $0.short == name }) else {
                var message = "unknown option '\(name)'"
                if let hint = NewmanOptionHint.hint(for: name, in: spec) {
                    message += "; \(hint)"
                } else if let guess = Suggestion.closest(to: name, among: spec.options.filter { !$0.hidden }.map(\.name)) {
                    message += "; did you mean '\(guess)'?"
                }
                throw UsageError(message: message, command: spec)
            }
            name = option.name
            guard option.valueName != nil else {
                if inlineValue != nil { throw UsageError(message: "the flag '\(name)' takes no value", command: spec) }
                result.flags.insert(name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < arguments.count else {
                    throw UsageError(message: "missing value for '\(name) \(option.valueName!)'", command: spec)
                }
                value = arguments[index]
                index += 1
            }
            if !option.repeatable, result.values[name] != nil {
                throw UsageError(message: "'\(name)' may be given only once", command: spec)
            }
            result.values[name, default: []].append(value)
        }
        if !result.flag("--help") {
            if spec.positional == nil, let extra = result.positionals.first {
                throw UsageError(message: "unexpected argument '\(extra)'", command: spec)
            }
            if let positional = spec.positional, !positional.repeating, result.positionals.count > 1 {
                var message = "unexpected argument '\(result.positionals[1])'"
                // `reqrun send GET https://…`, as curl or HTTPie take it: send names a request of the workspace.
                if positional.name == "REQUEST", result.positionals.contains(where: { $0.contains("://") }) {
                    message += "; REQUEST is a request of the workspace's collections (#index, Group/Name or its name), not a method and URL"
                }
                throw UsageError(message: message, command: spec)
            }
            if let positional = spec.positional, !positional.optional, result.positionals.isEmpty {
                throw UsageError(message: "missing expected argument '\(positional.name)'", command: spec)
            }
        }
        return result
    }
}
