/// Reads run record JSON into `RunRecord`'s types straight from its bytes (`JSONTape`): the reader of what
/// `RunRecordJSON` writes, field for field (`RecordJSONRoundTripTests` checks a record with every field set).
///
/// Foundation's `JSONDecoder` was most of `show` and `diff` on 100,000-request runs (10.4 s and 8.6 s,
/// docs/performance.md). Rules are `Codable`'s: unknown keys are ignored (a result line's `line`), an optional
/// field may be absent or `null`; a field with a default in the type (`redirects`, `attempts`) may be absent.
struct RecordFields {
    /// A field that is missing or of the wrong type: `path` as `response.headers[2].name`.
    struct Failure: Error {
        var reason: String
    }

    private let tape: JSONTape
    /// The object's entry, and the entry after its members.
    private let container: Int
    private let end: Int
    /// The key entry where the next lookup starts: keys come sorted, in the order the decoders ask for them,
    /// mostly, so a lookup is usually one comparison.
    private var cursor: Int

    /// The members of entry `container` of `tape`, an object.
    /// - Throws: `Failure` when it is not an object.
    fileprivate init(_ tape: JSONTape, _ container: Int) throws(Failure) {
        guard tape.entries[container].kind == .object else {
            let path = tape.path(of: container)
            throw Failure(reason: (path.isEmpty ? "" : "\(path): ") + "expected an object, found \(tape.kindDescription(container))")
        }
        self.tape = tape
        self.container = container
        end = Int(tape.entries[container].end)
        cursor = container + 1
    }

    /// `path.key`, for messages.
    private func child(_ key: StaticString) -> String {
        let path = tape.path(of: container)
        return path.isEmpty ? "\(key)" : "\(path).\(key)"
    }

    /// The value entry of `key`, nil when absent or `null`.
    private mutating func node(_ key: StaticString) -> Int? {
        let first = container + 1
        var i = cursor
        var wrapped = false
        while true {
            if i >= end {
                if wrapped || cursor == first { return nil }
                (i, wrapped) = (first, true)
            }
            if wrapped, i >= cursor { return nil }
            let value = i + 1
            if tape.stringEquals(i, key) {
                cursor = tape.skip(value)
                return tape.entries[value].kind == .null ? nil : value
            }
            i = tape.skip(value)
        }
    }

    private mutating func required(_ key: StaticString) throws(Failure) -> Int {
        guard let node = node(key) else { throw Failure(reason: "missing field '\(child(key))'") }
        return node
    }

    private func mismatch(_ key: StaticString, _ node: Int, _ expected: String) -> Failure {
        Failure(reason: "\(child(key)): expected \(expected), found \(tape.kindDescription(node))")
    }

    private func string(_ key: StaticString, _ node: Int) throws(Failure) -> String {
        guard tape.entries[node].kind == .string else { throw mismatch(key, node, "a string") }
        return tape.string(node)
    }

    private func int(_ key: StaticString, _ node: Int) throws(Failure) -> Int {
        guard let n = tape.int(node) else { throw mismatch(key, node, "a whole number") }
        return n
    }

    mutating func string(_ key: StaticString) throws(Failure) -> String { try string(key, try required(key)) }
    /// Appends the text of string field `key` to `out` as UTF-8, without making a `String`.
    /// - Returns: whether it may hold a character that is not ASCII (a byte of 0x80 or more, or a `\u` escape).
    mutating func appendString(_ key: StaticString, to out: inout [UInt8]) throws(Failure) -> Bool {
        let node = try required(key)
        guard tape.entries[node].kind == .string else { throw mismatch(key, node, "a string") }
        tape.appendText(node, to: &out)
        return tape.entries[node].nonASCII
    }
    /// Appends each string of array field `key` to `out` as UTF-8, each after `separator`.
    /// - Returns: whether one may hold a character that is not ASCII (as `appendString`).
    mutating func appendStrings(_ key: StaticString, separatedBy separator: [UInt8], to out: inout [UInt8]) throws(Failure) -> Bool {
        let array = try required(key)
        guard tape.entries[array].kind == .array else { throw mismatch(key, array, "an array") }
        var nonASCII = false
        var node = array + 1
        while node < Int(tape.entries[array].end) {
            guard tape.entries[node].kind == .string else { throw Self.elementMismatch(tape, node, "a string") }
            out.append(contentsOf: separator)
            tape.appendText(node, to: &out)
            nonASCII = nonASCII || tape.entries[node].nonASCII
            node += 1
        }
        return nonASCII
    }
    mutating func optionalString(_ key: StaticString) throws(Failure) -> String? {
        guard let node = node(key) else { return nil }
        return try string(key, node)
    }
    mutating func int(_ key: StaticString) throws(Failure) -> Int { try int(key, try required(key)) }
    mutating func optionalInt(_ key: StaticString) throws(Failure) -> Int? {
        guard let node = node(key) else { return nil }
        return try int(key, node)
    }
    mutating func bool(_ key: StaticString) throws(Failure) -> Bool {
        let node = try required(key)
        switch tape.entries[node].kind {
        case .true: return true
        case .false: return false
        default: throw mismatch(key, node, "true or false")
        }
    }
    mutating func double(_ key: StaticString) throws(Failure) -> Double {
        let node = try required(key)
        guard let d = tape.double(node) else { throw mismatch(key, node, "a number") }
        return d
    }
    /// The object at `key`, read by `body`.
    mutating func object<T>(_ key: StaticString, _ body: (inout RecordFields) throws(Failure) -> T) throws(Failure) -> T {
        var fields = try RecordFields(tape, try required(key))
        return try body(&fields)
    }
    mutating func optionalObject<T>(_ key: StaticString, _ body: (inout RecordFields) throws(Failure) -> T) throws(Failure) -> T? {
        guard let node = node(key) else { return nil }
        var fields = try RecordFields(tape, node)
        return try body(&fields)
    }
    /// The array at `key`, each element (its entry) read by `body`; nil when absent or `null`.
    private mutating func optionalArray<T>(_ key: StaticString, _ body: (Int) throws(Failure) -> T) throws(Failure) -> [T]? {
        guard let node = node(key) else { return nil }
        guard tape.entries[node].kind == .array else { throw mismatch(key, node, "an array") }
        var out: [T] = []
        let end = Int(tape.entries[node].end)
        var i = node + 1
        while i < end {
            out.append(try body(i))
            i = tape.skip(i)
        }
        return out
    }
    private mutating func array<T>(_ key: StaticString, _ body: (Int) throws(Failure) -> T) throws(Failure) -> [T] {
        guard let items = try optionalArray(key, body) else { throw Failure(reason: "missing field '\(child(key))'") }
        return items
    }
    /// An element of an array that is not what `expected` says.
    private static func elementMismatch(_ tape: JSONTape, _ node: Int, _ expected: String) -> Failure {
        Failure(reason: "\(tape.path(of: node)): expected \(expected), found \(tape.kindDescription(node))")
    }
    /// An array of objects, each read by `body`.
    mutating func objects<T>(_ key: StaticString, _ body: (inout RecordFields) throws(Failure) -> T) throws(Failure) -> [T] {
        let tape = tape
        return try array(key) { (node) throws(Failure) in
            var fields = try RecordFields(tape, node)
            return try body(&fields)
        }
    }
    mutating func optionalObjects<T>(_ key: StaticString, _ body: (inout RecordFields) throws(Failure) -> T) throws(Failure) -> [T]? {
        let tape = tape
        return try optionalArray(key) { (node) throws(Failure) in
            var fields = try RecordFields(tape, node)
            return try body(&fields)
        }
    }
    mutating func strings(_ key: StaticString) throws(Failure) -> [String] {
        guard let items = try optionalStrings(key) else { throw Failure(reason: "missing field '\(child(key))'") }
        return items
    }
    mutating func optionalStrings(_ key: StaticString) throws(Failure) -> [String]? {
        let tape = tape
        return try optionalArray(key) { (node) throws(Failure) in
            guard tape.entries[node].kind == .string else { throw Self.elementMismatch(tape, node, "a string") }
            return tape.string(node)
        }
    }
    mutating func ints(_ key: StaticString) throws(Failure) -> [Int] {
        let tape = tape
        return try array(key) { (node) throws(Failure) in
            guard let n = tape.int(node) else { throw Self.elementMismatch(tape, node, "a whole number") }
            return n
        }
    }

    /// Reads `bytes`, one JSON text, with `body` given its root object.
    /// - Throws: `Failure` whose reason is the syntax error (`line:column: …`) or what `body` throws.
    static func read<T>(_ bytes: [UInt8], _ body: (inout RecordFields) throws(Failure) -> T) throws(Failure) -> T {
        var bytes = bytes
        if UTF16Text.byteOrder(bytes).isUTF16 || UTF16Text.unmarkedHint(bytes) != nil {
            do throws(JSONSyntaxError) { bytes = try UTF16Text.utf8(bytes) } catch {
                throw Failure(reason: "\(error.location): \(error.reason)")
            }
        }
        var entries: [JSONTape.Entry] = []
        let result = bytes.withUnsafeBufferPointer { text -> Result<T, Failure> in
            do throws(JSONSyntaxError) {
                try JSONTape.index(text, into: &entries)
            } catch {
                return .failure(Failure(reason: "\(error.location): \(error.reason)"))
            }
            return entries.withUnsafeBufferPointer { index -> Result<T, Failure> in
                do throws(Failure) {
                    var fields = try RecordFields(JSONTape(bytes: text, entries: index), 0)
                    return .success(try body(&fields))
                } catch {
                    return .failure(error)
                }
            }
        }
        return try result.get()
    }
}

/// A type read from record JSON by `RecordFields`.
protocol RecordDecodable {
    init(record f: inout RecordFields) throws(RecordFields.Failure)
}

extension RecordDecodable {
    /// The value in `bytes`, one JSON text (a result line, a format 1 record).
    /// - Throws: `RecordFields.Failure` whose reason is the syntax error (`line:column: …`, the line and
    ///   column within `bytes`) or the field that is missing or of the wrong type.
    init(recordJSON bytes: [UInt8]) throws(RecordFields.Failure) {
        self = try RecordFields.read(bytes) { (fields: inout RecordFields) throws(RecordFields.Failure) in try Self(record: &fields) }
    }
}

extension RunRecord: RecordDecodable {}
extension RequestResult: RecordDecodable {}

extension RunRecord {
    /// A whole record (format 1's document, or `show --json`'s) read from its parsed JSON.
    init(record f: inout RecordFields) throws(RecordFields.Failure) {
        let results = try f.objects("results") { (r: inout RecordFields) throws(RecordFields.Failure) in try RequestResult(record: &r) }
        self.init(id: try f.string("id"), startedAt: try f.string("startedAt"), endedAt: try f.string("endedAt"),
                  reqrunVersion: try f.string("reqrunVersion"), libcurlVersion: try f.string("libcurlVersion"),
                  workspace: try f.string("workspace"), environment: try f.optionalString("environment"),
                  selection: try f.object("selection") { (s: inout RecordFields) throws(RecordFields.Failure) in try RunSelection(record: &s) },
                  results: results)
        format = try f.int("format")
        summary = try f.object("summary") { (s: inout RecordFields) throws(RecordFields.Failure) in try RunSummary(record: &s) }
    }
}

extension RunSelection {
    init(record f: inout RecordFields) throws(RecordFields.Failure) {
        let groups = try f.objects("groups") { (g: inout RecordFields) throws(RecordFields.Failure) in
            SelectedGroup(path: try g.string("path"), id: try g.string("id"))
        }
        self.init(mode: try f.string("mode"), groups: groups, overriddenVariables: try f.strings("overriddenVariables"),
                  named: try f.optionalStrings("named"))
        shard = try f.optionalObject("shard") { (s: inout RecordFields) throws(RecordFields.Failure) in
            ShardRecord(k: try s.int("k"), n: try s.int("n"), by: try s.string("by"), selected: try s.int("selected"),
                        positions: try s.ints("positions"), timings: try s.optionalString("timings"))
        }
        merged = try f.optionalObject("merged") { (m: inout RecordFields) throws(RecordFields.Failure) in
            MergedShards(n: try m.int("n"), by: try m.string("by"), runs: try m.strings("runs"))
        }
    }
}

extension RunSummary {
    init(record f: inout RecordFields) throws(RecordFields.Failure) {
        self.init([])
        (total, passed, failed, errors) = (try f.int("total"), try f.int("passed"), try f.int("failed"), try f.int("errors"))
        (skipped, notRun, responded) = (try f.int("skipped"), try f.int("notRun"), try f.int("responded"))
    }
}

extension RequestResult {
    /// A result (a record's `results` element or a format 2 result line) from its parsed JSON. Fields are read
    /// in declaration order, as `Codable` does, so the first missing one is the one named.
    init(record f: inout RecordFields) throws(RecordFields.Failure) { try self.init(record: &f, sent: true) }

    /// A result without what was sent: `request` has its body size only (no header fields, no body), which
    /// are neither built nor checked. For `show`, which does not print them: building a 100,000-result
    /// record's sent header fields was a measurable part of it (docs/performance.md, "Reading records").
    struct WithoutSent: RecordDecodable {
        var result: RequestResult
        init(record f: inout RecordFields) throws(RecordFields.Failure) { result = try RequestResult(record: &f, sent: false) }
    }

    private init(record f: inout RecordFields, sent: Bool) throws(RecordFields.Failure) {
        typealias F = RecordFields
        let index = try f.int("index")
        let collection = try f.string("collection")
        let groupPath = try f.strings("groupPath")
        let groupID = try f.string("groupID")
        let name = try f.string("name"), method = try f.string("method"), url = try f.string("url")
        let outcomeText = try f.string("outcome")
        guard let outcome = Outcome(rawValue: outcomeText) else {
            throw F.Failure(reason: "outcome: '\(outcomeText)' is not an outcome")
        }
        self.init(index: index, collection: collection, groupPath: groupPath, groupID: groupID, name: name, method: method,
                  url: url, outcome: outcome)
        error = try f.optionalObject("error") { (e: inout F) throws(F.Failure) in
            ResultError(curlCode: try e.optionalInt("curlCode"), message: try e.string("message"))
        }
        request = try f.optionalObject("request") { (q: inout F) throws(F.Failure) in
            guard sent else { return SentRequest(headers: [], bodySize: try q.int("bodySize"), body: nil) }
            return SentRequest(headers: try q.objects("headers", HeaderField.init(record:)), bodySize: try q.int("bodySize"),
                               body: try q.optionalObject("body", RecordedBody.init(record:)))
        }
        response = try f.optionalObject("response") { (r: inout F) throws(F.Failure) in
            ResponseRecord(status: try r.int("status"), reasonPhrase: try r.string("reasonPhrase"), httpVersion: try r.string("httpVersion"),
                           headers: try r.objects("headers", HeaderField.init(record:)), bodySize: try r.int("bodySize"),
                           wireSize: try r.int("wireSize"), bodySHA256: try r.string("bodySHA256"),
                           body: try r.object("body", RecordedBody.init(record:)),
                           remoteAddress: try r.optionalString("remoteAddress"), remotePort: try r.optionalInt("remotePort"))
        }
        timings = try f.optionalObject("timings") { (t: inout F) throws(F.Failure) in
            Timings(namelookup: try t.int("namelookup"), connect: try t.int("connect"), appconnect: try t.int("appconnect"),
                    pretransfer: try t.int("pretransfer"), starttransfer: try t.int("starttransfer"), total: try t.int("total"))
        }
        startedAt = try f.optionalString("startedAt")
        startOffset = try f.optionalInt("startOffset")
        passed = try f.bool("passed")
        expectations = try f.objects("expectations") { (e: inout F) throws(F.Failure) in
            ExpectationResult(description: try e.string("description"), passed: try e.bool("passed"), expected: try e.string("expected"),
                              actual: try e.string("actual"), fieldPath: try e.string("fieldPath"), kind: try e.optionalString("kind"))
        }
        captures = try f.objects("captures") { (c: inout F) throws(F.Failure) in
            CaptureResult(variable: try c.string("variable"), value: try c.optionalString("value"), error: try c.optionalString("error"))
        }
        redirects = try f.optionalObjects("redirects") { (h: inout F) throws(F.Failure) in
            RedirectHop(method: try h.string("method"), url: try h.string("url"), status: try h.int("status"),
                        location: try h.string("location"), total: try h.int("total"))
        } ?? []
        attempts = try f.optionalInt("attempts") ?? 1
        console = try f.optionalStrings("console")
        scriptRequests = try f.optionalObjects("scriptRequests") { (x: inout F) throws(F.Failure) in
            ScriptExchange(place: try x.string("place"), method: try x.string("method"), url: try x.string("url"),
                           status: try x.optionalInt("status"), error: try x.optionalString("error"), total: try x.int("total"))
        }
        webSocket = try f.optionalObject("webSocket") { (w: inout F) throws(F.Failure) in
            let messages = try w.objects("messages") { (m: inout F) throws(F.Failure) in
                WebSocketMessageRecord(direction: try m.string("direction"), offset: try m.double("offset"), type: try m.string("type"),
                                       size: try m.int("size"), data: try m.object("data", RecordedBody.init(record:)),
                                       closeCode: try m.optionalInt("closeCode"))
            }
            return WebSocketRecord(messages: messages, omitted: try w.int("omitted"))
        }
        polls = try f.optionalObjects("polls") { (p: inout F) throws(F.Failure) in
            var attempt = PollAttempt(RequestResult(index: 0, collection: "", groupPath: [], groupID: "", name: "", method: "", url: "", outcome: .response))
            (attempt.startedAt, attempt.status, attempt.error) = (try p.optionalString("startedAt"), try p.optionalInt("status"), try p.optionalString("error"))
            (attempt.failed, attempt.total) = (try p.strings("failed"), try p.optionalInt("total"))
            return attempt
        }
        iteration = try f.optionalInt("iteration")
    }
}

extension HeaderField {
    init(record f: inout RecordFields) throws(RecordFields.Failure) {
        self.init(name: try f.string("name"), value: try f.string("value"), valueBase64: try f.optionalString("valueBase64"))
    }
}

extension RecordedBody {
    init(record f: inout RecordFields) throws(RecordFields.Failure) {
        self.init(prefix: [], truncated: false)
        (encoding, data, truncated, text) = (try f.string("encoding"), try f.string("data"), try f.bool("truncated"), try f.optionalString("text"))
    }
}
