import Foundation

/// Postman `event` scripts (`[{"listen": "prerequest" | "test", "script": {"exec": [lines] | "text"}}]` on
/// a collection, a folder or a request item): JavaScript, kept as `Script`s for `run` (PostmanSandbox) and
/// counted. Their status checks are not translated into expectations: the scripts run and check them
/// (an earlier translation, for `list` and `import` before scripts ran, was removed: it counted twice).
enum PostmanScripts {
    /// The scripts of one item.
    struct Found {
        /// `prerequest` and/or `test`, in that order, when the item has non-empty scripts for them.
        var events: [String] = []
        /// The scripts themselves, in file order, to run.
        var scripts: [Script] = []
    }

    static func read(_ reader: FieldReader, warnings: inout PostmanWarnings) throws(InputError) -> Found {
        var found = Found()
        for (node, path) in try reader.postmanList("event") {
            let event = try FieldReader(file: reader.file, node: node, path: path)
            guard !event.isDisabled, let listen = try event.optionalString("listen"), let scriptNode = event.optional("script") else { continue }
            let lines: [(text: String, node: JSONNode, path: String)]
            switch scriptNode.value {
            case .string(let text):
                lines = [(text, scriptNode, event.childPath("script"))]
            case .object:
                let script = try FieldReader(file: reader.file, node: scriptNode, path: event.childPath("script"))
                if script.isDisabled { continue }
                guard let exec = script.optional("exec") else { continue }
                switch exec.value {
                case .string(let text): lines = [(text, exec, script.childPath("exec"))]
                case .array(let items):
                    lines = try items.enumerated().map { (i, item) throws(InputError) in
                        guard case .string(let text) = item.value else {
                            throw script.error(item, "\(script.childPath("exec"))[\(i)]", "expected a string, found \(item.kindDescription)")
                        }
                        return (text, item, "\(script.childPath("exec"))[\(i)]")
                    }
                default:
                    throw script.error(exec, script.childPath("exec"), "expected an array of lines or a string, found \(exec.kindDescription)")
                }
            default:
                throw event.error(scriptNode, event.childPath("script"), "expected an object, found \(scriptNode.kindDescription)")
            }
            guard lines.contains(where: { !$0.text.allSatisfy(\.isWhitespace) }) else { continue }
            warnings.scripts[listen, default: 0] += 1
            if let event = Script.Event(rawValue: listen) {
                found.scripts.append(Script(event: event, source: lines.map(\.text).joined(separator: "\n"), file: reader.file, fieldPath: path))
                ScriptLoadSignal.scriptLoaded()
            }
            if !found.events.contains(listen) { found.events.append(listen) }
        }
        found.events.sort { $0 == "prerequest" && $1 != "prerequest" }
        return found
    }
}
