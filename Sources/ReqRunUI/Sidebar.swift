import Foundation
import ReqRunKit

/// `reqrun ui`: the workspace's outline on the left (the rows `reqrun list` shows, `Outline.rows`), the
/// selected request or its response on the right.
public final class Sidebar {
    enum Focus { case tree, detail }

    /// What the right pane holds besides the selected request's preview.
    enum Detail {
        case preview
        case lines([StyledLine])
        case sending(String)
        case running([RequestResult], total: Int)
        case environments(selected: Int)
    }

    var context: SidebarContext
    let screen = Screen()
    let worker = SendWorker()
    var expanded: Set<UUID>
    var rows: [OutlineRow] = []
    var selected = 0
    var top = 0
    var focus = Focus.tree
    var detail = Detail.preview
    var detailScroll = 0
    var filter: String?
    var editingFilter = false
    /// One line for the status bar (a warning, what was saved); cleared by the next key.
    var message = ""
    /// Set by `q`: the exit status.
    var quit: Int32?

    init(_ context: SidebarContext) throws {
        self.context = context
        expanded = try context.store.expandedGroups()
        rebuild()
    }

    /// Runs the UI until `q`, a signal or the first frame (`firstFrameOnly`).
    /// - Returns: the exit status: 0, or 128 + the signal's number.
    public static func run(_ context: SidebarContext) throws -> Int32 {
        let sidebar = try Sidebar(context)
        return sidebar.loop()
    }

    private func loop() -> Int32 {
        SignalFlag.install()
        screen.start(noColor: context.noColor)
        defer {
            screen.stop()
            ScreenRestore.uninstall()
        }
        draw()
        if context.firstFrameOnly { return 0 }
        while quit == nil {
            let key = screen.readKey(timeoutMilliseconds: 100)
            if let number = SignalFlag.signalNumber {
                worker.cancelAndWait(seconds: 2)
                return 128 + number
            }
            var changed = absorbEvents()
            if let key {
                handle(key)
                changed = true
            }
            if changed || worker.busy { draw() }
        }
        if worker.busy {
            worker.cancelAndWait(seconds: 2)
        }
        return quit ?? 0
    }

    // MARK: - Tree

    var outline: Outline { Outline(collections: context.collections, expansion: .saved(expanded)) }

    /// Rebuilds the rows after a change of expansion or filter, keeping the selection on the same group or
    /// request where it can.
    func rebuild() {
        let previous = rows.indices.contains(selected) ? identity(rows[selected]) : nil
        rows = outline.rows(matching: filter)
        if let previous, let index = rows.firstIndex(where: { identity($0) == previous }) {
            selected = index
        }
        selected = min(max(0, selected), max(0, rows.count - 1))
    }

    private func identity(_ row: OutlineRow) -> String {
        switch row.kind {
        case .collection(let index): return "c\(index)"
        case .group(let group, _): return "g\(group.id)"
        case .request(let reference): return "r\(reference.index)"
        }
    }

    var selectedRequest: RequestReference? {
        guard rows.indices.contains(selected), case .request(let reference) = rows[selected].kind else { return nil }
        return reference
    }

    /// Saves the expansion of `id` through the state store (lock, atomic write), as `reqrun expand` does.
    func setExpanded(_ id: UUID, _ open: Bool) {
        do {
            expanded = try context.store.update { ids in
                if open { ids.insert(id) } else { ids.remove(id) }
            }
            message = context.store.warnings.last ?? ""
        } catch {
            message = "could not save the expanded set: \(error)"
        }
        rebuild()
    }

    func move(to index: Int) {
        let index = min(max(0, index), max(0, rows.count - 1))
        if index != selected {
            selected = index
            detail = .preview
            detailScroll = 0
        }
    }

    // MARK: - Keys

    func handle(_ key: Screen.Key) {
        if editingFilter { return editFilter(key) }
        if case .environments(let choice) = detail { return pickEnvironment(key, choice) }
        if key != .resize { message = "" }
        switch key {
        case .character("q"): quit = 0
        case .tab: focus = focus == .tree ? .detail : .tree
        case .character("?"): show(DetailLines.help)
        case .escape:
            if worker.busy {
                worker.cancel()
                message = "cancelling…"
            } else if filter != nil {
                filter = nil
                rebuild()
            } else {
                detail = .preview
            }
        case .character("/"):
            editingFilter = true
            filter = filter ?? ""
        case .character("r"): runVisible()
        case .character("e"): detail = .environments(selected: (context.environmentName.flatMap { context.environmentNames.firstIndex(of: $0) } ?? -1) + 1)
        case .character("h"):
            if let reference = selectedRequest { show(DetailLines.history(reference, workspace: context.workspace)) } else { message = "h: select a request" }
        case .character("c"): showCurl()
        case .resize: break
        default:
            if focus == .detail { scrollDetail(key) } else { moveInTree(key) }
        }
    }

    private func show(_ lines: [StyledLine]) {
        detail = .lines(lines)
        detailScroll = 0
    }

    private func moveInTree(_ key: Screen.Key) {
        let page = max(1, screen.rows - 3)
        switch key {
        case .up, .character("k"): move(to: selected - 1)
        case .down, .character("j"): move(to: selected + 1)
        case .pageUp: move(to: selected - page)
        case .pageDown: move(to: selected + page)
        case .home: move(to: 0)
        case .end: move(to: rows.count - 1)
        case .right:
            guard rows.indices.contains(selected) else { return }
            let row = rows[selected]
            if let id = row.groupID, !row.expanded {
                setExpanded(id, true)
            } else if row.groupID != nil || { if case .collection = row.kind { true } else { false } }(),
                      rows.indices.contains(selected + 1), rows[selected + 1].parent == selected {
                move(to: selected + 1)
            }
        case .left:
            guard rows.indices.contains(selected) else { return }
            let row = rows[selected]
            if let id = row.groupID, row.expanded, filter == nil {
                setExpanded(id, false)
            } else if let parent = row.parent {
                move(to: parent)
            }
        case .character(" "):
            guard rows.indices.contains(selected), let id = rows[selected].groupID else { return }
            setExpanded(id, !expanded.contains(id))
        case .enter:
            if let reference = selectedRequest {
                send(reference)
            } else if let id = rows.indices.contains(selected) ? rows[selected].groupID : nil {
                setExpanded(id, !expanded.contains(id))
            }
        default: break
        }
    }

    private func scrollDetail(_ key: Screen.Key) {
        let page = max(1, screen.rows - 3)
        switch key {
        case .up, .character("k"): detailScroll -= 1
        case .down, .character("j"): detailScroll += 1
        case .pageUp: detailScroll -= page
        case .pageDown, .character(" "): detailScroll += page
        case .home: detailScroll = 0
        case .end: detailScroll = Int.max / 2
        default: break
        }
        detailScroll = max(0, detailScroll)
    }

    private func editFilter(_ key: Screen.Key) {
        switch key {
        case .enter: editingFilter = false
        case .escape:
            editingFilter = false
            filter = nil
        case .backspace:
            if filter?.isEmpty == false { filter!.removeLast() }
        case .character(let c): filter = (filter ?? "") + String(c)
        default: return
        }
        if filter?.isEmpty == true, !editingFilter { filter = nil }
        selected = 0
        rebuild()
    }

    private func pickEnvironment(_ key: Screen.Key, _ choice: Int) {
        let count = context.environmentNames.count + 1
        switch key {
        case .up, .character("k"): detail = .environments(selected: max(0, choice - 1))
        case .down, .character("j"): detail = .environments(selected: min(count - 1, choice + 1))
        case .escape, .character("q"): detail = .preview
        case .enter:
            let name = choice == 0 ? nil : context.environmentNames[choice - 1]
            do {
                context.configuration.environment = try context.useEnvironment(name)
                context.environmentName = name
                message = name.map { "using environment \($0.escapingTerminalControls())" } ?? "no environment in use"
            } catch {
                message = "\(error)".escapingTerminalControls()
            }
            detail = .preview
        default: break
        }
    }

    // MARK: - Sending

    /// What a send of `reference` uses, as `reqrun send`: the UI's configuration, with the values earlier runs
    /// captured for the variables nothing else defines (`EarlierCaptures`), and those values.
    func sendConfiguration(for reference: RequestReference) -> (RunConfiguration, carried: [CapturedValue]) {
        var configuration = context.configuration
        let carried = EarlierCaptures.carry(into: &configuration, for: [reference],
                                            from: CaptureStore(directory: context.workspace.stateDirectory))
        return (configuration, carried)
    }

    private func send(_ reference: RequestReference) {
        let (configuration, carried) = sendConfiguration(for: reference)
        guard worker.send(reference, configuration: configuration, workspace: context.workspace, historyLimit: context.historyLimit,
                          scripting: context.scripting) else {
            message = "a send is in flight: Esc cancels it"
            return
        }
        message = carried.map(\.origin).joined(separator: "; ")
        detail = .sending("\(reference.request.method) \(reference.request.name)")
        detailScroll = 0
    }

    private func runVisible() {
        let references = outline.visibleRequests()
        guard !references.isEmpty else {
            message = "no visible requests: expand a group first"
            return
        }
        var configuration = context.configuration
        configuration.selection = RunSelection(mode: "expanded", overriddenVariables: configuration.overrides.keys.sorted())
        guard worker.run(references, configuration: configuration, workspace: context.workspace, historyLimit: context.historyLimit,
                         scripting: context.scripting) else {
            message = "a send is in flight: Esc cancels it"
            return
        }
        detail = .running([], total: references.count)
        detailScroll = 0
    }

    /// Moves what the send's thread posted into the right pane. Returns whether anything changed.
    private func absorbEvents() -> Bool {
        let events = worker.take()
        for event in events {
            switch event {
            case .result(let result):
                if case .running(var results, let total) = detail {
                    results.append(result)
                    detail = .running(results, total: total)
                }
            case .finished(let record, _):
                if case .running = detail {
                    var lines = record.results.map(DetailLines.resultLine)
                    lines.insert(StyledLine(record.summary.text, .bold), at: 0)
                    lines.append(StyledLine(""))
                    lines.append(StyledLine("recorded as run \(record.id)", .dim))
                    show(lines)
                } else if case .sending = detail, let result = record.results.first {
                    show(DetailLines.response(result, recordedAs: record.id))
                } else {
                    message = "run \(record.id) recorded"
                }
            case .failed(let error):
                message = "the run record could not be saved: \(error)".escapingTerminalControls()
                if case .sending = detail { detail = .preview }
            }
        }
        return !events.isEmpty
    }

    private func showCurl() {
        guard let reference = selectedRequest else {
            message = "c: select a request"
            return
        }
        switch CurlCommand.commandLine(for: reference, configuration: context.configuration) {
        case .success(let line):
            show([StyledLine("curl command (reqrun show --curl)", .bold)] + DisplayText.lines(line).map { StyledLine($0) })
        case .failure(.webSocket):
            show([StyledLine("this request " + CurlCommand.Refusal.webSocket.description, .red)])
        case .failure(let failure):
            show([StyledLine("cannot build the request: " + failure.description.escapingTerminalControls(), .red)])
        }
    }
}
