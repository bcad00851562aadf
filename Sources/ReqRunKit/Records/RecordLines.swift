/// The three kinds of line of a format 2 run record (`RecordWriter`), each one compact JSON object with sorted
/// keys and a `line` member naming its kind, ending in a line feed.
enum RecordLines {
    /// `{"environment":…,"format":2,"id":…,"line":"header","reqrunVersion":…,"selection":{…},"startedAt":…,"workspace":…}`
    static func header(_ record: RunRecord) -> [UInt8] {
        var w = JSONWriter(capacity: 1024, compact: true)
        w.object { w in
            w.field("environment", record.environment)
            w.field("format", 2)
            w.field("id", record.id)
            w.field("line", "header")
            w.field("reqrunVersion", record.reqrunVersion)
            w.key("selection"); record.selection.write(&w)
            w.field("startedAt", record.startedAt)
            w.field("workspace", record.workspace)
        }
        return w.finish()
    }

    /// A result as in format 1's `results`, with `"line":"result"`.
    static func result(_ result: RequestResult) -> [UInt8] {
        var w = JSONWriter(capacity: 2048, compact: true)
        result.write(&w, line: true)
        return w.finish()
    }

    /// `{"endedAt":…,"libcurlVersion":…,"line":"summary","summary":{…}}`
    static func summary(_ summary: RunSummary, endedAt: String, libcurlVersion: String) -> [UInt8] {
        var w = JSONWriter(capacity: 256, compact: true)
        w.object { w in
            w.field("endedAt", endedAt)
            w.field("libcurlVersion", libcurlVersion)
            w.field("line", "summary")
            w.key("summary"); summary.write(&w)
        }
        return w.finish()
    }
}
