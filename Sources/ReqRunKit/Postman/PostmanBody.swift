import Foundation

/// A Postman request `body` as reqrun content.
///
/// Shape (v2.0/v2.1 schema `body`): `{"mode": "raw" | "urlencoded" | "formdata" | "file" | "graphql",
/// "raw": "…", "options": {"raw": {"language": "json"}}, "urlencoded": [{"key", "value", "disabled"}],
/// "formdata": [{"key", "value", "type": "text" | "file", "src": "path" | ["paths"], "contentType",
/// "disabled"}], "file": {"src": "path"}, "graphql": {"query", "variables": "JSON text"}, "disabled": true}`.
///
/// - `raw` → text sent as written; an empty raw is no body (postman-runtime skips empty bodies). The
///   Content-Type comes from a header field when there is one, else from `options.raw.language`
///   (`json` → `application/json`, `xml` → `application/xml`, `javascript` → `application/javascript`,
///   `html` → `text/html`, `text` → `text/plain`), as the Postman app sets it; else reqrun's default for text.
/// - `urlencoded` → a form; `formdata` → multipart, a text part per text entry and a part per file of `src`
///   (a file entry without `src` is left out); `file` → the file's bytes. File paths resolve against the
///   collection file's folder and must lie inside the file roots (`FileRoots`, checked when loading, as for
///   the native format); a missing one is accepted (exports often refer to files that are not shipped) and
///   fails that request when it is sent.
/// - `graphql` → a GraphQL JSON body; `variables` must be a JSON object (empty means none), else they are
///   left out with a warning.
/// - A disabled body, an unknown mode or a mode without its data → no body (an unknown mode warns).
enum PostmanBody {
    static let languageTypes = ["json": "application/json", "xml": "application/xml", "javascript": "application/javascript",
                                "html": "text/html", "text": "text/plain"]

    /// The content and, for raw text with a language, the Content-Type to add when no header field names one.
    static func decode(_ request: FieldReader, base: FileScope, warnings: inout PostmanWarnings) throws(InputError) -> (RequestBody?, String?) {
        guard let node = request.optional("body") else { return (nil, nil) }
        if case .string(let text) = node.value { return (text.isEmpty ? nil : .text(text), nil) }
        let body = try FieldReader(file: request.file, node: node, path: request.childPath("body"))
        guard !body.isDisabled, let mode = try body.optionalString("mode") else { return (nil, nil) }
        switch mode {
        case "raw":
            guard let raw = body.postmanText("raw"), !raw.isEmpty else { return (nil, nil) }
            var type: String?
            if let options = body.optional("options"), case .object = options.value {
                let reader = try FieldReader(file: body.file, node: options, path: body.childPath("options"))
                if let rawOptions = reader.optional("raw"), case .object = rawOptions.value {
                    let language = try FieldReader(file: body.file, node: rawOptions, path: reader.childPath("raw")).postmanText("language")
                    type = language.flatMap { languageTypes[$0] }
                }
            }
            return (.text(raw), type)
        case "urlencoded":
            let fields = try body.postmanEntries("urlencoded").compactMap { entry in
                entry.key.map { Parameter(name: $0, value: entry.value ?? "") }
            }
            return (fields.isEmpty ? nil : .form(fields), nil)
        case "formdata":
            var parts: [MultipartPart] = []
            for entry in try body.postmanEntries("formdata") {
                guard let name = entry.key else { continue }
                let contentType = entry.reader.postmanText("contentType").flatMap { $0.isEmpty ? nil : $0 }
                if entry.reader.postmanText("type") == "file" {
                    for (src, node, path) in try sources(entry.reader) {
                        parts.append(MultipartPart(name: name, content: .file(path: try resolve(src, base, entry.reader, node, path)),
                                                   contentType: contentType))
                    }
                } else {
                    parts.append(MultipartPart(name: name, content: .text(entry.value ?? ""), contentType: contentType))
                }
            }
            return (parts.isEmpty ? nil : .multipart(parts), nil)
        case "file":
            guard let fileNode = body.optional("file"), case .object = fileNode.value else { return (nil, nil) }
            let file = try FieldReader(file: body.file, node: fileNode, path: body.childPath("file"))
            guard let (src, node, path) = try sources(file).first else { return (nil, nil) }
            return (.file(path: try resolve(src, base, file, node, path)), nil)
        case "graphql":
            guard let graphNode = body.optional("graphql"), case .object = graphNode.value else { return (nil, nil) }
            let graphql = try FieldReader(file: body.file, node: graphNode, path: body.childPath("graphql"))
            var variables: String?
            if let node = graphql.optional("variables") {
                switch node.value {
                case .object: variables = node.compactText
                case .string(let text) where !text.allSatisfy(\.isWhitespace):
                    if let parsed = try? JSONParser.parse(Array(text.utf8)), case .object = parsed.value {
                        variables = parsed.compactText
                    } else {
                        warnings.notes.append("\(graphql.childPath("variables")): GraphQL variables are not a JSON object; sent without them")
                    }
                default: break
                }
            }
            return (.graphQL(query: graphql.postmanText("query") ?? "", variables: variables, operationName: nil), nil)
        default:
            warnings.notes.append("\(body.childPath("mode")): unknown body mode '\(mode)'; sent without a body")
            return (nil, nil)
        }
    }

    /// `src` as a list of paths: a string, or an array of strings (several files in one field); empty ones
    /// dropped. Each with its node and field path, for messages.
    private static func sources(_ reader: FieldReader) throws(InputError) -> [(String, JSONNode, String)] {
        guard let node = reader.optional("src") else { return [] }
        let path = reader.childPath("src")
        switch node.value {
        case .string(let text): return text.isEmpty ? [] : [(text, node, path)]
        case .array(let items):
            return items.enumerated().map { (PostmanFields.text($1), $1, "\(path)[\($0)]") }.filter { !$0.0.isEmpty }
        default: throw reader.error(node, path, "expected a file path or a list of them, found \(node.kindDescription)")
        }
    }

    private static func resolve(_ src: String, _ base: FileScope, _ reader: FieldReader, _ node: JSONNode, _ path: String) throws(InputError) -> String {
        switch base.bodyFile(src, mustExist: false) {
        case .success(let resolved): return resolved
        case .failure(let refusal): throw reader.error(node, path, refusal.reason)
        }
    }
}
