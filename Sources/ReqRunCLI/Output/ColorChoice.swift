import Foundation

/// `--color auto|always|never` and the environment variables clig.dev lists, resolved for one stream.
///
/// Rules, in order (https://clig.dev/#output, https://no-color.org, https://force-color.org,
/// https://bixense.com/clicolors/):
/// 1. `--color always` colours and `--color never` does not, whatever the environment says.
/// 2. `auto` (the default): `NO_COLOR` set and not empty turns colour off; then `FORCE_COLOR` or
///    `CLICOLOR_FORCE` set to anything but empty or `0` turns it on; then `TERM=dumb` turns it off; otherwise
///    colour goes only to a terminal.
enum ColorChoice: String, Sendable, CaseIterable {
    case auto, always, never

    /// The option's spec, accepted by every command (`ArgumentParser` takes it before the command's own).
    static let option = CommandSpec.Option(name: "--color", valueName: "WHEN",
                                           help: "Colour the output: auto (on a terminal), always or never (default: auto; NO_COLOR, FORCE_COLOR, CLICOLOR_FORCE and TERM=dumb are honoured).")

    /// Whether a stream gets colour.
    /// - Parameters:
    ///   - isTerminal: whether the stream is a terminal (`isatty`).
    ///   - environment: the process environment.
    func enabled(isTerminal: Bool, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        switch self {
        case .always: return true
        case .never: return false
        case .auto:
            if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
            for name in ["FORCE_COLOR", "CLICOLOR_FORCE"] {
                if let value = environment[name], !value.isEmpty, value != "0" { return true }
            }
            if environment["TERM"] == "dumb" { return false }
            return isTerminal
        }
    }

    /// Takes `--color WHEN` and `--color=WHEN` out of `arguments` (before a `--`), the last one winning.
    /// `on` and `off` (Newman's values) mean `always` and `never`.
    /// - Throws: `UsageError` for a value other than auto, always, never, on or off, or a missing value.
    static func extract(from arguments: inout [String]) throws(UsageError) -> ColorChoice {
        var choice = ColorChoice.auto
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" { break }
            var value: String?
            if argument == "--color" {
                guard index + 1 < arguments.count else { throw UsageError(message: "missing value for '--color WHEN'", command: nil) }
                value = arguments[index + 1]
                arguments.removeSubrange(index...(index + 1))
            } else if argument.hasPrefix("--color=") {
                value = String(argument.dropFirst("--color=".count))
                arguments.remove(at: index)
            } else {
                index += 1
                continue
            }
            // Newman's `--color on|off` are taken too, so a Newman command line keeps working.
            guard let parsed = value.flatMap({ ColorChoice(rawValue: $0) ?? ["on": .always, "off": .never][$0] }) else {
                throw UsageError(message: "--color expects auto, always or never, got '\(value ?? "")'", command: nil)
            }
            choice = parsed
        }
        return choice
    }
}
