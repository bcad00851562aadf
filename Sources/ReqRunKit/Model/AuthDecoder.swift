/// Reads `auth` objects: `{"type": "basic", "username": …, "password": …}`, `{"type": "bearer", "token": …}`,
/// `{"type": "apikey", "key": …, "value": …, "in": "header" | "query"}`, `{"type": "digest", "username": …,
/// "password": …}`, `{"type": "awsv4", "accessKey": …, "secretKey": …, "region": …, "service": …,
/// "sessionToken": …}`, `{"type": "ntlm", "username": …, "password": …, "domain": …}`, `{"type": "none"}`, and
/// the kinds reqrun computes, `oauth1`, `hawk`, `oauth2`, `jwt`, `asap`, `edgegrid`, whose fields `AuthTables` lists.
enum AuthDecoder {
    static let types = ["none", "basic", "bearer", "apikey", "digest", "awsv4", "ntlm", "oauth1", "hawk", "oauth2", "jwt", "asap", "edgegrid"]

    static func decode(_ reader: FieldReader) throws(InputError) -> Auth? {
        guard let node = reader.optional("auth") else { return nil }
        let auth = try FieldReader(file: reader.file, node: node, path: reader.childPath("auth"))
        let type = try auth.requiredString("type")
        switch type {
        case "none":
            try auth.rejectUnknownKeys(["type"])
            return Auth.none
        case "basic", "digest":
            try auth.rejectUnknownKeys(["type", "username", "password"])
            let username = try auth.requiredString("username"), password = try auth.optionalString("password") ?? ""
            return type == "basic" ? .basic(username: username, password: password) : .digest(username: username, password: password)
        case "bearer":
            try auth.rejectUnknownKeys(["type", "token"])
            return .bearer(token: try auth.requiredString("token"))
        case "apikey":
            try auth.rejectUnknownKeys(["type", "key", "value", "in"])
            let place = try auth.optionalString("in") ?? "header"
            guard place == "header" || place == "query" else {
                throw auth.error(auth.optional("in")!, auth.childPath("in"), "expected \"header\" or \"query\", found \"\(place)\"")
            }
            let key = try auth.requiredString("key")
            if place == "header", key.isEmpty || !key.unicodeScalars.allSatisfy(HTTPSyntax.isTokenCharacter) {
                throw auth.error(auth.optional("key")!, auth.childPath("key"), "'\(key)' is not a valid field name (RFC 9110 §5.1: a token)")
            }
            return .apiKey(name: key, value: try auth.requiredString("value"), inQuery: place == "query")
        case "awsv4":
            try auth.rejectUnknownKeys(["type", "accessKey", "secretKey", "region", "service", "sessionToken"])
            return .awsSigV4(accessKey: try auth.requiredString("accessKey"), secretKey: try auth.requiredString("secretKey"),
                             region: try auth.requiredString("region"), service: try auth.requiredString("service"),
                             sessionToken: try auth.optionalString("sessionToken"))
        case "ntlm":
            try auth.rejectUnknownKeys(["type", "username", "password", "domain"])
            return .ntlm(username: try auth.requiredString("username"), password: try auth.optionalString("password") ?? "",
                         domain: try auth.optionalString("domain") ?? "")
        case "oauth1":
            var value = OAuth1Auth(consumerKey: "")
            try AuthTables.oauth1.decode(auth, into: &value)
            return .oauth1(value)
        case "hawk":
            var value = HawkAuth(id: "", key: "")
            try AuthTables.hawk.decode(auth, into: &value)
            return .hawk(value)
        case "oauth2":
            _ = try auth.requiredString("grant")
            var value = OAuth2Auth(grant: .clientCredentials, tokenURL: "", clientId: "")
            try AuthTables.oauth2.decode(auth, into: &value)
            return .oauth2(value)
        case "jwt":
            var value = JWTAuth()
            try AuthTables.jwt.decode(auth, into: &value)
            return .jwt(value)
        case "asap":
            var value = AsapAuth()
            try AuthTables.asap.decode(auth, into: &value)
            return .asap(value)
        case "edgegrid":
            var value = EdgeGridAuth(accessToken: "", clientToken: "", clientSecret: "")
            try AuthTables.edgegrid.decode(auth, into: &value)
            return .edgegrid(value)
        default:
            var reason = "unknown auth type '\(type)'; expected one of \(types.joined(separator: ", "))"
            if let guess = Suggestion.closest(to: type, among: types) { reason += " (did you mean '\(guess)'?)" }
            throw auth.error(auth.optional("type")!, auth.childPath("type"), reason)
        }
    }
}
