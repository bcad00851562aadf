/// A JSONPath query as RFC 9535 defines it, parsed (`JSONPathParser`) and ready to run
/// (`JSONPathEvaluator`): a root (`$`, or `@` inside a filter) and segments, each a list of selectors.
///
/// Examples: `$.store.book[*].author`, `$..price`, `$.a[1:3]`, `$['x','y']`,
/// `$.items[?@.price < 10 && @.tag == 'x']`, `$[?length(@.name) > 3]`.
public struct JSONPathQuery: Sendable, Equatable {
    /// `$` (the document) or `@` (the current node of a filter, RFC 9535 §2.3.5).
    public var relative: Bool
    public var segments: [Segment]

    /// One segment (RFC 9535 §2.5): its selectors apply to each input node's children (`[…]`, `.name`,
    /// `.*`) or, for a descendant segment (`..`), to the node and every node below it.
    public struct Segment: Sendable, Equatable {
        public var descendant: Bool
        public var selectors: [Selector]
    }

    /// RFC 9535 §2.3.
    public indirect enum Selector: Sendable, Equatable {
        /// `'name'` or `.name`: the member with that name.
        case name(String)
        /// `*`: every member value or element, in order.
        case wildcard
        /// `3`, `-1`: one element; a negative index counts from the end.
        case index(Int)
        /// `start:end:step`, with Python's rules (RFC 9535 §2.3.4.2).
        case slice(start: Int?, end: Int?, step: Int?)
        /// `?expression`: the children for which the expression is true.
        case filter(LogicalExpression)
    }

    /// A filter expression (RFC 9535 §2.3.5.1).
    public indirect enum LogicalExpression: Sendable, Equatable {
        case or([LogicalExpression])
        case and([LogicalExpression])
        case not(LogicalExpression)
        /// `a == b`, `a < b`, …
        case comparison(Comparable, ComparisonOperator, Comparable)
        /// A query that selects at least one node.
        case exists(JSONPathQuery)
        /// A function whose result is logical (`match`, `search`) or a node list (non-empty is true).
        case function(FunctionCall)
    }

    public enum ComparisonOperator: String, Sendable, Equatable {
        case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    }

    /// One side of a comparison: a literal, a singular query, or a function of value type.
    public enum Comparable: Sendable, Equatable {
        case literal(JSONNode.Value)
        case query(JSONPathQuery)
        case function(FunctionCall)
    }

    /// `length(…)`, `count(…)`, `match(…)`, `search(…)`, `value(…)` (RFC 9535 §2.4).
    public struct FunctionCall: Sendable, Equatable {
        public var name: String
        public var arguments: [Argument]
    }

    public indirect enum Argument: Sendable, Equatable {
        case literal(JSONNode.Value)
        case query(JSONPathQuery)
        case logical(LogicalExpression)
        case function(FunctionCall)
    }

    /// True when the query can select at most one node by its form: only name and index selectors, one
    /// per segment, no descendant segments (RFC 9535 §2.3.5.1 "singular query").
    public var isSingular: Bool {
        segments.allSatisfy { segment in
            guard !segment.descendant, segment.selectors.count == 1 else { return false }
            switch segment.selectors[0] {
            case .name, .index: return true
            default: return false
            }
        }
    }
}

/// A JSONPath that cannot be parsed; `offset` counts characters from 0.
public struct JSONPathError: Error, Sendable, Equatable {
    public var offset: Int
    public var reason: String
}
