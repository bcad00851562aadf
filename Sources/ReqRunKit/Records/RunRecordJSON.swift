/// Run records as JSON with `JSONWriter`: keys sorted, optional fields left out when absent. They are read
/// back by `RecordJSONReader` (field for field: a field added here is added there); `RunRecordJSONTests`
/// and `RecordJSONRoundTripTests` check that the writer, the reader and `Codable` agree.
extension RunRecord {
    /// The record as pretty JSON with sorted keys, ending in a line feed.
    public func jsonBytes() -> [UInt8] {
        var w = JSONWriter(capacity: 4096 + 2048 * results.count)
        write(&w)
        return w.finish()
    }

    /// The record's JSON (as `jsonBytes()`) with `results` in place of its own, passed to `sink` in order
    /// through a 64 KiB buffer: the results are read one at a time (`show --json` of a format 2 record).
    public func writeJSON(results: some Sequence<RequestResult>, to sink: @escaping (UnsafeRawBufferPointer) -> Void) {
        var w = JSONWriter(sink: sink)
        write(&w, results: results)
        w.finishToSink()
    }

    func write(_ w: inout JSONWriter) { write(&w, results: results) }

    func write(_ w: inout JSONWriter, results: some Sequence<RequestResult>) {
        w.object { w in
            w.field("endedAt", endedAt)
            w.field("environment", environment)
            w.field("format", format)
            w.field("id", id)
            w.field("libcurlVersion", libcurlVersion)
            w.field("reqrunVersion", reqrunVersion)
            w.field("results", results) { w, r in r.write(&w) }
            w.key("selection"); selection.write(&w)
            w.field("startedAt", startedAt)
            w.key("summary"); summary.write(&w)
            w.field("workspace", workspace)
        }
    }
}

extension RunSelection {
    func write(_ w: inout JSONWriter) {
        w.object { w in
            w.field("groups", groups) { w, g in w.object { w in w.field("id", g.id); w.field("path", g.path) } }
            if let merged { w.key("merged"); merged.write(&w) }
            w.field("mode", mode)
            if let named { w.field("named", named) { w, path in w.string(path) } }
            w.field("overriddenVariables", overriddenVariables) { w, name in w.string(name) }
            if let shard { w.key("shard"); shard.write(&w) }
        }
    }
}

extension RunSummary {
    func write(_ w: inout JSONWriter) {
        w.object { w in
            w.field("errors", errors)
            w.field("failed", failed)
            w.field("notRun", notRun)
            w.field("passed", passed)
            w.field("responded", responded)
            w.field("skipped", skipped)
            w.field("total", total)
        }
    }
}

extension RequestResult {
    /// The result as it appears in a record's `results` array (two levels deep), for `RunRecord.writeJSON`.
    public func jsonFragment() -> [UInt8] {
        var w = JSONWriter(capacity: 4096, depth: 2)
        write(&w)
        return w.fragment()
    }

    /// - Parameter line: a line of a format 2 record: with `"line": "result"`.
    func write(_ w: inout JSONWriter, line: Bool = false) {
        w.object { w in
            w.field("attempts", attempts)
            w.field("captures", captures) { w, c in
                w.object { w in w.field("error", c.error); w.field("value", c.value); w.field("variable", c.variable) }
            }
            w.field("collection", collection)
            if let console { w.field("console", console) { w, line in w.string(line) } }
            if let error {
                w.field("error", object: { w in w.field("curlCode", error.curlCode); w.field("message", error.message) })
            }
            w.field("expectations", expectations) { w, e in
                w.object { w in
                    w.field("actual", e.actual)
                    w.field("description", e.description)
                    w.field("expected", e.expected)
                    w.field("fieldPath", e.fieldPath)
                    w.field("kind", e.kind)
                    w.field("passed", e.passed)
                }
            }
            w.field("groupID", groupID)
            w.field("groupPath", groupPath) { w, name in w.string(name) }
            w.field("index", index)
            w.field("iteration", iteration)
            if line { w.field("line", "result") }
            w.field("method", method)
            w.field("name", name)
            w.field("outcome", outcome.rawValue)
            w.field("passed", passed)
            if let polls {
                w.field("polls", polls) { w, p in
                    w.object { w in
                        w.field("error", p.error)
                        w.field("failed", p.failed) { w, text in w.string(text) }
                        w.field("startedAt", p.startedAt); w.field("status", p.status); w.field("total", p.total)
                    }
                }
            }
            w.field("redirects", redirects) { w, h in
                w.object { w in
                    w.field("location", h.location); w.field("method", h.method); w.field("status", h.status)
                    w.field("total", h.total); w.field("url", h.url)
                }
            }
            if let request {
                w.field("request", object: { w in
                    if let body = request.body { w.key("body"); body.write(&w) }
                    w.field("bodySize", request.bodySize)
                    w.field("headers", request.headers) { w, h in h.write(&w) }
                })
            }
            if let response {
                w.field("response", object: { w in
                    w.key("body"); response.body.write(&w)
                    w.field("bodySHA256", response.bodySHA256)
                    w.field("bodySize", response.bodySize)
                    w.field("headers", response.headers) { w, h in h.write(&w) }
                    w.field("httpVersion", response.httpVersion)
                    w.field("reasonPhrase", response.reasonPhrase)
                    w.field("remoteAddress", response.remoteAddress)
                    w.field("remotePort", response.remotePort)
                    w.field("status", response.status)
                    w.field("wireSize", response.wireSize)
                })
            }
            if let scriptRequests {
                w.field("scriptRequests", scriptRequests) { w, x in
                    w.object { w in
                        w.field("error", x.error); w.field("method", x.method); w.field("place", x.place)
                        w.field("status", x.status); w.field("total", x.total); w.field("url", x.url)
                    }
                }
            }
            w.field("startOffset", startOffset)
            w.field("startedAt", startedAt)
            if let t = timings {
                w.field("timings", object: { w in
                    w.field("appconnect", t.appconnect); w.field("connect", t.connect); w.field("namelookup", t.namelookup)
                    w.field("pretransfer", t.pretransfer); w.field("starttransfer", t.starttransfer); w.field("total", t.total)
                })
            }
            w.field("url", url)
            if let webSocket { w.key("webSocket"); webSocket.write(&w) }
        }
    }
}

extension HeaderField {
    func write(_ w: inout JSONWriter) {
        w.object { w in w.field("name", name); w.field("value", value); w.field("valueBase64", valueBase64) }
    }
}

extension RecordedBody {
    func write(_ w: inout JSONWriter) {
        w.object { w in w.field("data", data); w.field("encoding", encoding); w.field("truncated", truncated); w.field("text", text) }
    }
}
