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
            if let headers {
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
            w.field("index", index)
            w.field("method", method)
            w.field("name", name)
            if let skipped { w.field("skipped", skipped) }
            w.field("transferAuth", transferAuth)
            w.field("url", url)
        }
    }
}

extension DryRunEntry.Planner {
    /// Plans each of `references` in order and writes its entry into `w` (a writer in `encoderLayout`) as a
    /// JSON array, keeping none: `[`, the entries, `]`.
    /// - Returns: how many could not be prepared (skipped schemes are not counted).
    public mutating func writeJSON(_ references: RequestSelection, to w: inout JSONWriter) -> Int {
        var failed = 0
        w.array(references) { w, reference in
            if Self.write(plan(reference, allowingPrepared: true), reference, to: &w) { failed += 1 }
        }
        return failed
    }

    /// Plans `references[range]` in order and writes each entry as an `element` of `w` (a writer of
    /// `JSONWriter.init(bufferSize:encoderLayout:elementsAtDepth:sink:)` at depth 1), stopping before the first
    /// request this planner defers (`defersLiteralWarnings`).
    /// - Returns: how many could not be prepared, and where it stopped (`range.upperBound`: after the last).
    mutating func writeElements(_ references: RequestSelection, _ range: Range<Int>, to w: inout JSONWriter) -> (failed: Int, end: Int) {
        var failed = 0
        for position in range {
            let reference = references[position]
            let plan = plan(reference, allowingPrepared: true)
            if case .deferred = plan { return (failed, position) }
            // `Self.write`, static: a method of `self` called in the closure copied the planner (its run configuration
            // and caches) for every request.
            w.element { w in if Self.write(plan, reference, to: &w) { failed += 1 } }
        }
        return (failed, range.upperBound)
    }

    /// Writes the entry `plan` is (`.entry` or `.prepared`); returns whether the request could not be prepared.
    private static func write(_ plan: DryRunEntry.Plan, _ reference: RequestReference, to w: inout JSONWriter) -> Bool {
        switch plan {
        case .entry(let entry):
            entry.write(&w)
            return entry.error != nil && entry.skipped != true
        case .prepared(let prepared, let name, let method, let userAgent):
            DryRunEntry.write(&w, reference, name: name, method: method, prepared, userAgent: userAgent)
            return false
        case .deferred:
            preconditionFailure("a deferred request is planned again in list order")
        }
    }
}
