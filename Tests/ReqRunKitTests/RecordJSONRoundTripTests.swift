import Foundation
import Testing
@testable import ReqRunKit

/// `RecordJSONReader` reads back every field `RunRecordJSON` writes, and agrees with `Codable`.
@Suite struct RecordJSONRoundTripTests {
    /// A result with every optional field set and every array non-empty.
    static func fullResult() -> RequestResult {
        var result = RequestResult(index: 3, collection: "C \"q\"", groupPath: ["g", "ü"], groupID: "id", name: "n\tm", method: "POST",
                                   url: "http://h/?a=1", outcome: .response, error: ResultError(curlCode: 7, message: "x\ny"),
                                   request: SentRequest(headers: [HeaderField(name: "A", value: "1")], bodySize: 2,
                                                        body: RecordedBody(prefix: Array("{}".utf8), truncated: false)),
                                   response: ResponseRecord(status: 200, reasonPhrase: "OK", httpVersion: "2",
                                                            headers: [HeaderField(name: "B", value: ""), HeaderField(name: "C", value: #"\xFF"#, valueBase64: "/w==")],
                                                            bodySize: 3, wireSize: 2, bodySHA256: "ab", body: RecordedBody(prefix: [0xFF], truncated: true),
                                                            remoteAddress: "127.0.0.1", remotePort: 80),
                                   timings: Timings(namelookup: 1, connect: 2, appconnect: 0, pretransfer: 3, starttransfer: 4, total: 5),
                                   startedAt: "2026-11-29T00:00:00.000Z", startOffset: 9,
                                   expectations: [ExpectationResult(description: "d", passed: false, expected: "e", actual: "a", fieldPath: "f"),
                                                  ExpectationResult(description: "pm.test", passed: true, expected: "", actual: "", fieldPath: "s", kind: "script")],
                                   captures: [CaptureResult(variable: "v", value: nil, error: "none"), CaptureResult(variable: "w", value: "1", error: nil)])
        result.response?.body.text = "é"
        result.redirects = [RedirectHop(method: "GET", url: "u", status: 302, location: "l", total: 1)]
        result.attempts = 2
        result.console = ["log 1", "warn \u{1}"]
        result.scriptRequests = [ScriptExchange(place: "p (prerequest)", method: "GET", url: "http://x/", status: 200, error: nil, total: 12),
                                 ScriptExchange(place: "p (test)", method: "PUT", url: "http://y/", status: nil, error: "refused", total: 3)]
        result.webSocket = WebSocketRecord(messages: [
            WebSocketMessageRecord(direction: "send", offset: 1.25, type: "text", size: 2, data: RecordedBody(prefix: Array("hi".utf8), truncated: false)),
            WebSocketMessageRecord(direction: "receive", offset: 3.5, type: "binary", size: 1, data: RecordedBody(prefix: [0xFE], truncated: false)),
            WebSocketMessageRecord(direction: "receive", offset: 4, type: "close", size: 0, data: RecordedBody(prefix: [], truncated: false), closeCode: 1000),
        ], omitted: 1)
        var poll = PollAttempt(result)
        poll.failed = ["d", "capture found nothing"]
        var transport = PollAttempt(RequestResult(index: 0, collection: "", groupPath: [], groupID: "", name: "", method: "", url: "", outcome: .transportError))
        transport.error = "timeout"
        result.polls = [poll, transport]
        result.iteration = 4
        return result
    }

    static func fullRecord() -> RunRecord {
        var selection = RunSelection(mode: "named", groups: [SelectedGroup(path: "p", id: "i")], overriddenVariables: ["x"], named: ["C/n"])
        selection.shard = ShardRecord(k: 1, n: 2, by: "request", selected: 4, positions: [0, 2], timings: "20261129-000000-000-abcd")
        selection.merged = MergedShards(n: 2, by: "request", runs: ["a", "b"])
        return RunRecord(id: "id", startedAt: "s", endedAt: "e", reqrunVersion: "r", libcurlVersion: "l", workspace: "/w", environment: "env",
                         selection: selection,
                         results: [fullResult(), RequestResult(index: 4, collection: "C", groupPath: [], groupID: "g", name: "m", method: "GET",
                                                              url: "u", outcome: .skipped)])
    }

    @Test func everyFieldReadsBack() throws {
        let record = Self.fullRecord()
        let bytes = record.jsonBytes()
        #expect(try RunRecord(recordJSON: bytes) == record)
        #expect(try JSONDecoder().decode(RunRecord.self, from: Data(bytes)) == record)
        // A result line of format 2 (with `"line": "result"`) reads back the same.
        for result in record.results {
            #expect(try RequestResult(recordJSON: RecordLines.result(result)) == result)
        }
        // What Codable writes reads back too (key order and `null`s do not matter).
        let encoder = JSONEncoder()
        #expect(try RunRecord(recordJSON: Array(encoder.encode(record))) == record)
    }

    @Test func missingAndMistypedFieldsAreNamed() throws {
        let result = Self.fullResult()
        var text = String(decoding: result.jsonFragment(), as: UTF8.self)
        do {
            _ = try RequestResult(recordJSON: Array(#"{"index": 1}"#.utf8))
            Issue.record("a result without fields was read")
        } catch {
            #expect(error.reason == "missing field 'collection'")
        }
        text = text.replacingOccurrences(of: "\"status\": 200", with: "\"status\": \"200\"")
        do {
            _ = try RequestResult(recordJSON: Array(text.utf8))
            Issue.record("a string status was read")
        } catch {
            #expect(error.reason == "response.status: expected a whole number, found a string")
        }
        do {
            _ = try RequestResult(recordJSON: Array(#"{"index": 1,}"#.utf8))
            Issue.record("bad JSON was read")
        } catch {
            #expect(error.reason.hasPrefix("1:"))
        }
    }
}
