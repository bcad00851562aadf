import Foundation

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
    /// Credentials libcurl applies itself (digest, AWS Signature v4); other auth kinds are already header
    /// fields or query parameters.
    public var transferAuth: TransferAuth?
    /// Resolved credentials, masked in output like secret variables.
    public var secrets: [String]

    public init(method: String, url: String, headers: [HeaderField], body: [UInt8]?, transferAuth: TransferAuth? = nil,
                secrets: [String] = []) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.transferAuth = transferAuth
        self.secrets = secrets
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
    /// Resolves `request`'s templates in `scope` and applies `auth` (the request's effective auth).
    /// - Returns: the prepared request, or why it is not sent (undefined variable, cycle, forbidden character,
    ///   a scheme other than http/https).
    public static func prepare(_ request: Request, scope: VariableScope, auth: Auth? = nil) -> Result<PreparedRequest, PreparationFailure> {
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
            var prepared = PreparedRequest(method: request.method, url: url, headers: headers, body: body)
            if let auth { try apply(auth, to: &prepared, scope) }
            guard ["http", "https"].contains(prepared.scheme) else { throw .unsupportedScheme(prepared.scheme) }
            return .success(prepared)
        } catch {
            return .failure(error)
        }
    }

    /// Basic, bearer and API-key auth become a header field (unless the request sets that field itself) or a
    /// query parameter; digest and AWS Signature v4 are left to libcurl, which needs the server's challenge
    /// or the request's final form.
    private static func apply(_ auth: Auth, to prepared: inout PreparedRequest, _ scope: VariableScope) throws(PreparationFailure) {
        func value(_ template: String, _ field: String) throws(PreparationFailure) -> String {
            try resolve(template, scope, field: "auth.\(field)")
        }
        func addHeader(_ name: String, _ value: String) {
            if !prepared.headers.contains(where: { $0.name.lowercased() == name.lowercased() }) {
                prepared.headers.append(HeaderField(name: name, value: value))
            }
        }
        switch auth {
        case .none:
            return
        case .basic(let username, let password):
            let user = try value(username, "username"), secret = try value(password, "password")
            addHeader("Authorization", "Basic " + Data("\(user):\(secret)".utf8).base64EncodedString())
            prepared.secrets = [secret]
        case .bearer(let token):
            let secret = try value(token, "token")
            addHeader("Authorization", "Bearer \(secret)")
            prepared.secrets = [secret]
        case .apiKey(let name, let template, let inQuery):
            let key = try value(name, "key"), secret = try value(template, "value")
            if inQuery {
                prepared.url = URLQuery.appending(name: key, value: secret, to: prepared.url)
            } else {
                addHeader(key, secret)
            }
            prepared.secrets = [secret]
        case .digest(let username, let password):
            let secret = try value(password, "password")
            prepared.transferAuth = .digest(username: try value(username, "username"), password: secret)
            prepared.secrets = [secret]
        case .awsSigV4(let accessKey, let secretKey, let region, let service, let sessionToken):
            let secret = try value(secretKey, "secretKey")
            prepared.transferAuth = .awsSigV4(accessKey: try value(accessKey, "accessKey"), secretKey: secret,
                                              region: try value(region, "region"), service: try value(service, "service"))
            prepared.secrets = [secret]
            if let sessionToken {
                let token = try value(sessionToken, "sessionToken")
                addHeader("X-Amz-Security-Token", token)
                prepared.secrets.append(token)
            }
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
