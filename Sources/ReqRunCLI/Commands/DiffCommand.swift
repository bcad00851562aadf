import Foundation
import ReqRunKit

/// `reqrun diff [RUN_A [RUN_B]]`: per request, what changed between two runs.
enum DiffCommand {
    static let command = Command(spec: CommandSpec(
        name: "diff",
        abstract: "Compare two runs: status, expectation outcome, body hash and time of each request.",
        discussion: """
            With no RUN: the last two runs (older → newer). With one RUN: that run and the one recorded before
            it (for a merged run, the one before its shards). With two: the first, then the second. Requests are paired by collection, group path and name.
            Each line shows a status change (200 → 500), an outcome change (passed → failed), each Postman script
            assertion whose outcome changed ('body ok' passed → failed, paired by name), 'body changed' when
            the bodies' SHA-256 differ (compared only when both bodies are text or JSON), and the change of total
            time in percent. Unchanged requests show only their time change; a request in only one run is marked
            + (added) or - (removed).
            """,
        options: [.init(name: "--ignore-time", valueName: nil, help: "Leave out time changes, and the requests with nothing else changed."),
                  .init(name: "--json", valueName: nil, help: "Print the comparison as JSON."),
                  .workspace],
        positional: .init(name: "RUN", help: "Run ids or unique prefixes: none (the last two), one (it and the run before it), or the earlier then the later.",
                          repeating: true, optional: true),
        examples: ["reqrun diff", "reqrun diff 20261129-1342", "reqrun diff 20261129-1340 20261129-1342 --ignore-time"]
    ), run: run)

    static func run(_ arguments: ParsedArguments, _ terminal: Terminal) throws -> ExitCode {
        guard arguments.positionals.count <= 2 else {
            throw UsageError(message: "expected at most two runs, got \(arguments.positionals.count)", command: command.spec)
        }
        let workspace = try WorkspaceContext.locate(arguments)
        let store = RunStore(directory: workspace.runsDirectory)
        let (before, after) = try pair(arguments.positionals, store)
        let diff = try RunDiff(before: before, after: after)
        let ignoreTime = arguments.flag("--ignore-time")
        if arguments.flag("--json") {
            terminal.out(json(diff, ignoreTime: ignoreTime))
            return .success
        }
        // One text for all the rows, written out every 64 KiB: not a locked append per line.
        var text = "\(Terminal.sanitized(diff.before.id)) → \(Terminal.sanitized(diff.after.id))\n"
        func flush(atLeast limit: Int) {
            guard text.utf8.count >= limit else { return }
            terminal.out(text)
            text.removeAll(keepingCapacity: true)
        }
        var changed = 0, onlyTime = 0
        for row in diff.rows {
            flush(atLeast: 1 << 16)
            // A request in only one of the runs: added or removed, nothing to compare.
            if row.before == nil || row.after == nil {
                changed += 1
                let added = row.before == nil
                text += terminal.styled("\(added ? "+" : "-") \(Terminal.sanitized(row.label))  \(added ? "added" : "removed")", added ? .green : .red)
                text += "\n"
                continue
            }
            var parts = changes(row)
            if !parts.isEmpty { changed += 1 } else if ignoreTime { continue }
            text += parts.isEmpty ? " " : terminal.styled("~", .yellow)
            text += " "
            text += Terminal.sanitized(row.label)
            text += "  "
            if !ignoreTime, let percent = row.timeChangePercent {
                if parts.isEmpty { onlyTime += 1 }
                parts.append("time " + percentText(percent) + "%")
            }
            text += parts.joined(separator: ", ")
            text += "\n"
        }
        flush(atLeast: 0)
        // Times differ in every run: on a large suite these rows are most of the output, so say how to drop them.
        let timeNote = onlyTime == 0 ? "" : " (\(onlyTime) more only in time; --ignore-time leaves those out)"
        terminal.line("\n\(changed) of \(diff.rows.count) request\(diff.rows.count == 1 ? "" : "s") changed\(timeNote)")
        return .success
    }

    /// The two records to compare: the last two, RUN and the one before it, or the two named. The run before
    /// a merged run (`reqrun merge`) is the newest earlier record that is not one of its parts
    /// (`selection.merged.runs`): its shards hold its own results, split, not the previous run's.
    /// - Throws: `RunStoreError` for an unknown or ambiguous run, or when there is no earlier run.
    static func pair(_ names: [String], _ store: RunStore) throws -> (RecordReader, RecordReader) {
        if names.count == 2 { return (try store.open(names[0]), try store.open(names[1])) }
        let ids = try store.ids()  // newest first
        let after = try store.open(names.first)
        let parts = Set(after.head.selection.merged?.runs ?? [])
        guard let position = ids.firstIndex(of: after.head.id),
              let earlier = ids[(position + 1)...].first(where: { !parts.contains($0) }) else {
            throw RunStoreError.noEarlierRun(after.head.id, skippedParts: ids.filter(parts.contains).count)
        }
        return (try store.open(earlier), after)
    }

    /// `percent` as `String(format: "%+.0f")` writes it (`+12`, `-0`, `+0`; a half to the even neighbour, as
    /// C's `printf` rounds the exact value): `String(format:)` per row was 7 % of `diff`'s instructions.
    static func percentText(_ percent: Double) -> String {
        let rounded = percent.rounded(.toNearestOrEven)
        guard rounded.magnitude < 1e15 else { return String(format: "%+.0f", percent) }
        return (rounded.sign == .minus ? "-" : "+") + String(Int(rounded.magnitude))
    }

    /// `status 200 → 500`, `passed → failed`, `body changed`: what changed, time apart.
    private static func changes(_ row: RunDiff.Row) -> [String] {
        var parts: [String] = []
        if let change = row.statusChange { parts.append("status \(change)") }
        if let change = row.outcomeChange { parts.append(change) }
        parts += row.assertionChanges
        if row.bodyChanged { parts.append("body changed") }
        return parts
    }

    /// `{"before": ID, "after": ID, "changed": N, "requests": [{"request", "change", "status", "outcome",
    /// "assertions", "bodyChanged", "bodyCompared", "timeChangePercent"}]}`: `change` is `added`, `removed`, `changed` or
    /// `unchanged`; `status` and `outcome` are `{"before", "after"}` when they changed.
    static func json(_ diff: RunDiff, ignoreTime: Bool) -> String {
        var writer = JSONWriter()
        var changed = 0
        writer.object { w in
            w.field("before", diff.before.id)
            w.field("after", diff.after.id)
            w.field("requests", diff.rows.filter { !ignoreTime || $0.before == nil || $0.after == nil || !changes($0).isEmpty }) { w, row in
                let change = row.before == nil ? "added" : row.after == nil ? "removed" : changes(row).isEmpty ? "unchanged" : "changed"
                if change != "unchanged" { changed += 1 }
                w.object { w in
                    w.field("request", row.label)
                    w.field("change", change)
                    if row.statusChange != nil {
                        w.key("status")
                        w.object { w in
                            w.field("before", row.before?.status ?? "(absent)")
                            w.field("after", row.after?.status ?? "(absent)")
                        }
                    }
                    if row.outcomeChange != nil {
                        w.key("outcome")
                        w.object { w in
                            w.field("before", row.before?.verdict ?? "(absent)")
                            w.field("after", row.after?.verdict ?? "(absent)")
                        }
                    }
                    let assertions = row.assertionChanges
                    if !assertions.isEmpty { w.field("assertions", assertions) { w, change in w.string(change) } }
                    w.field("bodyCompared", row.bodyCompared)
                    w.field("bodyChanged", row.bodyChanged)
                    if !ignoreTime, let percent = row.timeChangePercent {
                        w.key("timeChangePercent")
                        w.raw(Array(String(format: "%.1f", percent).utf8))
                    }
                }
            }
            w.field("changed", changed)
        }
        return String(decoding: writer.finish(), as: UTF8.self) + "\n"
    }
}
