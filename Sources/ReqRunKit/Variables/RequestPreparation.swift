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
    public var body: PreparedBody?
    /// Credentials libcurl applies itself (digest, AWS Signature v4); other auth kinds are already header
    /// fields or query parameters.
    public var transferAuth: TransferAuth?
    /// Resolved credentials, masked in output like secret variables.
    public var secrets: [String]
    /// This request's own limit for the whole transfer, over `ExecutorOptions.timeoutMilliseconds`.
    public var timeoutMilliseconds: Int?
    /// This request's own TLS verification choice, over `ExecutorOptions.insecure` (`Request.insecure`).
    public var insecure: Bool?
    /// `Request.disableCookies`, `tlsDisabledProtocols`, `tlsCipherSelection`.
    public var disableCookies: Bool?
    public var tlsDisabledProtocols: [String]?
    public var tlsCipherSelection: [String]?
    /// Header field names that carry credentials (`Authorization`, an API-key field): not sent when a
    /// redirect leads to another origin.
    public var credentialHeaderNames: Set<String> = PreparedRequest.defaultCredentialHeaderNames
    /// Made once: a set literal here was built for every request (1,600 instructions, callgrind).
    private static let defaultCredentialHeaderNames: Set<String> = ["authorization", "cookie", "proxy-authorization"]
    /// Names of undefined `{{name}}` references sent as their literal text (`RequestRules.sendsUndefinedVariablesAsText`),
    /// in the order found; empty under reqrun's rules, where they fail the request.
    public var literalReferences: [String] = []

    /// The arguments are consumed: `prepareOnce` hands over what it made instead of retaining a copy of each.
    public init(method: String, url: consuming String, headers: consuming [HeaderField], body: consuming PreparedBody?,
                transferAuth: consuming TransferAuth? = nil, secrets: consuming [String] = []) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.transferAuth = transferAuth
        self.secrets = secrets
    }

    /// Whether the URL is `ws://` or `wss://` (RFC 6455 §3): sent by `WebSocketSession`, not as HTTP.
    /// Compared byte by byte: this runs for every request, and `scheme`'s `lowercased()` cost 2,500
    /// instructions a call (callgrind).
    public var isWebSocket: Bool {
        guard let end = URLNormalizer.schemeEnd(url), end == 2 || end == 3 else { return false }
        return zip(url.utf8.prefix(end), "wss".utf8).allSatisfy { $0 | 0x20 == $1 }
    }

    /// The URI scheme in lower case (`http`, `wss`, …).
    public var scheme: String {
        guard let end = URLNormalizer.schemeEnd(url) else { return "http" }
        return String(decoding: url.utf8.prefix(end), as: UTF8.self).lowercased()
    }
}

/// Content ready to send.
public enum PreparedBody: Sendable, Equatable {
    /// Bytes in memory (string, JSON, form and GraphQL bodies).
    case bytes([UInt8])
    /// A file streamed from disk by libcurl's read callback.
    case file(path: String)
    /// Parts for libcurl's MIME API, which writes the boundary into the Content-Type.
    case multipart([PreparedPart])

    /// Size in bytes when known before sending (nil for multipart, whose encoding libcurl does).
    public var knownSize: Int? {
        switch self {
        case .bytes(let bytes): return bytes.count
        case .file(let path): return (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        case .multipart: return nil
        }
    }

    /// The bytes when the content is in memory.
    public var bytes: [UInt8]? {
        if case .bytes(let bytes) = self { return bytes }
        return nil
    }
}

/// A multipart part with its templates resolved.
public typealias PreparedPart = MultipartPart

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
    /// A method or a header field name that is not a token (RFC 9110 §9.1, §5.1), as a script may make one
    /// (`pm.sendRequest`, `pm.request` changed): `field` is nil for the method.
    case notAToken(String, field: String?)
    /// A scheme reqrun does not send (only `http`, `https`, `ws` and `wss`); the request is skipped, not failed.
    case unsupportedScheme(String)
    /// A URL that cannot be sent, e.g. a host name that is not a valid international domain name.
    case invalidURL(String)
    /// A `Content-Type` with its own `boundary` parameter on a multipart body, in `field`: libcurl's MIME API
    /// writes the parts with a boundary of its own and appends it, so the request would carry two
    /// `boundary=` parameters and a server could split the content at the wrong one (RFC 2046 §5.1.1).
    case multipartBoundary(field: String)
    /// `{{process.env.NAME}}` with a name `ProcessEnvironment` does not let collections read.
    case environmentVariableNotAllowed(name: String, field: String)
    /// Auth that reqrun computes could not be computed (an unreadable private key, a failed OAuth 2.0 token
    /// request): why, with secrets masked by the caller.
    case invalidAuth(String)

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
        case .notAToken(let text, let field):
            // Swift's escapes (`\r`, `\n`, `\0`) for what would otherwise break the line.
            let shown = String(text.debugDescription.dropFirst().dropLast())
            return field.map { "\($0) '\(shown)' is not a valid field name (a token, RFC 9110 §5.1)" }
                ?? "method '\(shown)' is not a valid method (a token, RFC 9110 §9.1)"
        case .invalidURL(let reason):
            return "invalid URL: \(reason)"
        case .unsupportedScheme(let scheme):
            return "the \(scheme):// scheme is not supported (reqrun sends only http, https, ws and wss)"
        case .multipartBoundary(let field):
            return "\(field) sets a multipart boundary, but reqrun chooses the boundary of a multipart body itself: "
                + "remove the 'boundary=' parameter (or the whole Content-Type field)"
        case .invalidAuth(let reason):
            return reason
        case .environmentVariableNotAllowed(let name, let field):
            return "process.env.\(name) in \(field) is not readable: collections may read only \(ProcessEnvironment.prefix)* variables "
                + "and those allowed with --allow-env \(name)"
        }
    }
}

/// Turns a collection request into a `PreparedRequest`.
public enum RequestPreparation {
    /// Resolves `request`'s templates in `scope` and applies `auth` (the request's effective auth), by `rules`.
    /// - Parameter tokens: where OAuth 2.0 tokens come from (the run's cache); nil: a placeholder is sent.
    /// - Returns: the prepared request, or why it is not sent (undefined variable, cycle, forbidden character,
    ///   a scheme other than http, https, ws and wss, auth that could not be computed).
    public static func prepare(_ request: Request, scope: VariableScope, auth: Auth? = nil,
                               rules: RequestRules = .reqrun, tokens: OAuth2TokenSource? = nil) -> Result<PreparedRequest, PreparationFailure> {
        guard rules.sendsUndefinedVariablesAsText else { return prepareOnce(request, scope: scope, auth: auth, rules: rules, tokens: tokens) }
        // Newman sends an undefined reference as written: each undefined name becomes a literal value of its own
        // text, in a layer above the others, and the request is prepared again (one failure names the undefined
        // names of one field). `{{process.env.NAME}}` is not Newman's and keeps failing.
        var literal = VariableLayer(source: "undefined (--compat newman)", values: [:], isLiteral: true)
        var names: [String] = []
        var extended = scope
        while true {
            let result = prepareOnce(request, scope: extended, auth: auth, rules: rules, tokens: tokens)
            guard case .failure(.undefinedVariables(let missing, _)) = result else {
                return result.map { prepared in
                    var prepared = prepared
                    prepared.literalReferences = names
                    return prepared
                }
            }
            let new = missing.filter { literal.values[$0] == nil && !$0.hasPrefix("process.env.") }
            guard !new.isEmpty else { return result }
            for name in new { literal.values[name] = "{{\(name)}}" }
            names += new
            extended = scope
            extended.layers.append(literal)
        }
    }

    private static func prepareOnce(_ request: Request, scope: VariableScope, auth: Auth?, rules: RequestRules,
                                    tokens: OAuth2TokenSource?) -> Result<PreparedRequest, PreparationFailure> {
        // Made in a closure and returned: `.success(prepared)` in a `do` copied the whole request and then destroyed
        // the original (callgrind: an outlined copy and destroy of `PreparedRequest` per request).
        Result { () throws(PreparationFailure) -> PreparedRequest in
            var url = try URLSubstitution.resolve(request.url, scope, field: "url")
            // One scan of the URL for the checks below (`URLScan`), made again only where the URL may have changed
            // since: a scheme put in front, query parameters appended, auth applied (an API key or a computed auth may
            // go in the query), `normalize` encoding a byte, Newman's user information, a signature.
            var scan = URLScan(url)
            if scan.hasForbiddenCharacter { throw .forbiddenCharacter(field: "url") }
            var scanned = scan.schemeEnd != nil && request.query.isEmpty
            if scan.schemeEnd == nil { url = "http://" + url }
            for (i, parameter) in request.query.enumerated() {
                url = URLQuery.appending(name: try resolve(parameter.name, scope, field: "query[\(i)].name"),
                                         value: try resolve(parameter.value, scope, field: "query[\(i)].value"), to: url)
            }
            // Collections are checked when they load; what scripts make is checked here.
            guard isToken(request.method) else { throw .notAToken(request.method, field: nil) }
            var headers: [HeaderField] = []
            for (i, header) in request.headers.enumerated() {
                guard isToken(header.name) else { throw .notAToken(header.name, field: "headers[\(i)].name") }
                headers.append(HeaderField(name: header.name,
                                           value: try resolve(header.value, scope, field: "headers[\(i)].value")))
            }
            var body: PreparedBody?
            // HEAD has no content (RFC 9110 §9.3.2); a body written on one is not sent (nor on GET, COPY, PURGE
            // and UNLOCK under Newman's rules).
            if let template = request.body, !rules.prunesBody(of: request.method) {
                let (content, type) = try prepareBody(template, scope)
                body = content
                if case .multipart = content, let i = headers.firstIndex(where: { $0.hasName(in: ["content-type"]) && hasBoundary($0.value) }) {
                    throw .multipartBoundary(field: "headers[\(i)].value")
                }
                if let type, !headers.contains(named: "content-type") {
                    headers.append(HeaderField(name: "Content-Type", value: type))
                }
            }
            var prepared = PreparedRequest(method: request.method, url: consume url, headers: consume headers, body: consume body)
            prepared.timeoutMilliseconds = request.timeoutMilliseconds
            prepared.insecure = request.insecure
            (prepared.disableCookies, prepared.tlsDisabledProtocols, prepared.tlsCipherSelection) =
                (request.disableCookies, request.tlsDisabledProtocols, request.tlsCipherSelection)
            if let auth {
                if case .none = auth {} else { scanned = false }
                try apply(auth, to: &prepared, scope, tokens: tokens)
            }
            if !scanned { scan = URLScan(prepared.url) }
            prepared.url = try URLNormalizer.normalize(prepared.url, scan, keepingInPath: rules.keepsCaretAndPipeInPath ? [UInt8(ascii: "^"), UInt8(ascii: "|")] : [])
            scanned = scan.allKept
            if rules.encodesUserinfoDelimiters {
                prepared.url = URLNormalizer.encodingUserinfoDelimiters(prepared.url)
                scanned = false
            }
            if let auth, ComputedAuth.signsSentForm(auth) {
                try ComputedAuth.sign(auth, &prepared, computedResolve(scope))
                scanned = false
            }
            if !scanned { scan = URLScan(prepared.url) }
            guard scan.hasHTTPScheme || prepared.isWebSocket else { throw .unsupportedScheme(prepared.scheme) }
            if request.messages != nil, !prepared.isWebSocket {
                throw .invalidURL("the request has 'messages', which only a ws:// or wss:// URL sends, but its URL is \(prepared.scheme)://")
            }
            try URLNormalizer.validate(prepared.url, scan)
            // Whatever reached a credential (a header written by hand, a captured token, URL user information).
            // Appended only when found: most requests have none, and the sum of two empty arrays was still made.
            let found = CredentialSecrets.inURL(prepared.url, scan), inHeaders = CredentialSecrets.inHeaders(prepared.headers, names: prepared.credentialHeaderNames)
            if !found.isEmpty { prepared.secrets += found }
            if !inHeaders.isEmpty { prepared.secrets += inHeaders }
            return prepared
        }
    }

    /// Whether `text` is a token (RFC 9110 §5.6.2), as a method and a field name must be. On bytes: token characters
    /// are ASCII (a non-ASCII byte is never one), and the scalars cost more.
    static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.allUTF8Bytes { $0 < 0x80 && HTTPSyntax.isTokenCharacter(Unicode.Scalar($0)) }
    }

    /// The content and the Content-Type it implies (nil: libcurl sets it, with the multipart boundary).
    /// A string body is plain text, as Postman labels raw text; JSON and GraphQL are `application/json`;
    /// a file is `application/octet-stream`.
    private static func prepareBody(_ body: RequestBody, _ scope: VariableScope) throws(PreparationFailure) -> (PreparedBody, String?) {
        func text(_ template: String, _ field: String) throws(PreparationFailure) -> String {
            try resolve(template, scope, field: field, allowLineBreaks: true)
        }
        switch body {
        case .text(let template):
            return (.bytes(Array(try text(template, "body").utf8)), "text/plain; charset=utf-8")
        case .json(let template):
            return (.bytes(Array(try resolveJSON(template, scope).utf8)), "application/json")
        case .form(let fields):
            var pairs: [String] = []
            for (i, field) in fields.enumerated() {
                pairs.append(URLQuery.formEncode(try text(field.name, "form[\(i)].name")) + "="
                             + URLQuery.formEncode(try text(field.value, "form[\(i)].value")))
            }
            return (.bytes(Array(pairs.joined(separator: "&").utf8)), "application/x-www-form-urlencoded")
        case .file(let path):
            return (.file(path: path), "application/octet-stream")
        case .multipart(let parts):
            var prepared: [PreparedPart] = []
            for (i, part) in parts.enumerated() {
                var copy = part
                copy.name = try text(part.name, "multipart[\(i)].name")
                if case .text(let value) = part.content { copy.content = .text(try text(value, "multipart[\(i)].value")) }
                prepared.append(copy)
            }
            return (.multipart(prepared), nil)
        case .graphQL(let query, let variables, let operationName):
            var json = "{\"query\":"
            JSONNode.appendQuoted(try text(query, "graphql.query"), to: &json)
            if let variables { json += ",\"variables\":" + (try text(variables, "graphql.variables")) }
            if let operationName {
                json += ",\"operationName\":"
                JSONNode.appendQuoted(try text(operationName, "graphql.operationName"), to: &json)
            }
            return (.bytes(Array((json + "}").utf8)), "application/json")
        }
    }

    /// A JSON body with `{{name}}` resolved inside its strings (keys and values), each value JSON-escaped,
    /// so a value with quotes or backslashes keeps the body valid JSON. Numbers, booleans and structure
    /// stay exactly as written.
    static func resolveJSON(_ compact: String, _ scope: VariableScope) throws(PreparationFailure) -> String {
        guard compact.contains("{{"), let root = try? JSONParser.parse(Array(compact.utf8)) else { return compact }
        var out = ""
        func write(_ node: JSONNode) throws(PreparationFailure) {
            switch node.value {
            case .string(let s): JSONNode.appendQuoted(try resolve(s, scope, field: "body", allowLineBreaks: true), to: &out)
            case .array(let items):
                out += "["
                for (i, item) in items.enumerated() {
                    if i > 0 { out += "," }
                    try write(item)
                }
                out += "]"
            case .object(let members):
                out += "{"
                for (i, member) in members.enumerated() {
                    if i > 0 { out += "," }
                    JSONNode.appendQuoted(try resolve(member.key, scope, field: "body", allowLineBreaks: true), to: &out)
                    out += ":"
                    try write(member.value)
                }
                out += "}"
            default: out += node.compactText
            }
        }
        try write(root)
        return out
    }

    /// Basic, bearer and API-key auth become a header field (unless the request sets that field itself) or a
    /// query parameter; digest and AWS Signature v4 are left to libcurl, which needs the server's challenge
    /// or the request's final form.
    private static func apply(_ auth: Auth, to prepared: inout PreparedRequest, _ scope: VariableScope,
                              tokens: OAuth2TokenSource?) throws(PreparationFailure) {
        func value(_ template: String, _ field: String) throws(PreparationFailure) -> String {
            try resolve(template, scope, field: "auth.\(field)")
        }
        func addHeader(_ name: String, _ value: String) {
            if !prepared.headers.contains(named: name) {
                prepared.headers.append(HeaderField(name: name, value: value))
            }
        }
        switch auth {
        case .none:
            return
        case .oauth1, .hawk, .ntlm, .oauth2, .jwt, .asap, .edgegrid:
            try ComputedAuth.apply(auth, to: &prepared, tokens: tokens, computedResolve(scope))
        case .basic(let username, let password):
            let user = try value(username, "username"), secret = try value(password, "password")
            let encoded = Data("\(user):\(secret)".utf8).base64EncodedString()
            addHeader("Authorization", "Basic " + encoded)
            // The encoded pair is as secret as the password: a server that echoes the header must not show it.
            prepared.secrets = [secret, encoded]
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
                prepared.credentialHeaderNames.insert(key.lowercased())
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
                prepared.credentialHeaderNames.insert("x-amz-security-token")
            }
        }
    }

    /// `ComputedAuth`'s resolver: fields named `auth.NAME`.
    private static func computedResolve(_ scope: VariableScope) -> ComputedAuth.Resolve {
        { (template, field, kind) throws(PreparationFailure) in
            if kind == .json, let node = try? JSONParser.parse(Array(template.utf8)) { return try resolveJSON(node.compactText, scope) }
            return try resolve(template, scope, field: "auth.\(field)", allowLineBreaks: kind != .line)
        }
    }

    private static func resolve(_ template: String, _ scope: VariableScope, field: String,
                                allowLineBreaks: Bool = false) throws(PreparationFailure) -> String {
        let text = try scope.resolve(template, field: field)
        return allowLineBreaks ? text : try checked(text, field: field)
    }

    /// Whether a media type has a `boundary` parameter (RFC 9110 §8.3.1: parameter names are case-insensitive).
    private static func hasBoundary(_ mediaType: String) -> Bool {
        mediaType.split(separator: ";").dropFirst().contains {
            $0.split(separator: "=", maxSplits: 1).first?.trimmingCharacters(in: .whitespaces).lowercased() == "boundary"
        }
    }

    /// `text`, unless it holds a CR, LF or NUL.
    private static func checked(_ text: String, field: String) throws(PreparationFailure) -> String {
        // CR, LF and NUL are single bytes in UTF-8, so the bytes tell exactly.
        if text.containsUTF8Byte(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }) { throw .forbiddenCharacter(field: field) }
        return text
    }
}
