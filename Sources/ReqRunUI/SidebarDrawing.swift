import Foundation
import ReqRunKit

extension Sidebar {
    /// Draws one frame: the title line, the tree (only the rows that fit: a 100,000-request workspace
    /// draws as fast as a small one), the right pane, the status line.
    func draw() {
        let height = screen.rows, width = screen.columns
        screen.erase()
        guard height >= 4, width >= 20 else {
            screen.put(0, 0, DisplayText.fit("reqrun: window too small", width: width))
            screen.refresh()
            return
        }
        let env = context.environmentName.map { "env: " + $0.escapingTerminalControls() } ?? "env: none"
        let title = "reqrun  " + context.workspace.root.path.escapingTerminalControls() + "  " + env + "  ? keys  q quit"
        screen.put(0, 0, pad(DisplayText.fit(title, width: width), width), .heading)

        let paneHeight = height - 2
        let leftWidth = min(max(24, width * 2 / 5), 60, width - 10)
        drawTree(x: 0, y: 1, width: leftWidth, height: paneHeight)
        for y in 1...paneHeight { screen.put(y, leftWidth, "│", .dim) }
        drawDetail(x: leftWidth + 2, y: 1, width: width - leftWidth - 2, height: paneHeight)
        drawStatus(y: height - 1, width: width)
        screen.refresh()
    }

    private func pad(_ text: String, _ width: Int) -> String {
        let used = DisplayText.columnCount(text)
        return used >= width ? text : text + String(repeating: " ", count: width - used)
    }

    private func drawTree(x: Int, y: Int, width: Int, height: Int) {
        if rows.isEmpty {
            screen.put(y, x, DisplayText.fit(filter != nil ? "nothing matches the filter" : "No collections (add JSON files to collections/).", width: width), .dim)
            return
        }
        if selected < top { top = selected }
        if selected >= top + height { top = selected - height + 1 }
        top = max(0, min(top, max(0, rows.count - height)))
        for line in 0..<min(height, rows.count - top) {
            let index = top + line
            let (text, style) = treeText(rows[index], width: width)
            if index == selected {
                screen.put(y + line, x, pad(text, width), focus == .tree ? .selected : .bold)
            } else {
                screen.put(y + line, x, text, style)
            }
        }
    }

    /// A row as `reqrun list` draws it: `▸ name (N requests)`, `▾ name`, `METHOD name`.
    private func treeText(_ row: OutlineRow, width: Int) -> (String, Screen.Style) {
        let indent = String(repeating: "  ", count: row.depth)
        switch row.kind {
        case .collection(let index):
            let collection = context.collections[index]
            return (DisplayText.fit(collection.name.escapingTerminalControls() + "  " + collection.file.escapingTerminalControls(), width: width - 1), .bold)
        case .group(let group, _):
            let name = group.name.escapingTerminalControls()
            let count = group.requestCount
            let text = row.expanded ? "\(indent)▾ \(name)" : "\(indent)▸ \(name) (\(count) request\(count == 1 ? "" : "s"))"
            return (DisplayText.fit(text, width: width - 1), .plain)
        case .request(let reference):
            let text = indent + reference.request.method.escapingTerminalControls() + " " + reference.request.name.escapingTerminalControls()
            return (DisplayText.fit(text, width: width - 1), .plain)
        }
    }

    private func drawDetail(x: Int, y: Int, width: Int, height: Int) {
        guard width > 0 else { return }
        var lines: [StyledLine]
        switch detail {
        case .preview:
            if let reference = selectedRequest {
                let (configuration, carried) = sendConfiguration(for: reference)
                lines = DetailLines.request(reference, configuration, carried: carried)
            } else if rows.indices.contains(selected), case .group(let group, let path) = rows[selected].kind {
                lines = [StyledLine(path.map { $0.escapingTerminalControls() }.joined(separator: " › "), .bold),
                         StyledLine("\(group.requestCount) request\(group.requestCount == 1 ? "" : "s"), \(rows[selected].expanded ? "expanded" : "collapsed")"),
                         StyledLine("id \(group.id.lowercasedText)", .dim), StyledLine(""),
                         StyledLine("→ or Space expands · ← collapses · r runs every visible request", .dim)]
            } else {
                lines = [StyledLine("Select a request and press Enter to send it; ? lists the keys.", .dim)]
            }
        case .lines(let shown): lines = shown
        case .sending(let what):
            let seconds = Date().timeIntervalSince(worker.startedAt)
            lines = [StyledLine("sending " + what.escapingTerminalControls() + "…", .cyan),
                     StyledLine(String(format: "%.1f s", seconds), .dim), StyledLine(""), StyledLine("Esc cancels", .dim)]
        case .running(let results, let total):
            lines = [StyledLine("running \(results.count)/\(total) visible requests… (Esc cancels)", .cyan)] + results.map(DetailLines.resultLine)
        case .environments(let choice):
            lines = [StyledLine("Environment (saved as 'reqrun env use'): ↑ ↓ and Enter, Esc leaves it", .bold)]
            for (i, name) in ([nil] + context.environmentNames.map { Optional($0) }).enumerated() {
                let current = name == context.environmentName
                let text = "\(current ? "*" : " ") " + (name?.escapingTerminalControls() ?? "(none)")
                lines.append(StyledLine(text, i == choice ? .selected : .plain))
            }
            if context.environmentNames.isEmpty { lines.append(StyledLine("No environments (add JSON files to environments/).", .dim)) }
        }
        // Long lines wrap; only the lines in view are drawn.
        var wrapped: [StyledLine] = []
        for line in lines {
            for piece in DisplayText.wrap(line.text, width: width) { wrapped.append(StyledLine(piece, line.style)) }
            if wrapped.count > detailScroll + height + 10_000 { break }
        }
        detailScroll = min(detailScroll, max(0, wrapped.count - height))
        for (i, line) in wrapped.dropFirst(detailScroll).prefix(height).enumerated() {
            screen.put(y + i, x, line.text, line.style)
        }
    }

    private func drawStatus(y: Int, width: Int) {
        let text: String
        if editingFilter {
            text = "/" + (filter ?? "").escapingTerminalControls() + "▏  Enter keeps the filter, Esc clears it"
        } else if !message.isEmpty {
            text = message.escapingTerminalControls()
        } else if worker.busy {
            text = String(format: "in flight %.1f s · Esc cancels", Date().timeIntervalSince(worker.startedAt))
        } else if let filter {
            text = "filter: " + filter.escapingTerminalControls() + " (Esc clears) · ? keys"
        } else {
            text = "↑↓ move  → ← open/close  Enter send  Tab pane  / filter  r run visible  e env  h history  c curl  ? keys  q quit"
        }
        screen.put(y, 0, DisplayText.fit(text, width: width - 1), message.isEmpty ? .dim : .yellow)
    }
}
