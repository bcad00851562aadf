/// `--help` pages in swift-argument-parser's layout: OVERVIEW, USAGE, ARGUMENTS, OPTIONS.
enum HelpText {
    static func render(_ spec: CommandSpec) -> String {
        var text = "OVERVIEW: \(spec.abstract)\n"
        if !spec.discussion.isEmpty { text += "\n\(spec.discussion)\n" }
        text += "\nUSAGE: \(spec.usage)\n"
        if let positional = spec.positional {
            text += "\nARGUMENTS:\n" + row("<\(positional.name.lowercased())>", positional.help)
        }
        text += "\nOPTIONS:\n"
        for option in spec.options + [.help] {
            var label = option.name == "--help" ? "-h, --help" : option.short.map { "\($0), \(option.name)" } ?? option.name
            if let value = option.valueName { label += " <\(value.lowercased())>" }
            text += row(label, option.help)
        }
        if !spec.examples.isEmpty {
            text += "\nEXAMPLES:\n" + spec.examples.map { "  \($0)\n" }.joined()
        }
        return text
    }

    /// The top-level page: commands and exit codes.
    static func renderTop(_ commands: [CommandSpec]) -> String {
        var text = """
            OVERVIEW: reqrun runs collections of HTTP requests through libcurl and records what came back.

            A workspace is a folder with collections/*.json. Groups of requests are expanded or collapsed like
            a sidebar's disclosure groups; the expanded set is saved in .reqrun/state.json. A request is
            visible when every group above it is expanded.

            USAGE: reqrun <subcommand> [options]

            OPTIONS:

            """
        text += row("--version", "Show the version.")
        text += row("-h, --help", "Show help information.")
        text += "\nSUBCOMMANDS:\n"
        for command in commands { text += row(command.name, command.abstract) }
        text += "\n  See 'reqrun help <subcommand>' for detailed help.\n\n" + ExitCode.helpText + "\n"
        return text
    }

    /// Two columns: the label padded to 26 characters, or on its own line when longer.
    private static func row(_ label: String, _ help: String) -> String {
        let width = 26
        let padded = "  " + label
        if padded.count < width { return padded + String(repeating: " ", count: width - padded.count) + help + "\n" }
        return padded + "\n" + String(repeating: " ", count: width) + help + "\n"
    }
}
