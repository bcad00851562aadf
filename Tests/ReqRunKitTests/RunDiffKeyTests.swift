import Foundation
import Testing
@testable import ReqRunKit

/// `diff`'s row keys (collection › group › name, iteration, ` (n)`): compared as bytes, with Unicode canonical
/// equivalence kept, as `String ==` had it (a name typed in NFC in one run and NFD in the other still pairs).
@Suite struct RunDiffKeyTests {
    private func result(_ index: Int, collection: String = "C", group: String = "g", name: String, iteration: Int? = nil,
                        status: Int = 200) -> RequestResult {
        var result = RequestResult(index: index, collection: collection, groupPath: [group], groupID: "g", name: name, method: "GET",
                                   url: "http://h/\(index)", outcome: .response,
                                   response: ResponseRecord(status: status, httpVersion: "1.1", headers: [], bodySize: 2,
                                                            bodySHA256: "x", body: RecordedBody(prefix: Array("ok".utf8), truncated: false),
                                                            remoteAddress: nil, remotePort: nil))
        result.iteration = iteration
        result.updateVerdict()
        return result
    }

    private func header(_ id: String) -> RunRecord {
        RunRecord(id: id, startedAt: "s", endedAt: "", reqrunVersion: "r", libcurlVersion: "",
                  workspace: "/w", environment: nil, selection: RunSelection(mode: "all"), results: [])
    }

    /// The diff of two records written to files and read a line at a time (the byte path), and of the same
    /// records in memory (the `RequestResult` path): both must give `expected`.
    private func diffs(_ before: [RequestResult], _ after: [RequestResult], escapeNonASCII: Bool = false) throws -> [RunDiff] {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("reqrun-diffkey-\(UUID().lowercasedText)")
        defer { try? FileManager.default.removeItem(at: root) }
        let store = RunStore(directory: root.appendingPathComponent(".reqrun/runs"))
        try FileManager.default.createDirectory(at: root.appendingPathComponent(".reqrun/runs"), withIntermediateDirectories: true)
        func write(_ id: String, _ results: [RequestResult]) throws {
            let writer = try RecordWriter(store: store, header: header(id))
            for r in results {
                var line = RecordLines.result(r)
                if escapeNonASCII {  // the same text with its non-ASCII characters written as \u escapes
                    let text = String(decoding: line, as: UTF8.self)
                    line = Array(text.unicodeScalars.map { $0.isASCII ? String($0) : String(format: "\\u%04x", $0.value) }.joined().utf8)
                }
                writer.append(r, encoded: line, maskedWith: [])
            }
            _ = try writer.finish(endedAt: "e", libcurlVersion: "l", lateSecrets: [], showSecrets: false)
        }
        try write("20261201-120000-000-0001", before)
        try write("20261201-120000-000-0002", after)
        let streamed = try RunDiff(before: store.open("20261201-120000-000-0001"), after: store.open("20261201-120000-000-0002"))
        var a = header("a"), b = header("b")
        (a.results, b.results) = (before, after)
        return [streamed, RunDiff(before: a, after: b)]
    }

    @Test func canonicallyEquivalentNamesPair() throws {
        let nfc = "caf\u{E9}", nfd = "cafe\u{301}"
        #expect(nfc == nfd && Array(nfc.utf8) != Array(nfd.utf8))
        let before = [result(0, name: nfc), result(1, name: "\u{212A}elvin"), result(2, group: "gr\u{FC}n", name: "x", iteration: 0)]
        let after = [result(0, name: nfd, status: 500), result(1, name: "Kelvin"), result(2, group: "gru\u{308}n", name: "x", iteration: 0)]
        for escaped in [false, true] {
            for diff in try diffs(before, after, escapeNonASCII: escaped) {
                #expect(diff.rows.count == 3)
                // The label is the earlier run's spelling, as it was written.
                #expect(diff.rows.map { Array($0.label.utf8) } == [Array("C › g › \(nfc)".utf8), Array("C › g › \u{212A}elvin".utf8),
                                                                   Array("C › gr\u{FC}n › x [iteration 1]".utf8)])
                #expect(diff.rows.allSatisfy { $0.before != nil && $0.after != nil })
                #expect(diff.rows[0].statusChange == "200 → 500")
            }
        }
    }

    /// Within one run, canonically equivalent keys count as the same key: the second is ` (2)`.
    @Test func canonicallyEquivalentNamesInOneRunAreNumbered() throws {
        let before = [result(0, name: "caf\u{E9}"), result(1, name: "cafe\u{301}"), result(2, name: "plain"), result(3, name: "plain")]
        let after = [result(0, name: "cafe\u{301}"), result(1, name: "caf\u{E9}", status: 404), result(2, name: "plain"), result(3, name: "plain")]
        for diff in try diffs(before, after) {
            #expect(diff.rows.map { Array($0.label.utf8) } == [Array("C › g › caf\u{E9}".utf8), Array("C › g › cafe\u{301} (2)".utf8),
                                                               Array("C › g › plain".utf8), Array("C › g › plain (2)".utf8)])
            #expect(diff.rows.count == 4 && diff.rows[1].statusChange == "200 → 404")
        }
    }

    /// Names that differ only by bytes that are not canonically equivalent stay apart.
    @Test func differentNamesStayApart() throws {
        let before = [result(0, name: "a b"), result(1, name: "\u{FB01}")]  // the ligature ﬁ is only compatibility-equivalent to "fi"
        let after = [result(0, name: "a  b"), result(1, name: "fi")]
        for diff in try diffs(before, after) {
            #expect(diff.rows.count == 4)
            #expect(diff.rows.filter { $0.before == nil }.count == 2)
        }
    }
}
