/// Names and values in Postman's order: postman-collection's `VariableList` (a `PropertyList`), the list
/// behind each `VariableScope` (`pm.environment`, `pm.globals`, `pm.collectionVariables`, `pm.variables`).
///
/// The order is the list's: a file's `values` in file order, a new name appended, a name set again kept in
/// its place (`VariableScope.set` updates the member it finds), a name removed and set again appended (the
/// member was removed: `unset` then `add`). A name given twice keeps its first place and its last value, as
/// `Dictionary(_:uniquingKeysWith: { $1 })` kept the value before. It is what a script sees in
/// `toObject()`, `Object.keys` and `JSON.stringify`, and what `--export-environment` writes: the same from
/// process to process (a `[String: String]` iterates in the order of Swift's per-process hash seed).
public struct VariableList: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// The names, in order.
    public private(set) var names: [String] = []
    /// The values by name.
    public private(set) var values: [String: String] = [:]

    public init() {}

    /// `pairs` in their order (a repeated name: its first place, its last value).
    public init<Pairs: Sequence>(_ pairs: Pairs) where Pairs.Element == (String, String) {
        for (name, value) in pairs { self[name] = value }
    }

    /// The literal's pairs in the order written.
    public init(dictionaryLiteral elements: (String, String)...) { self.init(elements) }

    /// The value of `name`; setting one keeps the name's place (or appends a new name), setting nil removes it.
    public subscript(name: String) -> String? {
        get { values[name] }
        set {
            if let newValue {
                if values.updateValue(newValue, forKey: name) == nil { names.append(name) }
            } else if values.removeValue(forKey: name) != nil, let index = names.firstIndex(of: name) {
                names.remove(at: index)
            }
        }
    }

    public var count: Int { names.count }
    public var isEmpty: Bool { names.isEmpty }

    /// The pairs in order.
    public func makeIterator() -> Iterator { Iterator(list: self) }

    public struct Iterator: IteratorProtocol {
        let list: VariableList
        var index = 0

        public mutating func next() -> (name: String, value: String)? {
            guard index < list.names.count else { return nil }
            let name = list.names[index]
            index += 1
            return (name, list.values[name] ?? "")
        }
    }
}
