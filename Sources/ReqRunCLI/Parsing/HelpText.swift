/// `--help` pages in swift-argument-parser's layout: OVERVIEW, USAGE, ARGUMENTS, OPTIONS, wrapped to `width`
/// columns (`TerminalWidth.columns()`: the terminal's, 80 into a pipe).
enum HelpText {
    static func render(_ spec: CommandSpec, width: Int = TerminalWidth.columns()) -> String {
        var text = "OVERVIEW: \(TerminalWidth.reflow(spec.abstract, width: width - 10).replacingOccurrences(of: "\n", with: "\n          "))\n"
        if !spec.discussion.isEmpty { text += "\n\(TerminalWidth.reflow(spec.discussion, width: width))\n" }
        text += "\nUSAGE: " + hanging(spec.usage, indent: 7, width: width) + "\n"
        if let positional = spec.positional {
            text += "\nARGUMENTS:\n" + row("<\(positional.name.lowercased())>", positional.help, width: width)
        }
        text += "\nOPTIONS:\n"
        for option in spec.documentedOptions {
            var label = option.name == "--help" ? "-h, --help" : option.short.map { "\($0), \(option.name)" } ?? option.name
            if let value = option.valueName { label += " <\(value.lowercased())>" }
            text += row(label, option.help, width: width)
        }
        if !spec.examples.isEmpty {
            text += "\nEXAMPLES:\n" + spec.examples.map { "  \($0)\n" }.joined()
        }
        return text
    }

    /// The top-level abstract (also the man page's NAME line).
    static let overview = "reqrun runs collections of HTTP requests through libcurl and records what came back."
    /// The paragraph under it.
    static let description = """
        A workspace is a folder with collections/*.json. Groups of requests are expanded or collapsed like
        a sidebar's disclosure groups; the expanded set is saved in .reqrun/state.json. A request is
        visible when every group above it is expanded.
        """

    /// The top-level page: commands and exit codes.
    static func renderTop(_ commands: [CommandSpec], width: Int = TerminalWidth.columns()) -> String {
        var text = "OVERVIEW: \(overview)\n\n"
        text += TerminalWidth.reflow(description, width: width)
        text += "\n\nUSAGE: reqrun <subcommand> [options]\n\nOPTIONS:\n"
        text += row("-V, --version", "Show the version.", width: width)
        text += row(ColorChoice.option.name + " <when>", ColorChoice.option.help, width: width)
        text += row("-h, --help", "Show help information.", width: width)
        text += "\nSUBCOMMANDS:\n"
        for command in commands { text += row(command.name, command.abstract, width: width) }
        text += "\n  See 'reqrun help <subcommand>' for detailed help.\n\n" + ExitCode.helpText + "\n"
        return text
    }

    /// `text` wrapped to `width`, lines after the first indented by `indent` spaces.
    private static func hanging(_ text: String, indent: Int, width: Int) -> String {
        TerminalWidth.wrap(text, width: max(20, width - indent)).joined(separator: "\n" + String(repeating: " ", count: indent))
    }

    /// Two columns: the label padded to 26 characters, or on its own line when longer; the help wrapped to
    /// the rest of `width`, continued under itself.
    private static func row(_ label: String, _ help: String, width: Int) -> String {
        let column = 26
        let padded = "  " + label
        let lines = TerminalWidth.wrap(help, width: max(20, width - column))
        let indent = String(repeating: " ", count: column)
        let rest = lines.dropFirst().map { indent + $0 + "\n" }.joined()
        if padded.count < column { return padded + String(repeating: " ", count: column - padded.count) + lines[0] + "\n" + rest }
        return padded + "\n" + indent + lines[0] + "\n" + rest
    }
}
