import Foundation

/// Reads a request's content: at most one of `body` (string or JSON), `form`, `multipart`, `bodyFile`,
/// `graphql`. File paths resolve against the collection file's folder and, when the collection loads, must
/// lie inside the file roots (`FileRoots`), exist (so a typo is an input error, not a failed request) and be
/// regular files (`BodyFile`).
enum BodyDecoder {
    static let keys: FieldNames = ["body", "form", "multipart", "bodyFile", "graphql"]

    static func decode(_ reader: FieldReader, base: FileScope) throws(InputError) -> RequestBody? {
        let present = reader.present(keys)
        guard present.count <= 1 else {
            throw reader.error(reader.optional(.named(present[1]))!, reader.childPath(present[1]),
                               "a request has one body; found \(present.map { "'\($0)'" }.joined(separator: " and "))")
        }
        guard let key = present.first, let node = reader.optional(.named(key)) else { return nil }
        let path = reader.childPath(key)
        switch key {
        case "body":
            switch node.value {
            case .string(let s): return .text(s)
            case .object, .array: return .json(node.compactText)
            default: throw reader.error(node, path, "expected a string, an object or an array, found \(node.kindDescription)")
            }
        case "form":
            return .form(try CollectionDecoder.decodeParameters(reader, "form"))
        case "bodyFile":
            guard case .string(let file) = node.value else { throw reader.error(node, path, "expected a file path, found \(node.kindDescription)") }
            return .file(path: try existingFile(file, base: base, reader, node, path))
        case "multipart":
            guard case .array(let items) = node.value else {
                throw reader.error(node, path, "expected an array of parts, found \(node.kindDescription)")
            }
            var parts: [MultipartPart] = []
            for (i, item) in items.enumerated() {
                let part = try FieldReader(file: reader.file, node: item, path: "\(path)[\(i)]")
                try part.rejectUnknownKeys(["name", "value", "file", "contentType", "fileName"])
                let name = try part.requiredString("name")
                let content: MultipartPart.Content
                switch (try part.optionalString("value"), try part.optionalString("file")) {
                case (let value?, nil): content = .text(value)
                case (nil, let file?): content = .file(path: try existingFile(file, base: base, part, part.optional("file")!, part.childPath("file")))
                default: throw part.error(item, part.path, "a part needs exactly one of 'value' and 'file'")
                }
                parts.append(MultipartPart(name: name, content: content, contentType: try part.optionalString("contentType"),
                                           fileName: try part.optionalString("fileName")))
            }
            return .multipart(parts)
        default:  // graphql
            let graphql = try FieldReader(file: reader.file, node: node, path: path)
            try graphql.rejectUnknownKeys(["query", "variables", "operationName"])
            var variables: String?
            if let node = graphql.optional("variables") {
                guard case .object = node.value else {
                    throw graphql.error(node, graphql.childPath("variables"), "expected an object, found \(node.kindDescription)")
                }
                variables = node.compactText
            }
            return .graphQL(query: try graphql.requiredString("query"), variables: variables,
                            operationName: try graphql.optionalString("operationName"))
        }
    }

    private static func existingFile(_ file: String, base: FileScope, _ reader: FieldReader, _ node: JSONNode, _ path: String) throws(InputError) -> String {
        switch base.bodyFile(file, mustExist: true) {
        case .success(let resolved): return resolved
        case .failure(let refusal): throw reader.error(node, path, refusal.reason)
        }
    }
}
