import Foundation

/// The outcome of one expectation, as recorded and reported.
public struct ExpectationResult: Codable, Sendable, Equatable {
    /// What was expected, in words: `status is 2xx`, `header Content-Type contains json`, `$.id exists`.
    public var description: String
    public var passed: Bool
    /// The expected value as text (for reports: expected vs. actual).
    public var expected: String
    /// What the response had, as text (`(absent)` when missing).
    public var actual: String
    /// Where the expectation is written, e.g. `groups[0].requests[1].expect[0]`; for a script's assertion
    /// the script's place (`collections/shop.json: item[3].event[1] (test)`).
    public var fieldPath: String
    /// Nil for a declared expectation; `script` for a `pm.test` (name in `description`, the failure in
    /// `actual`), `script-skipped` for a `pm.test.skip`.
    public var kind: String?

    /// `kind` of a script's assertion (`pm.test`, `tests[…]`) and of a `pm.test.skip`, as records hold them.
    public static let scriptKind = "script", skippedScriptKind = "script-skipped"

    /// A `pm.test.skip`: neither passed nor failed (Newman's pending assertion).
    public var isSkipped: Bool { kind == Self.skippedScriptKind }

    public init(description: String, passed: Bool, expected: String, actual: String, fieldPath: String, kind: String? = nil) {
        self.kind = kind
        self.description = description
        self.passed = passed
        self.expected = expected
        self.actual = actual
        self.fieldPath = fieldPath
    }
}

/// Evaluates expectations against a response. Pure: no I/O.
public enum ExpectationCheck {
    /// Checks `spec` against `response`; strings in the expectation may use `{{name}}` from `scope`. The
    /// result's description is the expectation in the check grammar (`Expectation.canonicalCheck`), for
    /// the object forms too.
    public static func check(_ spec: ExpectationSpec, _ response: ResponseView, scope: VariableScope) -> ExpectationResult {
        let description = spec.expectation.canonicalCheck.description
        func result(_ passed: Bool, _ expected: String, _ actual: String) -> ExpectationResult {
            ExpectationResult(description: description, passed: passed, expected: expected, actual: actual, fieldPath: spec.fieldPath)
        }
        switch spec.expectation {
        case .status(let codes, let classes):
            let expected = (codes.map(String.init) + classes.map { "\($0)xx" }).joined(separator: " or ")
            let passed = codes.contains(response.status) || classes.contains(response.status / 100)
            return result(passed, expected, String(response.status))

        case .header(let name, let check):
            let values = response.headerValues(name)
            let actual = values.isEmpty ? "(absent)" : values.joined(separator: ", ")
            if case .exists(let wanted) = check {
                return result(values.isEmpty != wanted, wanted ? "present" : "(absent)", actual)
            }
            switch resolved(check, scope) {
            case .failure(let failure): return result(false, operand(check), failure.description)
            case .success(let check): return result(values.contains { matches(check, $0) }, operand(check), actual)
            }

        case .body(let check):
            guard response.bodyIsComplete else {
                return result(false, operand(check), ResponseView.BodyProblem.tooLarge(limit: response.body.count).description)
            }
            switch resolved(check, scope) {
            case .failure(let failure): return result(false, operand(check), failure.description)
            case .success(let check): return result(matches(check, response.text), operand(check), excerpt(response.text))
            }

        case .json(let path, let check):
            let root: JSONNode
            switch response.json() {
            case .failure(let problem): return result(false, expectedText(check), problem.description)
            case .success(let node): root = node
            }
            let selected = path.select(in: root)
            let actual = selected.map { $0.compactText } ?? "(absent)"
            switch check {
            case .equals(var expected):
                // A string may use {{name}}, as in the other checks; numbers, objects and arrays are literal.
                if case .string(let template) = expected.value {
                    do {
                        expected.value = .string(try scope.resolve(template, field: "expectation"))
                    } catch {
                        return result(false, expected.compactText, error.description)
                    }
                }
                return result(selected.map { $0.value.jsonEquals(expected.value) } ?? false, expected.compactText, actual)
            case .exists(let wanted):
                return result((selected != nil) == wanted, wanted ? "present" : "(absent)", actual)
            case .type(let type):
                let actualType = selected.map(jsonType) ?? "(absent)"
                let passed = actualType == type || (type == "number" && actualType == "integer")
                return result(passed, type, selected == nil ? actual : "\(actualType) \(excerpt(actual))")
            }

        case .timeBelow(let milliseconds):
            let actual = Double(response.totalMicroseconds) / 1000
            return result(response.totalMicroseconds < milliseconds * 1000, "< \(milliseconds) ms", String(format: "%.1f ms", actual))

        case .check(let check):
            let outcome = CheckEvaluator.evaluate(check, response, scope: scope)
            return result(outcome.passed, outcome.expected, outcome.actual)

        case .bodySize(let bytes, let below):
            return result(below ? response.bodySize < bytes : response.bodySize == bytes,
                          below ? "< \(bytes) bytes" : "\(bytes) bytes", "\(response.bodySize) bytes")
        }
    }

    private static func expectedText(_ check: Expectation.JSONCheck) -> String {
        switch check {
        case .equals(let node): return node.compactText
        case .exists(let wanted): return wanted ? "present" : "(absent)"
        case .type(let type): return type
        }
    }

    private static func resolved(_ check: Expectation.TextCheck, _ scope: VariableScope) -> Result<Expectation.TextCheck, PreparationFailure> {
        do throws(PreparationFailure) {
            switch check {
            case .equals(let s): return .success(.equals(try scope.resolve(s, field: "expectation")))
            case .contains(let s): return .success(.contains(try scope.resolve(s, field: "expectation")))
            case .matches(let s): return .success(.matches(try scope.resolve(s, field: "expectation")))
            case .exists: return .success(check)
            }
        } catch {
            return .failure(error)
        }
    }

    static func describe(_ check: Expectation.TextCheck) -> String {
        switch check {
        case .equals(let s): return "equals \"\(s)\""
        case .contains(let s): return "contains \"\(s)\""
        case .matches(let s): return "matches /\(s)/"
        case .exists(let wanted): return wanted ? "exists" : "is absent"
        }
    }

    private static func operand(_ check: Expectation.TextCheck) -> String {
        switch check {
        case .equals(let s), .contains(let s): return s
        case .matches(let s): return "/\(s)/"
        case .exists(let wanted): return wanted ? "present" : "(absent)"
        }
    }

    static func matches(_ check: Expectation.TextCheck, _ text: String) -> Bool {
        switch check {
        case .equals(let s): return text == s
        case .contains(let s): return text.contains(s)
        case .matches(let pattern):
            guard let regex = try? NSRegularExpression(pattern: pattern) else { return false }
            return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        case .exists(let wanted): return wanted
        }
    }

    /// At most 200 characters, for messages.
    static func excerpt(_ text: String) -> String {
        text.count <= 200 ? text : String(text.prefix(200)) + "…"
    }

    static func jsonType(_ node: JSONNode) -> String {
        switch node.value {
        case .null: return "null"
        case .bool: return "boolean"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        case .number(let text): return text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) ? "number" : "integer"
        }
    }
}

extension JSONNode.Value {
    /// JSON equality: numbers by value (`1.0` equals `1`, `1e2` equals `100`), objects as sets of members
    /// (key order ignored; with a repeated key the last counts), arrays in order.
    public func jsonEquals(_ other: JSONNode.Value) -> Bool {
        switch (self, other) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.number(let a), .number(let b)):
            if a == b { return true }
            guard let x = Decimal(string: a, locale: Locale(identifier: "en_US_POSIX")),
                  let y = Decimal(string: b, locale: Locale(identifier: "en_US_POSIX")) else { return false }
            return x == y
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.value.jsonEquals($1.value) }
        case (.object(let a), .object(let b)):
            var left: [String: JSONNode] = [:], right: [String: JSONNode] = [:]
            for member in a { left[member.key] = member.value }
            for member in b { right[member.key] = member.value }
            return left.count == right.count && left.allSatisfy { key, value in right[key].map { value.value.jsonEquals($0.value) } ?? false }
        default: return false
        }
    }
}
