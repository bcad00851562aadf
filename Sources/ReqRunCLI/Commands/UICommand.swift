import Foundation
import ReqRunKit
import ReqRunUI

/// `reqrun ui`: the full-screen sidebar (`ReqRunUI.Sidebar`); also what plain `reqrun` opens on a terminal.
enum UICommand {
    static let command = Command(spec: CommandSpec(
        name: "ui",
        abstract: "Browse the workspace full-screen: expand groups, send a request, read its response.",
        discussion: """
            The left pane is the tree 'reqrun list' shows; every expand and collapse is saved at once as 'reqrun
            expand' saves it. Enter sends the selected request and shows its response; every send is recorded as a
            run (see 'reqrun history'). ? lists the keys. Plain 'reqrun' opens it when standard input and output
            are a terminal and a workspace is found. It needs a terminal: elsewhere it exits with 64 (use 'reqrun
            list' and 'reqrun run' or 'reqrun send'). Exit codes: 0 after q, 130 after Ctrl-C, 143 after SIGTERM.
            """,
        options: [
            .init(name: "--var", valueName: "NAME=VALUE", help: "Set a variable for every send, over the environment's and collection's values.", repeatable: true),
            .init(name: "--env", valueName: "NAME|FILE", help: "Use this environment until 'e' picks another (default: the one saved with 'reqrun env use').", short: "-e"),
            .init(name: "--first-frame-only", valueName: nil, help: "Draw the first full frame and exit (for benchmarks: make bench)."),
            .allowEnv, .workspace, .collection, .fileRoot,
        ] + RunScripting.options,
        examples: ["reqrun ui", "reqrun ui --var httpbin=http://127.0.0.1:8080"]
    ), run: run)

    /// Whether plain `reqrun` opens the UI: standard input and output are a terminal, and a workspace is
    /// found from the current folder (otherwise it prints the command list, as before).
    static func opensWithoutArguments() -> Bool {
        guard isatty(0) == 1, isatty(1) == 1 else { return false }
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        return (try? Workspace.locate(from: cwd)) != nil
    }

    static func run(_ arguments: ParsedArguments, _ terminal: Terminal) throws -> ExitCode {
        guard isatty(0) == 1, isatty(1) == 1 else {
            throw UsageError(message: "reqrun ui needs a terminal on standard input and output; use 'reqrun list' to see the tree "
                             + "and 'reqrun run' or 'reqrun send' to send requests", command: command.spec)
        }
        let overrides = try RunCommand.parseVariables(arguments.all("--var"))
        // The sidebar shows the collections that load; each one that does not is a warning, printed before the
        // screen opens, so it is there again when the screen is given back.
        let context = try WorkspaceContext.load(arguments, keepingBroken: true)
        for failure in context.failures { terminal.warning("\(failure) (this collection is left out)") }
        let environment = try context.environment(arguments.value("--env"), terminal)
        let store = context.store
        let savedName = try store.string(forKey: EnvCommand.stateKey)
        // The same rules as `run`: REQRUN_* and --allow-env names only, masked. Every request is listed to narrow
        // the masked values only when some variable is readable: on 100,000 requests the list alone took a
        // good part of the time to the first frame.
        let readable = ProcessEnvironment(ProcessInfo.processInfo.environment, allowing: Set(arguments.all("--allow-env")))
        let processEnvironment = readable.values.isEmpty ? readable : RunCommand.readableEnvironment(
            arguments, Outline(collections: context.collections, expansion: .transient(Outline.allGroupIDs(context.collections))).allRequests(),
            environment, overrides)
        let configuration = RunConfiguration(selection: RunSelection(mode: "send"), environment: environment, overrides: overrides,
                                             processEnvironment: processEnvironment)
        // Postman scripts run on each send as in `run`; JavaScriptCore is loaded by the first script sent.
        let scripting = RunScripting.lazySandbox(for: context.collections, limits: try RunScripting.limits(arguments, command: command.spec))
        let workspace = context.workspace, roots = context.fileRoots
        let sidebar = SidebarContext(
            workspace: workspace, collections: context.collections, store: store, configuration: configuration,
            historyLimit: try context.historyLimit(terminal), environmentNames: workspace.environmentNames(),
            environmentName: arguments.value("--env") ?? savedName,
            useEnvironment: { name in
                // As `reqrun env use`: loaded first, so nothing is saved for one that cannot be read.
                let loaded = try name.map { try workspace.loadEnvironment($0, relativeTo: workspace.root, within: roots) }
                try store.setString(name, forKey: EnvCommand.stateKey)
                return loaded
            },
            scripting: scripting, firstFrameOnly: arguments.flag("--first-frame-only"),
            noColor: !terminal.color.enabled(isTerminal: true))
        let status = try Sidebar.run(sidebar)
        store.warnings.forEach(terminal.warning)
        ProcessLifetime.keepUntilExit(context)
        switch status {
        case 0: return .success
        case 128 + SIGINT: return .interrupted
        default: return .terminated
        }
    }
}
