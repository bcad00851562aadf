import Foundation
import Testing
@testable import ReqRunCLI
@testable import ReqRunKit

/// `run --dry-run --json` is written an entry at a time by `JSONWriter` (issue 17 §1) and must stay the JSON
/// that `JSONEncoder` wrote with `[.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]`, byte for byte.
@Suite struct DryRunJSONTests {
    /// What `DryRunOutput` printed before: the whole array through `JSONEncoder`, and a line feed.
    private func encoded(_ entries: [DryRunEntry]) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(entries)) + [0x0A]
    }

    private func written(_ entries: [DryRunEntry], bufferSize: Int = 65_536) -> [UInt8] {
        var out: [UInt8] = []
        var w = JSONWriter(bufferSize: bufferSize, encoderLayout: true) { out.append(contentsOf: $0) }
        w.array(entries) { w, entry in entry.write(&w) }
        w.finishToSink()
        return out
    }

    @Test func everyFieldIsWrittenAsJSONEncoderWroteIt() throws {
        let tricky = "a/b \"q\" \\ \u{01}\u{08}\u{09}\u{0A}\u{0C}\u{0D}\u{1F}\u{7F} é ✓ \u{2028} 😀"
        var full = DryRunEntry(index: 12, collection: "C/1", groupPath: ["G", tricky], name: tricky, method: "POST",
                               url: "https://example.com/a?b=c&d=%2F")
        full.headers = [HeaderField(name: "X-A", value: tricky), HeaderField(name: "X-B", value: "", valueBase64: "AAE=")]
        full.body = DryRunEntry.Body(text: tricky, base64: "AAEC", file: "/tmp/f", parts: [
            DryRunEntry.Part(name: "p", value: "v\n", contentType: "text/plain"), DryRunEntry.Part(name: "f", file: "x.bin")])
        full.transferAuth = "digest as 'u', answered by libcurl to the server's challenge"
        full.error = "undefined variable 'x'"
        full.skipped = false
        full.console = ["one", tricky]
        var bare = DryRunEntry(index: 0, collection: "", groupPath: [], name: "", method: "GET", url: "")
        bare.headers = []
        bare.body = DryRunEntry.Body(parts: [])
        bare.console = []
        var skipped = DryRunEntry(index: 3, collection: "C", groupPath: ["G"], name: "ws", method: "GET", url: "ws://h/")
        skipped.skipped = true
        skipped.error = "skipped"
        for entries in [[], [bare], [full], [full, bare, skipped], Array(repeating: full, count: 300)] {
            let expected = try encoded(entries)
            #expect(written(entries) == expected, "\(String(decoding: written(entries), as: UTF8.self))")
            // Through a small buffer, as a long output goes out in pieces.
            #expect(written(entries, bufferSize: 64) == expected)
        }
    }
}
