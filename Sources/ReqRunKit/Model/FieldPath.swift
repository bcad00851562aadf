/// Where a value sits in a file's field tree (`groups[1].requests[0]`), kept as its parts and spelled out
/// only when asked for.
///
/// Paths appear only in error messages, but a large collection has one per request: building
/// `"groups[12].requests[34]"` for every element of every array cost an eighth of `list --all --json` on
/// 100,000 requests (callgrind), so an element's path is its array's path and its position until then.
struct FieldPath: Sendable {
    /// The whole path when `index` is nil; else the path of the array holding the element.
    private let base: String
    /// The element's position in the array at `base`.
    private let index: Int?

    /// A path given in full, e.g. `variables.token` (`""` for the file's top level).
    init(_ text: String) {
        base = text
        index = nil
    }

    /// The path of element `index` of the array at `arrayPath`: `arrayPath[index]`.
    init(array arrayPath: String, index: Int) {
        base = arrayPath
        self.index = index
    }

    /// The path as messages show it.
    var text: String {
        guard let index else { return base }
        return base + "[" + String(index) + "]"
    }
}

/// The elements of an array field in order, each with its `FieldPath` (built on demand, see there).
struct FieldElements: Sequence, Sendable {
    let items: [JSONNode]
    /// The array's own path, e.g. `groups[3].requests`.
    let arrayPath: String

    struct Iterator: IteratorProtocol {
        fileprivate let elements: FieldElements
        fileprivate var position = 0

        mutating func next() -> (node: JSONNode, path: FieldPath)? {
            guard position < elements.items.count else { return nil }
            defer { position += 1 }
            return (elements.items[position], FieldPath(array: elements.arrayPath, index: position))
        }
    }

    func makeIterator() -> Iterator { Iterator(elements: self) }
}
