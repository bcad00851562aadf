import Foundation

/// Converts a Postman Collection **v1** export into the v2.1 shape `PostmanDecoder` reads, following the rules
/// of postman-collection-transformer's `converter-v1-to-v2` (which Newman runs on a v1 file before running
/// it), so a v1 collection loads as Newman sees it.
///
/// v1 shape: `{"id", "name", "order": [request id], "folders_order": [folder id], "folders": [{"id", "name",
/// "order", "folders_order", auth, scripts, "variables"}], "requests": [{"id", "name", "method", "url",
/// "headers": "Name: value\n…", "headerData", "queryParams", "pathVariables": {name: value},
/// "pathVariableData", "dataMode": "raw" | "urlencoded" | "params" | "binary" | "graphql", "data",
/// "rawModeData", "graphqlModeData", "dataDisabled", "currentHelper", "helperAttributes", "auth", "tests",
/// "preRequestScript", "events", "protocolProfileBehavior"}], "variables", auth, scripts}`.
///
/// The transformer's rules, as applied here:
/// - Items: the top-level folders in `folders_order` (else `folders` order), duplicates once, those some
///   folder lists as a subfolder left out; each folder's subfolders (its `folders_order`) before its
///   requests (its `order`); then the top-level requests of `order` that exist. An id that names nothing is
///   skipped. reqrun also places each folder at most once (a folder listed in two places, or inside itself,
///   would make the transformer loop), and each request at most once (an id repeated in `order` lists would
///   multiply a small file into millions of requests): the second place is left out with a warning.
/// - URL: as written (trimmed), unless `queryParams`, `pathVariableData` or `pathVariables` have entries; then
///   the URL's parts with `queryParams` (`enabled: false` → disabled; `equals: true` sends `key=` for a null
///   value, `equals: false` sends `key` alone for an empty one) followed by the URL's own query entries whose
///   key `queryParams` lacks, and the path variables (`pathVariableData`, then `pathVariables` names not in it).
/// - Headers: `headerData` entries (a key starting `//` or `enabled: false` is disabled), then the `headers`
///   text's `Name: value` lines (continuation lines folded, a `//Name:` line disabled) whose names `headerData`
///   lacks; a `headers` array is taken as it is.
/// - Body: `dataMode` `raw` → raw (`rawModeData`, else a string `data`), `urlencoded` → urlencoded, `params` →
///   formdata (a file entry's `value` is its `src`), `binary` → file (`rawModeData` as `src`), `graphql` →
///   graphql; no `dataMode`: formdata when `data` is a list, graphql when there is only `graphqlModeData`,
///   else raw; `dataMode: null` or no data at all → no body; `dataDisabled` disables it.
/// - Auth: a v2 `auth` object when there is no `currentHelper`/`helperAttributes`; else `currentHelper`
///   (`basicAuth`, `digestAuth`, `bearerAuth`, `apikeyAuth`, `oAuth1`, `oAuth2`, `hawkAuth`, `ntlmAuth`,
///   `awsSigV4`; `normal` or null: none, so inherited) with `helperAttributes` (an object, or JSON text) renamed
///   to v2's parameter names. The types reqrun computes are then those of `PostmanAuthDecoder`.
/// - Scripts: `events` when there are neither `tests` nor `preRequestScript` (a missing `listen` is `test`);
///   else `tests` as a test script and `preRequestScript` as a pre-request script.
/// - Variables: `variables` (or `variable`) of the collection and of folders, `key` or else `id` as the name.
///
/// The result keeps the v1 nodes' source locations, and `pathsByLocation` maps them to their v1 field paths,
/// so an error found later in a converted value names the place in the v1 file.
struct PostmanV1Converter {
    /// The v2.1 schema address written into the converted `info.schema`.
    static let schemaV21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"

    let file: String
    /// The v1 field path of each copied v1 value, by where it starts in the file.
    private(set) var pathsByLocation: [SourceLocation: String] = [:]
    /// What the conversion left out (a folder placed twice, requests no `order` lists).
    private(set) var notes: [String] = []
    /// The requests placed so far, by their `path` in `requests`.
    private var placedRequests: Set<String> = []

    init(file: String) { self.file = file }

    /// The v2.1 form of the v1 collection `root`.
    /// - Throws: `InputError` (with the v1 field path) for a value of the wrong type where the transformer
    ///   needs one: `requests` and `folders` not lists of objects, an `order` not a list of ids.
    mutating func convert(_ root: JSONNode) throws(InputError) -> JSONNode {
        let collection = try FieldReader(file: file, node: root, path: "")
        var requests: [String: FieldReader] = [:]
        for (node, path) in try collection.optionalArray("requests") {
            let request = try FieldReader(file: file, node: node, path: path)
            if let id = try request.optionalString("id"), requests[id] == nil { requests[id] = request }
        }
        var folders: [String: FieldReader] = [:], folderIDs: [String] = []
        for (node, path) in try collection.optionalArray("folders") {
            let folder = try FieldReader(file: file, node: node, path: path)
            guard let id = try folder.optionalString("id"), folders[id] == nil else { continue }
            folders[id] = folder
            folderIDs.append(id)
        }
        // Folders some folder lists as a subfolder are not top-level folders.
        var subfolders: Set<String> = []
        for id in folderIDs { try ids(folders[id]!, "folders_order").forEach { subfolders.insert($0) } }
        var placed: Set<String> = []
        var items: [JSONNode] = []
        let topOrder = collection.optional("folders_order") != nil ? try ids(collection, "folders_order") : folderIDs
        for id in topOrder where !subfolders.contains(id) && !placed.contains(id) {
            guard let folder = folders[id] else { continue }
            items.append(try self.folder(folder, id: id, folders: folders, requests: requests, placed: &placed, depth: 1))
        }
        items += try placeRequests(collection, requests: requests)
        let unplaced = requests.values.filter { !placedRequests.contains($0.path) }.count
        if unplaced > 0 {
            notes.append("requests: \(unplaced) request\(unplaced == 1 ? "" : "s") that no 'order' lists \(unplaced == 1 ? "is" : "are") left out, as Newman leaves them out")
        }
        var members: [(String, JSONNode)] = []
        var info: [(String, JSONNode)] = [("schema", string(Self.schemaV21, at: root.location))]
        if let name = collection.optional("name") {
            info.append(("name", copy(name, collection.childPath("name"))))
        } else if let given = collection.optional("info"), case .object(let members) = given.value, let name = members.first(where: { $0.key == "name" }) {
            info.append(("name", copy(name.value, "info.name")))
        }
        if let id = collection.optional("id") { info.append(("_postman_id", copy(id, collection.childPath("id")))) }
        members.append(("info", object(info, at: root.location)))
        members.append(("item", JSONNode(value: .array(items), location: root.location)))
        if let auth = try auth(collection) { members.append(("auth", auth)) }
        if let event = try events(collection) { members.append(("event", event)) }
        if let variable = try variables(collection) { members.append(("variable", variable)) }
        return object(members, at: root.location)
    }

    /// The ids listed at `key` (strings; others skipped as the transformer's lookups skip them).
    private func ids(_ reader: FieldReader, _ key: String) throws(InputError) -> [String] {
        try reader.optionalArray(.named(key)).compactMap { element in
            if case .string(let id) = element.node.value { return id }
            return nil
        }
    }

    private mutating func folder(_ folder: FieldReader, id: String, folders: [String: FieldReader], requests: [String: FieldReader],
                                 placed: inout Set<String>, depth: Int) throws(InputError) -> JSONNode {
        // v1 nests folders by id, not in the JSON, so the parser's depth bound does not hold them.
        guard depth <= CollectionDecoder.maximumGroupDepth else {
            throw folder.error(folder.node, folder.path, "folders nest deeper than \(CollectionDecoder.maximumGroupDepth) levels")
        }
        placed.insert(id)
        var items: [JSONNode] = []
        for subID in try ids(folder, "folders_order") {
            guard let sub = folders[subID] else { continue }
            if placed.contains(subID) {
                notes.append("\(folder.childPath("folders_order")): folder '\(subID)' is already placed elsewhere; listed once")
                continue
            }
            items.append(try self.folder(sub, id: subID, folders: folders, requests: requests, placed: &placed, depth: depth + 1))
        }
        items += try placeRequests(folder, requests: requests)
        var members: [(String, JSONNode)] = [("_postman_id", string(id, at: folder.node.location))]
        if let name = folder.optional("name") { members.append(("name", copy(name, folder.childPath("name")))) }
        members.append(("item", JSONNode(value: .array(items), location: folder.node.location)))
        if let auth = try auth(folder) { members.append(("auth", auth)) }
        if let event = try events(folder) { members.append(("event", event)) }
        if let variable = try variables(folder) { members.append(("variable", variable)) }
        register(folder.node, folder.path)
        return object(members, at: folder.node.location)
    }

    /// The items of the requests `entity`'s `order` lists, each request at most once in the collection: an id
    /// repeated (in one `order` or in two) would let a few bytes of ids copy a large request millions of times.
    private mutating func placeRequests(_ entity: FieldReader, requests: [String: FieldReader]) throws(InputError) -> [JSONNode] {
        var items: [JSONNode] = [], repeated: Set<String> = []
        for id in try ids(entity, "order") {
            guard let request = requests[id] else { continue }
            if placedRequests.contains(request.path) {
                // One warning per list and id, however often it repeats there.
                if repeated.insert(id).inserted {
                    notes.append("\(entity.childPath("order")): request '\(id)' is already placed elsewhere; listed once")
                }
                continue
            }
            items.append(try item(request))
        }
        return items
    }

    /// A v1 request as a v2 item: `{"name", "_postman_id", "event", "request": {"auth", "method", "header",
    /// "body", "url"}, "protocolProfileBehavior"}`.
    private mutating func item(_ request: FieldReader) throws(InputError) -> JSONNode {
        let at = request.node.location
        register(request.node, request.path)
        placedRequests.insert(request.path)
        var members: [(String, JSONNode)] = [("name", request.optional("name").map { copy($0, request.childPath("name")) } ?? string("", at: at))]
        if let id = request.optional("id") { members.append(("_postman_id", copy(id, request.childPath("id")))) }
        if let event = try events(request) { members.append(("event", event)) }
        if let behavior = request.optional("protocolProfileBehavior") {
            members.append(("protocolProfileBehavior", copy(behavior, request.childPath("protocolProfileBehavior"))))
        }
        var fields: [(String, JSONNode)] = []
        if let auth = try auth(request) { fields.append(("auth", auth)) }
        if let method = request.optional("method") { fields.append(("method", copy(method, request.childPath("method")))) }
        fields.append(("header", try header(request)))
        if let body = try body(request) { fields.append(("body", body)) }
        if let url = try url(request) { fields.append(("url", url)) }
        members.append(("request", object(fields, at: at)))
        return object(members, at: at)
    }

    // MARK: URL

    private mutating func url(_ request: FieldReader) throws(InputError) -> JSONNode? {
        guard let urlNode = request.optional("url") else { return nil }
        guard case .string(let written) = urlNode.value else { return copy(urlNode, request.childPath("url")) }
        register(urlNode, request.childPath("url"))
        let text = written.trimmingCharacters(in: .whitespacesAndNewlines)
        var query: [JSONNode] = [], queryKeys: Set<String> = []
        for (node, path) in try request.optionalArray("queryParams") {
            let param = try FieldReader(file: file, node: node, path: path)
            var entry: [(String, JSONNode)] = []
            let key = param.postmanText("key")
            entry.append(("key", key.map { string($0, at: node.location) } ?? null(node.location)))
            var value = param.postmanText("value")
            if let equals = param.optional("equals"), case .bool(let writesEquals) = equals.value {
                if writesEquals, value == nil { value = "" }
                if !writesEquals, value == "" { value = nil }
            }
            entry.append(("value", value.map { string($0, at: node.location) } ?? null(node.location)))
            if param.isDisabled { entry.append(("disabled", JSONNode(value: .bool(true), location: node.location))) }
            query.append(object(entry, at: node.location))
            if let key { queryKeys.insert(key) }
            register(node, path)
        }
        var variables: [JSONNode] = [], variableKeys: Set<String> = []
        for (node, path) in try request.optionalArray("pathVariableData") {
            let variable = try FieldReader(file: file, node: node, path: path)
            if let key = variable.postmanText("key") { variableKeys.insert(key) }
            variables.append(copy(node, path))
        }
        if let node = request.optional("pathVariables") {
            guard case .object(let entries) = node.value else {
                throw request.error(node, request.childPath("pathVariables"), "expected an object of name → value, found \(node.kindDescription)")
            }
            for entry in entries where !variableKeys.contains(entry.key) {
                variables.append(object([("key", string(entry.key, at: entry.keyLocation)),
                                         ("value", copy(entry.value, "\(request.childPath("pathVariables")).\(entry.key)"))],
                                        at: entry.keyLocation))
            }
        }
        guard !query.isEmpty || !variables.isEmpty else { return string(text, at: urlNode.location) }
        let parts = Self.parse(text)
        for (key, value) in parts.query where key.map({ !queryKeys.contains($0) }) ?? true {
            query.append(object([("key", key.map { string($0, at: urlNode.location) } ?? null(urlNode.location)),
                                 ("value", value.map { string($0, at: urlNode.location) } ?? null(urlNode.location))], at: urlNode.location))
        }
        var members: [(String, JSONNode)] = [("raw", string(text, at: urlNode.location))]
        // The scheme and authority as one host part: `PostmanURL` joins the parts back into the same text.
        if !parts.origin.isEmpty { members.append(("host", JSONNode(value: .array([string(parts.origin, at: urlNode.location)]), location: urlNode.location))) }
        if let path = parts.path {
            members.append(("path", JSONNode(value: .array(path.map { string($0, at: urlNode.location) }), location: urlNode.location)))
        }
        if !query.isEmpty { members.append(("query", JSONNode(value: .array(query), location: urlNode.location))) }
        if let hash = parts.hash { members.append(("hash", string(hash, at: urlNode.location))) }
        if !variables.isEmpty { members.append(("variable", JSONNode(value: .array(variables), location: urlNode.location))) }
        return object(members, at: urlNode.location)
    }

    /// A URL split as postman-collection's parser splits it: `origin` the scheme and authority
    /// (`[^:?]+://` then up to the first `/`, `?` or `#`), `path` its segments without the leading `/` (nil
    /// when there is no path, `[""]` for `/`), `query` the `&`-separated entries (`key=value`, `key` alone
    /// with a nil value, an empty entry with both nil), `hash` what follows `#`.
    static func parse(_ url: String) -> (origin: String, path: [String]?, query: [(String?, String?)], hash: String?) {
        var rest = Substring(url)
        var origin = ""
        if let separator = rest.range(of: "://"), !rest[..<separator.lowerBound].contains(where: { $0 == ":" || $0 == "?" }),
           !rest[..<separator.lowerBound].isEmpty {
            origin = String(rest[..<separator.upperBound])
            rest = rest[separator.upperBound...]
        }
        let hostEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        origin += rest[..<hostEnd]
        rest = rest[hostEnd...]
        let pathEnd = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) ?? rest.endIndex
        var pathText = rest[..<pathEnd]
        rest = rest[pathEnd...]
        var path: [String]?
        if !pathText.isEmpty {
            if pathText == "/" {
                path = [""]
            } else {
                if pathText.hasPrefix("/") { pathText = pathText.dropFirst() }
                path = pathText.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            }
        }
        var query: [(String?, String?)] = []
        if rest.hasPrefix("?") {
            let end = rest.firstIndex(of: "#") ?? rest.endIndex
            let text = rest[rest.index(after: rest.startIndex)..<end]
            if !text.isEmpty {
                query = text.split(separator: "&", omittingEmptySubsequences: false).map { entry in
                    guard !entry.isEmpty else { return (nil, nil) }
                    guard let equals = entry.firstIndex(of: "=") else { return (String(entry), nil) }
                    return (String(entry[..<equals]), String(entry[entry.index(after: equals)...]))
                }
            }
            rest = rest[end...]
        }
        let hash = rest.hasPrefix("#") && rest.count > 1 ? String(rest.dropFirst()) : nil
        return (origin, path, query, hash)
    }

    // MARK: Headers

    private mutating func header(_ request: FieldReader) throws(InputError) -> JSONNode {
        let at = request.node.location
        if let node = request.optional("headers"), case .array = node.value { return copy(node, request.childPath("headers")) }
        var fields: [JSONNode] = [], names: Set<String> = []
        for (node, path) in try request.optionalArray("headerData") {
            let header = try FieldReader(file: file, node: node, path: path)
            guard var key = header.postmanText("key") else { continue }
            var disabled = header.isDisabled
            if key.hasPrefix("//") {
                disabled = true
                key = String(key.dropFirst(2)).trimmingCharacters(in: .whitespaces)
            }
            names.insert(key)
            fields.append(headerEntry(key, header.postmanText("value") ?? "", disabled: disabled, at: node.location))
            register(node, path)
        }
        if let text = try request.optionalString("headers") {
            for (key, value, disabled) in Self.headerLines(text) where !names.contains(key) {
                fields.append(headerEntry(key, value, disabled: disabled, at: request.optional("headers")!.location))
            }
            register(request.optional("headers")!, request.childPath("headers"))
        }
        return JSONNode(value: .array(fields), location: at)
    }

    private func headerEntry(_ key: String, _ value: String, disabled: Bool, at location: SourceLocation) -> JSONNode {
        var members = [("key", string(key, at: location)), ("value", string(value, at: location))]
        if disabled { members.append(("disabled", JSONNode(value: .bool(true), location: location))) }
        return object(members, at: location)
    }

    /// The `Name: value` lines of v1 `headers` text, as the transformer's `parseHeaders` reads them: a line
    /// folded onto the next by CRLF and a space or tab is one line; a line matches `^((//\s*)?\S+):(.*)$` (the
    /// name is the longest run of non-space characters before a `:`), its value trimmed; `//` in front
    /// disables it. Lines that do not match are skipped.
    static func headerLines(_ text: String) -> [(String, String, Bool)] {
        let unfolded = text.replacingOccurrences(of: "\r\n ", with: " ").replacingOccurrences(of: "\r\n\t", with: "\t")
        var result: [(String, String, Bool)] = []
        for line in unfolded.split(separator: "\n", omittingEmptySubsequences: true) {
            var rest = Substring(line), disabled = false
            if rest.hasPrefix("//") {
                disabled = true
                rest = rest.dropFirst(2).drop(while: { $0 == " " || $0 == "\t" })
            }
            let run = rest.prefix(while: { !$0.isWhitespace })
            // The name ends at the last `:` of the first run of non-space characters (or just after it).
            guard let colon = run.lastIndex(of: ":"), colon > run.startIndex else { continue }
            let name = String(rest[..<colon]), value = rest[rest.index(after: colon)...]
            result.append((name, value.trimmingCharacters(in: .whitespacesAndNewlines), disabled))
        }
        return result
    }

    // MARK: Body

    private static let modes = ["binary": "file", "graphql": "graphql", "params": "formdata", "raw": "raw", "urlencoded": "urlencoded"]

    private mutating func body(_ request: FieldReader) throws(InputError) -> JSONNode? {
        let at = request.node.location
        let dataNode = request.optional("data"), rawNode = request.optional("rawModeData"), graphqlNode = request.optional("graphqlModeData")
        func isEmpty(_ node: JSONNode?) -> Bool {
            switch node?.value {
            case nil, .null?: return true
            case .string(let text)?: return text.isEmpty
            case .array(let items)?: return items.isEmpty
            case .object(let members)?: return members.isEmpty
            default: return true
            }
        }
        let modeMember = request.members.first { $0.key == "dataMode" }
        if case .null? = modeMember?.value.value { return nil }
        let mode = try request.optionalString("dataMode").flatMap { Self.modes[$0] }
        if mode == nil, isEmpty(dataNode), isEmpty(rawNode), isEmpty(graphqlNode) { return nil }
        var raw: JSONNode?
        if case .string = rawNode?.value { raw = rawNode }
        if case .array(let items)? = rawNode?.value, items.count == 1, case .string = items[0].value { raw = items[0] }
        let graphql = isEmpty(graphqlNode) ? nil : graphqlNode
        let chosen: String
        if let mode {
            chosen = mode
        } else if raw == nil, case .array? = (dataNode ?? rawNode)?.value {
            chosen = "formdata"
        } else if raw == nil, graphql != nil {
            chosen = "graphql"
        } else {
            chosen = "raw"
        }
        var members: [(String, JSONNode)] = [("mode", string(chosen, at: at))]
        switch chosen {
        case "raw":
            if let raw {
                members.append(("raw", copy(raw, request.childPath("rawModeData"))))
            } else if let dataNode, case .string = dataNode.value {
                members.append(("raw", copy(dataNode, request.childPath("data"))))
            } else {
                members.append(("raw", string("", at: at)))
            }
        case "graphql":
            if let graphql { members.append(("graphql", copy(graphql, request.childPath("graphqlModeData")))) }
        case "file":
            var file: [(String, JSONNode)] = []
            if let raw { file.append(("src", copy(raw, request.childPath("rawModeData")))) }
            members.append(("file", object(file, at: at)))
        default:
            let key = dataNode != nil ? "data" : "rawModeData"
            members.append((chosen, try formData(request, key)))
        }
        if let disabled = request.optional("dataDisabled"), case .bool(true) = disabled.value {
            members.append(("disabled", JSONNode(value: .bool(true), location: at)))
        }
        return object(members, at: at)
    }

    /// `data` entries for formdata or urlencoded: those without `key` dropped, a file entry's `value` as its
    /// `src` when it has none, `enabled: false` as `disabled`.
    private mutating func formData(_ request: FieldReader, _ key: String) throws(InputError) -> JSONNode {
        var entries: [JSONNode] = []
        guard let node = request.optional(.named(key)), case .array = node.value else {
            return JSONNode(value: .array([]), location: request.node.location)
        }
        for (entryNode, path) in try request.optionalArray(.named(key)) {
            let entry = try FieldReader(file: file, node: entryNode, path: path)
            guard entry.optional("key") != nil else { continue }
            var members: [(String, JSONNode)] = []
            let isFile = entry.postmanText("type") == "file" && entry.optional("src") == nil
            for member in entry.members where member.key != "enabled" {
                if member.key == "value", isFile {
                    if case .string = member.value.value { members.append(("src", copy(member.value, "\(path).value"))) }
                    if case .array = member.value.value { members.append(("src", copy(member.value, "\(path).value"))) }
                    continue
                }
                members.append((member.key, copy(member.value, "\(path).\(member.key)")))
            }
            if let enabled = entry.optional("enabled"), case .bool(false) = enabled.value {
                members.append(("disabled", JSONNode(value: .bool(true), location: entryNode.location)))
            }
            register(entryNode, path)
            entries.append(object(members, at: entryNode.location))
        }
        return JSONNode(value: .array(entries), location: node.location)
    }

    // MARK: Auth, scripts, variables

    /// v1 helper names → v2 auth types (the transformer's `authMap`).
    private static let helperTypes = ["apikeyAuth": "apikey", "basicAuth": "basic", "bearerAuth": "bearer", "digestAuth": "digest",
                                      "hawkAuth": "hawk", "oAuth1": "oauth1", "oAuth2": "oauth2", "ntlmAuth": "ntlm", "awsSigV4": "awsv4"]

    /// Per helper, v2 parameter name ← v1 attribute name (the transformer's `authMappersFromLegacy`); a helper
    /// not listed (`awsSigV4`) keeps its attributes' names.
    private static let helperParameters: [String: [(String, String)]] = [
        "apikeyAuth": [("key", "key"), ("value", "value"), ("in", "in")],
        "basicAuth": [("username", "username"), ("password", "password")],
        "bearerAuth": [("token", "token")],
        "digestAuth": [("algorithm", "algorithm"), ("username", "username"), ("realm", "realm"), ("password", "password"),
                       ("nonce", "nonce"), ("nonceCount", "nonceCount"), ("clientNonce", "clientNonce"), ("opaque", "opaque"),
                       ("qop", "qop"), ("disableRetryRequest", "disableRetryRequest")],
        "oAuth1": [("consumerKey", "consumerKey"), ("consumerSecret", "consumerSecret"), ("token", "token"), ("tokenSecret", "tokenSecret"),
                   ("signatureMethod", "signatureMethod"), ("timestamp", "timestamp"), ("nonce", "nonce"), ("version", "version"),
                   ("realm", "realm"), ("addParamsToHeader", "header"), ("autoAddParam", "auto"), ("addEmptyParamsToSign", "includeEmpty")],
        "hawkAuth": [("authId", "hawk_id"), ("authKey", "hawk_key"), ("algorithm", "algorithm"), ("user", "user"), ("nonce", "nonce"),
                     ("extraData", "ext"), ("appId", "app"), ("delegation", "dlg"), ("timestamp", "timestamp")],
        "ntlmAuth": [("username", "username"), ("password", "password"), ("domain", "domain"), ("workstation", "workstation"),
                     ("disableRetryRequest", "disableRetryRequest")],
        "oAuth2": [("accessToken", "accessToken"), ("addTokenTo", "addTokenTo"), ("callBackUrl", "callBackUrl"), ("authUrl", "authUrl"),
                   ("accessTokenUrl", "accessTokenUrl"), ("clientId", "clientId"), ("clientSecret", "clientSecret"),
                   ("clientAuth", "clientAuth"), ("grantType", "grantType"), ("scope", "scope"), ("username", "username"),
                   ("password", "password"), ("tokenType", "tokenType"), ("redirectUri", "redirectUri"), ("refreshToken", "refreshToken")],
    ]

    private mutating func auth(_ entity: FieldReader) throws(InputError) -> JSONNode? {
        let at = entity.node.location
        let legacy = entity.members.contains { $0.key == "currentHelper" } || entity.optional("helperAttributes") != nil
        if !legacy { return entity.optional("auth").map { copy($0, entity.childPath("auth")) } }
        guard let helper = try entity.optionalString("currentHelper"), helper != "normal" else { return nil }
        let type = Self.helperTypes[helper] ?? helper
        var members: [(String, JSONNode)] = [("type", string(type, at: at))]
        var attributes = entity.optional("helperAttributes")
        if case .string(let text)? = attributes?.value {
            // Some old exports hold the attributes as JSON text; text that is not JSON means no auth.
            guard let parsed = try? JSONParser.parse(Array(text.utf8)) else { return nil }
            attributes = JSONNode(value: parsed.value, location: attributes!.location)
        }
        if let attributes, case .object(let given) = attributes.value {
            let path = entity.childPath("helperAttributes")
            let names = Self.helperParameters[helper] ?? given.map { ($0.key, $0.key) }
            var parameters: [(String, JSONNode)] = []
            for (v2, v1) in names {
                guard let member = given.first(where: { $0.key == v1 }) else { continue }
                parameters.append((v2, copy(member.value, "\(path).\(v1)")))
            }
            members.append((type, object(parameters, at: attributes.location)))
        }
        return object(members, at: at)
    }

    private mutating func events(_ entity: FieldReader) throws(InputError) -> JSONNode? {
        let at = entity.node.location
        let tests = entity.optional("tests"), preRequest = entity.optional("preRequestScript")
        func isGiven(_ node: JSONNode?) -> Bool {
            switch node?.value {
            case nil, .null?, .bool(false)?: return false
            case .string(let text)?: return !text.isEmpty
            default: return true
            }
        }
        if !isGiven(tests), !isGiven(preRequest) {
            guard let node = entity.optional("events"), case .array(let list) = node.value, !list.isEmpty else { return nil }
            var events: [JSONNode] = []
            for (i, event) in list.enumerated() {
                let path = "\(entity.childPath("events"))[\(i)]"
                guard case .object(let given) = event.value else { events.append(copy(event, path)); continue }
                var members = given.map { ($0.key, copy($0.value, "\(path).\($0.key)")) }
                if !given.contains(where: { $0.key == "listen" }) { members.insert(("listen", string("test", at: event.location)), at: 0) }
                register(event, path)
                events.append(object(members, at: event.location))
            }
            return JSONNode(value: .array(events), location: node.location)
        }
        var events: [JSONNode] = []
        for (listen, key, node) in [("test", "tests", tests), ("prerequest", "preRequestScript", preRequest)] where isGiven(node) {
            let script = object([("type", string("text/javascript", at: node!.location)), ("exec", copy(node!, entity.childPath(key)))],
                                at: node!.location)
            events.append(object([("listen", string(listen, at: node!.location)), ("script", script)], at: node!.location))
        }
        return JSONNode(value: .array(events), location: at)
    }

    private mutating func variables(_ entity: FieldReader) throws(InputError) -> JSONNode? {
        let key = entity.optional("variables") != nil ? "variables" : "variable"
        guard let node = entity.optional(.named(key)), case .array = node.value else { return nil }
        var entries: [JSONNode] = []
        for (entryNode, path) in try entity.optionalArray(.named(key)) {
            let variable = try FieldReader(file: file, node: entryNode, path: path)
            let name = variable.postmanText("key").flatMap { $0.isEmpty ? nil : $0 } ?? variable.postmanText("id") ?? ""
            var members: [(String, JSONNode)] = [("key", string(name, at: entryNode.location))]
            if let value = variable.optional("value") { members.append(("value", copy(value, "\(path).value"))) }
            if variable.isDisabled { members.append(("disabled", JSONNode(value: .bool(true), location: entryNode.location))) }
            register(entryNode, path)
            entries.append(object(members, at: entryNode.location))
        }
        return entries.isEmpty ? nil : JSONNode(value: .array(entries), location: node.location)
    }

    // MARK: Nodes

    private mutating func register(_ node: JSONNode, _ path: String) {
        if pathsByLocation[node.location] == nil { pathsByLocation[node.location] = path }
    }

    /// A v1 value carried over as it is, remembered with its v1 path.
    private mutating func copy(_ node: JSONNode, _ path: String) -> JSONNode {
        register(node, path)
        return node
    }

    private func string(_ text: String, at location: SourceLocation) -> JSONNode {
        JSONNode(value: .string(text), location: location)
    }

    private func null(_ location: SourceLocation) -> JSONNode { JSONNode(value: .null, location: location) }

    private func object(_ members: [(String, JSONNode)], at location: SourceLocation) -> JSONNode {
        JSONNode(value: .object(members.map { JSONNode.Member(key: $0.0, keyLocation: $0.1.location, value: $0.1) }), location: location)
    }
}
