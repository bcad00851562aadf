import Foundation

/// Runs a `JSONPathQuery` on a JSON value (RFC 9535 §2): the result is a node list, in document order for
/// wildcards and descendants (array elements in order, object members in the order written). With a
/// repeated member name, `name` selects the last one (as most JSON parsers keep); `*` and `..` see every
/// member as written.
extension JSONPathQuery {
    /// The nodes the query selects; `root` is `$`, `current` is `@`.
    public func select(root: JSONNode, current: JSONNode? = nil) -> [JSONNode] {
        var nodes = [relative ? (current ?? root) : root]
        for segment in segments {
            var next: [JSONNode] = []
            for node in nodes {
                if segment.descendant {
                    Self.visitDescendants(node) { visited in
                        for selector in segment.selectors { selector.apply(to: visited, root: root, into: &next) }
                    }
                } else {
                    for selector in segment.selectors { selector.apply(to: node, root: root, into: &next) }
                }
            }
            nodes = next
            if nodes.isEmpty { break }
        }
        return nodes
    }

    /// `node` and then its descendants, each before its children (RFC 9535 §2.5.2.2).
    private static func visitDescendants(_ node: JSONNode, _ body: (JSONNode) -> Void) {
        body(node)
        switch node.value {
        case .array(let items): for item in items { visitDescendants(item, body) }
        case .object(let members): for member in members { visitDescendants(member.value, body) }
        default: break
        }
    }
}

extension JSONPathQuery.Selector {
    fileprivate func apply(to node: JSONNode, root: JSONNode, into out: inout [JSONNode]) {
        switch (self, node.value) {
        case (.name(let name), .object(let members)):
            if let member = members.last(where: { $0.key == name }) { out.append(member.value) }
        case (.wildcard, .object(let members)):
            out += members.map(\.value)
        case (.wildcard, .array(let items)):
            out += items
        case (.index(let index), .array(let items)):
            let position = index < 0 ? items.count + index : index
            if items.indices.contains(position) { out.append(items[position]) }
        case (.slice(let start, let end, let step), .array(let items)):
            for position in Self.slice(count: items.count, start: start, end: end, step: step ?? 1) { out.append(items[position]) }
        case (.filter(let expression), .array(let items)):
            out += items.filter { expression.holds(current: $0, root: root) }
        case (.filter(let expression), .object(let members)):
            out += members.map(\.value).filter { expression.holds(current: $0, root: root) }
        default:
            break
        }
    }

    /// The positions `start:end:step` selects in an array of `count` elements (RFC 9535 §2.3.4.2.2).
    static func slice(count len: Int, start: Int?, end: Int?, step: Int) -> [Int] {
        guard step != 0 else { return [] }
        func normalize(_ i: Int) -> Int { i >= 0 ? i : len + i }
        var result: [Int] = []
        if step > 0 {
            let lower = min(max(normalize(start ?? 0), 0), len)
            let upper = min(max(normalize(end ?? len), 0), len)
            var i = lower
            while i < upper { result.append(i); i += step }
        } else {
            let upper = min(max(normalize(start ?? len - 1), -1), len - 1)
            let lower = min(max(normalize(end ?? -len - 1), -1), len - 1)
            var i = upper
            while lower < i { result.append(i); i += step }
        }
        return result
    }
}

extension JSONPathQuery.LogicalExpression {
    func holds(current: JSONNode, root: JSONNode) -> Bool {
        switch self {
        case .or(let parts): return parts.contains { $0.holds(current: current, root: root) }
        case .and(let parts): return parts.allSatisfy { $0.holds(current: current, root: root) }
        case .not(let inner): return !inner.holds(current: current, root: root)
        case .exists(let query): return !query.select(root: root, current: current).isEmpty
        case .function(let call):
            switch call.evaluate(current: current, root: root) {
            case .logical(let value): return value
            case .nodes(let nodes): return !nodes.isEmpty
            case .value(let value): return value != nil
            }
        case .comparison(let left, let op, let right):
            return JSONPathQuery.compare(left.value(current: current, root: root), op, right.value(current: current, root: root))
        }
    }
}

extension JSONPathQuery.Comparable {
    /// The value, or nil for Nothing (an empty node list, or a function without a result).
    func value(current: JSONNode, root: JSONNode) -> JSONNode.Value? {
        switch self {
        case .literal(let value): return value
        case .query(let query): return query.select(root: root, current: current).first?.value
        case .function(let call):
            if case .value(let value) = call.evaluate(current: current, root: root) { return value }
            return nil
        }
    }
}

extension JSONPathQuery {
    /// RFC 9535 §2.3.5.2.2: Nothing equals only Nothing; numbers compare by value (`NumberText`), strings
    /// by Unicode scalar values; arrays and objects are equal when deeply equal; `<` holds only between two
    /// numbers or two strings.
    static func compare(_ a: JSONNode.Value?, _ op: ComparisonOperator, _ b: JSONNode.Value?) -> Bool {
        switch op {
        case .equal: return equal(a, b)
        case .notEqual: return !equal(a, b)
        case .less: return less(a, b)
        case .lessOrEqual: return less(a, b) || equal(a, b)
        case .greater: return less(b, a)
        case .greaterOrEqual: return less(b, a) || equal(a, b)
        }
    }

    private static func equal(_ a: JSONNode.Value?, _ b: JSONNode.Value?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return a.jsonPathEquals(b)
    }

    private static func less(_ a: JSONNode.Value?, _ b: JSONNode.Value?) -> Bool {
        switch (a, b) {
        case (.number(let x)?, .number(let y)?): return NumberText.compare(x, y) == .orderedAscending
        case (.string(let x)?, .string(let y)?): return Array(x.unicodeScalars.map(\.value)).lexicographicallyPrecedes(y.unicodeScalars.map(\.value))
        default: return false
        }
    }
}

extension JSONNode.Value {
    /// Deep equality with numbers compared by `NumberText` (exact for integers, IEEE doubles otherwise).
    func jsonPathEquals(_ other: JSONNode.Value) -> Bool {
        switch (self, other) {
        case (.number(let x), .number(let y)): return NumberText.compare(x, y) == .orderedSame
        case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy { $0.value.jsonPathEquals($1.value) }
        case (.object(let a), .object(let b)):
            var left: [String: JSONNode.Value] = [:], right: [String: JSONNode.Value] = [:]
            for member in a { left[member.key] = member.value.value }
            for member in b { right[member.key] = member.value.value }
            return left.count == right.count && left.allSatisfy { key, value in right[key].map { value.jsonPathEquals($0) } ?? false }
        case (.string(let x), .string(let y)): return x.unicodeScalars.elementsEqual(y.unicodeScalars)
        default: return self == other
        }
    }
}

extension JSONPathQuery.FunctionCall {
    enum Result {
        case value(JSONNode.Value?)
        case logical(Bool)
        case nodes([JSONNode])
    }

    /// The five functions of RFC 9535 §2.4.
    func evaluate(current: JSONNode, root: JSONNode) -> Result {
        func value(_ argument: JSONPathQuery.Argument) -> JSONNode.Value? {
            switch argument {
            case .literal(let v): return v
            case .query(let q):
                let nodes = q.select(root: root, current: current)
                return nodes.count == 1 ? nodes[0].value : nil
            case .function(let call):
                if case .value(let v) = call.evaluate(current: current, root: root) { return v }
                return nil
            case .logical: return nil
            }
        }
        func nodes(_ argument: JSONPathQuery.Argument) -> [JSONNode] {
            switch argument {
            case .query(let q): return q.select(root: root, current: current)
            case .function(let call):
                if case .nodes(let n) = call.evaluate(current: current, root: root) { return n }
                return []
            default: return []
            }
        }
        switch name {
        case "length":
            switch value(arguments[0]) {
            case .string(let s)?: return .value(.number(String(s.unicodeScalars.count)))
            case .array(let items)?: return .value(.number(String(items.count)))
            case .object(let members)?: return .value(.number(String(Set(members.map(\.key)).count)))
            default: return .value(nil)
            }
        case "count":
            return .value(.number(String(nodes(arguments[0]).count)))
        case "value":
            let selected = nodes(arguments[0])
            return .value(selected.count == 1 ? selected[0].value : nil)
        case "match", "search":
            guard case .string(let text)? = value(arguments[0]), case .string(let pattern)? = value(arguments[1]),
                  let regex = IRegexp.compile(pattern, whole: name == "match") else { return .logical(false) }
            return .logical(regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil)
        default:
            return .logical(false)
        }
    }
}

/// I-Regexp (RFC 9485) patterns run through ICU: `.` matches any character but line feed and carriage
/// return (RFC 9485 §5.3), `match` is anchored at both ends. Compiled patterns are cached per process.
enum IRegexp {
    nonisolated(unsafe) private static var cache: [String: NSRegularExpression] = [:]
    private static let lock = NSLock()

    static func compile(_ pattern: String, whole: Bool) -> NSRegularExpression? {
        let key = (whole ? "m" : "s") + pattern
        lock.lock()
        defer { lock.unlock() }
        if let cached = cache[key] { return cached }
        var translated = ""
        var inClass = false, escaped = false
        for c in pattern {
            if escaped { translated.append(c); escaped = false; continue }
            switch c {
            case "\\": escaped = true; translated.append(c)
            case "[": inClass = true; translated.append(c)
            case "]": inClass = false; translated.append(c)
            case "." where !inClass: translated += "[^\\n\\r]"
            default: translated.append(c)
            }
        }
        guard let regex = try? NSRegularExpression(pattern: whole ? "\\A(?:\(translated))\\z" : translated) else { return nil }
        if cache.count < 1000 { cache[key] = regex }
        return regex
    }
}
