import Foundation
import ReqRunKit

/// `reqrun env list | show [NAME] | use NAME | use --none`: environments of the workspace.
enum EnvCommand {
    /// The state key of the saved environment, beside `expandedGroups`.
    static let stateKey = "environment"

    /// `env show`'s hint for an environment the workspace chose that lies outside it: `env` has no
    /// `--file-root` or `--env`, but a file named by its path is shown (the user typed it).
    static let showOutsideHint = "show the file by its path with 'reqrun env show PATH'"
    /// `env use`'s: the environment in use is read by later runs, so it must lie in the workspace whatever
    /// the path; a file outside it is given to one run.
    static let useOutsideHint = "the environment in use must lie in the workspace; give the file to a run with 'reqrun run --env FILE'"

    static let command = Command(spec: CommandSpec(
        name: "env",
        abstract: "List, show or choose the workspace's environments (environments/NAME.json).",
        discussion: """
            list: every environment, * marking the one in use. show [NAME]: its variables, secrets as ****
            (default: the one in use). use NAME: save the choice in .reqrun/state.json; 'reqrun run' then uses it
            unless --env says otherwise. use --none: forget the choice.
            """,
        options: [.init(name: "--none", valueName: nil, help: "With 'use': use no environment."),
                  .init(name: "--show-secrets", valueName: nil, help: "With 'show': print secret values."),
                  .init(name: "--json", valueName: nil, help: "With 'list': print [{\"name\", \"inUse\"}] as JSON."),
                  .workspace],
        positional: .init(name: "ACTION", help: "list, show [NAME] or use NAME.", repeating: true, optional: false),
        examples: ["reqrun env list", "reqrun env use staging", "reqrun env show"]
    ), run: run)

    static func run(_ arguments: ParsedArguments, _ terminal: Terminal) throws -> ExitCode {
        let action = arguments.positionals[0]
        let rest = Array(arguments.positionals.dropFirst())
        guard rest.count <= 1 else { throw UsageError(message: "unexpected argument '\(rest[1])'", command: command.spec) }
        let workspace = try WorkspaceContext.locate(arguments)
        let store = StateStore(directory: workspace.stateDirectory)
        defer { store.warnings.forEach(terminal.warning) }
        switch action {
        case "list":
            let current = try store.string(forKey: stateKey)
            let names = workspace.environmentNames()
            if arguments.flag("--json") {
                var writer = JSONWriter()
                let listed = names + (current.map { names.contains($0) ? [] : [$0] } ?? [])
                writer.array(listed) { w, name in
                    w.object { w in
                        w.field("name", name)
                        w.field("inUse", name == current)
                    }
                }
                terminal.line(String(decoding: writer.finish(), as: UTF8.self))
                return .success
            }
            if names.isEmpty { terminal.line("No environments (add JSON files to environments/).") }
            for name in names { terminal.line("\(name == current ? "*" : " ") \(Terminal.sanitized(name))") }
            // An environment chosen by file path (`env use path/to/file.json`) is not in environments/.
            if let current, !names.contains(current) { terminal.line("* \(Terminal.sanitized(current))") }
        case "show":
            // Read as `run --env NAME` (or the saved one) reads it: what a run would refuse is not printed.
            guard let environment = try WorkspaceContext.environment(rest.first, in: workspace, roots: workspace.fileRoots(), store: store,
                                                                       outsideHint: showOutsideHint) else {
                // Which names there are, and how to save one: a fresh clone, or a Newman habit (`-e FILE` on each run).
                let names = workspace.environmentNames().map { Terminal.sanitized($0) }
                throw UsageError(message: names.isEmpty
                    ? "no environment in use, and environments/ holds none: name a file (reqrun env show FILE)"
                    : "no environment in use: name one (reqrun env show NAME: \(names.joined(separator: ", "))), or save a choice with 'reqrun env use NAME'",
                    command: command.spec)
            }
            terminal.line(terminal.styled(Terminal.sanitized(environment.name), .bold) + "  " + terminal.styled(Terminal.sanitized(environment.file), .dim))
            for variable in environment.variables {
                let secret = environment.secretNames.contains(variable.name)
                let value = secret && !arguments.flag("--show-secrets") ? SecretMasker.mask : variable.value
                terminal.line("  \(Terminal.sanitized(variable.name)) = \(Terminal.sanitized(value))\(secret ? "  (secret)" : "")")
            }
        case "use":
            if arguments.flag("--none") {
                guard rest.isEmpty else { throw UsageError(message: "give NAME or --none, not both", command: command.spec) }
                try store.setString(nil, forKey: stateKey)
                terminal.line("no environment in use")
                return .success
            }
            guard let name = rest.first else { throw UsageError(message: "name the environment to use, or --none", command: command.spec) }
            // Loading first checks that it exists, reads and lies in the workspace (as a run will check the
            // saved one); nothing is saved otherwise.
            _ = try workspace.loadEnvironment(name, relativeTo: workspace.root, within: workspace.fileRoots(), outsideHint: useOutsideHint)
            try store.setString(name, forKey: stateKey)
            terminal.line("using environment \(Terminal.sanitized(name))")
        default:
            var message = "unknown action '\(action)'"
            if let guess = Suggestion.closest(to: action, among: ["list", "show", "use"]) { message += "; did you mean '\(guess)'?" }
            throw UsageError(message: message, command: command.spec)
        }
        return .success
    }
}
