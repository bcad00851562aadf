import Foundation
import ReqRunKit

/// `reqrun list [--all] [--json]`: the outline of collections, groups and requests.
enum ListCommand {
    static let command = Command(spec: CommandSpec(
        name: "list",
        abstract: "Show collections, groups and requests; collapsed groups show only their request count.",
        discussion: """
            ▾ marks an expanded group, ▸ a collapsed one. --all shows every group expanded for this listing
            only: the saved expanded set is not changed. A request imported from a Postman collection with
            scripts is marked [scripts: …] (run by 'reqrun run'). A collection
            file that does not load is left out of the tree and its error printed (file:line:column), and list
            exits 2 once the others are shown.
            """,
        options: [
            .init(name: "--all", valueName: nil, help: "Show every group expanded, without changing the saved state."),
            .init(name: "--json", valueName: nil, help: "Print the tree as JSON, with ids and expanded/visible flags."),
            .workspace, .collection, .fileRoot,
            .init(name: "--names", valueName: "KIND", help: "For shell completions: print names one a line.", hidden: true),
        ],
        examples: ["reqrun list", "reqrun list --all --json"]
    ), run: run)

    static func run(_ arguments: ParsedArguments, _ terminal: Terminal) throws -> ExitCode {
        if let kind = arguments.value("--names") { return try names(kind, arguments, terminal) }
        let context = try WorkspaceContext.load(arguments, keepingBroken: true, scriptsNotice: .notRun(command: "list"))
        let expansion: Expansion = arguments.flag("--all")
            ? .transient(Outline.allGroupIDs(context.collections))
            : .saved(try context.savedExpansion(terminal))
        let outline = Outline(collections: context.collections, expansion: expansion)
        if arguments.flag("--json") {
            outline.writeJSON(workspace: context.workspace, to: terminal.outBytes)
            ProcessLifetime.keepUntilExit((context, outline))
        } else {
            render(outline, terminal, someDidNotLoad: !context.failures.isEmpty)
        }
        // After the tree, so the error is the last thing on the screen.
        for failure in context.failures { terminal.error("\(failure)") }
        return context.failures.isEmpty ? .success : .badInput
    }

    /// `list --names KIND` (hidden): the names shell completions offer (`Completion.NameKind`), one a line, in
    /// list order without repeats. A name holding a control character or a bidirectional override is left
    /// out: the shell would put it on the command line or the screen as it is. Collections that do not load
    /// are left out silently.
    static func names(_ kindText: String, _ arguments: ParsedArguments, _ terminal: Terminal) throws -> ExitCode {
        guard let kind = Completion.NameKind(rawValue: kindText) else {
            throw UsageError(message: "--names expects one of \(Completion.NameKind.allCases.map(\.rawValue).joined(separator: ", ")), got '\(kindText)'",
                             command: command.spec)
        }
        var names: [String] = []
        switch kind {
        case .environments: names = try WorkspaceContext.locate(arguments).environmentNames()
        case .runs: names = try RunStore(directory: WorkspaceContext.locate(arguments).runsDirectory).ids()
        case .targets, .groups, .requests:
            let context = try WorkspaceContext.load(arguments, warningsTo: terminal.onStandardError(), keepingBroken: true)
            if kind == .targets { names += context.collections.map(\.name) }
            if kind != .requests {
                for entry in GroupIndex.entries(context.collections) {
                    names.append(entry.group.name)
                    if entry.namePath.count > 1 { names.append(entry.displayPath) }
                }
            }
            if kind != .groups {
                let outline = Outline(collections: context.collections, expansion: .transient(Outline.allGroupIDs(context.collections)))
                names += outline.allRequests().map { ($0.groupPath + [$0.request.name]).joined(separator: "/") }
            }
        }
        var seen = Set<String>()
        for name in names where !name.isEmpty && name.escapingTerminalControls(multiline: false) == name && seen.insert(name).inserted {
            terminal.line(name)
        }
        return .success
    }

    static func render(_ outline: Outline, _ terminal: Terminal, someDidNotLoad: Bool = false) {
        if outline.collections.isEmpty, !someDidNotLoad {
            terminal.line("No collections (add JSON files to collections/).")
        }
        for collection in outline.collections {
            terminal.line(terminal.styled(Terminal.sanitized(collection.name), .bold) + "  " + terminal.styled(Terminal.sanitized(collection.file), .dim))
            for group in collection.groups { render(group, depth: 1, outline, terminal) }
        }
    }

    private static func render(_ group: RequestGroup, depth: Int, _ outline: Outline, _ terminal: Terminal) {
        let indent = String(repeating: "  ", count: depth)
        let name = Terminal.sanitized(group.name)
        guard outline.isExpanded(group) else {
            let count = group.requestCount
            terminal.line("\(indent)▸ \(name) " + terminal.styled("(\(count) request\(count == 1 ? "" : "s"))", .dim))
            return
        }
        terminal.line("\(indent)▾ \(name)")
        for item in group.items {
            switch item {
            case .request(let request):
                var text = "\(indent)    \(Terminal.padded(Terminal.sanitized(request.method), 4)) "
                    + Terminal.sanitized(request.url)
                if request.name != request.url { text += "  " + terminal.styled(Terminal.sanitized(request.name), .dim) }
                if let scripts = request.scripts { text += "  " + terminal.styled(Terminal.sanitized(scriptMark(scripts)), .yellow) }
                terminal.line(text)
            case .group(let child):
                render(child, depth: depth + 1, outline, terminal)
            }
        }
    }

    /// `[scripts: prerequest, test]` after a request of a Postman collection with scripts.
    static func scriptMark(_ scripts: SkippedScripts) -> String {
        "[scripts: " + scripts.events.joined(separator: ", ") + "]"
    }
}
