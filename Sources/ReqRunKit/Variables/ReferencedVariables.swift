extension RequestReference {
    /// The names of the variables this request refers to, directly or through the values of the
    /// collection's and its groups' variables (not through environments or captures).
    public var referencedVariables: Set<String> { referencedVariables(alsoThrough: []) }

    /// Like `referencedVariables`, also following references inside `values` (an environment's and
    /// `--var` values: `"auth": "Bearer {{token}}"` makes a request using `{{auth}}` use `token`). A name
    /// defined in several layers is followed through each (the set may be larger than what resolution
    /// uses, never smaller).
    public func referencedVariables(alsoThrough layerValues: [Variable]) -> Set<String> {
        Self.following(directReferences(), through: collectionVariables + groups.flatMap(\.variables) + layerValues)
    }

    /// The names this request's own templates refer to (URL, header fields, query, effective auth, content,
    /// captures and expectations), without following variable values.
    func directReferences() -> Set<String> {
        let request = self.request
        var names: Set<String> = []
        // Most templates hold no `{{`: they are passed over without being split or gathered into an array
        // (this runs for every request of a run's selection before anything is sent).
        func add(_ text: String) { if Template.mayHaveReferences(text) { names.formUnion(Template.references(text)) } }
        add(request.url)
        for header in request.headers { add(header.value) }
        for parameter in request.query { add(parameter.name); add(parameter.value) }
        for text in effectiveAuth?.templates ?? [] { add(text) }
        switch request.body {
        case .text(let s)?, .json(let s)?: add(s)
        case .form(let fields)?: for field in fields { add(field.name); add(field.value) }
        case .multipart(let parts)?:
            for part in parts {
                add(part.name)
                if case .text(let s) = part.content { add(s) }
            }
        case .graphQL(let q, let v, let o)?: add(q); add(v ?? ""); add(o ?? "")
        case .file?, nil: break
        }
        for capture in request.captures {
            if case .check(let check) = capture.source { check.templates.forEach(add) }
        }
        for spec in request.expectations {
            switch spec.expectation {
            case .header(_, let check), .body(let check):
                switch check {
                case .equals(let s), .contains(let s), .matches(let s): add(s)
                case .exists: break
                }
            case .json(_, .equals(let node)): add(node.compactText)
            case .check(let check): check.templates.forEach(add)
            default: break
            }
        }
        return names
    }

    /// `names` and every name the values of `values` named so refer to, transitively.
    static func following(_ names: Set<String>, through values: [Variable]) -> Set<String> {
        var names = names
        var frontier = names
        while !frontier.isEmpty {
            let next = Set(values.filter { frontier.contains($0.name) }.flatMap { Template.references($0.value) }).subtracting(names)
            names.formUnion(next)
            frontier = next
        }
        return names
    }
}
