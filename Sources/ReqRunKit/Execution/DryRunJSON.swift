import Foundation

/// `run --dry-run --json`'s entries written as `JSONEncoder` wrote them, one at a time through a `JSONWriter` in
/// `encoderLayout` (issue 17 §1).
///
/// In this module rather than in the command's, so that the writer's generic `array` is specialised for the
/// entries' arrays: called from `ReqRunCLI` it was not, and looked up the metadata of `Optional<Element>` and
/// of the arrays' storage at every element (`swift_getGenericMetadata`, some 8 % of the instructions of
/// `run --all --dry-run --json` on 100,000 requests, callgrind).
extension DryRunEntry {
    /// The entry as `JSONEncoder` encoded it (`Codable`, keys sorted, nil fields left out) into `w`, a writer
    /// in `encoderLayout`.
    func write(_ w: inout JSONWriter) {
        let groupPath = groupPath
        Self.write(&w, body: body, collection: collection, console: console, error: error,
                   groupPath: { w in w.array(groupPath) { w, name in w.string(name) } },
                   headers: headers, addedHeader: nil, index: index, method: method, name: name, skipped: skipped,
                   transferAuth: transferAuth, url: url)
    }

    /// The entry of a request prepared as it is (`Planner.Plan.prepared`), written without making it: the same
    /// bytes as `DryRunEntry(reference, name:, method:, prepared, userAgent:).write(&w)`.
    static func write(_ w: inout JSONWriter, _ reference: RequestReference, name: String, method: String, _ prepared: PreparedRequest,
                      userAgent: HeaderField?) {
        let groups = reference.groups
        write(&w, body: prepared.body.map(Body.init), collection: reference.collectionName, console: nil, error: nil,
              groupPath: { w in w.array(groups.indices) { w, i in w.string(groups[i].name) } },
              headers: prepared.headers, addedHeader: userAgent, index: reference.index, method: method,
              name: name, skipped: nil, transferAuth: prepared.transferAuth.map(transferAuthText), url: prepared.url)
    }

    /// The members in `JSONEncoder`'s sorted order; `headers` followed by `addedHeader`, if any.
    private static func write(_ w: inout JSONWriter, body: Body?, collection: String, console: [String]?, error: String?,
                              groupPath: (inout JSONWriter) -> Void, headers: [HeaderField]?, addedHeader: HeaderField?,
                              index: Int, method: String, name: String, skipped: Bool?, transferAuth: String?, url: String) {
        w.object { w in
            if let body {
                w.field("body", object: { w in
                    w.field("base64", body.base64)
                    w.field("file", body.file)
                    if let parts = body.parts {
                        w.field("parts", parts) { w, part in
                            w.object { w in
                                w.field("contentType", part.contentType)
                                w.field("file", part.file)
                                w.field("name", part.name)
                                w.field("value", part.value)
                            }
                        }
                    }
                    w.field("text", body.text)
                })
            }
            w.field("collection", collection)
            if let console { w.field("console", console) { w, line in w.string(line) } }
            w.field("error", error)
            w.key("groupPath")
            groupPath(&w)
            if let headers { writeHeaders(&w, headers, addedHeader) }
            w.field("index", index)
            w.field("method", method)
            w.field("name", name)
            if let skipped { w.field("skipped", skipped) }
            w.field("transferAuth", transferAuth)
            w.field("url", url)
        }
    }

    /// The `headers` member: `headers` followed by `addedHeader`, if any.
    fileprivate static func writeHeaders(_ w: inout JSONWriter, _ headers: [HeaderField], _ addedHeader: HeaderField?) {
        let count = headers.count + (addedHeader == nil ? 0 : 1)
        w.field("headers", 0..<count) { w, i in
            let header = i < headers.count ? headers[i] : addedHeader!
            w.object { w in
                w.field("name", header.name)
                w.field("value", header.value)
                w.field("valueBase64", header.valueBase64)
            }
        }
    }
}

/// The bytes of the entries of prepared requests (`Planner.Plan.prepared`) that are the same for the requests of a
/// group, written once for the group instead of for each request (issue 17 §1, S10).
///
/// An entry without a body nor `transferAuth` is, in `JSONEncoder`'s sorted order, `collection`, `groupPath`,
/// `headers`, `index`, `method`, `name` and `url`: of these the index, the name and the URL change from one request to
/// the next; the collection and the group path are the group's, and the header fields and the method are most often
/// those of the request before. `head` holds `{` and the members up to `"index" : `, `middle` the method's member and
/// `"name" : `, both written by a `JSONWriter` at the entry's depth, so that the entry is the bytes `write` writes for
/// it: callgrind, `run --all --dry-run --json` on 100,000 requests, the writer's 4,500 instructions a request were
/// mostly keys, separators and the escape scans of the same strings at every request.
///
/// The cached bytes are used while the group (by its id, unique in a workspace, which names its collection and its
/// path, as `Planner.fileLayers` has it) is the same, and the header fields and the method are the same byte for
/// byte: `String`'s `==` compares canonical equivalents as equal (`é` and `e` with U+0301), whose bytes differ.
struct DryRunFragments {
    private var group: UUID?
    private var headers: [HeaderField] = []
    private var addedHeader: HeaderField?
    private var method = ""
    private var head: [UInt8] = []
    private var middle: [UInt8] = []

    /// `,` and `"url" : ` after the name, and the line that closes the entry, at the depth of the entries of a
    /// top-level array (what `w.key("url")` and the close of `w.object` write there).
    private static let urlKey: StaticString = ",\n    \"url\" : "
    private static let close: StaticString = "\n  }"

    init() {}

    /// Writes the entry of `prepared` (an element of a top-level array of `w`, a writer in `encoderLayout`) as
    /// `DryRunEntry.write(&w, reference, name:, method:, prepared, userAgent:)` does; false, writing nothing, for an
    /// entry these fragments do not cover (a body, `transferAuth`, another depth).
    mutating func write(_ w: inout JSONWriter, _ reference: RequestReference, name: String, method: String,
                        _ prepared: PreparedRequest, userAgent: HeaderField?) -> Bool {
        guard prepared.body == nil, prepared.transferAuth == nil, w.openContainers == 1 else { return false }
        begin(&w, reference, index: reference.index, name: name, method: method, headers: prepared.headers, addedHeader: userAgent)
        w.string(prepared.url)
        end(&w)
        return true
    }

    /// The entry of a request of `reference`'s group, at list index `index`, up to its URL's value: the fragments
    /// (made again when the group, the method or the header fields are not those they were made for), the index and
    /// the name. The URL's value and `end` follow; `w` is in `encoderLayout` with one container open.
    mutating func begin(_ w: inout JSONWriter, _ reference: RequestReference, index: Int, name: String, method: String,
                        headers: [HeaderField], addedHeader: HeaderField?) {
        let group = reference.groups.last!.id
        if self.group != group || !Self.same(self.method, method)
            || !Self.same(self.headers, headers) || !Self.same(self.addedHeader, addedHeader) {
            self = Self(reference, method: method, headers: headers, addedHeader: addedHeader)
        }
        w.raw(head)
        w.int(index)
        w.raw(middle)
        w.string(name)
        w.raw(Self.urlKey)
    }

    /// The line that closes an entry `begin` started, after its URL's value.
    func end(_ w: inout JSONWriter) { w.raw(Self.close) }

    /// The fragments of the entries of `reference`'s group with these header fields and method.
    private init(_ reference: RequestReference, method: String, headers: [HeaderField], addedHeader: HeaderField?) {
        group = reference.groups.last!.id
        self.headers = headers
        self.addedHeader = addedHeader
        self.method = method
        let groups = reference.groups
        var h = JSONWriter(encoderLayout: true, depth: 2, hasItems: false)
        h.field("collection", reference.collectionName)
        h.key("groupPath")
        h.array(groups.indices) { w, i in w.string(groups[i].name) }
        DryRunEntry.writeHeaders(&h, headers, addedHeader)
        h.key("index")
        head = [UInt8(ascii: "{")] + h.fragment()
        var m = JSONWriter(encoderLayout: true, depth: 2, hasItems: true)
        m.field("method", method)
        m.key("name")
        middle = m.fragment()
    }

    /// Whether two strings have the same UTF-8 bytes (on the bytes in place: `utf8.elementsEqual` cost some 650
    /// instructions a comparison, callgrind).
    private static func same(_ a: String, _ b: String) -> Bool {
        let count = a.utf8.count
        guard count == b.utf8.count else { return false }
        let same = a.utf8.withContiguousStorageIfAvailable { a in
            b.utf8.withContiguousStorageIfAvailable { b in count == 0 || memcmp(a.baseAddress!, b.baseAddress!, count) == 0 }
        }
        return (same ?? nil) ?? a.utf8.elementsEqual(b.utf8)
    }

    private static func same(_ a: String?, _ b: String?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (let a?, let b?): return same(a, b)
        default: return false
        }
    }

    private static func same(_ a: HeaderField?, _ b: HeaderField?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (let a?, let b?): return same(a.name, b.name) && same(a.value, b.value) && same(a.valueBase64, b.valueBase64)
        default: return false
        }
    }

    private static func same(_ a: [HeaderField], _ b: [HeaderField]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { same($0, $1) }
    }
}

extension DryRunEntry.Planner {
    /// Plans each of `references` in order and writes its entry into `w` (a writer in `encoderLayout`) as a
    /// JSON array, keeping none: `[`, the entries, `]`.
    /// - Returns: how many could not be prepared (skipped schemes are not counted).
    public mutating func writeJSON(_ references: RequestSelection, to w: inout JSONWriter) -> Int {
        var failed = 0
        var fragments = DryRunFragments()
        w.array(references) { w, reference in
            if Self.write(plan(reference, allowingPrepared: true), reference, &fragments, to: &w) { failed += 1 }
        }
        return failed
    }

    /// Plans `references[range]` in order and writes each entry as an `element` of `w` (a writer of
    /// `JSONWriter.init(bufferSize:encoderLayout:elementsAtDepth:sink:)` at depth 1), stopping before the first
    /// request this planner defers (`defersLiteralWarnings`).
    /// - Returns: how many could not be prepared, and where it stopped (`range.upperBound`: after the last).
    ///
    /// The requests of a selection's stretches (`RequestSelection.requests(at:)`) are read where they are, in their
    /// group's array; a request without details nor header fields, of a group that `plainGroup` allows, is written by
    /// `writePlain` without a reference, a `PreparedRequest` or a `Plan`; any other (or one `writePlain` declines) is
    /// planned from its reference as before.
    mutating func writeElements(_ references: RequestSelection, _ range: Range<Int>, to w: inout JSONWriter) -> (failed: Int, end: Int) {
        var failed = 0
        // Out of `self` for the loop: the closure below captures it, not the planner.
        var fragments = self.fragments
        self.fragments = DryRunFragments()
        defer { self.fragments = fragments }
        /// The request at `position` planned from its reference; false when it is deferred.
        func planned(_ position: Int, _ planner: inout Self, _ w: inout JSONWriter) -> Bool {
            let reference = references[position]
            let plan = planner.plan(reference, allowingPrepared: true)
            if case .deferred = plan { return false }
            // `Self.write`, static: a method of `self` called in the closure copied the planner (its run configuration
            // and caches) for every request.
            w.element { w in if Self.write(plan, reference, &fragments, to: &w) { failed += 1 } }
            return true
        }
        // The group chain whose `plainGroup` was asked last, and its answer.
        var last: (chain: Int, group: PlainGroup?)?
        var position = range.lowerBound
        while position < range.upperBound {
            guard let stretch = references.requests(at: position) else {
                guard planned(position, &self, &w) else { return (failed, position) }
                position += 1
                continue
            }
            if last?.chain != stretch.chain { last = (stretch.chain, plainGroup(references[position])) }
            let group = last!.group
            let count = min(stretch.offsets.count, range.upperBound - position)
            let stop: Int? = stretch.requests.withUnsafeBufferPointer { requests in
                for k in 0..<count {
                    // Read in place, through a pointer: `requests[i]` of the array, and then of its buffer, copied the
                    // request (its fields retained and released, some 300 instructions, callgrind).
                    if group != nil, Self.writePlain(requests.baseAddress! + stretch.offsets.lowerBound + k, index: stretch.listIndex + k,
                                                     group.unsafelyUnwrapped, &fragments, to: &w) { continue }
                    guard planned(position + k, &self, &w) else { return position + k }
                }
                return nil
            }
            if let stop { return (failed, stop) }
            position += count
        }
        return (failed, range.upperBound)
    }

    /// What the requests of one group without details nor header fields share (`writePlain`): the group's scope, a
    /// reference to one of them for the group's entry fragments, and the `User-Agent` field reqrun adds. A class: as a
    /// struct, it was copied (its reference and scope retained, then released) for every request (callgrind, some 1,800
    /// instructions a request).
    final class PlainGroup {
        let reference: RequestReference
        let scope: VariableScope
        let userAgent: HeaderField?

        init(reference: RequestReference, scope: VariableScope, userAgent: HeaderField?) {
            self.reference = reference
            self.scope = scope
            self.userAgent = userAgent
        }
    }

    /// The `PlainGroup` of `reference`'s group, or nil when its requests are planned by `plan` one by one: with
    /// scripts, an auth the group or its collection gives its requests (other than `none`), or a secret to mask (the
    /// group's scope's or a client certificate's passphrase).
    mutating func plainGroup(_ reference: RequestReference) -> PlainGroup? {
        guard scripting == nil else { return nil }
        // `effectiveAuth` of a request without its own auth; `none` is applied as nothing (`RequestPreparation.apply`).
        var auth = reference.collectionAuth
        for group in reference.groups.reversed() where group.auth != nil {
            auth = group.auth
            break
        }
        if let auth { guard case .none = auth else { return nil } }
        let (scope, secrets) = groupScope(reference, fileLayers(reference))
        guard masker(secrets).masksNothing else { return nil }
        let value = configuration.options.userAgent
        return PlainGroup(reference: reference, scope: scope, userAgent: value.isEmpty ? nil : HeaderField(name: "User-Agent", value: value))
    }

    /// Writes the entry of `request` (list index `index`, of `group`'s group) as an element of `w` and returns true
    /// when it is the entry `plan(_:allowingPrepared: true)` makes of it, `Plan.prepared` with the URL as substituted:
    /// the request has no details (`Request.box`: no query, body, auth, scripts…) and no header fields, a method that
    /// is a token, and a URL that resolves, has a scheme (none is sent as `http://…`), `http` or `https`, every byte
    /// kept as it is (nothing for `normalize` to encode), no `@` (no user information, whose credentials are secrets
    /// and which Newman's rules encode) and a host and port that `validate` passes. Else writes nothing and returns
    /// false, for `plan` (which resolves the URL again, and says why it fails).
    static func writePlain(_ request: UnsafePointer<Request>, index: Int, _ group: PlainGroup, _ fragments: inout DryRunFragments,
                           to w: inout JSONWriter) -> Bool {
        guard request.pointee.box == nil, request.pointee.headers.isEmpty, w.openContainers == 1,
              RequestPreparation.isToken(request.pointee.method) else { return false }
        // The strings out of the request for the closure: capturing the request copied it (callgrind).
        let name = request.pointee.name, method = request.pointee.method
        return URLSubstitution.withResolvedBytes(request.pointee.url, group.scope) { url in
            guard let url else { return false }
            let scan = URLScan(utf8: url)
            guard scan.schemeEnd != nil, scan.allKept, !scan.hasAt, scan.hasHTTPScheme, URLNormalizer.isValid(utf8: url, scan) else { return false }
            w.nextElement()
            fragments.begin(&w, group.reference, index: index, name: name, method: method, headers: [], addedHeader: group.userAgent)
            w.string(utf8: url)
            fragments.end(&w)
            return true
        }
    }

    /// Writes the entry `plan` is (`.entry` or `.prepared`); returns whether the request could not be prepared.
    private static func write(_ plan: DryRunEntry.Plan, _ reference: RequestReference, _ fragments: inout DryRunFragments,
                              to w: inout JSONWriter) -> Bool {
        switch plan {
        case .entry(let entry):
            entry.write(&w)
            return entry.error != nil && entry.skipped != true
        case .prepared(let prepared, let name, let method, let userAgent):
            if !fragments.write(&w, reference, name: name, method: method, prepared, userAgent: userAgent) {
                DryRunEntry.write(&w, reference, name: name, method: method, prepared, userAgent: userAgent)
            }
            return false
        case .deferred:
            preconditionFailure("a deferred request is planned again in list order")
        }
    }
}
