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

    public init(name: String, id: String? = nil, file: String, variables: [Variable] = [], auth: Auth? = nil, groups: [RequestGroup]) {
        self.auth = auth
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

    public init(id: UUID, idIsDerived: Bool = false, name: String, variables: [Variable] = [], auth: Auth? = nil,
                requests: [Request] = [], groups: [RequestGroup] = [], location: SourceLocation = SourceLocation(line: 1, column: 1)) {
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
}

/// One HTTP request as written in a collection: templates that may still hold `{{name}}` references.
public struct Request: Sendable, Equatable {
    /// Optional id from the file, kept as written.
    public var id: String?
    /// Display name; defaults to the URL template, as in the seed's sidebar.
    public var name: String
    /// Request method (RFC 9110 §9), case-sensitive, as written; default `GET`.
    public var method: String
    /// Target URI template, e.g. `{{httpbin}}/get`.
    public var url: String
    /// Header fields in order; a name may repeat.
    public var headers: [HeaderField]
    /// The content to send, if any.
    public var body: RequestBody?
    /// The request's own auth; nil inherits (see `RequestReference.effectiveAuth`).
    public var auth: Auth?
    /// What the response must satisfy (`expect`); none means a response is enough.
    public var expectations: [ExpectationSpec]
    /// Values taken from the response into variables for later requests (`capture`).
    public var captures: [Capture]

    public init(id: String? = nil, name: String? = nil, method: String = "GET", url: String,
                headers: [HeaderField] = [], body: RequestBody? = nil, auth: Auth? = nil, expectations: [ExpectationSpec] = [],
                captures: [Capture] = []) {
        self.auth = auth
        self.expectations = expectations
        self.captures = captures
        self.id = id
        self.name = name ?? url
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// One header field (RFC 9110 §5): a name and a value, kept in order with repeats.
public struct HeaderField: Sendable, Equatable, Codable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// Request content as written in a collection.
public enum RequestBody: Sendable, Equatable {
    /// A string body, sent as is (after `{{name}}` substitution).
    case text(String)
    /// A JSON object or array, kept as compact JSON text with key order and number text as written; sent
    /// with `Content-Type: application/json` unless a header field says otherwise.
    case json(String)

    /// The template text of the body.
    public var template: String {
        switch self {
        case .text(let s), .json(let s): return s
        }
    }
}
