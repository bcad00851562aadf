/// Reads a Postman `auth` object into reqrun's `Auth`.
///
/// Shapes (Postman Collection Format v2.0 and v2.1 schemas, `auth` definition):
/// - v2.1: `{"type": "basic", "basic": [{"key": "username", "value": "…", "type": "string"}, …]}`;
/// - v2.0: `{"type": "basic", "basic": {"username": "…", "password": "…"}}`.
///
/// Types: `noauth` → `.none` (stops inheritance); `basic`, `bearer` (`token`), `apikey` (`key`, `value`,
/// `in` = `header` or `query`), `digest` (`username`, `password`; the realm and nonce are the server's, and
/// libcurl answers its challenge), `awsv4` (`accessKey`, `secretKey`, `region`, `service`, `sessionToken`);
/// `oauth2` with a stored `accessToken` → the token, sent as Postman sends it (`headerPrefix`, default
/// `Bearer`, or the `access_token` query parameter when `addTokenTo` is `queryParams`); `inherit` or no type
/// → nil (inherits). Others (`oauth1`, `hawk`, `ntlm`, `edgegrid`, `jwt`, `asap`, an `oauth2` without a token)
/// → `.none` and a warning: the request is sent without authentication.
enum PostmanAuthDecoder {
    static func decode(_ reader: FieldReader, warnings: inout PostmanWarnings) throws(InputError) -> Auth? {
        guard let node = reader.optional("auth") else { return nil }
        let auth = try FieldReader(file: reader.file, node: node, path: reader.childPath("auth"))
        guard let type = try auth.optionalString("type") else { return nil }
        let parameters = try self.parameters(auth, type)
        func value(_ name: String) -> String { parameters[name] ?? "" }
        switch type {
        case "inherit":
            return nil
        case "noauth":
            return Auth.none
        case "basic":
            return .basic(username: value("username"), password: value("password"))
        case "digest":
            return .digest(username: value("username"), password: value("password"))
        case "bearer":
            return .bearer(token: value("token"))
        case "apikey":
            return .apiKey(name: parameters["key"] ?? "", value: value("value"), inQuery: parameters["in"] == "query")
        case "awsv4":
            let token = value("sessionToken")
            return .awsSigV4(accessKey: value("accessKey"), secretKey: value("secretKey"),
                             region: parameters["region"].flatMap { $0.isEmpty ? nil : $0 } ?? "us-east-1",
                             service: value("service"), sessionToken: token.isEmpty ? nil : token)
        case "oauth2" where !value("accessToken").isEmpty:
            if parameters["addTokenTo"] == "queryParams" {
                return .apiKey(name: "access_token", value: value("accessToken"), inQuery: true)
            }
            let prefix = parameters["headerPrefix"] ?? "Bearer"
            if prefix == "Bearer" { return .bearer(token: value("accessToken")) }
            return .apiKey(name: "Authorization", value: prefix.isEmpty ? value("accessToken") : "\(prefix) \(value("accessToken"))",
                           inQuery: false)
        default:
            warnings.unsupportedAuth[type, default: 0] += 1
            return Auth.none
        }
    }

    /// The type's parameters as name → text, from the v2.1 list or the v2.0 object; disabled entries dropped.
    private static func parameters(_ auth: FieldReader, _ type: String) throws(InputError) -> [String: String] {
        guard let node = auth.optional(.named(type)) else { return [:] }
        var result: [String: String] = [:]
        switch node.value {
        case .array:
            for entry in try auth.postmanEntries(.named(type)) {
                if let key = entry.key { result[key] = entry.value ?? "" }
            }
        case .object(let members):
            for member in members { result[member.key] = PostmanFields.text(member.value) }
        default:
            throw auth.error(node, auth.childPath(type), "expected a list of {\"key\", \"value\"} or an object, found \(node.kindDescription)")
        }
        return result
    }
}
