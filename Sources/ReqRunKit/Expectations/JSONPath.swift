/// A JSONPath (RFC 9535, parsed by `JSONPathParser`) with its text, as the `json` subject and captures use
/// it: `$` for the root, `.key`, `['key']`, `[index]` (negative from the end), `[*]`, `..`, slices
/// `[1:3]`, unions `[0,'a']` and filters `[?@.price < 10 && @.tag == 'x']`.
///
/// A *singular* path (only names and indexes) selects one value or nothing; any other path selects a
/// list (a JSON array of the nodes, in document order), possibly empty.
public struct JSONPath: Sendable, Equatable, CustomStringConvertible {
    /// The path as written.
    public let text: String
    public let query: JSONPathQuery

    public var description: String { text }

    /// - Throws: `JSONPathError` with the 0-based offset (in Unicode scalars) of the problem.
    public init(_ text: String) throws(JSONPathError) {
        self.text = text
        self.query = try JSONPathParser.parse(text)
    }

    /// The value the path selects in `root`: for a singular path the node or nil; for any other path a
    /// JSON array of the selected nodes (empty when none).
    public func select(in root: JSONNode) -> JSONNode? {
        let nodes = query.select(root: root)
        if query.isSingular { return nodes.first }
        return JSONNode(value: .array(nodes), location: root.location)
    }
}
