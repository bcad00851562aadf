import Foundation
import ReqRunKit

/// A subcommand: its spec (parsing and help) and what it does.
struct Command: Sendable {
    var spec: CommandSpec
    var run: @Sendable (ParsedArguments, Terminal) throws -> ExitCode
}

/// The `reqrun` command line: dispatches to subcommands and turns errors into one message and an exit code.
/// The library never prints or exits; this is the only place that decides both.
public enum ReqRunCommand {
    static let commands: [Command] = [
        ListCommand.command, ExpandCommand.expand, ExpandCommand.collapse, RunCommand.command,
        HistoryCommand.command, ShowCommand.command, DiffCommand.command, EnvCommand.command, ImportCommand.command,
    ]

    /// Runs `arguments` (without the program name) and returns the exit code.
    public static func main(_ arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> Int32 {
        let status = main(arguments, terminal: .standard())
        StandardOutput.shared.flush()
        return status
    }

    static func main(_ arguments: [String], terminal: Terminal) -> Int32 {
        guard let first = arguments.first, first != "-h", first != "--help" else {
            terminal.out(HelpText.renderTop(commands.map(\.spec)))
            return arguments.isEmpty ? ExitCode.usage.rawValue : ExitCode.success.rawValue
        }
        if first == "--version" {
            guard arguments.count == 1 else {
                return report(UsageError(message: "unexpected argument '\(arguments[1])' after --version", command: nil), terminal)
            }
            terminal.line(reqrunVersion)
            return ExitCode.success.rawValue
        }
        if first == "help" {
            guard let name = arguments.dropFirst().first else {
                terminal.out(HelpText.renderTop(commands.map(\.spec)))
                return ExitCode.success.rawValue
            }
            guard let command = commands.first(where: { $0.spec.name == name }) else {
                return report(UsageError(message: unknownCommandMessage(name), command: nil), terminal)
            }
            terminal.out(HelpText.render(command.spec))
            return ExitCode.success.rawValue
        }
        guard let command = commands.first(where: { $0.spec.name == first }) else {
            return report(UsageError(message: unknownCommandMessage(first), command: nil), terminal)
        }
        do {
            let parsed = try ArgumentParser.parse(Array(arguments.dropFirst()), for: command.spec)
            if parsed.flag("--help") {
                terminal.out(HelpText.render(command.spec))
                return ExitCode.success.rawValue
            }
            return try command.run(parsed, terminal).rawValue
        } catch {
            return report(error, terminal)
        }
    }

    private static func unknownCommandMessage(_ name: String) -> String {
        var message = "unknown subcommand '\(name)'"
        if let guess = Suggestion.closest(to: name, among: commands.map(\.spec.name)) { message += "; did you mean '\(guess)'?" }
        return message
    }

    /// One `error:` message on stderr and the exit code for the kind of error.
    private static func report(_ error: Error, _ terminal: Terminal) -> Int32 {
        switch error {
        case let usage as UsageError:
            terminal.error(usage.message)
            if let command = usage.command {
                terminal.err("Usage: \(command.usage)\n  See 'reqrun \(command.name) --help'.\n")
            } else {
                terminal.err("Usage: reqrun <subcommand> [options]\n  See 'reqrun --help'.\n")
            }
            return ExitCode.usage.rawValue
        case is InputError, is WorkspaceError, is SelectionError, is RunStoreError:
            terminal.error("\(error)")
            return ExitCode.badInput.rawValue
        case is FileError:
            terminal.error("\(error)")
            return ExitCode.ioError.rawValue
        default:
            terminal.error("\(error)")
            return ExitCode.ioError.rawValue
        }
    }
}
