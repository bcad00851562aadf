import Foundation

/// Decodes reqrun's native collection format (documented in the README) from JSON bytes; a Postman
/// collection (recognised by `PostmanFormat.collectionVersion`) goes to `PostmanDecoder` instead.
///
/// Every error is an `InputError` naming the file, line and column, and the field path.
public enum CollectionDecoder {
    /// How deep groups may nest (real collections use a handful of levels; this keeps every output,
    /// `list --json` included, within what JSON tools accept).
    public static let maximumGroupDepth = 64

    /// Decodes one collection file.
    /// - Parameters:
    ///   - bytes: the file's content (UTF-8 JSON).
    ///   - file: the file's name as messages should show it (e.g. `collections/sample.json`).
    ///   - fileName: the last path component, which goes into derived group ids (`GroupID.derived`).
    ///   - files: the collection file's folder (absolute), which relative file paths in bodies resolve against,
    ///     and the folders they may reach (`FileRoots`; a file elsewhere is an error). Defaults to the current
    ///     folder and no root at all: a collection decoded without a workspace may read no file.
    /// - Throws: `InputError` for invalid JSON (with line and column), a missing, unknown or wrongly typed
    ///   field, or a body file outside the roots.
    public static func decode(_ bytes: [UInt8], file: String, fileName: String,
                              files: FileScope = FileScope(base: FileManager.default.currentDirectoryPath, roots: .none)) throws(InputError) -> RequestCollection {
        try decode(bytes, file: file, fileName: fileName, files: files, split: splitTarget(size: bytes.count).map { Split(target: $0) })
    }

    /// `decode(_:file:fileName:files:)`, the second part of the text parsed on another thread from the first
    /// element start of the root's `groups` array at or after byte `split.target` (nil: one thread; see
    /// `parseGroups`).
    static func decode(_ bytes: [UInt8], file: String, fileName: String, files: FileScope,
                       split: Split?) throws(InputError) -> RequestCollection {
        // The top-level groups are decoded as the parser finishes each one, and its subtree freed, so the
        // whole tree is never held: its memory (about 360 bytes a request) is reused from group to group.
        let root: JSONNode
        let streamed: StreamedGroups
        do {
            (root, streamed, _) = try parseGroups(bytes, file: file, fileName: fileName, base: files, split: split)
        } catch {
            throw InputError(file: file, location: error.location, reason: error.reason)
        }
        if let version = PostmanFormat.collectionVersion(root) {
            // A Postman collection with a `groups` array at the top (not its format): parsed again whole.
            guard streamed.count == 0 else { return try decodeWhole(bytes, file: file, fileName: fileName, files: files) }
            let collection = try PostmanDecoder.decode(root, version: version, file: file, fileName: fileName, files: files)
            BackgroundRelease.release(root, size: bytes.count)
            return collection
        }
        if let collection = try decodeNative(root, file: file, fileName: fileName, baseDirectory: files,
                                             concurrently: false, streamed: streamed) {
            return collection
        }
        return try decodeWhole(bytes, file: file, fileName: fileName, files: files)
    }

    /// Decodes a collection from its whole parsed tree: the way when the streamed groups cannot serve (a
    /// Postman collection, or collection scripts, which every group's requests inherit, after `groups`).
    private static func decodeWhole(_ bytes: [UInt8], file: String, fileName: String, files: FileScope) throws(InputError) -> RequestCollection {
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw InputError(file: file, location: error.location, reason: error.reason)
        }
        let collection: RequestCollection
        if let version = PostmanFormat.collectionVersion(root) {
            collection = try PostmanDecoder.decode(root, version: version, file: file, fileName: fileName, files: files)
        } else {
            collection = try decodeNative(root, file: file, fileName: fileName, baseDirectory: files,
                                          concurrently: bytes.count >= concurrentDecodingSize, streamed: nil)!
        }
        // The collection shares its strings with the tree but none of its arrays: the rest can go.
        BackgroundRelease.release(root, size: bytes.count)
        return collection
    }

    /// The top-level groups decoded as the parser hands them over (`JSONParser.parse(_:streamingElementsOf:to:)`),
    /// with no inherited scripts, and the first error among them in file order (thrown where decoding the
    /// groups in order would throw it: after the collection's own fields before `groups`, and only when the
    /// text has no syntax error, which the parser finds first).
    struct StreamedGroups: Sendable {
        var groups: [RequestGroup] = []
        var error: InputError?
        /// How many elements the parser handed over.
        var count = 0

        /// Adds the groups that follow these in the file (decoded by another parser from there on): their
        /// error counts only when these have none, as when decoding in order.
        mutating func append(_ later: StreamedGroups) {
            count += later.count
            guard error == nil else { return }
            error = later.error
            groups += later.groups
        }

        mutating func add(_ node: consuming JSONNode, _ i: Int, file: String, fileName: String, base: FileScope) {
            count += 1
            guard error == nil else { return }
            do throws(InputError) {
                groups.append(try decodeGroup(node, path: FieldPath(array: "groups", index: i), parents: [],
                                              file: file, fileName: fileName, base: base, inherited: []))
            } catch {
                self.error = error
            }
        }
    }

    /// Files at least this large (in bytes) have their top-level groups decoded on two threads: below it,
    /// starting a thread costs more than it saves.
    static let concurrentDecodingSize = 1 << 20

    /// Decodes reqrun's own format from the parsed file.
    /// - Parameter streamed: the top-level groups already decoded, when the tree's `groups` array was
    ///   streamed (left empty in `root`); nil when `root` is the whole tree.
    /// - Returns: nil when `streamed` cannot serve: the collection has scripts, which the streamed groups
    ///   did not inherit.
    private static func decodeNative(_ root: JSONNode, file: String, fileName: String, baseDirectory: FileScope,
                                     concurrently: Bool, streamed: StreamedGroups?) throws(InputError) -> RequestCollection? {
        let reader = try FieldReader(file: file, node: root, path: "")
        try reader.rejectUnknownKeys(["name", "id", "description", "variables", "auth", "scripts", "compat", "groups"])
        let name = try reader.requiredString("name")
        let id = try reader.optionalString("id")
        let variables = try decodeVariables(reader)
        let scripts = try NativeScripts.decode(reader, base: baseDirectory)
        let elements = try reader.optionalElements("groups")
        let groups: [RequestGroup]
        if let streamed, streamed.count > 0 {
            guard scripts.isEmpty else { return nil }
            if let error = streamed.error { throw error }
            groups = streamed.groups
        } else {
            groups = try decodeTopGroups(elements, concurrently: concurrently, file: file, fileName: fileName,
                                         base: baseDirectory, inherited: scripts)
        }
        var collection = RequestCollection(name: name, id: id, file: file, variables: variables, auth: try AuthDecoder.decode(reader), groups: groups)
        collection.scripts = scripts
        collection.compat = try decodeCompat(reader)
        return collection
    }

    /// `compat`: `"newman"` or `"reqrun"` (`RequestRules.named`), nil when absent.
    static func decodeCompat(_ reader: FieldReader) throws(InputError) -> RequestRules? {
        guard let mode = try reader.optionalString("compat") else { return nil }
        guard let rules = RequestRules.named(mode) else {
            throw reader.error(reader.optional("compat")!, reader.childPath("compat"), RequestRules.unknownModeReason(mode))
        }
        return rules
    }

    /// Decodes the top-level groups in order; `concurrently`, the first half on this thread while another
    /// thread decodes the second half. Groups share nothing but the parsed tree, which no one changes, and the
    /// first error in file order is the one thrown, as when decoding in order. (Decoding was half of
    /// `list --all --json` on 100,000 requests, and a machine has a second core.)
    private static func decodeTopGroups(_ elements: FieldElements, concurrently: Bool, file: String, fileName: String,
                                        base: FileScope, inherited: [Script]) throws(InputError) -> [RequestGroup] {
        let count = elements.items.count
        @Sendable func decode(_ range: Range<Int>) -> Result<[RequestGroup], InputError> {
            var groups: [RequestGroup] = []
            groups.reserveCapacity(range.count)
            for i in range {
                do throws(InputError) {
                    groups.append(try decodeGroup(elements.items[i], path: FieldPath(array: elements.arrayPath, index: i),
                                                  parents: [], file: file, fileName: fileName, base: base, inherited: inherited))
                } catch {
                    return .failure(error)
                }
            }
            return .success(groups)
        }
        guard concurrently, count >= 2 else { return try decode(0..<count).get() }
        let halves = [0..<count / 2, count / 2..<count]
        let results = ConcurrentResults<Result<[RequestGroup], InputError>>(count: 2)
        DispatchQueue.concurrentPerform(iterations: 2) { part in results.set(part, decode(halves[part])) }
        return try results.get(0).get() + results.get(1).get()
    }

    private static func decodeVariables(_ reader: FieldReader) throws(InputError) -> [Variable] {
        guard let node = reader.optional("variables") else { return [] }
        let path = reader.childPath("variables")
        guard case .object(let members) = node.value else {
            throw reader.error(node, path, "expected an object of name → string, found \(node.kindDescription)")
        }
        var variables: [Variable] = []
        for member in members {
            let memberPath = "\(path).\(member.key)"
            guard case .string(let value) = member.value.value else {
                throw reader.error(member.value, memberPath, "expected a string, found \(member.value.kindDescription)")
            }
            if variables.contains(where: { $0.name == member.key }) {
                throw reader.error(member.value, memberPath, "the variable '\(member.key)' is defined twice")
            }
            variables.append(Variable(name: member.key, value: value))
        }
        return variables
    }

    /// The fields a group may have (one array for the whole run rather than a literal per group).
    private static let groupKeys: FieldNames = ["id", "name", "description", "variables", "auth", "scripts", "requests", "groups"]

    /// - Parameter inherited: the scripts of the collection and the groups above, outer first.
    private static func decodeGroup(_ node: JSONNode, path: FieldPath, parents: [String], file: String,
                                    fileName: String, base: FileScope, inherited: [Script]) throws(InputError) -> RequestGroup {
        let reader = try FieldReader(file: file, node: node, path: path)
        try reader.rejectUnknownKeys(groupKeys)
        guard parents.count < maximumGroupDepth else {
            throw reader.error(node, reader.path, "groups nest deeper than \(maximumGroupDepth) levels")
        }
        let name = try reader.requiredString("name")
        guard !name.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw reader.error(reader.optional("name")!, reader.childPath("name"), "a group name cannot be empty")
        }
        let namePath = parents + [name]
        let id: UUID
        let derived: Bool
        if let idNode = reader.optional("id") {
            guard case .string(let text) = idNode.value, let uuid = UUID(uuidString: text) else {
                throw reader.error(idNode, reader.childPath("id"),
                                   "expected a UUID string such as \"7bbd0224-3a31-4ba7-9dbb-b7138de7aaee\"")
            }
            id = uuid
            derived = false
        } else {
            id = GroupID.derived(fileName: fileName, groupPath: namePath)
            derived = true
        }
        let scripts = try NativeScripts.decode(reader, base: base)
        let below = inherited + scripts
        let requestElements = try reader.optionalElements("requests")
        // Reserved: growing by doubling copied each (large) Request about twice, 2 % of `list --all --json`.
        var requests: [Request] = []
        requests.reserveCapacity(requestElements.items.count)
        for (child, childPath) in requestElements {
            requests.append(try decodeRequest(child, path: childPath, file: file, base: base, inherited: below))
        }
        var groups: [RequestGroup] = []
        for (child, childPath) in try reader.optionalElements("groups") {
            groups.append(try decodeGroup(child, path: childPath, parents: namePath, file: file, fileName: fileName, base: base, inherited: below))
        }
        var group = RequestGroup(id: id, idIsDerived: derived, name: name, variables: try decodeVariables(reader),
                                 auth: try AuthDecoder.decode(reader),
                                 requests: requests, groups: groups, location: node.location)
        group.scripts = scripts
        return group
    }

    /// The fields a request may have (one array for the whole run rather than a literal per request).
    private static let requestKeys: FieldNames = ["id", "name", "description", "method", "url", "query", "headers", "body", "form", "multipart",
                                      "bodyFile", "graphql", "auth", "expect", "capture", "scripts", "timeout", "followRedirects", "maxRedirects",
                                      "followOriginalMethod", "followAuthorization", "insecure", "disableBodyPruning", "messages", "retry",
                                      "disableCookies", "tlsDisabledProtocols", "tlsCipherSelection"]

    /// The request fields that do not go into the shared box: a request with no other field and no inherited
    /// script has every detail unset.
    private static let inlineRequestKeys: Set<String> = ["id", "name", "method", "url", "headers"]

    /// The presence bits (`KeyCode.presenceBit`) of every other request field, and the bit of keys only
    /// `String ==` compares: a request whose keys set none of them has none of those fields (a key that shares
    /// a bit with one of them only sends its request the long way).
    private static let detailKeyBits: UInt64 = requestKeys.entries.reduce(1 << 63) { bits, name in
        inlineRequestKeys.contains(name.text) ? bits : bits | name.code.presenceBit
    }

    private static func decodeRequest(_ node: JSONNode, path: FieldPath, file: String, base: FileScope,
                                      inherited: [Script]) throws(InputError) -> Request {
        let reader = try FieldReader(file: file, node: node, path: path)
        try reader.rejectUnknownKeys(requestKeys)
        let url = try reader.requiredString("url")
        let method = try reader.optionalString("method") ?? "GET"
        if method.isEmpty || !method.unicodeScalars.allSatisfy(HTTPSyntax.isTokenCharacter) {
            throw reader.error(reader.optional("method")!, reader.childPath("method"),
                               "'\(method)' is not a valid method (RFC 9110 §9.1: a token such as GET or POST)")
        }
        let id = try reader.optionalString("id"), name = try reader.optionalString("name")
        let headers = try decodeHeaders(reader)
        // Nearly every request of a large collection: no field of the box, whose thirty lookups (each
        // returning nil) and comparison with the unset box were a sixth of decoding it (callgrind).
        if inherited.isEmpty && reader.presentKeys & detailKeyBits == 0 {
            return Request(id: id, name: name, method: method, url: url, headers: headers, details: nil)
        }
        // The fields of the shared box, made here and boxed once (or not at all when every one is unset), in
        // the order their errors are looked for.
        var details = Request.Details()
        details.query = try decodeParameters(reader, "query")
        details.body = try BodyDecoder.decode(reader, base: base)
        details.auth = try AuthDecoder.decode(reader)
        details.expectations = try ExpectationDecoder.expectations(reader)
        details.captures = try ExpectationDecoder.captures(reader)
        details.timeoutMilliseconds = try decodeTimeout(reader)
        details.followRedirects = try decodeBool(reader, "followRedirects")
        details.maxRedirects = try decodeCount(reader, "maxRedirects")
        details.messages = try WebSocketStepDecoder.decode(reader, base: base)
        details.poll = try decodePoll(reader)
        details.followOriginalMethod = try decodeBool(reader, "followOriginalMethod")
        details.followAuthorization = try decodeBool(reader, "followAuthorization")
        details.insecure = try decodeBool(reader, "insecure")
        details.disableBodyPruning = try decodeBool(reader, "disableBodyPruning")
        details.disableCookies = try decodeBool(reader, "disableCookies")
        // Paths only for fields that are there: building one per request cost list --all --json a tenth of its time.
        if let node = reader.optional("tlsDisabledProtocols") {
            details.tlsDisabledProtocols = try TLSChoice.protocols(node, reader.childPath("tlsDisabledProtocols"), reader)
        }
        if let node = reader.optional("tlsCipherSelection") {
            details.tlsCipherSelection = try TLSChoice.names(node, reader.childPath("tlsCipherSelection"), reader)
        }
        let scripts = try NativeScripts.decode(reader, base: base)
        details.eventScripts = inherited + scripts
        // `list` marks a request's own scripts (`[scripts: …]`).
        if !scripts.isEmpty { details.scripts = SkippedScripts(events: scripts.map(\.event.rawValue)) }
        let request = Request(id: id, name: name, method: method, url: url, headers: headers, details: details)
        return request
    }

    /// Headers are an array of `{"name": …, "value": …}` (order kept, names may repeat) or, for short
    /// lists, an object of name → value (order kept as written).
    private static func decodeHeaders(_ reader: FieldReader) throws(InputError) -> [HeaderField] {
        guard let node = reader.optional("headers") else { return [] }
        let path = reader.childPath("headers")
        var fields: [HeaderField] = []
        switch node.value {
        case .object(let members):
            for member in members {
                guard case .string(let value) = member.value.value else {
                    throw reader.error(member.value, "\(path).\(member.key)",
                                       "expected a string, found \(member.value.kindDescription)")
                }
                fields.append(HeaderField(name: member.key, value: value))
            }
        case .array(let items):
            for (i, item) in items.enumerated() {
                let field = try FieldReader(file: reader.file, node: item, path: "\(path)[\(i)]")
                try field.rejectUnknownKeys(["name", "value"])
                fields.append(HeaderField(name: try field.requiredString("name"), value: try field.requiredString("value")))
            }
        default:
            throw reader.error(node, path, "expected an array of {\"name\", \"value\"} objects, found \(node.kindDescription)")
        }
        for (i, field) in fields.enumerated()
        where field.name.isEmpty || !field.name.unicodeScalars.allSatisfy(HTTPSyntax.isTokenCharacter) {
            throw reader.error(node, "\(path)[\(i)]", "'\(field.name)' is not a valid field name (RFC 9110 §5.1: a token)")
        }
        return fields
    }

    /// An ordered list of `{"name", "value"}` objects, or an object of name → value (order kept).
    @inline(__always) // the literal key's code is then made where it is written (FieldReader.optional)
    static func decodeParameters(_ reader: FieldReader, _ key: FieldKey) throws(InputError) -> [Parameter] {
        guard let node = reader.optional(key) else { return [] }
        let path = reader.childPath(key)
        switch node.value {
        case .object(let members):
            var result: [Parameter] = []
            for member in members {
                guard case .string(let value) = member.value.value else {
                    throw reader.error(member.value, "\(path).\(member.key)", "expected a string, found \(member.value.kindDescription)")
                }
                result.append(Parameter(name: member.key, value: value))
            }
            return result
        case .array(let items):
            var result: [Parameter] = []
            for (i, item) in items.enumerated() {
                let field = try FieldReader(file: reader.file, node: item, path: "\(path)[\(i)]")
                try field.rejectUnknownKeys(["name", "value"])
                result.append(Parameter(name: try field.requiredString("name"), value: try field.optionalString("value") ?? ""))
            }
            return result
        default:
            throw reader.error(node, path, "expected an array of {\"name\", \"value\"} objects, found \(node.kindDescription)")
        }
    }

    /// `timeout` in seconds (fractions allowed) as milliseconds.
    private static func decodeTimeout(_ reader: FieldReader) throws(InputError) -> Int? {
        guard let node = reader.optional("timeout") else { return nil }
        guard case .number(let text) = node.value, let seconds = Double(text), seconds >= 0, seconds < 1e9 else {
            throw reader.error(node, reader.childPath("timeout"), "expected a number of seconds")
        }
        return seconds > 0 ? max(1, Int((seconds * 1000).rounded())) : 0
    }

    @inline(__always) // the literal key's code is then made where it is written (FieldReader.optional)
    private static func decodeBool(_ reader: FieldReader, _ key: FieldKey) throws(InputError) -> Bool? {
        guard let node = reader.optional(key) else { return nil }
        guard case .bool(let value) = node.value else {
            throw reader.error(node, reader.childPath(key), "expected true or false, found \(node.kindDescription)")
        }
        return value
    }

    @inline(__always) // the literal key's code is then made where it is written (FieldReader.optional)
    private static func decodeCount(_ reader: FieldReader, _ key: FieldKey) throws(InputError) -> Int? {
        guard let node = reader.optional(key) else { return nil }
        guard case .number(let text) = node.value, let value = Int(text), value >= 0 else {
            throw reader.error(node, reader.childPath(key), "expected a whole number of 0 or more")
        }
        return value
    }
}
