import Foundation

/// The predicates of the check grammar. Comparisons: numbers by `NumberText` (integers exactly, others as
/// IEEE doubles), strings by Unicode scalars, dates by instant (a string operand is read as ISO 8601),
/// bytes against a string's UTF-8; lists and objects only for `==`/`!=`. A predicate with a string operand
/// applied to a list (a repeated header field) holds when it holds for any member, as Hurl does.
enum CheckPredicates {
    typealias Failure = CheckEvaluator.Failure

    static func holds(_ predicate: Check.Predicate, _ value: CheckValue?, scope: VariableScope) -> Result<Bool, Failure> {
        let test: Check.Predicate.Test
        switch resolved(predicate.test, scope) {
        case .failure(let failure): return .failure(failure)
        case .success(let t): test = t
        }
        guard let quantifier = predicate.quantifier else {
            let result = holds(test, value)
            return .success(predicate.negated ? !result : result)
        }
        // A value that is not a list is a list of one (a header field sent once); an absent one fails.
        guard let value else { return .success(false) }
        var members = [value]
        if case .json(.array(let items)) = value { members = items.map { .json($0.value) } }
        let each = members.lazy.map { holds(test, $0) != predicate.negated }
        return .success(quantifier == .all ? each.allSatisfy { $0 } : each.contains(true))
    }

    /// The index of the first item of `items` that fails `predicate` (without its quantifier), for the
    /// report of a failed `all`.
    static func firstFailing(_ predicate: Check.Predicate, _ items: [JSONNode], scope: VariableScope) -> Int? {
        var single = predicate
        single.quantifier = nil
        return items.firstIndex { (try? holds(single, .json($0.value), scope: scope).get()) != true }
    }

    /// The test with `{{name}}` resolved in its string operand.
    private static func resolved(_ test: Check.Predicate.Test, _ scope: VariableScope) -> Result<Check.Predicate.Test, Failure> {
        func r(_ value: JSONNode.Value) throws(PreparationFailure) -> JSONNode.Value {
            if case .string(let s) = value { return .string(try scope.resolve(s, field: "expectation")) }
            return value
        }
        do throws(PreparationFailure) {
            switch test {
            case .compare(let op, let v): return .success(.compare(op, try r(v)))
            case .contains(let v): return .success(.contains(try r(v)))
            case .startsWith(let v): return .success(.startsWith(try r(v)))
            case .endsWith(let v): return .success(.endsWith(try r(v)))
            case .includes(let v): return .success(.includes(try r(v)))
            case .matches(let s): return .success(.matches(try scope.resolve(s, field: "expectation")))
            default: return .success(test)
            }
        } catch {
            return .failure(Failure(error.description))
        }
    }

    static func holds(_ test: Check.Predicate.Test, _ value: CheckValue?) -> Bool {
        switch test {
        case .exists: return value != nil
        case .isEmpty:
            switch value {
            case .json(.string(let s))?: return s.isEmpty
            case .json(.array(let a))?: return a.isEmpty
            case .json(.object(let o))?: return o.isEmpty
            case .bytes(let b)?: return b.isEmpty
            default: return false
            }
        case .isType(let type):
            guard let value else { return false }
            return isType(type, value)
        default: break
        }
        guard let value else { return false }
        // A string test on a list: any member (a repeated header field, a split).
        if case .json(.array(let items)) = value, test.operandIsString {
            return items.contains { holds(test, .json($0.value)) }
        }
        switch test {
        case .compare(let op, let operand): return compare(value, op, operand)
        case .contains(let operand):
            switch (value, operand) {
            case (.json(.string(let s)), .string(let t)): return s.contains(t) || (t.isEmpty)
            case (.bytes(let b), .string(let t)): return t.isEmpty || contains(b, Array(t.utf8))
            default: return false
            }
        case .startsWith(let operand):
            switch (value, operand) {
            case (.json(.string(let s)), .string(let t)): return s.unicodeScalars.starts(with: t.unicodeScalars)
            case (.bytes(let b), .string(let t)): return b.starts(with: Array(t.utf8))
            default: return false
            }
        case .endsWith(let operand):
            switch (value, operand) {
            case (.json(.string(let s)), .string(let t)): return s.unicodeScalars.reversed().starts(with: t.unicodeScalars.reversed())
            case (.bytes(let b), .string(let t)): return b.reversed().starts(with: Array(t.utf8).reversed())
            default: return false
            }
        case .matches(let pattern):
            guard case .json(.string(let s)) = value, let regex = try? NSRegularExpression(pattern: pattern) else { return false }
            return regex.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)) != nil
        case .includes(let operand):
            guard case .json(.array(let items)) = value else { return false }
            return items.contains { compare(.json($0.value), .equal, operand) }
        default: return false
        }
    }

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        return (0...(haystack.count - needle.count)).contains { haystack[$0..<$0 + needle.count].elementsEqual(needle) }
    }

    static func compare(_ value: CheckValue, _ op: Check.Predicate.Comparison, _ operand: JSONNode.Value) -> Bool {
        let order: ComparisonResult?
        switch (value, operand) {
        case (.json(.number(let a)), .number(let b)): order = NumberText.compare(a, b)
        case (.json(.string(let a)), .string(let b)):
            order = a.unicodeScalars.elementsEqual(b.unicodeScalars) ? .orderedSame
                : (a.unicodeScalars.map(\.value).lexicographicallyPrecedes(b.unicodeScalars.map(\.value)) ? .orderedAscending : .orderedDescending)
        case (.date(let a), .string(let b)):
            guard let d = CheckValue.isoDate(b) else { order = nil; break }
            order = a == d ? .orderedSame : a < d ? .orderedAscending : .orderedDescending
        case (.bytes(let a), .string(let b)):
            order = a.elementsEqual(b.utf8) ? .orderedSame : nil
        case (.json(let a), let b):
            // null, booleans, lists and objects: equality only.
            order = a.jsonPathEquals(b) ? .orderedSame : nil
        default: order = nil
        }
        switch op {
        case .equal: return order == .orderedSame
        case .notEqual: return order != .orderedSame
        case .less: return order == .orderedAscending
        case .lessOrEqual: return order == .orderedAscending || order == .orderedSame
        case .greater: return order == .orderedDescending
        case .greaterOrEqual: return order == .orderedDescending || order == .orderedSame
        }
    }

    private static func isType(_ type: Check.Predicate.TypeTest, _ value: CheckValue) -> Bool {
        switch (type, value) {
        case (.isString, .json(.string)): return true
        case (.isInteger, .json(.number(let t))): return NumberText.isInteger(t)
        case (.isFloat, .json(.number(let t))): return !NumberText.isInteger(t)
        case (.isNumber, .json(.number)): return true
        case (.isBoolean, .json(.bool)): return true
        case (.isList, .json(.array)): return true
        case (.isObject, .json(.object)): return true
        case (.isNull, .json(.null)): return true
        case (.isIsoDate, .date): return true
        case (.isIsoDate, .json(.string(let s))): return s.contains("T") && CheckValue.isoDate(s) != nil
        case (.isUuid, .json(.string(let s))): return s.count == 36 && UUID(uuidString: s) != nil
        case (.isIpv4, .json(.string(let s))):
            var address = in_addr()
            return inet_pton(AF_INET, s, &address) == 1
        case (.isIpv6, .json(.string(let s))):
            var address = in6_addr()
            return inet_pton(AF_INET6, s, &address) == 1
        default: return false
        }
    }
}

extension Check.Predicate.Test {
    /// True for tests whose operand is a string (or a pattern), which apply to each member of a list.
    var operandIsString: Bool {
        switch self {
        case .compare(_, .string), .contains(.string), .startsWith(.string), .endsWith(.string), .matches: return true
        default: return false
        }
    }
}
