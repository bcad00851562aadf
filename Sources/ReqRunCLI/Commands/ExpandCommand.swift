import Foundation
import ReqRunKit

/// `reqrun expand GROUP...` and `reqrun collapse GROUP...`: change the saved expanded set.
enum ExpandCommand {
    static let expand = Command(spec: spec(expanding: true), run: { try run($0, $1, expanding: true) })
    static let collapse = Command(spec: spec(expanding: false), run: { try run($0, $1, expanding: false) })

    private static func spec(expanding: Bool) -> CommandSpec {
        let verb = expanding ? "expand" : "collapse"
        return CommandSpec(
            name: verb,
            abstract: expanding ? "Expand groups and save the expanded set." : "Collapse groups and save the expanded set.",
            discussion: """
                GROUP is a group's name, its path from the top (Parent/Child, optionally starting with the collection
                name), its id, or a unique prefix of its id. \(expanding ? "Expanding" : "Collapsing") a group that already is
                changes nothing. The set is saved in .reqrun/state.json under the key expandedGroups.
                """,
            options: [.init(name: "--all", valueName: nil, help: "\(expanding ? "Expand" : "Collapse") every group."),
                      .workspace, .collection, .fileRoot],
            positional: .init(name: "GROUP", help: "The groups to \(verb).", repeating: true, optional: true),
            examples: ["reqrun \(verb) httpbin.org", "reqrun \(verb) 'Parent/Child' 7bbd0224", "reqrun \(verb) --all"])
    }

    static func run(_ arguments: ParsedArguments, _ terminal: Terminal, expanding: Bool) throws -> ExitCode {
        let verb = expanding ? "expand" : "collapse"
        let all = arguments.flag("--all")
        if all == !arguments.positionals.isEmpty {
            throw UsageError(message: all ? "give either --all or GROUP names, not both" : "name the groups to \(verb), or use --all",
                             command: expanding ? expand.spec : collapse.spec)
        }
        let context = try WorkspaceContext.load(arguments, keepingBroken: !all)
        let targets = all ? GroupIndex.entries(context.collections)
                          : try context.resolving(terminal) { try GroupResolver.resolve(arguments.positionals, in: context.collections) }
        guard !targets.isEmpty else {
            terminal.line("no groups in this workspace")
            return .success
        }
        let store = context.store
        var changed: [GroupEntry] = []
        try store.update { ids in
            changed = []
            for entry in targets {
                let didChange = expanding ? ids.insert(entry.group.id).inserted : ids.remove(entry.group.id) != nil
                if didChange { changed.append(entry) }
            }
        }
        store.warnings.forEach(terminal.warning)
        let pastTense = expanding ? "expanded" : "collapsed"
        if changed.isEmpty {
            terminal.line(targets.count == 1 ? "\(Terminal.sanitized(targets[0].displayPath)) was already \(pastTense)"
                                             : "no change: \(all ? "every group" : "every group named") was already \(pastTense)")
        } else {
            for entry in changed { terminal.line("\(pastTense) \(Terminal.sanitized(entry.displayPath))") }
            let unchanged = targets.count - changed.count
            if unchanged > 0 { terminal.line("(\(unchanged) already \(pastTense))") }
        }
        return .success
    }
}
