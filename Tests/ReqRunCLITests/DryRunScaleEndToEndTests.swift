import Foundation
import Testing
import ReqRunKit
import TestSupport

/// `run --dry-run --json` on large collections (issue 17 §1): printed an entry at a time, in the memory of the
/// collection itself, and still the JSON that `JSONEncoder` wrote.
@Suite struct DryRunScaleEndToEndTests {
    /// `count` requests in groups of 1,000 (as `scripts/bench`'s scale cases), the URL built from a collection
    /// variable; nothing is sent.
    private func workspace(_ count: Int) throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory()
        let groups = stride(from: 0, to: count, by: 1000).map { start in
            #"{"name": "group \#(start / 1000)", "requests": ["# + (start..<min(count, start + 1000)).map {
                #"{"name": "request \#($0)", "method": "GET", "url": "{{base}}/items/\#($0)"}"#
            }.joined(separator: ",") + "]}"
        }
        try dir.write("collections/big.json", #"{"name": "Big", "variables": {"base": "http://127.0.0.1:9"}, "groups": [\#(groups.joined(separator: ","))]}"#)
        return dir
    }

    /// Peak resident memory in KiB of `reqrun ARGUMENTS` (GNU time's `Maximum resident set size`).
    private func peakKiB(_ arguments: [String], in dir: TemporaryDirectory) throws -> Int {
        try PeakMemory.kibibytes(arguments, in: dir.url)
    }

    /// The whole document used to be built before a byte went out (every entry, then `JSONEncoder`'s text, then
    /// a String of it): 2.9 GB for 1,000,000 requests; then the selection held a copy of every request (some
    /// 600 bytes each, 11 MiB more here). Now the dry run takes no more than `list --all --json` of the same
    /// collection, which holds its listing (`RequestSelection`).
    @Test func theDryRunHoldsNoEntries() throws {
        let dir = try workspace(20_000)
        let listing = try peakKiB(["list", "--all", "--json"], in: dir)
        let dryRun = try peakKiB(["run", "--all", "--dry-run", "--json"], in: dir)
        #expect(dryRun - listing < 3 * 1024, "list --all --json: \(listing) KiB, run --dry-run --json: \(dryRun) KiB")
    }

    /// Byte for byte what `JSONEncoder` makes of the same entries (`.prettyPrinted`, `.sortedKeys`,
    /// `.withoutEscapingSlashes`), on more output than one 64 KiB buffer.
    @Test func theJSONIsJSONEncodersOwn() throws {
        let dir = try workspace(1_500)
        let output = try ReqRunBinary.run(["run", "--all", "--dry-run", "--json"], in: dir.url)
        #expect(output.status == 0, "\(output.stderr)")
        let entries = try JSONDecoder().decode([DryRunEntry].self, from: output.stdoutData)
        #expect(entries.count == 1_500 && entries.map(\.index) == Array(0..<1_500))
        #expect(entries[1_499].url == "http://127.0.0.1:9/items/1499" && entries[1_499].groupPath == ["group 1"])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        #expect(output.stdoutData == (try encoder.encode(entries)) + Data([0x0A]))
        let empty = try TemporaryDirectory()
        try empty.write("collections/e.json", #"{"name": "E", "groups": [{"name": "g", "requests": []}]}"#)
        let none = try ReqRunBinary.run(["run", "--all", "--dry-run", "--json"], in: empty.url)
        #expect(none.stdout == "[\n\n]\n" && none.status == 0, "\(none.stdout) \(none.stderr)")
    }
}
