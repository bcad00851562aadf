/// Writes a `RequestCollection` in reqrun's native format (the README's "Collection format"): pretty JSON,
/// two-space indent, keys in the README's order, optional fields left out when empty or default, so that
/// `CollectionDecoder.decode(encode(x))` gives `x` back (up to source locations).
///
/// Derived group ids are left out (they derive again from the same file name); other ids are written.
/// Group items interleaved by `itemOrder` cannot be written: the native format lists a group's requests
/// before its nested groups.
public enum CollectionEncoder {
    public static func encode(_ collection: RequestCollection) -> String {
        var members: [(String, Value)] = [("name", .string(collection.name))]
        if let id = collection.id { members.append(("id", .string(id))) }
        if !collection.variables.isEmpty { members.append(("variables", variables(collection.variables))) }
        if let auth = collection.auth { members.append(("auth", encode(auth))) }
        if let scripts = NativeScripts.encode(collection.scripts) { members.append(("scripts", scripts)) }
        if let mode = collection.compat?.mode { members.append(("compat", .string(mode))) }
        members.append(("groups", .array(collection.groups.map { encode($0, inherited: collection.scripts.count) })))
        var out = ""
        Value.object(members).write(to: &out, indent: "")
        return out + "\n"
    }

    /// A JSON value to write; `.raw` is JSON text already (a JSON body as written).
    indirect enum Value {
        case string(String), number(String), bool(Bool), raw(String)
        case array([Value])
        case object([(String, Value)])

        func write(to out: inout String, indent: String) {
            switch self {
            case .string(let text): JSONNode.appendQuoted(text, to: &out)
            case .number(let text), .raw(let text): out += text
            case .bool(let value): out += value ? "true" : "false"
            case .array(let items):
                guard !items.isEmpty else { out += "[]"; return }
                out += "[\n"
                for (i, item) in items.enumerated() {
                    out += indent + "  "
                    item.write(to: &out, indent: indent + "  ")
                    out += i == items.count - 1 ? "\n" : ",\n"
                }
                out += indent + "]"
            case .object(let members):
                guard !members.isEmpty else { out += "{}"; return }
                out += "{\n"
                for (i, (key, value)) in members.enumerated() {
                    out += indent + "  "
                    JSONNode.appendQuoted(key, to: &out)
                    out += ": "
                    value.write(to: &out, indent: indent + "  ")
                    out += i == members.count - 1 ? "\n" : ",\n"
                }
                out += indent + "}"
            }
        }
    }

    private static func variables(_ variables: [Variable]) -> Value {
        .object(variables.map { ($0.name, .string($0.value)) })
    }

    /// - Parameter inherited: how many scripts the collection and the groups above have (the first ones of
    ///   each request's `eventScripts`, not written again).
    private static func encode(_ group: RequestGroup, inherited: Int) -> Value {
        var members: [(String, Value)] = [("name", .string(group.name))]
        if !group.idIsDerived { members.append(("id", .string(group.id.lowercasedText))) }
        if !group.variables.isEmpty { members.append(("variables", variables(group.variables))) }
        if let auth = group.auth { members.append(("auth", encode(auth))) }
        if let scripts = NativeScripts.encode(group.scripts) { members.append(("scripts", scripts)) }
        let below = inherited + group.scripts.count
        if !group.requests.isEmpty { members.append(("requests", .array(group.requests.map { encode($0, inherited: below) }))) }
        if !group.groups.isEmpty { members.append(("groups", .array(group.groups.map { encode($0, inherited: below) }))) }
        return .object(members)
    }

    private static func encode(_ request: Request, inherited: Int) -> Value {
        var members: [(String, Value)] = [("url", .string(request.url))]
        if request.method != "GET" { members.append(("method", .string(request.method))) }
        if request.name != request.url { members.append(("name", .string(request.name))) }
        if let id = request.id { members.append(("id", .string(id))) }
        if !request.headers.isEmpty {
            members.append(("headers", .array(request.headers.map { .object([("name", .string($0.name)), ("value", .string($0.value))]) })))
        }
        if !request.query.isEmpty { members.append(("query", parameters(request.query))) }
        if let body = request.body { members.append(bodyMember(body)) }
        if let auth = request.auth { members.append(("auth", encode(auth))) }
        if !request.expectations.isEmpty { members.append(("expect", .array(request.expectations.map { encode($0.expectation) }))) }
        if !request.captures.isEmpty { members.append(("capture", .array(request.captures.map(encode)))) }
        if let poll = request.poll {
            members.append(("retry", .object([("count", .number("\(poll.count)")), ("interval", .number("\(poll.intervalMilliseconds)"))])))
        }
        if let scripts = NativeScripts.encode(Array(request.eventScripts.dropFirst(inherited))) { members.append(("scripts", scripts)) }
        if let timeout = request.timeoutMilliseconds {
            let seconds = timeout % 1000 == 0 ? "\(timeout / 1000)" : "\(Double(timeout) / 1000)"
            members.append(("timeout", .number(seconds)))
        }
        if let follow = request.followRedirects { members.append(("followRedirects", .bool(follow))) }
        if let count = request.maxRedirects { members.append(("maxRedirects", .number("\(count)"))) }
        if let keep = request.followOriginalMethod { members.append(("followOriginalMethod", .bool(keep))) }
        if let trust = request.followAuthorization { members.append(("followAuthorization", .bool(trust))) }
        if let insecure = request.insecure { members.append(("insecure", .bool(insecure))) }
        if let keep = request.disableBodyPruning { members.append(("disableBodyPruning", .bool(keep))) }
        if let off = request.disableCookies { members.append(("disableCookies", .bool(off))) }
        if let names = request.tlsDisabledProtocols { members.append(("tlsDisabledProtocols", .array(names.map { .string($0) }))) }
        if let names = request.tlsCipherSelection { members.append(("tlsCipherSelection", .array(names.map { .string($0) }))) }
        return .object(members)
    }

    private static func parameters(_ parameters: [Parameter]) -> Value {
        .array(parameters.map { .object([("name", .string($0.name)), ("value", .string($0.value))]) })
    }

    private static func bodyMember(_ body: RequestBody) -> (String, Value) {
        switch body {
        case .text(let text): return ("body", .string(text))
        case .json(let text): return ("body", .raw(text))
        case .form(let fields): return ("form", parameters(fields))
        case .file(let path): return ("bodyFile", .string(path))
        case .multipart(let parts):
            return ("multipart", .array(parts.map { part in
                var members: [(String, Value)] = [("name", .string(part.name))]
                switch part.content {
                case .text(let value): members.append(("value", .string(value)))
                case .file(let path): members.append(("file", .string(path)))
                }
                if let type = part.contentType { members.append(("contentType", .string(type))) }
                if let name = part.fileName { members.append(("fileName", .string(name))) }
                return .object(members)
            }))
        case .graphQL(let query, let variables, let operationName):
            var members: [(String, Value)] = [("query", .string(query))]
            if let variables { members.append(("variables", .raw(variables))) }
            if let operationName { members.append(("operationName", .string(operationName))) }
            return ("graphql", .object(members))
        }
    }

    private static func encode(_ auth: Auth) -> Value {
        func object(_ type: String, _ fields: [(String, String)]) -> Value {
            .object([("type", .string(type))] + fields.map { ($0.0, .string($0.1)) })
        }
        switch auth {
        case .none: return object("none", [])
        case .basic(let username, let password): return object("basic", [("username", username), ("password", password)])
        case .digest(let username, let password): return object("digest", [("username", username), ("password", password)])
        case .bearer(let token): return object("bearer", [("token", token)])
        case .apiKey(let name, let value, let inQuery):
            return object("apikey", [("key", name), ("value", value), ("in", inQuery ? "query" : "header")])
        case .awsSigV4(let accessKey, let secretKey, let region, let service, let sessionToken):
            return object("awsv4", [("accessKey", accessKey), ("secretKey", secretKey), ("region", region), ("service", service)]
                          + (sessionToken.map { [("sessionToken", $0)] } ?? []))
        case .ntlm(let username, let password, let domain):
            return object("ntlm", [("username", username), ("password", password)] + (domain.isEmpty ? [] : [("domain", domain)]))
        case .oauth1, .hawk, .oauth2, .jwt, .asap, .edgegrid:
            return AuthEncoder.encode(auth)
        }
    }

    private static func encode(_ expectation: Expectation) -> Value {
        func text(_ check: Expectation.TextCheck) -> [(String, Value)] {
            switch check {
            case .equals(let value): return [("equals", .string(value))]
            case .contains(let value): return [("contains", .string(value))]
            case .matches(let value): return [("matches", .string(value))]
            case .exists(let value): return [("exists", .bool(value))]
            }
        }
        switch expectation {
        case .status(let codes, let classes):
            let values: [Value] = codes.map { .number("\($0)") } + classes.map { .string("\($0)xx") }
            return .object([("status", values.count == 1 ? values[0] : .array(values))])
        case .header(let name, let check): return .object([("header", .string(name))] + text(check))
        case .body(let check): return .object([("body", .object(text(check)))])
        case .json(let path, let check):
            let operation: (String, Value)
            switch check {
            case .equals(let node): operation = ("equals", .raw(node.compactText))
            case .exists(let value): operation = ("exists", .bool(value))
            case .type(let type): operation = ("type", .string(type))
            }
            return .object([("json", .string(path.text)), operation])
        case .timeBelow(let milliseconds): return .object([("timeBelow", .number("\(milliseconds)"))])
        case .bodySize(let bytes, let below): return .object([(below ? "bodySizeBelow" : "bodySize", .number("\(bytes)"))])
        case .check(let check): return .string(check.description)
        }
    }

    private static func encode(_ capture: Capture) -> Value {
        let source: (String, Value)
        switch capture.source {
        case .json(let path): source = ("json", .string(path.text))
        case .header(let name): source = ("header", .string(name))
        case .regex(let pattern): source = ("regex", .string(pattern))
        case .cookie(let name): source = ("cookie", .string(name))
        case .check(let check): source = ("from", .string(check.description))
        }
        return .object([("var", .string(capture.variable)), source])
    }
}
