/// Run records as JSON with `JSONWriter`: keys sorted, optional fields left out when absent. Decoding
/// stays with `Codable`; `RunRecordJSONTests` checks that both agree.
extension RunRecord {
    /// The record as pretty JSON with sorted keys, ending in a line feed.
    public func jsonBytes() -> [UInt8] {
        var w = JSONWriter(capacity: 4096 + 2048 * results.count)
        write(&w)
        return w.finish()
    }

    /// The same JSON as `jsonBytes()`, passed to `output` through a 64 KiB buffer.
    /// - Parameter encodedResults: `results[i].jsonFragment()` for each result, when already made (the
    ///   runner encodes results during the run, off the thread that drives the transfers); else encoded here.
    public func writeJSON(to output: AtomicFile.Output, encodedResults: [[UInt8]]? = nil) {
        var w = JSONWriter(sink: { output.write($0) })
        write(&w, encodedResults: encodedResults)
        w.finishToSink()
    }

    func write(_ w: inout JSONWriter, encodedResults: [[UInt8]]? = nil) {
        w.object { w in
            w.field("endedAt", endedAt)
            w.field("environment", environment)
            w.field("format", format)
            w.field("id", id)
            w.field("libcurlVersion", libcurlVersion)
            w.field("reqrunVersion", reqrunVersion)
            if let encodedResults {
                precondition(encodedResults.count == results.count, "one encoded result per result")
                w.field("results", encodedResults) { w, bytes in w.raw(bytes) }
            } else {
                w.field("results", results) { w, r in r.write(&w) }
            }
            w.field("selection", object: { w in
                w.field("groups", selection.groups) { w, g in w.object { w in w.field("id", g.id); w.field("path", g.path) } }
                if let merged = selection.merged { w.key("merged"); merged.write(&w) }
                w.field("mode", selection.mode)
                if let named = selection.named { w.field("named", named) { w, path in w.string(path) } }
                w.field("overriddenVariables", selection.overriddenVariables) { w, name in w.string(name) }
                if let shard = selection.shard { w.key("shard"); shard.write(&w) }
            })
            w.field("startedAt", startedAt)
            w.field("summary", object: { w in
                w.field("errors", summary.errors)
                w.field("failed", summary.failed)
                w.field("notRun", summary.notRun)
                w.field("passed", summary.passed)
                w.field("responded", summary.responded)
                w.field("skipped", summary.skipped)
                w.field("total", summary.total)
            })
            w.field("workspace", workspace)
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

    func write(_ w: inout JSONWriter) {
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
