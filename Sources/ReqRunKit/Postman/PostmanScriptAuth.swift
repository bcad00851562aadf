/// reqrun's `Auth` as a Postman auth object for scripts, and a script's auth object back: what
/// `pm.request.auth` reads and what changing it sends (`SandboxRequestAuth` in the PostmanSandbox target), and
/// the `auth` of a `pm.sendRequest` request.
///
/// The parameters are the ones `PostmanAuthDecoder` reads, so `decode` of `parameters(of:)` gives the same
/// auth back for every type. reqrun keeps the auth it computes, not the one the file wrote: an `oauth2` auth
/// with a stored token reads as the `bearer` (or `apikey`) auth that sends it.
public enum PostmanScriptAuth {
    /// Postman's type name and its parameters, in the order Postman's auth dialogs list them; flags as
    /// `true`/`false`. `.none` is `noauth` without parameters.
    public static func parameters(of auth: Auth) -> (type: String, parameters: [(key: String, value: String)]) {
        func flag(_ value: Bool) -> String { value ? "true" : "false" }
        switch auth {
        case .none: return ("noauth", [])
        case .basic(let username, let password): return ("basic", [("username", username), ("password", password)])
        case .digest(let username, let password): return ("digest", [("username", username), ("password", password)])
        case .bearer(let token): return ("bearer", [("token", token)])
        case .apiKey(let name, let value, let inQuery): return ("apikey", [("key", name), ("value", value), ("in", inQuery ? "query" : "header")])
        case .awsSigV4(let accessKey, let secretKey, let region, let service, let sessionToken):
            return ("awsv4", [("accessKey", accessKey), ("secretKey", secretKey), ("region", region), ("service", service),
                              ("sessionToken", sessionToken ?? "")])
        case .ntlm(let username, let password, let domain):
            return ("ntlm", [("username", username), ("password", password), ("domain", domain)])
        case .oauth1(let a):
            return ("oauth1", [("consumerKey", a.consumerKey), ("consumerSecret", a.consumerSecret), ("token", a.token),
                               ("tokenSecret", a.tokenSecret), ("signatureMethod", a.signatureMethod.rawValue), ("privateKey", a.privateKey),
                               ("addParamsToHeader", flag(a.placement == .header)), ("realm", a.realm), ("nonce", a.nonce),
                               ("timestamp", a.timestamp), ("version", a.version), ("callback", a.callback), ("verifier", a.verifier),
                               ("includeBodyHash", flag(a.includeBodyHash)), ("addEmptyParamsToSign", flag(a.addEmptyParamsToSign))])
        case .hawk(let a):
            return ("hawk", [("authId", a.id), ("authKey", a.key), ("algorithm", a.algorithm.rawValue), ("nonce", a.nonce),
                             ("timestamp", a.timestamp), ("extraData", a.ext), ("app", a.app), ("delegation", a.dlg),
                             ("includePayloadHash", flag(a.includePayloadHash))])
        case .oauth2(let a):
            let grant = a.grant == .password ? "password_credentials" : a.grant.rawValue
            return ("oauth2", [("grant_type", grant), ("accessTokenUrl", a.tokenURL), ("clientId", a.clientId), ("clientSecret", a.clientSecret),
                               ("username", a.username), ("password", a.password), ("scope", a.scope), ("audience", a.audience),
                               ("resource", a.resource), ("client_authentication", a.clientAuthentication.rawValue),
                               ("headerPrefix", a.headerPrefix), ("addTokenTo", a.inQuery ? "queryParams" : "header")])
        case .jwt(let a):
            return ("jwt", [("algorithm", a.algorithm.rawValue), ("secret", a.secret), ("isSecretBase64Encoded", flag(a.secretIsBase64)),
                            ("privateKey", a.privateKey), ("payload", a.payload), ("header", a.header), ("headerPrefix", a.headerPrefix),
                            ("addTokenTo", a.inQuery ? "queryParam" : "header"), ("queryParamKey", a.queryParameter)])
        case .asap(let a):
            return ("asap", [("alg", a.algorithm.rawValue), ("iss", a.issuer), ("aud", a.audience), ("kid", a.keyId),
                             ("privateKey", a.privateKey), ("sub", a.subject), ("claims", a.claims), ("exp", a.expiry)])
        case .edgegrid(let a):
            return ("edgegrid", [("accessToken", a.accessToken), ("clientToken", a.clientToken), ("clientSecret", a.clientSecret),
                                 ("nonce", a.nonce), ("timestamp", a.timestamp), ("baseURL", a.baseURL),
                                 ("headersToSign", a.headersToSign), ("maxBodySize", a.maxBodySize)])
        }
    }

    /// Reads a script's Postman auth object (`{"type", TYPE: [{"key", "value"}] or {name: value}}`, as
    /// `PostmanAuthDecoder` reads a collection's).
    /// - Parameter api: the script API it came from, in front of a refusal (`pm.request.auth`, `pm.sendRequest`).
    /// - Returns: the auth (nil for `inherit` or no type), or why it cannot be used: a malformed object, or a
    ///   type reqrun does not compute (an interactive `oauth2` grant without a token).
    public static func decode(_ node: JSONNode, api: String) -> Result<Auth?, ScriptRequestRefusal> {
        var warnings = PostmanWarnings()
        let holder = JSONNode(value: .object([JSONNode.Member(key: "auth", keyLocation: node.location, value: node)]), location: node.location)
        let auth: Auth?
        do {
            auth = try PostmanAuthDecoder.decode(try FieldReader(file: api, node: holder, path: ""), warnings: &warnings)
        } catch {
            return .failure(ScriptRequestRefusal("\(api): \(error.fieldPath.map { $0 + ": " } ?? "")\(error.reason)"))
        }
        if let type = warnings.unsupportedAuth.keys.first {
            return .failure(ScriptRequestRefusal("\(api): auth type '\(type)' is not computed by reqrun"))
        }
        return .success(auth)
    }
}
