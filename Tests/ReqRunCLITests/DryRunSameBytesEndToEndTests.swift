import Foundation
import Testing
import ReqRunKit
import TestSupport

/// `run --all --dry-run --json` on a generated collection that uses most of what a request can hold (variables
/// of every layer, `--var`, secrets of an environment, inherited and own auth, each kind of content, undefined
/// variables, skipped schemes, Newman's literal `{{…}}`), against the bytes the code printed before the dry
/// run walked the selection lazily (issue 17 §1): `Tests/Fixtures/dry-run-mixed.json`, made by the code at
/// `89e51a3`. A change of the output on purpose regenerates it (`REQRUN_WRITE_FIXTURES=1`).
@Suite struct DryRunSameBytesEndToEndTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/dry-run-mixed.json")

    /// Request `i` of the generated collection: one of sixteen shapes, its name and URL numbered.
    /// - Parameter late: an undefined name of its own for every 1,500 requests in shape 8 (Newman's rules warn of
    ///   each at its first request: warnings in several of the chunks `run --dry-run --json` plans on two threads).
    static func request(_ i: Int, late: Bool = false) -> String {
        let name = #""name": "r\#(i)", "#
        if late, i % 16 == 8 { return #"{\#(name)"url": "{{base}}/missing/{{missing\#(i % 3)}}/{{late\#(i / 1500)}}"}"# }
        switch i % 16 {
        case 0: return #"{\#(name)"url": "{{base}}/items/\#(i)?q={{region}}", "headers": [{"name": "X-N", "value": "{{n}}"}]}"#
        case 1: return #"{\#(name)"method": "POST", "url": "{{base}}/post", "body": {"who": "{{user}}", "i": \#(i), "k": "{{apiKey}}"}}"#
        case 2: return #"{\#(name)"method": "POST", "url": "{{base}}/form", "form": [{"name": "q", "value": "a b&{{region}}"}]}"#
        case 3: return #"{\#(name)"method": "PUT", "url": "{{base}}/raw", "headers": {"Content-Type": "text/csv"}, "body": "a,b\n\#(i),{{n}}"}"#
        case 4: return #"{\#(name)"url": "{{base}}/basic", "auth": {"type": "basic", "username": "{{user}}", "password": "{{apiKey}}"}}"#
        case 5: return #"{\#(name)"url": "{{base}}/bearer/{{apiKey}}", "auth": {"type": "bearer", "token": "{{apiKey}}"}}"#
        case 6: return #"{\#(name)"url": "{{base}}/key#frag", "auth": {"type": "apikey", "key": "k", "value": "{{apiKey}}", "in": "query"}}"#
        case 7: return #"{\#(name)"url": "{{base}}/digest", "auth": {"type": "digest", "username": "{{user}}", "password": "pw\#(i)"}}"#
        case 8: return #"{\#(name)"url": "{{base}}/missing/{{missing\#(i % 3)}}"}"#
        case 9: return #"{\#(name)"url": "ftp://{{host}}/file\#(i)"}"#
        case 10: return #"{\#(name)"method": "POST", "url": "{{base}}/multi", "multipart": [{"name": "note", "value": "hi {{user}}"}, {"name": "n", "value": "\#(i)"}]}"#
        case 11: return #"{\#(name)"url": "{{base}}/q", "query": [{"name": "a b", "value": "{{region}}&x"}, {"name": "i", "value": "\#(i)"}], "auth": {"type": "none"}}"#
        case 12: return #"{"url": "{{base}}/unnamed/\#(i)/{{ user }}", "headers": [{"name": "User-Agent", "value": "own/1"}]}"#
        case 13: return #"{\#(name)"method": "POST", "url": "{{base}}/gql", "graphql": {"query": "query Q { a }", "variables": {"id": "{{n}}"}}}"#
        case 14: return #"{\#(name)"url": "{{base}}/aws", "auth": {"type": "awsv4", "accessKey": "AK\#(i)", "secretKey": "{{apiKey}}", "region": "{{region}}", "service": "s3"}}"#
        default: return #"{\#(name)"method": "HEAD", "url": "http://{{host}}:{{port}}/h\#(i)/{{bad}}", "body": "x"}"#
        }
    }

    /// Two collections (reqrun's rules and Newman's) of groups of 16 requests, each with a nested group of 8,
    /// the group's own variables and auth in every other group.
    /// - Parameters: groups: per collection (6: 288 requests); late: see `request(_:late:)`.
    static func workspace(groups groupCount: Int = 6, late: Bool = false) throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory()
        var i = 0
        func requests(_ count: Int) -> String {
            defer { i += count }
            return (i..<i + count).map { request($0, late: late) }.joined(separator: ",")
        }
        for (file, compat) in [("a.json", "reqrun"), ("b.json", "newman")] {
            let groups = (0..<groupCount).map { g in
                let own = g % 2 == 1 ? #""variables": {"user": "group\#(g)user", "n": "\#(g)"}, "auth": {"type": "bearer", "token": "t{{n}}"}, "# : ""
                return #"{"name": "g\#(g)", \#(own)"requests": [\#(requests(16))], "groups": [{"name": "sub", "variables": {"region": "sub\#(g)"}, "requests": [\#(requests(8))]}]}"#
            }
            try dir.write("collections/\(file)", #"{"name": "C \#(file)", "compat": "\#(compat)", "variables": {"base": "http://127.0.0.1:9/{{user}}", "user": "alice", "host": "example.com", "port": "8\#(file.count)", "n": "0"}, "auth": {"type": "basic", "username": "c", "password": "collectionpass"}, "groups": [\#(groups.joined(separator: ","))]}"#)
        }
        try dir.write("environments/staging.json", #"{"apiKey": {"value": "s3cr3t-key", "secret": true}, "bad": "a b"}"#)
        return dir
    }

    @Test func theDryRunPrintsTheSameBytesAsBefore() throws {
        let dir = try Self.workspace()
        let output = try ReqRunBinary.run(["run", "--all", "--dry-run", "--json", "--env", "staging", "--var", "region=eu"], in: dir.url)
        #expect(output.status == 3, "\(output.stderr)")
        if ProcessInfo.processInfo.environment["REQRUN_WRITE_FIXTURES"] == "1" { try output.stdoutData.write(to: Self.fixture) }
        let expected = try Data(contentsOf: Self.fixture)
        #expect(output.stdoutData == expected, "\(output.stdoutData.count) bytes against \(expected.count)")
        let text = try ReqRunBinary.run(["run", "--all", "--dry-run", "--env", "staging", "--var", "region=eu", "--show-secrets"], in: dir.url)
        #expect(text.status == 3 && text.stdout.contains("s3cr3t-key") && text.stdout.hasSuffix("288 requests planned, 9 could not be prepared; nothing was sent\n"),
                "\(text.stdout.suffix(200))")
    }

    static let manyChunksFixture = fixture.deletingLastPathComponent().appendingPathComponent("dry-run-mixed-chunks.sha256")

    /// The same workspace with 180 groups a collection, 8,640 requests: many of the chunks (512 requests) that
    /// `run --dry-run --json` plans on two threads (`DryRunChunks`), literal `{{…}}` warnings in several, secrets,
    /// errors and skipped schemes in each; against the SHA-256 of the bytes that the code at `dd3e927` printed, one
    /// thread planning in order (`REQRUN_BINARY=… REQRUN_WRITE_FIXTURES=1` writes it).
    @Test func theDryRunOfManyChunksPrintsTheSameBytesAsBefore() throws {
        let dir = try Self.workspace(groups: 180, late: true)
        let output = try ReqRunBinary.run(["run", "--all", "--dry-run", "--json", "--env", "staging", "--var", "region=eu"], in: dir.url)
        #expect(output.status == 3, "\(output.stderr)")
        let hasher = SHA256Hasher()
        output.stdoutData.withUnsafeBytes { hasher.update($0) }
        let digest = hasher.finish().map { String(format: "%02x", $0) }.joined() + "\n"
        if ProcessInfo.processInfo.environment["REQRUN_WRITE_FIXTURES"] == "1" { try Data(digest.utf8).write(to: Self.manyChunksFixture) }
        #expect(digest == (try String(contentsOf: Self.manyChunksFixture, encoding: .utf8)), "\(output.stdoutData.count) bytes")
        let text = output.stdout
        // The Newman collection's requests are 4,320 to 8,639: `late2` to `late5`, each warned of once.
        for k in 2...5 { #expect(text.components(separatedBy: "{{late\(k)}} is not defined").count - 1 == 1, "late\(k)") }
        #expect(!text.contains("s3cr3t-key") && text.contains("\"skipped\" : true"))
    }
}
