import Foundation

/// Postman `event` scripts (`[{"listen": "prerequest" | "test", "script": {"exec": [lines] | "text"}}]` on
/// a collection, a folder or a request item): JavaScript, kept as `Script`s for `run` (PostmanSandbox). They
/// are counted, and the common status-code checks of test scripts are translated into `status`
/// expectations marked `isTranslated`: `import`, which cannot write scripts, keeps them; a run that runs
/// the script checks the script instead.
///
/// Translated (each with a literal status code; chai-postman's names for `pm.response.to.be.…`):
/// - `pm.response.to.have.status(200)`;
/// - `pm.response.to.be.ok` (200), `.accepted` (202), `.badRequest` (400), `.unauthorized` (401),
///   `.forbidden` (403), `.notFound` (404), `.rateLimited` (429), `.info` (1xx), `.success` (2xx),
///   `.redirection` (3xx), `.clientError` (4xx), `.serverError` (5xx), `.error` (4xx or 5xx);
/// - `pm.expect(pm.response.code).to.eql(200)`, also `.equal`, `.equals`, `.eq`, `.to.be.equal(…)`, and
///   `.to.be.oneOf([200, 201])`; `responseCode.code` in place of `pm.response.code`;
/// - `pm.response.code === 200` (or `==`) as a whole test inside `pm.test(…)`, and
///   `tests["…"] = responseCode.code === 200` (or `pm.response.code`, `==`, in parentheses).
///
/// Never translated: a check inside an `if`, `else`, loop, `switch` or `catch` block (it may not run), in a
/// `//` comment, negated (`to.not…`), or combined with `&&`, `||`, `!` or `?`.
enum PostmanScripts {
    /// The scripts of one item.
    struct Found {
        /// `prerequest` and/or `test`, in that order, when the item has non-empty scripts for them.
        var events: [String] = []
        var expectations: [ExpectationSpec] = []
        /// The statements translated, in order.
        var translated: [String] = []
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
            }
            if !found.events.contains(listen) { found.events.append(listen) }
            if listen == "test" {
                for check in StatusCheckScanner.scan(lines.map(\.text)) {
                    let line = lines[check.line]
                    found.translated.append(check.statement)
                    warnings.translated[check.statement, default: 0] += 1
                    // `to.be.ok` next to `to.have.status(200)` says the same thing once.
                    if found.expectations.contains(where: { $0.expectation == .status(codes: check.codes, classes: check.classes) }) { continue }
                    found.expectations.append(ExpectationSpec(expectation: .status(codes: check.codes, classes: check.classes),
                                                              fieldPath: line.path, location: line.node.location, isTranslated: true))
                }
            }
        }
        found.events.sort { $0 == "prerequest" && $1 != "prerequest" }
        return found
    }
}
