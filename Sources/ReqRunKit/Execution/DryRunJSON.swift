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
        let group = reference.groups.last!.id
        if self.group != group || !Self.same(self.method, method)
            || !Self.same(headers, prepared.headers) || !Self.same(addedHeader, userAgent) {
            self = Self(reference, method: method, headers: prepared.headers, addedHeader: userAgent)
        }
        w.raw(head)
        w.int(reference.index)
        w.raw(middle)
        w.string(name)
        w.raw(Self.urlKey)
        w.string(prepared.url)
        w.raw(Self.close)
        return true
    }

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
    mutating func writeElements(_ references: RequestSelection, _ range: Range<Int>, to w: inout JSONWriter) -> (failed: Int, end: Int) {
        var failed = 0
        // Out of `self` for the loop: the closure below captures it, not the planner.
        var fragments = self.fragments
        self.fragments = DryRunFragments()
        defer { self.fragments = fragments }
        for position in range {
            let reference = references[position]
            let plan = plan(reference, allowingPrepared: true)
            if case .deferred = plan { return (failed, position) }
            // `Self.write`, static: a method of `self` called in the closure copied the planner (its run configuration
            // and caches) for every request.
            w.element { w in if Self.write(plan, reference, &fragments, to: &w) { failed += 1 } }
        }
        return (failed, range.upperBound)
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
