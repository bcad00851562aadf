import Foundation

/// A collection: one file of grouped requests, with variables its requests may use.
///
/// Named `RequestCollection` because `Collection` is the Swift standard library's protocol.
public struct RequestCollection: Sendable, Equatable {
    /// Display name (`name` in the file).
    public var name: String
    /// Optional id from the file (`id`), kept as written.
    public var id: String?
    /// The file it was loaded from, as given to the loader (used in messages).
    public var file: String
    /// Collection variables in file order (`variables`: name → string).
    public var variables: [Variable]
    /// Top-level groups in file order.
    public var groups: [RequestGroup]
    /// Auth inherited by every request that sets none (and whose groups set none).
    public var auth: Auth?
    /// What loading noticed but did not refuse (e.g. how many scripts a Postman collection has); the
    /// CLI prints each on stderr as a warning.
    public var warnings: [String]
    /// The collection's own scripts (native `scripts`, Postman `event`); every request's `eventScripts` starts with them.
    public var scripts: [Script] = []
    /// For a Postman collection, how many scripts it has, for the CLI's warning on a command that does not run
    /// them all (`PostmanScriptCount.notice`); nil for a native collection.
    public var postmanScripts: PostmanScriptCount?
    /// The request rules its requests follow: the native `compat` field as read, then what the workspace's
    /// `reqrun.json` or `--compat` sets when it loads (`Workspace.loadCollections`); nil: the run's
    /// (`RunConfiguration.requestRules`).
    public var compat: RequestRules?

    public init(name: String, id: String? = nil, file: String, variables: [Variable] = [], auth: Auth? = nil, groups: [RequestGroup],
                warnings: [String] = []) {
        self.auth = auth
        self.warnings = warnings
        self.name = name
        self.id = id
        self.file = file
        self.variables = variables
        self.groups = groups
    }
}

/// A named value that `{{name}}` in a request template refers to.
public struct Variable: Sendable, Equatable, Codable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// A group (folder) of requests, possibly holding nested groups; shown expanded or collapsed like a
/// SwiftUI `DisclosureGroup`.
public struct RequestGroup: Sendable, Equatable, Identifiable {
    /// The group's id: from the file, or a name-based UUID (`GroupID.derived`) when the file has none.
    public var id: UUID
    /// True when `id` was derived rather than written in the file.
    public var idIsDerived: Bool
    public var name: String
    /// Group variables in file order; they override the collection's and an outer group's.
    public var variables: [Variable]
    /// Auth inherited by the requests below that set none.
    public var auth: Auth?
    /// Requests in file order.
    public var requests: [Request]
    /// Nested groups in file order; listed after the group's own requests.
    public var groups: [RequestGroup]
    /// Where the group's object starts in its file.
    public var location: SourceLocation
    /// The order of the group's requests and nested groups when the source interleaves them (a Postman
    /// folder may list a request after a subfolder): one entry per item, the n-th `.request` standing for
    /// `requests[n]`. Nil in the native format: the requests, then the nested groups.
    public var itemOrder: [ItemKind]?
    /// The group's own scripts; the `eventScripts` of the requests below it hold them after the outer ones.
    public var scripts: [Script] = []
    /// True for a group the Postman loader made for a collection's top-level requests (named after the
    /// collection): not a Postman item, so `pm.execution.location` leaves it out.
    public var standsForCollection = false

    /// What stands at one place of a group's items.
    public enum ItemKind: Sendable, Equatable {
        case request, group
    }

    /// One of a group's items, in list order.
    public enum Item: Sendable, Equatable {
        case request(Request)
        case group(RequestGroup)
    }

    public init(id: UUID, idIsDerived: Bool = false, name: String, variables: [Variable] = [], auth: Auth? = nil,
                requests: [Request] = [], groups: [RequestGroup] = [], location: SourceLocation = SourceLocation(line: 1, column: 1),
                itemOrder: [ItemKind]? = nil) {
        self.itemOrder = itemOrder
        self.auth = auth
        self.id = id
        self.idIsDerived = idIsDerived
        self.name = name
        self.variables = variables
        self.requests = requests
        self.groups = groups
        self.location = location
    }

    /// Number of requests in this group and every group below it.
    public var requestCount: Int { requests.count + groups.reduce(0) { $0 + $1.requestCount } }

    /// The requests and nested groups in list order: `itemOrder` when set, else the requests, then the groups.
    public var items: [Item] {
        var items: [Item] = []
        items.reserveCapacity(requests.count + groups.count)
        forEachItem(request: { items.append(.request($0)) }, group: { items.append(.group($0)) })
        return items
    }

    /// Calls `request` or `group` for each item in the order of `items`, without building that array
    /// (`list --json` on 100,000 requests copied every request into it).
    public func forEachItem(request: (Request) -> Void, group: (RequestGroup) -> Void) {
        guard let itemOrder else {
            for item in requests { request(item) }
            for item in groups { group(item) }
            return
        }
        var nextRequest = 0, nextGroup = 0
        for kind in itemOrder {
            switch kind {
            case .request:
                request(requests[nextRequest])
                nextRequest += 1
            case .group:
                group(groups[nextGroup])
                nextGroup += 1
            }
        }
    }
}

/// One HTTP or WebSocket request as written in a collection: templates that may still hold `{{name}}` references.
///
/// Ten words (80 bytes): the four strings `list` shows, the header fields, and one shared box
/// (`Request.Details`, in `RequestDetails.swift`) of every other field, which most requests leave unset.
/// Those fields read through the box; setting one copies the box first when another request shares it
/// (copy on write), so a request is changed alone, as a struct of all its fields was. With the fields inline
/// the struct was 456 bytes, copied into its group's array and into each selection entry (issue 17 §1:
/// 115 M instructions of `memcpy` in `list --all --json` on 100,000 requests).
public struct Request: Sendable {
    /// Optional id from the file, kept as written.
    public var id: String?
    /// Display name; defaults to the URL template, as in the seed's sidebar (with the password of any user
    /// information as `****`: `CredentialSecrets.maskingUserInfo`).
    public var name: String
    /// Request method (RFC 9110 §9), case-sensitive, as written; default `GET`.
    public var method: String
    /// Target URI template, e.g. `{{httpbin}}/get`.
    public var url: String
    /// Header fields in order; a name may repeat.
    public var headers: [HeaderField]
    /// Every other field; nil when all are at their defaults.
    var box: DetailsBox?

    public init(id: String? = nil, name: String? = nil, method: String = "GET", url: String,
                headers: [HeaderField] = [], query: [Parameter] = [], body: RequestBody? = nil, auth: Auth? = nil,
                expectations: [ExpectationSpec] = [], captures: [Capture] = [], timeoutMilliseconds: Int? = nil,
                followRedirects: Bool? = nil, maxRedirects: Int? = nil, scripts: SkippedScripts? = nil,
                messages: [WebSocketStep]? = nil) {
        self.init(id: id, name: name, method: method, url: url, headers: headers,
                  details: Details(query: query, body: body, timeoutMilliseconds: timeoutMilliseconds, followRedirects: followRedirects,
                                   maxRedirects: maxRedirects, auth: auth, expectations: expectations, captures: captures,
                                   scripts: scripts, messages: messages))
    }
}

/// One header field (RFC 9110 §5): a name and a value, kept in order with repeats.
public struct HeaderField: Sendable, Equatable, Codable {
    public var name: String
    public var value: String
    /// For a received value that is not UTF-8: its bytes as received, base64 (RFC 4648 §4); `value` then has
    /// each byte that is not part of valid UTF-8 written `\xHH` (see `HeaderLine.text`). Nil otherwise.
    public var valueBase64: String?

    public init(name: String, value: String, valueBase64: String? = nil) {
        self.name = name
        self.value = value
        self.valueBase64 = valueBase64
    }
}

/// A name and a value, kept in order with repeats: query parameters and form fields.
public struct Parameter: Sendable, Equatable, Codable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// Request content as written in a collection. Strings may hold `{{name}}` references.
public enum RequestBody: Sendable, Equatable {
    /// A string body (`body` as a string), sent as is after substitution.
    case text(String)
    /// A JSON object or array (`body` as JSON), kept as compact JSON text with key order and number text as
    /// written; sent with `Content-Type: application/json` unless a header field says otherwise.
    case json(String)
    /// `application/x-www-form-urlencoded` from ordered fields (`form`), encoded as WHATWG's URL standard
    /// serializes forms.
    case form([Parameter])
    /// `multipart/form-data` (`multipart`), built by libcurl's MIME API (RFC 7578).
    case multipart([MultipartPart])
    /// A file's bytes (`bodyFile`), streamed from disk, not read whole into memory. The path is absolute
    /// (resolved against the collection file's folder when loaded).
    case file(path: String)
    /// GraphQL over HTTP (`graphql`): a JSON body `{"query", "variables", "operationName"}`.
    /// `variables` is compact JSON text as written.
    case graphQL(query: String, variables: String?, operationName: String?)
}

/// One part of a `multipart/form-data` body.
public struct MultipartPart: Sendable, Equatable {
    public enum Content: Sendable, Equatable {
        /// A text field's value.
        case text(String)
        /// A file, by absolute path (resolved against the collection file's folder when loaded).
        case file(path: String)
    }

    /// The field name.
    public var name: String
    public var content: Content
    /// The part's Content-Type; default: none for text, guessed by libcurl from the file name for files.
    public var contentType: String?
    /// The file name sent for a file part; default: the file's own name.
    public var fileName: String?

    public init(name: String, content: Content, contentType: String? = nil, fileName: String? = nil) {
        self.name = name
        self.content = content
        self.contentType = contentType
        self.fileName = fileName
    }
}

/// JavaScript a request has of its own in its source (a Postman collection's `event` scripts), as `list`
/// and `import` see it: which events.
public struct SkippedScripts: Sendable, Equatable {
    /// `prerequest` and/or `test`, in that order.
    public var events: [String]

    public init(events: [String]) {
        self.events = events
    }
}
