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
            scripts is marked [scripts: …] (run by 'reqrun run').
            """,
        options: [
            .init(name: "--all", valueName: nil, help: "Show every group expanded, without changing the saved state."),
            .init(name: "--json", valueName: nil, help: "Print the tree as JSON, with ids and expanded/visible flags."),
            .workspace, .collection, .fileRoot,
        ],
        examples: ["reqrun list", "reqrun list --all --json"]
    ), run: run)

    static func run(_ arguments: ParsedArguments, _ terminal: Terminal) throws -> ExitCode {
        let context = try WorkspaceContext.load(arguments)
        let expansion: Expansion = arguments.flag("--all")
            ? .transient(Outline.allGroupIDs(context.collections))
            : .saved(try context.savedExpansion(terminal))
        let outline = Outline(collections: context.collections, expansion: expansion)
        if arguments.flag("--json") {
            let tree = OutlineTree(outline, workspace: context.workspace)
            tree.writeJSON(to: terminal.outBytes)
            ProcessLifetime.keepUntilExit((context, outline, tree))
        } else {
            render(outline, terminal)
        }
        return .success
    }

    static func render(_ outline: Outline, _ terminal: Terminal) {
        if outline.collections.isEmpty {
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
