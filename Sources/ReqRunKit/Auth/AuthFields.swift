/// The native fields of the auth kinds reqrun computes (`oauth1`, `hawk`, `oauth2`, `jwt`, `asap`, `edgegrid`): one table per
/// kind that both the decoder and the encoder (`import`) read, so the two cannot drift apart.
struct AuthFields<Value> {
    /// Text fields (templates): name, where it goes, and whether it must be present.
    var strings: [(name: String, path: WritableKeyPath<Value, String>, required: Bool)]
    var flags: [(name: String, path: WritableKeyPath<Value, Bool>)]
    /// Fields with a fixed set of words: name, the words, and how to read and set the value's word.
    var choices: [(name: String, words: [String], get: (Value) -> String, set: (inout Value, String) -> Void)]
    /// Text fields that also take a JSON object (kept as its compact text).
    var jsonTexts: Set<String> = []

    var names: [String] { ["type"] + strings.map(\.name) + flags.map(\.name) + choices.map(\.name) }

    /// Reads `reader`'s fields into `value` (which holds the defaults).
    func decode(_ reader: FieldReader, into value: inout Value) throws(InputError) {
        try reader.rejectUnknownKeys(FieldNames(names))
        for field in strings {
            if jsonTexts.contains(field.name), let node = reader.optional(.named(field.name)), case .object = node.value {
                value[keyPath: field.path] = node.compactText
            } else if field.required {
                value[keyPath: field.path] = try reader.requiredString(.named(field.name))
            } else if let text = try reader.optionalString(.named(field.name)) {
                value[keyPath: field.path] = text
            }
        }
        for field in flags {
            guard let node = reader.optional(.named(field.name)) else { continue }
            guard case .bool(let flag) = node.value else {
                throw reader.error(node, reader.childPath(field.name), "expected true or false, found \(node.kindDescription)")
            }
            value[keyPath: field.path] = flag
        }
        for field in choices {
            guard let word = try reader.optionalString(.named(field.name)) else { continue }
            guard field.words.contains(word) else {
                var reason = "expected one of \(field.words.map { "\"\($0)\"" }.joined(separator: ", ")), found \"\(word)\""
                if let guess = Suggestion.closest(to: word, among: field.words) { reason += " (did you mean '\(guess)'?)" }
                throw reader.error(reader.optional(.named(field.name))!, reader.childPath(field.name), reason)
            }
            field.set(&value, word)
        }
    }

    /// `value` with every text field resolved: PEM keys may span lines, `jsonTexts` resolve as JSON.
    func resolved(_ value: Value, _ resolve: ComputedAuth.Resolve) throws(PreparationFailure) -> Value {
        var copy = value
        for field in strings {
            let kind: ComputedAuth.FieldKind = jsonTexts.contains(field.name) ? .json : field.name == "privateKey" ? .text : .line
            copy[keyPath: field.path] = try resolve(value[keyPath: field.path], field.name, kind)
        }
        return copy
    }

    /// The fields of `value` that differ from `defaults` (required ones always), in table order.
    func encode(_ value: Value, defaults: Value) -> [(String, CollectionEncoder.Value)] {
        var members: [(String, CollectionEncoder.Value)] = []
        for field in strings where field.required || value[keyPath: field.path] != defaults[keyPath: field.path] {
            let text = value[keyPath: field.path]
            // A JSON object stays an object in the file (its templates are inside its strings).
            if jsonTexts.contains(field.name), let node = try? JSONParser.parse(Array(text.utf8)), case .object = node.value {
                members.append((field.name, .raw(node.compactText)))
            } else {
                members.append((field.name, .string(text)))
            }
        }
        for field in choices where field.get(value) != field.get(defaults) { members.append((field.name, .string(field.get(value)))) }
        for field in flags where value[keyPath: field.path] != defaults[keyPath: field.path] {
            members.append((field.name, .bool(value[keyPath: field.path])))
        }
        return members
    }
}

/// A choice field for an enum whose raw values are its words.
func authChoice<Value, E: RawRepresentable & CaseIterable>(_ name: String, _ path: WritableKeyPath<Value, E>)
    -> (name: String, words: [String], get: (Value) -> String, set: (inout Value, String) -> Void) where E.RawValue == String {
    (name, E.allCases.map(\.rawValue), { $0[keyPath: path].rawValue }, { $0[keyPath: path] = E(rawValue: $1)! })
}

/// A choice between two words for a flag (`in`: `header` or `query`).
func authChoice<Value>(_ name: String, _ path: WritableKeyPath<Value, Bool>, no: String, yes: String)
    -> (name: String, words: [String], get: (Value) -> String, set: (inout Value, String) -> Void) {
    (name, [no, yes], { $0[keyPath: path] ? yes : no }, { $0[keyPath: path] = $1 == yes })
}

enum AuthTables {
    static var oauth1: AuthFields<OAuth1Auth> {
        AuthFields(strings: [("consumerKey", \.consumerKey, true), ("consumerSecret", \.consumerSecret, false), ("token", \.token, false),
                             ("tokenSecret", \.tokenSecret, false), ("privateKey", \.privateKey, false), ("realm", \.realm, false),
                             ("nonce", \.nonce, false), ("timestamp", \.timestamp, false), ("version", \.version, false),
                             ("callback", \.callback, false), ("verifier", \.verifier, false)],
                   flags: [("includeBodyHash", \.includeBodyHash), ("addEmptyParamsToSign", \.addEmptyParamsToSign)],
                   choices: [authChoice("signatureMethod", \OAuth1Auth.signatureMethod), authChoice("in", \OAuth1Auth.placement)])
    }

    static var hawk: AuthFields<HawkAuth> {
        AuthFields(strings: [("id", \.id, true), ("key", \.key, true), ("nonce", \.nonce, false), ("timestamp", \.timestamp, false),
                             ("ext", \.ext, false), ("app", \.app, false), ("dlg", \.dlg, false)],
                   flags: [("includePayloadHash", \.includePayloadHash)],
                   choices: [authChoice("algorithm", \HawkAuth.algorithm)])
    }

    static var oauth2: AuthFields<OAuth2Auth> {
        AuthFields(strings: [("tokenUrl", \.tokenURL, true), ("clientId", \.clientId, true), ("clientSecret", \.clientSecret, false),
                             ("username", \.username, false), ("password", \.password, false), ("refreshToken", \.refreshToken, false),
                             ("scope", \.scope, false), ("audience", \.audience, false), ("resource", \.resource, false),
                             ("headerPrefix", \.headerPrefix, false), ("queryParam", \.queryParameter, false)],
                   flags: [],
                   choices: [authChoice("grant", \OAuth2Auth.grant), authChoice("clientAuth", \OAuth2Auth.clientAuthentication),
                             authChoice("in", \OAuth2Auth.inQuery, no: "header", yes: "query")])
    }

    static var jwt: AuthFields<JWTAuth> {
        AuthFields(strings: [("secret", \.secret, false), ("privateKey", \.privateKey, false), ("payload", \.payload, false),
                             ("header", \.header, false), ("headerPrefix", \.headerPrefix, false), ("queryParam", \.queryParameter, false)],
                   flags: [("secretBase64", \.secretIsBase64)],
                   choices: [authChoice("algorithm", \JWTAuth.algorithm), authChoice("in", \JWTAuth.inQuery, no: "header", yes: "query")],
                   jsonTexts: ["payload", "header"])
    }

    static var asap: AuthFields<AsapAuth> {
        AuthFields(strings: [("issuer", \.issuer, true), ("audience", \.audience, true), ("keyId", \.keyId, true), ("privateKey", \.privateKey, true),
                             ("subject", \.subject, false), ("claims", \.claims, false), ("expiry", \.expiry, false)],
                   flags: [],
                   choices: [authChoice("algorithm", \AsapAuth.algorithm)],
                   jsonTexts: ["claims"])
    }

    static var edgegrid: AuthFields<EdgeGridAuth> {
        AuthFields(strings: [("accessToken", \.accessToken, true), ("clientToken", \.clientToken, true), ("clientSecret", \.clientSecret, true),
                             ("nonce", \.nonce, false), ("timestamp", \.timestamp, false), ("baseURL", \.baseURL, false),
                             ("headersToSign", \.headersToSign, false), ("maxBodySize", \.maxBodySize, false)],
                   flags: [], choices: [])
    }
}

/// Writes the computed kinds in the native format (for `CollectionEncoder`).
enum AuthEncoder {
    static func encode(_ auth: Auth) -> CollectionEncoder.Value {
        let members: [(String, CollectionEncoder.Value)]
        let type: String
        switch auth {
        case .oauth1(let value): (type, members) = ("oauth1", AuthTables.oauth1.encode(value, defaults: OAuth1Auth(consumerKey: "")))
        case .hawk(let value): (type, members) = ("hawk", AuthTables.hawk.encode(value, defaults: HawkAuth(id: "", key: "")))
        case .oauth2(let value):
            (type, members) = ("oauth2", [("grant", .string(value.grant.rawValue))]
                               + AuthTables.oauth2.encode(value, defaults: OAuth2Auth(grant: value.grant, tokenURL: "", clientId: "")))
        case .jwt(let value): (type, members) = ("jwt", AuthTables.jwt.encode(value, defaults: JWTAuth()))
        case .asap(let value): (type, members) = ("asap", AuthTables.asap.encode(value, defaults: AsapAuth()))
        case .edgegrid(let value):
            (type, members) = ("edgegrid", AuthTables.edgegrid.encode(value, defaults: EdgeGridAuth(accessToken: "", clientToken: "", clientSecret: "")))
        default: preconditionFailure("AuthEncoder encodes only oauth1, hawk, oauth2, jwt, asap and edgegrid")
        }
        return .object([("type", .string(type))] + members)
    }
}
