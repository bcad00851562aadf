/// A request with every `{{name}}` resolved: exactly what the executor sends.
public struct PreparedRequest: Sendable, Equatable {
    /// Request method (RFC 9110 §9), as written.
    public var method: String
    /// The target URI, with a scheme (`http://` is put in front of one written without, as curl and Postman do).
    public var url: String
    /// Header fields in order, repeats kept, including any `Content-Type` reqrun adds for a JSON body.
    public var headers: [HeaderField]
    /// The content, or nil for none.
    public var body: [UInt8]?

    public init(method: String, url: String, headers: [HeaderField], body: [UInt8]?) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// The URI scheme in lower case (`http`, `wss`, …).
    public var scheme: String {
        guard let end = url.range(of: "://") else { return "http" }
        return url[..<end.lowerBound].lowercased()
    }
}

/// Why a request was not sent.
public enum PreparationFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// `{{name}}` references without a value; `field` is where (`url`, `headers[0].value`, `body`).
    case undefinedVariables(names: [String], field: String)
    /// A chain of references that comes back to itself (`a → b → a`).
    case variableCycle(names: [String], field: String)
    /// A chain of references deeper than `VariableScope.maximumDepth`.
    case variableDepth(names: [String], field: String)
    /// A CR, LF or NUL in the URL or a header field after substitution: it would split or end the request
    /// (RFC 9110 §5.5 forbids them in field values), so nothing is sent.
    case forbiddenCharacter(field: String)
    /// A scheme reqrun does not send (only `http` and `https`); the request is skipped, not failed.
    case unsupportedScheme(String)

    /// Skips do not fail a run; the other cases do.
    public var isSkip: Bool {
        if case .unsupportedScheme = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .undefinedVariables(let names, let field):
            let list = names.map { "'\($0)'" }.joined(separator: ", ")
            return "undefined variable\(names.count == 1 ? "" : "s") \(list) in \(field)"
        case .variableCycle(let names, let field):
            return "variable cycle in \(field): \(names.joined(separator: " → "))"
        case .variableDepth(let names, let field):
            return "variables nest deeper than \(VariableScope.maximumDepth) levels in \(field): \(names.joined(separator: " → "))"
        case .forbiddenCharacter(let field):
            return "\(field) contains a CR, LF or NUL character, which would corrupt the request"
        case .unsupportedScheme(let scheme):
            return "the \(scheme):// scheme is not supported (reqrun sends only http and https)"
        }
    }
}

/// Turns a collection request into a `PreparedRequest`.
public enum RequestPreparation {
    /// Resolves `request`'s templates in `scope`.
    /// - Returns: the prepared request, or why it is not sent (undefined variable, cycle, forbidden character,
    ///   a scheme other than http/https).
    public static func prepare(_ request: Request, scope: VariableScope) -> Result<PreparedRequest, PreparationFailure> {
        do throws(PreparationFailure) {
            var url = try resolve(request.url, scope, field: "url")
            if url.range(of: "://") == nil { url = "http://" + url }
            var headers: [HeaderField] = []
            for (i, header) in request.headers.enumerated() {
                headers.append(HeaderField(name: header.name,
                                           value: try resolve(header.value, scope, field: "headers[\(i)].value")))
            }
            var body: [UInt8]?
            if let template = request.body {
                body = Array(try resolve(template.template, scope, field: "body", allowLineBreaks: true).utf8)
                if !headers.contains(where: { $0.name.lowercased() == "content-type" }) {
                    // A JSON body is labelled as JSON; a string body as plain text, as Postman does for raw text.
                    let type = if case .json = template { "application/json" } else { "text/plain; charset=utf-8" }
                    headers.append(HeaderField(name: "Content-Type", value: type))
                }
            }
            let prepared = PreparedRequest(method: request.method, url: url, headers: headers, body: body)
            guard ["http", "https"].contains(prepared.scheme) else { throw .unsupportedScheme(prepared.scheme) }
            return .success(prepared)
        } catch {
            return .failure(error)
        }
    }

    private static func resolve(_ template: String, _ scope: VariableScope, field: String,
                                allowLineBreaks: Bool = false) throws(PreparationFailure) -> String {
        let text = try scope.resolve(template, field: field)
        if !allowLineBreaks, text.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) {
            throw .forbiddenCharacter(field: field)
        }
        return text
    }
}
