/// Reads a Postman `auth` object into reqrun's `Auth`.
///
/// Shapes (Postman Collection Format v2.0 and v2.1 schemas, `auth` definition):
/// - v2.1: `{"type": "basic", "basic": [{"key": "username", "value": "…", "type": "string"}, …]}`;
/// - v2.0: `{"type": "basic", "basic": {"username": "…", "password": "…"}}`.
///
/// Types: `noauth` → `.none` (stops inheritance); `basic`, `bearer` (`token`), `apikey` (`key`, `value`,
/// `in` = `header` or `query`), `digest` (`username`, `password`; the realm and nonce are the server's, and
/// libcurl answers its challenge), `awsv4` (`accessKey`, `secretKey`, `region`, `service`, `sessionToken`);
/// `oauth1` (postman-runtime's `oauth1` fields: `addParamsToHeader` true → header, otherwise the form body of
/// a POST or PUT, else the query), `hawk` (`authId`, `authKey`, `algorithm`, `nonce`, `timestamp`,
/// `extraData`, `app`, `delegation`, `includePayloadHash`), `ntlm` (`username`, `password`, `domain`),
/// `jwt` (`algorithm`, `secret`, `isSecretBase64Encoded`, `privateKey`, `payload`, `header`, `addTokenTo`,
/// `headerPrefix`, `queryParamKey`), `asap` (`alg` RS/PS/ES, `iss`, `aud`, `kid`, `privateKey`, `sub`,
/// `claims`, `exp`), `edgegrid` (`accessToken`, `clientToken`, `clientSecret`, `nonce`, `timestamp`,
/// `baseURL`, `headersToSign`, `maxBodySize`: postman-runtime's `edgegrid` fields; without one of the three
/// credentials postman-runtime signs nothing, so `.none`); `oauth2` with `grant_type` `client_credentials` or
/// `password_credentials` and an `accessTokenUrl` → a token reqrun requests (`client_authentication`
/// `header` or `body`), else with a stored `accessToken` → that token; either sent as Postman sends it
/// (`headerPrefix`, default `Bearer`, or the `access_token` query parameter when `addTokenTo` is
/// `queryParams`); `inherit` or no type → nil (inherits). Others (an interactive `oauth2`
/// grant without a stored token, an unknown signature method) → `.none` and a warning: the request is sent
/// without authentication.
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
        case "oauth1" where value("consumerKey").isEmpty:
            return Auth.none  // postman-runtime signs nothing without a consumer key
        case "oauth1":
            guard let auth = oauth1(parameters) else { break }
            return .oauth1(auth)
        case "hawk":
            guard let algorithm = HawkAuth.Algorithm(rawValue: parameters["algorithm"].flatMap { $0.isEmpty ? nil : $0 } ?? "sha256") else { break }
            return .hawk(HawkAuth(id: value("authId"), key: value("authKey"), algorithm: algorithm, nonce: value("nonce"),
                                  timestamp: value("timestamp"), ext: value("extraData"), app: value("app"), dlg: value("delegation"),
                                  includePayloadHash: parameters["includePayloadHash"] == "true"))
        case "ntlm":
            return .ntlm(username: value("username"), password: value("password"), domain: value("domain"))
        case "jwt":
            guard let algorithm = JWTAuth.Algorithm(rawValue: parameters["algorithm"].flatMap { $0.isEmpty ? nil : $0 } ?? "HS256") else { break }
            return .jwt(JWTAuth(algorithm: algorithm, secret: value("secret"), secretIsBase64: parameters["isSecretBase64Encoded"] == "true",
                                privateKey: value("privateKey"), payload: parameters["payload"].flatMap { $0.isEmpty ? nil : $0 } ?? "{}",
                                header: value("header"), headerPrefix: parameters["headerPrefix"] ?? "Bearer",
                                inQuery: parameters["addTokenTo"] == "queryParam",
                                queryParameter: parameters["queryParamKey"].flatMap { $0.isEmpty ? nil : $0 } ?? "token"))
        case "asap":
            guard let algorithm = JWTAuth.Algorithm(rawValue: parameters["alg"].flatMap { $0.isEmpty ? nil : $0 } ?? "RS256"), algorithm.scheme != nil else { break }
            return .asap(AsapAuth(algorithm: algorithm, issuer: value("iss"), audience: value("aud"), keyId: value("kid"), privateKey: value("privateKey"),
                                  subject: value("sub"), claims: value("claims"), expiry: parameters["exp"].flatMap { $0.isEmpty ? nil : $0 } ?? "1h"))
        case "edgegrid" where value("accessToken").isEmpty || value("clientToken").isEmpty || value("clientSecret").isEmpty:
            return Auth.none
        case "edgegrid":
            return .edgegrid(EdgeGridAuth(accessToken: value("accessToken"), clientToken: value("clientToken"), clientSecret: value("clientSecret"),
                                          nonce: value("nonce"), timestamp: value("timestamp"), baseURL: value("baseURL"),
                                          headersToSign: value("headersToSign"), maxBodySize: value("maxBodySize")))
        case "oauth2" where !value("accessTokenUrl").isEmpty && ["client_credentials", "password_credentials"].contains(value("grant_type")):
            return .oauth2(OAuth2Auth(grant: value("grant_type") == "password_credentials" ? .password : .clientCredentials,
                                      tokenURL: value("accessTokenUrl"), clientId: value("clientId"), clientSecret: value("clientSecret"),
                                      username: value("username"), password: value("password"), scope: value("scope"),
                                      audience: value("audience"), resource: value("resource"),
                                      clientAuthentication: value("client_authentication") == "body" ? .body : .header,
                                      headerPrefix: parameters["headerPrefix"] ?? "Bearer", inQuery: parameters["addTokenTo"] == "queryParams"))
        case "oauth2" where !value("accessToken").isEmpty:
            if parameters["addTokenTo"] == "queryParams" {
                return .apiKey(name: "access_token", value: value("accessToken"), inQuery: true)
            }
            let prefix = parameters["headerPrefix"] ?? "Bearer"
            if prefix == "Bearer" { return .bearer(token: value("accessToken")) }
            return .apiKey(name: "Authorization", value: prefix.isEmpty ? value("accessToken") : "\(prefix) \(value("accessToken"))",
                           inQuery: false)
        default:
            break
        }
        warnings.unsupportedAuth[type, default: 0] += 1
        return Auth.none
    }

    /// Postman's `oauth1` fields as reqrun's, or nil for a signature method reqrun does not know.
    private static func oauth1(_ parameters: [String: String]) -> OAuth1Auth? {
        func value(_ name: String) -> String { parameters[name] ?? "" }
        let method = parameters["signatureMethod"].flatMap { $0.isEmpty ? nil : $0 } ?? "HMAC-SHA1"
        guard let signatureMethod = OAuth1Auth.SignatureMethod(rawValue: method) else { return nil }
        return OAuth1Auth(consumerKey: value("consumerKey"), consumerSecret: value("consumerSecret"), token: value("token"),
                          tokenSecret: value("tokenSecret"), privateKey: value("privateKey"), signatureMethod: signatureMethod,
                          placement: parameters["addParamsToHeader"] == "true" ? .header : .body, realm: value("realm"),
                          nonce: value("nonce"), timestamp: value("timestamp"), version: value("version"), callback: value("callback"),
                          verifier: value("verifier"), includeBodyHash: parameters["includeBodyHash"] == "true",
                          addEmptyParamsToSign: parameters["addEmptyParamsToSign"] == "true")
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
