extension RequestReference {
    /// The names of the variables this request refers to, directly or through the values of the
    /// collection's and its groups' variables (not through environments or captures).
    public var referencedVariables: Set<String> { referencedVariables(alsoThrough: []) }

    /// Like `referencedVariables`, also following references inside `values` (an environment's and
    /// `--var` values: `"auth": "Bearer {{token}}"` makes a request using `{{auth}}` use `token`). A name
    /// defined in several layers is followed through each (the set may be larger than what resolution
    /// uses, never smaller).
    public func referencedVariables(alsoThrough layerValues: [Variable]) -> Set<String> {
        let request = self.request
        var texts = [request.url] + request.headers.map(\.value) + request.query.flatMap { [$0.name, $0.value] }
        texts += effectiveAuth?.templates ?? []
        switch request.body {
        case .text(let s)?, .json(let s)?: texts.append(s)
        case .form(let fields)?: texts += fields.flatMap { [$0.name, $0.value] }
        case .multipart(let parts)?:
            texts += parts.map(\.name) + parts.compactMap { if case .text(let s) = $0.content { return s } else { return nil } }
        case .graphQL(let q, let v, let o)?: texts += [q, v ?? "", o ?? ""]
        case .file?, nil: break
        }
        for capture in request.captures {
            if case .check(let check) = capture.source { texts += check.templates }
        }
        for spec in request.expectations {
            switch spec.expectation {
            case .header(_, let check), .body(let check):
                switch check {
                case .equals(let s), .contains(let s), .matches(let s): texts.append(s)
                case .exists: break
                }
            case .json(_, .equals(let node)): texts.append(node.compactText)
            case .check(let check): texts += check.templates
            default: break
            }
        }
        var names = Set(texts.flatMap(Template.references))
        let values = collectionVariables + groups.flatMap(\.variables) + layerValues
        var frontier = names
        while !frontier.isEmpty {
            let next = Set(values.filter { frontier.contains($0.name) }.flatMap { Template.references($0.value) }).subtracting(names)
            names.formUnion(next)
            frontier = next
        }
        return names
    }
}
