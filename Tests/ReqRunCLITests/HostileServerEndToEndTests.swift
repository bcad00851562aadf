import Foundation
import Testing
import ReqRunKit
import TestSupport

/// Servers that misbehave on purpose (`scripts/hostile-server`, started by `make test`), through the built
/// binary: a decompression bomb, an endless body, a header field too long, broken `Content-Length` framing.
@Suite struct HostileServerEndToEndTests {
    private func workspace(_ paths: [String]) throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory()
        let base = try TestServers.hostile()
        let requests = paths.map { #"{"name": "\#($0)", "url": "\#(base)/\#($0)"}"# }.joined(separator: ",")
        try dir.write("collections/h.json", #"{"name": "H", "groups": [{"name": "g", "requests": [\#(requests)]}]}"#)
        return dir
    }

    private func record(_ dir: TemporaryDirectory) throws -> RunRecord {
        try JSONDecoder().decode(RunRecord.self, from: Data(try ReqRunBinary.run(["show", "--json"], in: dir.url).stdout.utf8))
    }

    private func run(_ paths: [String], _ options: [String] = []) throws -> (ReqRunBinary.Output, RunRecord, Duration) {
        let dir = try workspace(paths)
        let clock = ContinuousClock()
        var output: ReqRunBinary.Output?
        let elapsed = try clock.measure { output = try ReqRunBinary.run(["run", "--all"] + options, in: dir.url) }
        return (output!, try record(dir), elapsed)
    }

    /// 1 KB with `Content-Encoding: zstd, gzip` decodes to 32 GiB in one read: libcurl checks its timeout only
    /// between reads, so the run took 29 s with `--timeout 3` and was recorded as passed.
    @Test func aDecompressionBombStopsAtTheTimeout() throws {
        let (output, record, elapsed) = try run(["bomb"], ["--timeout", "1", "--max-size", "0"])
        #expect(output.status == 3, "\(output.stdout)")
        #expect(elapsed < .seconds(4), "took \(elapsed)")
        let error = try #require(record.results[0].error)
        #expect(error.curlCode == 28)
        #expect(error.message.hasPrefix("timed out after 1000 ms while receiving the body ("), "\(error.message)")
        #expect(record.results[0].outcome == .transportError && !record.results[0].passed)
    }

    @Test func aDecompressionBombStopsAtMaxSize() throws {
        let (output, record, elapsed) = try run(["bomb"], ["--max-size", "10M"])
        #expect(output.status == 3)
        #expect(elapsed < .seconds(4), "took \(elapsed)")
        #expect(record.results[0].error == ResultError(curlCode: 63, message: "response body over --max-size 10485760 bytes (decoded)"))
        // The default limit is 1 GiB.
        let (byDefault, defaultRecord, _) = try run(["bomb"])
        #expect(byDefault.status == 3)
        #expect(defaultRecord.results[0].error?.message == "response body over --max-size 1073741824 bytes (decoded)")
    }

    @Test func anEndlessBodyStopsAtMaxSize() throws {
        let (output, record, _) = try run(["endless", "ok"], ["--max-size", "1M"])
        #expect(output.status == 3)
        #expect(record.results[0].error?.message == "response body over --max-size 1048576 bytes (decoded)")
        #expect(record.results[1].response?.status == 200)
    }

    @Test func sigtermStopsADecompressionBombAtOnce() throws {
        let dir = try workspace(["bomb"])
        let running = try ReqRunBinary.start(["run", "--all", "--timeout", "0", "--max-size", "0"], in: dir.url)
        Thread.sleep(forTimeInterval: 1.0)
        let signalled = ContinuousClock.now
        running.send(signal: SIGTERM)
        let output = running.finish()
        #expect(ContinuousClock.now - signalled < .seconds(1.5))
        #expect(output.status == 143)
        #expect(try record(dir).results[0].error?.message == "stopped by SIGTERM")
    }

    @Test func maxSizeTakesSuffixesAndRejectsOtherText() throws {
        let dir = try workspace(["ok"])
        for bad in ["-1", "10X", "", "1.5M", "99999999999999999999"] {
            let output = try ReqRunBinary.run(["run", "--all", "--max-size", bad], in: dir.url)
            #expect(output.status == 64, "\(bad)")
            #expect(output.stderr.contains("--max-size expects a number of bytes"), "\(bad): \(output.stderr)")
        }
        let output = try ReqRunBinary.run(["run", "--all", "--max-size", "2k"], in: dir.url)
        #expect(output.status == 0)
    }

    @Test func aHeaderFieldTooLongSaysSo() throws {
        let (output, record, _) = try run(["big-header"])
        #expect(output.status == 3)
        #expect(record.results[0].error?.message == "response header field too long (over 100 KB, libcurl's CURL_MAX_HTTP_HEADER)")
    }

    /// RFC 9112 §6.3: a Content-Length that is invalid (two values that differ, a number out of range) makes the
    /// framing invalid; libcurl 7.88 used one of them.
    @Test func brokenContentLengthIsAnError() throws {
        let (output, record, _) = try run(["conflicting-length", "conflicting-length-list", "overflow-length", "same-length-twice"])
        #expect(output.status == 3)
        let messages = record.results.map { $0.error?.message }
        #expect(messages[0] == "conflicting Content-Length values 5 and 6: the response's framing is invalid (RFC 9112 §6.3)")
        #expect(messages[1] == "conflicting Content-Length values 5 and 6: the response's framing is invalid (RFC 9112 §6.3)")
        #expect(messages[2] == "Content-Length 99999999999999999999999 is out of range: the response's framing is invalid (RFC 9112 §6.3)")
        #expect(record.results.prefix(3).allSatisfy { $0.outcome == .transportError })
        // The same value twice is allowed (RFC 9110 §8.6).
        #expect(record.results[3].response?.body.data == "hello" && record.results[3].error == nil)
    }

    /// Header values that are not UTF-8 keep their bytes: `value` with each invalid byte as `\xHH`, and
    /// `valueBase64` with the bytes as received.
    @Test func headerValuesThatAreNotUTF8KeepTheirBytes() throws {
        let dir = try workspace(["invalid-utf8-header"])
        let output = try ReqRunBinary.run(["run", "--all", "--report", "har=r.har"], in: dir.url)
        #expect(output.status == 0)
        let header = try #require(try record(dir).results[0].response?.headers.first { $0.name == "X-Bytes" })
        #expect(header.value == #"caf\xE9 \xFF"#)
        #expect(header.valueBase64 == Data([0x63, 0x61, 0x66, 0xE9, 0x20, 0xFF]).base64EncodedString())
        let ok = try #require(try record(dir).results[0].response?.headers.first { $0.name == "Content-Length" })
        #expect(ok.valueBase64 == nil)
        // In HAR, a custom field has a leading underscore.
        let har = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: dir.url.appendingPathComponent("r.har"))) as? [String: Any])
        let entries = try #require((har["log"] as? [String: Any])?["entries"] as? [[String: Any]])
        let headers = try #require((entries.first?["response"] as? [String: Any])?["headers"] as? [[String: String]])
        #expect(headers.first { $0["name"] == "X-Bytes" } == ["name": "X-Bytes", "value": #"caf\xE9 \xFF"#, "_valueBase64": "Y2Fm6SD/"])
    }

    /// ESC and BEL in a header value and in the body (a window title, a screen clear) reach the terminal
    /// escaped, in the run's lines and in `show`.
    /// A server that echoes a credential in UTF-16: masked in the record's decoded `text` and in the bytes
    /// beside it, in the record file and the HAR report alike.
    @Test func aSecretEchoedInUTF16IsMaskedInTheBytesToo() throws {
        let dir = try TemporaryDirectory()
        let base = try TestServers.hostile()
        try dir.write("collections/h.json", #"{"name": "H", "groups": [{"name": "g", "requests": [{"name": "le", "url": "\#(base)/echo-charset/utf-16le", "#
                      + #""auth": {"type": "bearer", "token": "t0ken-s3cret"}}, {"name": "bom", "url": "\#(base)/echo-charset/utf-16", "#
                      + #""auth": {"type": "bearer", "token": "t0ken-s3cret"}}]}]}"#)
        let output = try ReqRunBinary.run(["run", "--all", "--report", "har=r.har"], in: dir.url)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        let record = try record(dir)
        for result in record.results {
            let body = try #require(result.response?.body)
            #expect(body.text == "you sent: Bearer ****")
            let bytes = body.encoding == "utf8" ? Array(body.data.utf8) : Array(try #require(Data(base64Encoded: body.data)))
            let text = String(decoding: bytes.filter { $0 != 0 }, as: UTF8.self)
            #expect(text.hasSuffix("you sent: Bearer ****"), "\(text)")
        }
        let har = try dir.read("r.har")
        #expect(!har.contains("s3cret") && !har.contains("czNjcmV0") && !har.contains("s\\u00003\\u0000c"), "\(har)")
    }

    @Test func escapeSequencesFromTheServerAreShownEscaped() throws {
        let dir = try workspace(["escapes"])
        let output = try ReqRunBinary.run(["run", "--all"], in: dir.url)
        #expect(output.status == 0)
        let shown = try ReqRunBinary.run(["show"], in: dir.url)
        #expect(shown.stdout.contains("X-Title"), "\(shown.stdout)")
        for text in [output.stdout, output.stderr, shown.stdout, shown.stderr] {
            #expect(!text.contains("\u{1B}") && !text.contains("\u{07}"), "\(text)")
        }
    }
}
