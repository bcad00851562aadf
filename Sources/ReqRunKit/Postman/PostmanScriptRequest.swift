/// Reads the request a script gives `pm.sendRequest`, as the sandbox hands it over after normalising it
/// (`SandboxSendRequest` in the PostmanSandbox target):
/// `{"url": TEXT, "method": TEXT, "header": [{"key", "value"}], "body": BODY or null, "auth": AUTH or null}`, where
/// BODY is `{"mode": "raw", "raw", "language"?}`, `{"mode": "urlencoded", "urlencoded": [{"key", "value"}]}`,
/// `{"mode": "formdata", "formdata": [{"key", "value"}]}` (text parts only) or
/// `{"mode": "graphql", "graphql": {"query", "variables"?}}`, and AUTH is Postman's `auth` object
/// (`PostmanAuthDecoder`: v2.1 lists or v2.0 objects).
public enum PostmanScriptRequest {
    /// - Returns: the request, or why it cannot be read (`pm.sendRequest: …`).
    public static func decode(_ node: JSONNode) -> Result<ScriptRequest, ScriptRequestRefusal> {
        guard case .object = node.value else { return .failure(ScriptRequestRefusal("pm.sendRequest: expected a request object")) }
        let url = string(node["url"]) ?? ""
        guard !url.isEmpty else { return .failure(ScriptRequestRefusal("pm.sendRequest: the request has no URL")) }
        var request = ScriptRequest(method: string(node["method"]) ?? "GET", url: url, headers: pairs(node["header"]).map {
            HeaderField(name: $0.key, value: $0.value)
        })
        if let body = node["body"], case .object = body.value {
            let language = string(body["language"])
            switch string(body["mode"]) {
            case "raw":
                let raw = string(body["raw"]) ?? ""
                if !raw.isEmpty { request.body = .text(raw) }
                if let type = language.flatMap({ PostmanBody.languageTypes[$0] }), !raw.isEmpty, !request.headers.contains(named: "content-type") {
                    request.headers.append(HeaderField(name: "Content-Type", value: type))
                }
            case "urlencoded": request.body = .form(pairs(body["urlencoded"]).map { Parameter(name: $0.key, value: $0.value) })
            case "formdata":
                request.body = .multipart(pairs(body["formdata"]).map { MultipartPart(name: $0.key, content: .text($0.value)) })
            case "graphql":
                let graphQL = body["graphql"]
                request.body = .graphQL(query: string(graphQL?["query"]) ?? "", variables: string(graphQL?["variables"]), operationName: nil)
            default: break
            }
        }
        if let auth = node["auth"], case .object = auth.value {
            switch PostmanScriptAuth.decode(auth, api: "pm.sendRequest") {
            case .success(let decoded): request.auth = decoded
            case .failure(let refusal): return .failure(refusal)
            }
        }
        return .success(request)
    }

    private static func string(_ node: JSONNode?) -> String? {
        guard let node else { return nil }
        switch node.value {
        case .null: return nil
        case .string(let text): return text
        default: return PostmanFields.text(node)
        }
    }

    private static func pairs(_ node: JSONNode?) -> [(key: String, value: String)] {
        guard let node, case .array(let items) = node.value else { return [] }
        return items.compactMap { item in
            guard let key = string(item["key"]), !key.isEmpty else { return nil }
            return (key, string(item["value"]) ?? "")
        }
    }
}

extension JSONNode {
    /// The last member named `key` of an object (JSON's last-wins reading of duplicates).
    fileprivate subscript(key: String) -> JSONNode? {
        guard case .object(let members) = value else { return nil }
        return members.last { $0.key == key }?.value
    }
}
