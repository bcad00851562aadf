/// The object forms of expectations and captures (the first syntax, before the check grammar) as checks of
/// the grammar, so that the console, `show` and the reports print every expectation in the one spelling a
/// user can write (`{"status": 201}` prints as `status == 201`). Only for printing: an object form keeps
/// its own evaluation (`ExpectationCheck`), whose few differences the README's "Object forms" lists.
extension Expectation {
    /// The check that says what this expectation says.
    public var canonicalCheck: Check {
        typealias P = Check.Predicate
        switch self {
        case .check(let check): return check
        case .status(let codes, let classes):
            if codes.count == 1, classes.isEmpty {
                return Check(subject: .status, predicate: P(.compare(.equal, .number(String(codes[0])))))
            }
            let alternatives = codes.map(String.init) + classes.map { "\($0)\\d\\d" }
            let pattern = alternatives.count == 1 ? "^\(alternatives[0])$" : "^(\(alternatives.joined(separator: "|")))$"
            return Check(subject: .status, filters: [.toString], predicate: P(.matches(pattern)))
        case .header(let name, let text): return Check(subject: .header(name), predicate: Self.predicate(text))
        case .body(let text): return Check(subject: .body, predicate: Self.predicate(text))
        case .json(let path, let json):
            switch json {
            case .equals(let node): return Check(subject: .jsonpath(path), predicate: P(.compare(.equal, CheckParser.withoutLocations(node.value))))
            case .exists(let wanted): return Check(subject: .jsonpath(path), predicate: P(negated: !wanted, .exists))
            case .type(let type):
                let test: P.TypeTest
                switch type {
                case "string": test = .isString
                case "integer": test = .isInteger
                case "boolean": test = .isBoolean
                case "null": test = .isNull
                case "array": test = .isList
                case "object": test = .isObject
                default: test = .isNumber
                }
                return Check(subject: .jsonpath(path), predicate: P(.isType(test)))
            }
        case .timeBelow(let milliseconds):
            return Check(subject: .duration, predicate: P(.compare(.less, .number(String(milliseconds)))))
        case .bodySize(let bytes, let below):
            return Check(subject: .bodySize, predicate: P(.compare(below ? .less : .equal, .number(String(bytes)))))
        }
    }

    private static func predicate(_ text: TextCheck) -> Check.Predicate {
        switch text {
        case .equals(let s): return Check.Predicate(.compare(.equal, .string(s)))
        case .contains(let s): return Check.Predicate(.contains(.string(s)))
        case .matches(let s): return Check.Predicate(.matches(s))
        case .exists(let wanted): return Check.Predicate(negated: !wanted, .exists)
        }
    }
}

extension Capture.Source {
    /// The subject (and filters) of the check grammar that takes what this capture takes, as `from` would
    /// write it: `{"json": "$.id"}` is `$.id`, `{"header": "ETag"}` is `header "ETag"`.
    public var canonicalCheck: Check {
        switch self {
        case .check(let check): return check
        case .json(let path): return Check(subject: .jsonpath(path))
        case .header(let name): return Check(subject: .header(name))
        case .regex(let pattern): return Check(subject: .regex(pattern))
        case .cookie(let name): return Check(subject: .cookie(name: name, attribute: nil))
        }
    }
}
