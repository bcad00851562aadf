import Foundation
import Testing
@testable import ReqRunKit

@Suite struct RunRecordJSONTests {
    @Test func writerAgreesWithCodableAndSortsKeys() throws {
        var result = RequestResult(index: 3, collection: "C \"q\"", groupPath: ["g", "ü"], groupID: "id", name: "n", method: "POST",
                                   url: "http://h/", outcome: .response, error: ResultError(curlCode: 7, message: "x\ny"),
                                   request: SentRequest(headers: [HeaderField(name: "A", value: "1")], bodySize: 2,
                                                        body: RecordedBody(prefix: Array("{}".utf8), truncated: false)),
                                   response: ResponseRecord(status: 200, reasonPhrase: "OK", httpVersion: "2", headers: [HeaderField(name: "B", value: ""),
                                                                                                                                HeaderField(name: "C", value: #"\xFF"#, valueBase64: "/w==")],
                                                            bodySize: 3, wireSize: 2, bodySHA256: "ab", body: RecordedBody(prefix: [0xFF], truncated: true),
                                                            remoteAddress: "127.0.0.1", remotePort: 80),
                                   timings: Timings(namelookup: 1, connect: 2, appconnect: 0, pretransfer: 3, starttransfer: 4, total: 5),
                                   startedAt: "2026-11-29T00:00:00.000Z", startOffset: 9,
                                   expectations: [ExpectationResult(description: "d", passed: false, expected: "e", actual: "a", fieldPath: "f")],
                                   captures: [CaptureResult(variable: "v", value: nil, error: "none")])
        result.redirects = [RedirectHop(method: "GET", url: "u", status: 302, location: "l", total: 1)]
        result.attempts = 2
        result.webSocket = WebSocketRecord(messages: [
            WebSocketMessageRecord(direction: "send", offset: 1.25, type: "text", size: 2, data: RecordedBody(prefix: Array("hi".utf8), truncated: false)),
            WebSocketMessageRecord(direction: "receive", offset: 3.5, type: "close", size: 0, data: RecordedBody(prefix: [], truncated: false), closeCode: 1000),
        ], omitted: 1)
        let record = RunRecord(id: "id", startedAt: "s", endedAt: "e", reqrunVersion: "r", libcurlVersion: "l", workspace: "/w",
                               environment: "env", selection: RunSelection(mode: "groups", groups: [SelectedGroup(path: "p", id: "i")],
                                                                           overriddenVariables: ["x"]),
                               results: [result, RequestResult(index: 4, collection: "C", groupPath: [], groupID: "g", name: "m", method: "GET",
                                                               url: "u", outcome: .skipped)])
        let bytes = record.jsonBytes()
        #expect(try JSONDecoder().decode(RunRecord.self, from: Data(bytes)) == record)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let viaCodable = try JSONSerialization.jsonObject(with: encoder.encode(record)) as? NSDictionary
        #expect(try JSONSerialization.jsonObject(with: Data(bytes)) as? NSDictionary == viaCodable)
        // Keys come out sorted at every level: compact re-serialisation with sorted keys gives the same order.
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("{\n  \"endedAt\": \"e\",\n  \"environment\": \"env\",\n  \"format\": 1,"))
        let response = text[text.range(of: "\"response\": {")!.upperBound...]
        #expect(response.range(of: "\"bodySHA256\"")!.lowerBound < response.range(of: "\"bodySize\"")!.lowerBound)
    }

    /// Strings long enough to cross the writer's eight-byte scanning steps, with every kind of escape at
    /// various offsets; Foundation's parser must read back exactly what went in.
    @Test func writerEscapesStringsAndWritesIntegers() throws {
        let samples = ["", "plain", "exactly8", "sixteen-bytes-ab", "q\"uote", "back\\slash at 9", "tab\tnl\ncr\r",
                       "\u{01}\u{1F}\u{7F} end", "ünïcödé ✓ 𝄞 and a \" after eight", String(repeating: "a", count: 31) + "\"",
                       "\u{08}\u{0C}"]
        let integers = [0, 7, -7, 10, 99, 100, 1_234_567_890, Int.max, Int.min]
        var w = JSONWriter(capacity: 8)  // tiny, so the buffer must grow
        w.object { w in
            w.field("integers", integers) { w, n in w.int(n) }
            w.field("strings", samples) { w, s in w.string(s) }
        }
        let bytes = w.finish()
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        #expect(parsed["strings"] as? [String] == samples)
        #expect((parsed["integers"] as? [NSNumber])?.map(\.int64Value) == integers.map(Int64.init))
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("\"\\u0001\\u001f\u{7F} end\""))  // DEL needs no escape in JSON
        #expect(text.hasSuffix("]\n}\n"))
    }

    @Test func timeStampsAndGroupIDText() {
        // 2026-11-29T13:34:28.123Z; the .9996 checks that milliseconds are truncated, never rounded up to 1000.
        let date = Date(timeIntervalSince1970: 1_795_959_268.1239)
        #expect(RunID.iso8601(date) == "2026-11-29T13:34:28.123Z")
        #expect(RunID.timestamp(date) == "20261129-133428-123")
        #expect(RunID.iso8601(Date(timeIntervalSince1970: 946_684_799.9996)) == "1999-12-31T23:59:59.999Z")
        #expect(RunID.isRunID(RunID.make(date)))
        #expect(RunID.isRunID("20261129-133428-123-4F2a"))
        for notAnID in ["20261129-133428-123-4f2g", "20261129_133428-123-4f2a", "20261129-133428-123-4f2", "20261129-133428-123-4f2a0", ""] {
            #expect(!RunID.isRunID(notAnID), "\(notAnID)")
        }
        for _ in 0..<20 {
            let id = UUID()
            #expect(id.lowercasedText == id.uuidString.lowercased())
        }
    }

    /// The streaming writer (a 64-byte buffer here, so every few fields go out, and one string longer than
    /// the buffer) produces exactly the bytes of the in-memory one; `RunStore.save` writes through it.
    @Test func streamedOutputMatchesTheBufferedOne() throws {
        let long = String(repeating: "0123456789", count: 30) + "\"end\""
        func document(_ w: inout JSONWriter) {
            w.object { w in
                w.field("long", long)
                w.field("numbers", Array(0..<50)) { w, n in w.object { w in w.field("n", n); w.field("text", "item \(n)") } }
                // Deep enough that one line's indentation is longer than the 64-byte buffer.
                w.key("nested")
                nest(&w, 40)
            }
        }
        func nest(_ w: inout JSONWriter, _ levels: Int) {
            w.array(levels > 0 ? [levels] : []) { w, n in nest(&w, n - 1) }
        }
        var buffered = JSONWriter()
        document(&buffered)
        var chunks: [[UInt8]] = []
        var streamed = JSONWriter(bufferSize: 64, sink: { chunks.append(Array($0)) })
        document(&streamed)
        streamed.finishToSink()
        let expected = buffered.finish()
        #expect(chunks.count > 10)
        #expect(chunks.flatMap { $0 } == expected)

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reqrun-stream-\(UUID().lowercasedText)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let record = RunRecord(id: RunID.make(Date()), startedAt: "s", endedAt: "e", reqrunVersion: "r", libcurlVersion: "l",
                               workspace: "/w", environment: nil, selection: RunSelection(mode: "all"),
                               results: (0..<40).map { RequestResult(index: $0, collection: "C", groupPath: ["g"], groupID: "g", name: "n\($0)",
                                                                     method: "GET", url: "http://h/\($0)", outcome: .skipped) })
        // Saved as format 2, one line per result, and read back the same.
        let file = try RunStore(directory: folder).save(record)
        #expect(try String(contentsOf: file, encoding: .utf8).split(separator: "\n").count == 42)
        #expect(try RunStore(directory: folder).load(nil) == record)
    }
}
