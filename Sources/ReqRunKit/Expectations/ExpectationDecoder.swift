import Foundation

/// Reads `expect` and `capture` arrays of a request. Regular expressions and JSONPaths are checked here, at
/// load time, so a typo is an input error with its location rather than a failure in the middle of a run.
enum ExpectationDecoder {
    static func expectations(_ reader: FieldReader) throws(InputError) -> [ExpectationSpec] {
        var result: [ExpectationSpec] = []
        for (node, path) in try reader.optionalArray("expect") {
            if case .string(let text) = node.value {
                let check = try check(text, node, file: reader.file, path: path, capture: false)
                result.append(ExpectationSpec(expectation: .check(check), fieldPath: path, location: node.location))
                continue
            }
            let item = try FieldReader(file: reader.file, node: node, path: path)
            result.append(ExpectationSpec(expectation: try expectation(item), fieldPath: path, location: node.location))
        }
        return result
    }

    static func expectation(_ item: FieldReader) throws(InputError) -> Expectation {
        let subjects = ["status", "header", "body", "json", "timeBelow", "bodySize", "bodySizeBelow"]
        let present = subjects.filter { item.optional(.named($0)) != nil }
        guard present.count == 1 else {
            throw item.error(item.node, item.path, present.isEmpty
                ? "an expectation needs one of \(subjects.map { "'\($0)'" }.joined(separator: ", "))"
                : "an expectation has one subject, found \(present.map { "'\($0)'" }.joined(separator: " and "))")
        }
        switch present[0] {
        case "status":
            try item.rejectUnknownKeys(["status"])
            return try status(item.required("status"), item, item.childPath("status"))
        case "header":
            try item.rejectUnknownKeys(["header", "equals", "contains", "matches", "exists"])
            return .header(name: try item.requiredString("header"), try textCheck(item))
        case "body":
            try item.rejectUnknownKeys(["body"])
            let body = try FieldReader(file: item.file, node: try item.required("body"), path: item.childPath("body"))
            try body.rejectUnknownKeys(["equals", "contains", "matches"])
            return .body(try textCheck(body))
        case "json":
            try rejectTextOperators(item)
            try item.rejectUnknownKeys(["json", "equals", "exists", "type"])
            let path = try jsonPath(item, key: "json")
            let checks = ["equals", "exists", "type"].filter { item.optional(.named($0)) != nil || ($0 == "equals" && item.members.contains { $0.key == "equals" }) }
            guard checks.count == 1 else {
                throw item.error(item.node, item.path, "a json expectation needs exactly one of 'equals', 'exists', 'type'")
            }
            switch checks[0] {
            case "equals":
                // `"equals": null` is a real expectation, so the member is read even when its value is null.
                return .json(path: path, .equals(item.members.first { $0.key == "equals" }!.value))
            case "exists":
                return .json(path: path, .exists(try bool(item, "exists")))
            default:
                let type = try item.requiredString("type")
                guard Expectation.jsonTypes.contains(type) else {
                    throw item.error(item.optional("type")!, item.childPath("type"),
                                     "unknown JSON type '\(type)'; expected one of \(Expectation.jsonTypes.joined(separator: ", "))")
                }
                return .json(path: path, .type(type))
            }
        case "timeBelow":
            try item.rejectUnknownKeys(["timeBelow"])
            return .timeBelow(milliseconds: try nonNegativeInteger(item, "timeBelow"))
        default:
            let key = present[0]
            try item.rejectUnknownKeys([key])
            return .bodySize(bytes: try nonNegativeInteger(item, .named(key)), below: key == "bodySizeBelow")
        }
    }

    /// A json expectation written with a header check's `contains` or `matches`: an error that names the
    /// fields a json expectation takes and the check grammar's string form of the same check (its path, and
    /// its value when that is a short string without `'` or `\`), rather than only "unknown field".
    private static func rejectTextOperators(_ item: FieldReader) throws(InputError) {
        guard let member = item.members.first(where: { $0.key == "contains" || $0.key == "matches" }) else { return }
        var path = "$.name"
        if case .string(let text)? = item.optional("json")?.value { path = text }
        var value = "…"
        if case .string(let text) = member.value.value, text.count <= 60, !text.contains("'"), !text.contains("\\") { value = text }
        throw InputError(file: item.file, location: member.keyLocation, fieldPath: item.childPath(member.key),
                         reason: "a json expectation takes 'equals', 'exists' or 'type', not '\(member.key)'; "
                             + "write it as a check instead: \"\(path) \(member.key) '\(value)'\"")
    }

    /// A check of the check grammar written in the string `node`; a syntax error points at its column
    /// (counted from the opening quote, exact when no escape sequence comes before the problem).
    static func check(_ text: String, _ node: JSONNode, file: String, path: String, capture: Bool) throws(InputError) -> Check {
        do {
            return try CheckParser.parse(text, capture: capture)
        } catch {
            let prefix = String(String.UnicodeScalarView(text.unicodeScalars.prefix(error.offset)))
            let location = SourceLocation(line: node.location.line, column: node.location.column + 1 + prefix.utf8.count)
            // The check and a caret under the problem, as compilers show a line.
            let reason = error.reason + "\n    \(text)\n    \(String(repeating: " ", count: prefix.count))^"
            throw InputError(file: file, location: location, fieldPath: path, reason: reason)
        }
    }

    private static func status(_ node: JSONNode, _ item: FieldReader, _ path: String) throws(InputError) -> Expectation {
        var codes: [Int] = [], classes: [Int] = []
        func add(_ node: JSONNode) throws(InputError) {
            switch node.value {
            case .number(let text):
                guard let code = Int(text), (100...599).contains(code) else {
                    throw item.error(node, path, "expected a status code from 100 to 599, found \(text)")
                }
                codes.append(code)
            case .string(let text):
                let chars = Array(text.lowercased())
                guard chars.count == 3, let digit = chars[0].wholeNumberValue, (1...5).contains(digit), chars[1] == "x", chars[2] == "x" else {
                    throw item.error(node, path, "expected a status class such as \"2xx\", found \"\(text)\"")
                }
                classes.append(digit)
            default:
                throw item.error(node, path, "expected a status code, a list of codes or a class such as \"2xx\"")
            }
        }
        if case .array(let items) = node.value {
            guard !items.isEmpty else { throw item.error(node, path, "expected at least one status") }
            for element in items { try add(element) }
        } else {
            try add(node)
        }
        return .status(codes: codes, classes: classes)
    }

    /// One of `equals`, `contains`, `matches` (checked as a regular expression now), `exists`.
    static func textCheck(_ item: FieldReader) throws(InputError) -> Expectation.TextCheck {
        let operators = ["equals", "contains", "matches", "exists"].filter { item.optional(.named($0)) != nil }
        guard operators.count == 1 else {
            throw item.error(item.node, item.path, "expected exactly one of 'equals', 'contains', 'matches', 'exists'")
        }
        switch operators[0] {
        case "equals": return .equals(try item.requiredString("equals"))
        case "contains": return .contains(try item.requiredString("contains"))
        case "matches": return .matches(try regex(item, key: "matches"))
        default: return .exists(try bool(item, "exists"))
        }
    }

    static func regex(_ item: FieldReader, key: FieldKey) throws(InputError) -> String {
        let pattern = try item.requiredString(key)
        do {
            _ = try NSRegularExpression(pattern: pattern)
        } catch {
            throw item.error(item.optional(key)!, item.childPath(key), "invalid regular expression '\(pattern)'")
        }
        return pattern
    }

    static func jsonPath(_ item: FieldReader, key: FieldKey) throws(InputError) -> JSONPath {
        let text = try item.requiredString(key)
        do {
            return try JSONPath(text)
        } catch {
            throw item.error(item.optional(key)!, item.childPath(key),
                             "invalid JSONPath '\(text)' at character \(error.offset + 1): \(error.reason)")
        }
    }

    private static func bool(_ item: FieldReader, _ key: FieldKey) throws(InputError) -> Bool {
        let node = try item.required(key)
        guard case .bool(let value) = node.value else {
            throw item.error(node, item.childPath(key), "expected true or false, found \(node.kindDescription)")
        }
        return value
    }

    private static func nonNegativeInteger(_ item: FieldReader, _ key: FieldKey) throws(InputError) -> Int {
        let node = try item.required(key)
        guard case .number(let text) = node.value, let value = Int(text), value >= 0 else {
            throw item.error(node, item.childPath(key), "expected a whole number of 0 or more")
        }
        return value
    }

    static func captures(_ reader: FieldReader) throws(InputError) -> [Capture] {
        var result: [Capture] = []
        for (node, path) in try reader.optionalArray("capture") {
            let item = try FieldReader(file: reader.file, node: node, path: path)
            try item.rejectUnknownKeys(["var", "json", "header", "regex", "cookie", "from"])
            let variable = try item.requiredString("var")
            let sources = ["json", "header", "regex", "cookie", "from"].filter { item.optional(.named($0)) != nil }
            guard sources.count == 1 else {
                throw item.error(node, path, "a capture needs exactly one of 'json', 'header', 'regex', 'cookie', 'from'")
            }
            let source: Capture.Source
            switch sources[0] {
            case "from":
                let text = try item.requiredString("from")
                source = .check(try check(text, item.optional("from")!, file: item.file, path: item.childPath("from"), capture: true))
            case "json": source = .json(try jsonPath(item, key: "json"))
            case "header": source = .header(try item.requiredString("header"))
            case "regex": source = .regex(try regex(item, key: "regex"))
            default: source = .cookie(try item.requiredString("cookie"))
            }
            result.append(Capture(variable: variable, source: source, fieldPath: path))
        }
        return result
    }
}
