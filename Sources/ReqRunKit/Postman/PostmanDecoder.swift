import Foundation

/// Loads a Postman Collection v2.0 or v2.1 file (or Newman's shape without `info`) as a `RequestCollection`; a
/// v1 file is first converted to v2.1 by `PostmanV1Converter`, as Newman converts it.
///
/// Shape (schema `https://schema.getpostman.com/json/collection/v2.1.0/collection.json`):
/// `{"info": {"name", "_postman_id", "schema"}, "item": [folder | item], "auth", "variable": [{"key",
/// "value", "disabled"}], "event": [script]}`; a folder is `{"name", "id" | "_postman_id", "item": […],
/// "auth", "variable", "event"}`; an item is `{"name", "id", "request": string | object, "event"}`.
///
/// - Folders become groups, nested as they are, their requests and subfolders in the file's order
///   (`RequestGroup.itemOrder`). Each run of consecutive top-level requests becomes a group named after the
///   collection (`Name`, then `Name (2)`…), in its place among the top-level folders.
/// - Group ids: the folder's own id when it is a UUID; a name-based UUID of it when it is not
///   (`PostmanDecoder.groupID(postmanID:)`); else `GroupID.derived` from the file name and folder path,
///   where the n-th (n ≥ 2) of same-named sibling folders is named `name␟n` (U+001F between).
///   A run of top-level requests gets `GroupID.derived(fileName:, groupPath: [])` for the first run and
///   `[" ", "N"]` for the N-th (names no folder path produces in practice).
/// - Variables: collection `variable` (also v2.0's `variables`) and folder `variable`, disabled ones skipped,
///   the last enabled value of a duplicate winning.
/// - Auth: `PostmanAuthDecoder`; a request without one inherits its folder's, then the collection's.
/// - Scripts: `PostmanScripts`; a collection's or folder's scripts run for every request below it (Newman's
///   order), before the request's own.
/// - An item with neither `item` nor `request` is not a request: it is left out with a warning.
/// Unknown fields are ignored; a field of the wrong type is an error with its file, line, column and path.
public enum PostmanDecoder {
    /// Decodes a collection already parsed. `PostmanFormat.collectionVersion(root)` must not be nil.
    static func decode(_ root: JSONNode, version: PostmanFormat.Version, file: String, fileName: String,
                       files: FileScope) throws(InputError) -> RequestCollection {
        if version == .v1 {
            // Converted to v2.1 as Newman converts it (postman-collection-transformer); errors in converted
            // values name their v1 field path.
            var converter = PostmanV1Converter(file: file)
            let converted = try converter.convert(root)
            do throws(InputError) {
                var collection = try decode(converted, version: .v2_1, file: file, fileName: fileName, files: files)
                collection.warnings += converter.notes.map { "\(file): \($0)" }
                return collection
            } catch {
                var error = error
                if let location = error.location, let path = converter.pathsByLocation[location] { error.fieldPath = path }
                throw error
            }
        }
        let reader = try FieldReader(file: file, node: root, path: "")
        var context = Context(file: file, fileName: fileName, base: files)
        var name = try reader.optionalString("name")
        var id = try reader.optionalString("id")
        if let infoNode = reader.optional("info") {
            let info = try FieldReader(file: file, node: infoNode, path: "info")
            name = try info.optionalString("name") ?? name
            let postmanID = try info.optionalString("_postman_id"), infoID = try info.optionalString("id")
            id = postmanID ?? infoID ?? id
        }
        let collectionName = name ?? String(fileName.split(separator: ".").first ?? Substring(fileName))
        let variables = PostmanFields.variables(try reader.postmanEntries("variable") + reader.postmanEntries("variables"))
        let auth = try PostmanAuthDecoder.decode(reader, warnings: &context.warnings)
        let scripts = try PostmanScripts.read(reader, warnings: &context.warnings)
        let profile = try PostmanProtocolProfile().over(reader, warnings: &context.warnings)
        var groups: [RequestGroup] = []
        var pending: [Request] = []
        var runs = 0
        func closeRun() {
            guard !pending.isEmpty else { return }
            runs += 1
            let id = GroupID.derived(fileName: fileName, groupPath: runs == 1 ? [] : [" ", "\(runs)"])
            var group = RequestGroup(id: id, idIsDerived: true, name: runs == 1 ? collectionName : "\(collectionName) (\(runs))",
                                     requests: pending, location: root.location)
            group.standsForCollection = true
            groups.append(group)
            pending = []
        }
        for (node, path) in try reader.optionalArray("item") {
            switch try context.item(node, path: path, parents: [], inherited: Inherited(scripts: scripts.scripts, profile: profile)) {
            case .request(let request): pending.append(request)
            case .group(let group):
                closeRun()
                groups.append(group)
            case nil: continue
            }
        }
        closeRun()
        var collection = RequestCollection(name: collectionName, id: id, file: file, variables: variables, auth: auth, groups: groups,
                                           warnings: context.warnings.messages(file: file))
        collection.scripts = scripts.scripts
        collection.postmanScripts = context.warnings.scriptCount
        return collection
    }

    /// True when `bytes` hold a Postman collection (by `info.schema`, or Newman's shape without `info`).
    public static func recognises(_ bytes: [UInt8]) -> Bool {
        guard let root = try? JSONParser.parse(bytes) else { return false }
        return PostmanFormat.collectionVersion(root) != nil
    }

    /// The group id of a folder whose Postman id is not a UUID: a version 5 UUID in reqrun's namespace of
    /// the compact JSON array `["postman", ID]`.
    public static func groupID(postmanID: String) -> UUID {
        var name = "[\"postman\","
        JSONNode.appendQuoted(postmanID, to: &name)
        return GroupID.nameBasedUUID(namespace: GroupID.namespace, name: name + "]")
    }

    /// What a folder's or the collection's scripts give every request below it.
    private struct Inherited {
        var scripts: [Script]
        /// `protocolProfileBehavior` merged from the collection down.
        var profile = PostmanProtocolProfile()
    }

    private struct Context {
        let file: String
        let fileName: String
        let base: FileScope
        var warnings = PostmanWarnings()

        init(file: String, fileName: String, base: FileScope) {
            self.file = file
            self.fileName = fileName
            self.base = base
        }

        /// A folder (it has `item`) as a group, a request item as a request, or nil for an item that is neither.
        mutating func item(_ node: JSONNode, path: String, parents: [String],
                           inherited: Inherited) throws(InputError) -> RequestGroup.Item? {
            let reader = try FieldReader(file: file, node: node, path: path)
            if reader.optional("item") != nil { return .group(try folder(reader, parents: parents, inherited: inherited)) }
            guard reader.optional("request") != nil else {
                warnings.notes.append("\(path): an item without 'request' or 'item' is left out")
                return nil
            }
            return .request(try request(reader, inherited: inherited))
        }

        /// How many folders each derived path has named so far, to tell same-named siblings apart.
        var pathUses: [[String]: Int] = [:]

        mutating func folder(_ reader: FieldReader, parents: [String], inherited: Inherited) throws(InputError) -> RequestGroup {
            let name = try reader.optionalString("name") ?? ""
            // Postman lets sibling folders share a name; the second and later get `name␟N` (U+001F) in their
            // derived path, so each keeps its own stable id.
            var namePath = parents + [name]
            pathUses[namePath, default: 0] += 1
            if let uses = pathUses[namePath], uses > 1 { namePath = parents + ["\(name)\u{1F}\(uses)"] }
            let ownID = try reader.optionalString("id"), exportID = try reader.optionalString("_postman_id")
            let postmanID = ownID ?? exportID
            let id: UUID, derived: Bool
            if let postmanID, let uuid = UUID(uuidString: postmanID) {
                (id, derived) = (uuid, false)
            } else if let postmanID, !postmanID.isEmpty {
                (id, derived) = (PostmanDecoder.groupID(postmanID: postmanID), true)
            } else {
                (id, derived) = (GroupID.derived(fileName: fileName, groupPath: namePath), true)
            }
            let auth = try PostmanAuthDecoder.decode(reader, warnings: &warnings)
            let scripts = try PostmanScripts.read(reader, warnings: &warnings)
            let profile = try inherited.profile.over(reader, warnings: &warnings)
            var requests: [Request] = [], groups: [RequestGroup] = [], order: [RequestGroup.ItemKind] = []
            for (node, path) in try reader.optionalArray("item") {
                switch try item(node, path: path, parents: namePath, inherited: Inherited(scripts: inherited.scripts + scripts.scripts, profile: profile)) {
                case .request(let request):
                    requests.append(request)
                    order.append(.request)
                case .group(let group):
                    groups.append(group)
                    order.append(.group)
                case nil: continue
                }
            }
            let interleaved = order != Array(repeating: .request, count: requests.count) + Array(repeating: .group, count: groups.count)
            var group = RequestGroup(id: id, idIsDerived: derived, name: name, variables: PostmanFields.variables(try reader.postmanEntries("variable")),
                                     auth: auth, requests: requests, groups: groups, location: reader.node.location,
                                     itemOrder: interleaved ? order : nil)
            group.scripts = scripts.scripts
            return group
        }

        mutating func request(_ item: FieldReader, inherited: Inherited) throws(InputError) -> Request {
            let node = try item.required("request")
            let scripts = try PostmanScripts.read(item, warnings: &warnings)
            let profile = try inherited.profile.over(item, warnings: &warnings)
            let name = try item.optionalString("name")
            var request: Request
            if case .string(let url) = node.value {
                request = Request(name: name, url: url)
            } else {
                let reader = try FieldReader(file: file, node: node, path: item.childPath("request"))
                let url = try reader.optional("url").map { node throws(InputError) in
                    try PostmanURL.decode(node, path: reader.childPath("url"), file: file,
                                          keepingEmptyQueryEntries: base.requestRules.keepsEmptyQueryEntries)
                } ?? ""
                var method = try reader.optionalString("method") ?? "GET"
                if method.isEmpty { method = "GET" }
                if !method.unicodeScalars.allSatisfy(HTTPSyntax.isTokenCharacter) {
                    throw reader.error(reader.optional("method")!, reader.childPath("method"),
                                       "'\(method)' is not a valid method (RFC 9110 §9.1: a token such as GET or POST)")
                }
                var headers = try self.headers(reader)
                let (body, contentType) = try PostmanBody.decode(reader, base: base, warnings: &warnings)
                if let contentType, !headers.contains(named: "content-type") {
                    headers.append(HeaderField(name: "Content-Type", value: contentType))
                }
                request = Request(name: name, method: method, url: url, headers: headers, body: body,
                                  auth: try PostmanAuthDecoder.decode(reader, warnings: &warnings))
            }
            let ownID = try item.optionalString("id"), exportID = try item.optionalString("_postman_id")
            request.id = ownID ?? exportID
            request.eventScripts = inherited.scripts + scripts.scripts
            profile.apply(to: &request)
            if !scripts.events.isEmpty { request.scripts = SkippedScripts(events: scripts.events) }
            return request
        }

        /// `header`: a list of `{"key", "value", "disabled"}` (disabled and nameless ones dropped) or a string of
        /// `Name: value` lines. A name that is not a token (RFC 9110 §5.1) is dropped with a warning.
        mutating func headers(_ reader: FieldReader) throws(InputError) -> [HeaderField] {
            guard let node = reader.optional("header") else { return [] }
            var fields: [HeaderField] = []
            if case .string(let text) = node.value {
                for line in text.split(whereSeparator: \.isNewline) {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    fields.append(HeaderField(name: line[..<colon].trimmingCharacters(in: .whitespaces),
                                              value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
                }
            } else {
                fields = try reader.postmanEntries("header").compactMap { entry in
                    entry.key.map { HeaderField(name: $0.trimmingCharacters(in: .whitespaces), value: entry.value ?? "") }
                }
            }
            return fields.filter { field in
                if field.name.isEmpty { return false }
                guard field.name.unicodeScalars.allSatisfy(HTTPSyntax.isTokenCharacter) else {
                    warnings.notes.append("\(reader.childPath("header")): '\(field.name)' is not a valid field name (RFC 9110 §5.1: a token); left out")
                    return false
                }
                return true
            }
        }
    }
}
