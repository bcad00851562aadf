/// What a command accepts: the source of its parsing and of its `--help` text, so the two never disagree.
struct CommandSpec: Sendable {
    /// One option or flag, e.g. `--var NAME=VALUE` (repeatable) or `--json` (a flag).
    struct Option: Sendable {
        var name: String
        /// The value's placeholder (`SECONDS`); nil for a flag.
        var valueName: String?
        var help: String
        var repeatable = false
        /// A one-letter spelling (`-v`), parsed as `name`.
        var short: String? = nil
        /// Parsed, but left out of `--help`, completions, the man page and the CLI reference (`list --names`).
        var hidden = false
        /// What a shell completes for the value; nil: derived from `valueName` (`Completion.forValue`).
        var completion: Completion? = nil

        /// What a shell completes for the value (`.none` for a flag).
        var valueCompletion: Completion { valueName == nil ? .none : completion ?? Completion.forValue(valueName!) }
    }

    /// Positional arguments: a name for help, and whether any number may be given.
    struct Positional: Sendable {
        var name: String
        var help: String
        var repeating: Bool
        var optional: Bool
        /// What a shell completes; nil: derived from `name` (`Completion.forPositional`).
        var completion: Completion? = nil

        var argumentCompletion: Completion { completion ?? Completion.forPositional(name) }
    }

    /// The name after `reqrun`, e.g. `run`.
    var name: String
    /// One line for the command list.
    var abstract: String
    /// Paragraphs shown after the abstract in `--help`.
    var discussion: String = ""
    var options: [Option] = []
    var positional: Positional?
    /// Lines shown under EXAMPLES in `--help`.
    var examples: [String] = []

    /// The options `--help`, completions, the man page and the CLI reference show: the command's own (not
    /// hidden), then `--color` and `--help`, which every command takes.
    var documentedOptions: [Option] { (options + [ColorChoice.option, .help]).filter { !$0.hidden } }

    /// `reqrun run [options] [NAME ...]`: the line a usage error prints (the options are in `--help`).
    var shortUsage: String {
        var parts = ["reqrun", name]
        if !options.isEmpty { parts.append("[options]") }
        if let positional {
            var text = positional.repeating ? "\(positional.name) ..." : positional.name
            if positional.optional { text = "[\(text)]" }
            parts.append(text)
        }
        return parts.joined(separator: " ")
    }

    /// `reqrun run [--expanded] [--all] [--var NAME=VALUE ...] [GROUP ...]`
    var usage: String {
        var parts = ["reqrun", name]
        for option in options where !option.hidden {
            var text = option.name
            if let value = option.valueName { text += " \(value)" }
            if option.repeatable { text += " ..." }
            parts.append("[\(text)]")
        }
        if let positional {
            var text = positional.repeating ? "\(positional.name) ..." : positional.name
            if positional.optional { text = "[\(text)]" }
            parts.append(text)
        }
        return parts.joined(separator: " ")
    }
}

/// The shared options of every command that reads a workspace.
extension CommandSpec.Option {
    static let workspace = CommandSpec.Option(
        name: "--workspace", valueName: "DIR",
        help: "The workspace folder (default: the nearest folder at or above the current one with collections/ or .reqrun/).")
    static let collection = CommandSpec.Option(
        name: "--collection", valueName: "FILE",
        help: "Load this collection file instead of collections/*.json.", repeatable: true)
    /// Every command that loads collections takes it: the check is made when a collection loads.
    static let fileRoot = CommandSpec.Option(
        name: "--file-root", valueName: "DIR",
        help: "Also let collections read body files in DIR (default: only inside the workspace).", repeatable: true)
    /// `run` and `send` (Newman's `--working-dir`): where relative body files resolve.
    static let workingDir = CommandSpec.Option(
        name: "--working-dir", valueName: "DIR",
        help: "Resolve relative body file paths (form-data src, file bodies) against DIR instead of the collection's folder; DIR must be inside the workspace or a --file-root.")
    static let allowEnv = CommandSpec.Option(
        name: "--allow-env", valueName: "NAME",
        help: "Let {{process.env.NAME}} read NAME (default: only REQRUN_* variables); its value is a secret.", repeatable: true)
    /// `send` and `run`: also print what was sent (`VerboseExchange`).
    static let verbose = CommandSpec.Option(
        name: "--verbose", valueName: nil,
        help: "Also print what was sent: request line, header fields, content (masked), each redirect, timings.", short: "-v")
    static let help = CommandSpec.Option(name: "--help", valueName: nil, help: "Show help information.")
}
