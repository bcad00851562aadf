import Foundation
import ReqRunKit
import PostmanSandbox

/// A subcommand: its spec (parsing and help) and what it does.
struct Command: Sendable {
    var spec: CommandSpec
    var run: @Sendable (ParsedArguments, Terminal) throws -> ExitCode
}

/// The `reqrun` command line: dispatches to subcommands and turns errors into one message and an exit code.
/// The library never prints or exits; this is the only place that decides both.
public enum ReqRunCommand {
    static let commands: [Command] = [
        InitCommand.command, ListCommand.command, ExpandCommand.expand, ExpandCommand.collapse, RunCommand.command, SendCommand.command,
        HistoryCommand.command, ShowCommand.command, DiffCommand.command, MergeCommand.command, EnvCommand.command, ImportCommand.command,
        UICommand.command,
    ]

    /// Runs `arguments` (without the program name) and returns the exit code.
    public static func main(_ arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> Int32 {
        // A closed standard descriptor would be handed to the next file opened (a run record would get the
        // console's lines): fill it with /dev/null, and count a closed stdout as a failed write.
        let stdoutWasClosed = fcntl(1, F_GETFD) == -1
        for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) == -1 { _ = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY) }
        // Output into a pipe whose reader is gone fails with EPIPE instead of killing the process (then a
        // run still finishes and writes its record; libcurl's sockets never raise it).
        signal(SIGPIPE, SIG_IGN)
        var arguments = arguments
        let status: Int32
        do {
            let color = try ColorChoice.extract(from: &arguments)
            status = main(arguments, terminal: Terminal.standard(color: color))
        } catch {
            status = report(error, Terminal.standard())
        }
        let terminal = Terminal.standard()
        StandardOutput.shared.flush()
        let failure = stdoutWasClosed && StandardOutput.shared.wroteAnything ? EBADF : StandardOutput.shared.failure
        return outputStatus(status, failure: failure, terminal)
    }

    /// The exit code once stdout is done: a write that failed (a full disk, a closed stdout) turns success
    /// into 74 with a message; a reader that went away (`| head`, EPIPE) is no error of ours and changes nothing.
    static func outputStatus(_ status: Int32, failure: Int32?, _ terminal: Terminal) -> Int32 {
        guard let failure, failure != EPIPE else { return status }
        terminal.error("could not write to standard output: \(String(cString: strerror(failure)))")
        return status == ExitCode.success.rawValue ? ExitCode.ioError.rawValue : status
    }

    static func main(_ arguments: [String], terminal: Terminal) -> Int32 {
        // Plain `reqrun` on a terminal in a workspace opens the full-screen UI.
        if arguments.isEmpty, UICommand.opensWithoutArguments() { return main(["ui"], terminal: terminal) }
        guard let first = arguments.first, first != "-h", first != "--help" else {
            // Plain `reqrun` (not opening the UI) is a request for help, as with git: exit 0.
            terminal.out(HelpText.renderTop(commands.map(\.spec)))
            return ExitCode.success.rawValue
        }
        if first == "--version" || first == "-V" {
            guard arguments.count == 1 else {
                return report(UsageError(message: "unexpected argument '\(arguments[1])' after \(first)", command: nil), terminal)
            }
            terminal.line(reqrunVersion)
            return ExitCode.success.rawValue
        }
        if let generated = generatedText(arguments) {
            switch generated {
            case .success(let text): terminal.out(text)
            case .failure(let error): return report(error, terminal)
            }
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

    /// The text of `--generate-completion-script SHELL`, `--generate-man-page` or `--generate-cli-reference`
    /// (hidden from `--help`, see docs/commands.md): a failure for a shell it does not know, nil when
    /// `arguments` are none of them.
    private static func generatedText(_ arguments: [String]) -> Result<String, UsageError>? {
        let specs = commands.map(\.spec)
        var shellName: String?
        switch arguments {
        case ["--generate-man-page"]: return .success(ManPage.render(specs))
        case ["--generate-cli-reference"]: return .success(CLIReference.render(specs))
        case _ where arguments.count == 2 && arguments[0] == "--generate-completion-script": shellName = arguments[1]
        case _ where arguments.count == 1 && arguments[0].hasPrefix("--generate-completion-script="):
            shellName = String(arguments[0].dropFirst("--generate-completion-script=".count))
        default: return nil
        }
        guard let shell = shellName.flatMap(CompletionScript.Shell.init(rawValue:)) else {
            return .failure(UsageError(message: "--generate-completion-script expects bash, zsh or fish, got '\(shellName ?? "")'", command: nil))
        }
        return .success(CompletionScript.script(shell, specs))
    }

    private static func unknownCommandMessage(_ name: String) -> String {
        var message = "unknown subcommand '\(name)'"
        if let guess = Suggestion.closest(to: name, among: commands.map(\.spec.name)) { message += "; did you mean '\(guess)'?" }
        return message
    }

    /// One `error:` message on stderr and the exit code for the kind of error.
    static func report(_ error: Error, _ terminal: Terminal) -> Int32 {
        switch error {
        case let usage as UsageError:
            terminal.error(usage.message)
            if let command = usage.command {
                terminal.err("Usage: \(command.shortUsage)\n  See 'reqrun \(command.name) --help'.\n")
            } else {
                terminal.err("Usage: reqrun <subcommand> [options]\n  See 'reqrun --help'.\n")
            }
            return ExitCode.usage.rawValue
        case let broken as CollectionLoadFailures:
            for failure in broken.failures { terminal.error("\(failure)") }
            return ExitCode.badInput.rawValue
        case is InputError, is WorkspaceError, is SelectionError, is RunStoreError, is ShardError:
            terminal.error("\(error)")
            return ExitCode.badInput.rawValue
        case is SandboxError:
            terminal.error("\(error)")
            return ExitCode.requestError.rawValue
        case is FileError:
            terminal.error("\(error)")
            return ExitCode.ioError.rawValue
        default:
            terminal.error("\(error)")
            return ExitCode.ioError.rawValue
        }
    }
}
