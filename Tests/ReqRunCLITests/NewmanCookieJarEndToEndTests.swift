import Foundation
import Testing
import ReqRunKit
import TestSupport

/// Newman's cookie jars (tough-cookie's JSON): `--cookie-jar FILE` reads one and writes it back,
/// `--export-cookie-jar FILE` writes the run's cookies; checked against the local httpbin's `/cookies`.
@Suite struct NewmanCookieJarEndToEndTests {
    private func workspace(_ requests: String) throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory()
        try dir.write("collections/t.json", #"{"name": "T", "groups": [{"name": "g", "requests": [\#(requests.replacingOccurrences(of: "$B", with: try TestServers.httpbin()))]}]}"#)
        return dir
    }

    private func jar(_ text: String) throws -> [[String: Any]] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect((object["version"] as? String)?.hasPrefix("tough-cookie@") == true)
        return try #require(object["cookies"] as? [[String: Any]])
    }

    /// The jar's live cookies are sent (an expired one and a `maxAge` of 0 are not), and the file is
    /// written back with what the run's responses set, in the same format, mode 0600.
    @Test func aNewmanJarIsReadAndWrittenBack() throws {
        let dir = try workspace("""
            {"name": "sent", "url": "$B/cookies", "expect": [{"json": "$.cookies.a", "equals": "1"}, {"json": "$.cookies.sub", "equals": "yes"}]},
            {"name": "set", "url": "$B/cookies/set?b=2"}
            """)
        try dir.write("jar.json", """
            {"version": "tough-cookie@4.1.3", "storeType": "MemoryCookieStore", "rejectPublicSuffixes": true, "cookies": [
              {"key": "a", "value": "1", "domain": "127.0.0.1", "path": "/", "hostOnly": true, "creation": "2026-01-01T00:00:00.000Z"},
              {"key": "sub", "value": "yes", "domain": ".127.0.0.1", "path": "/", "expires": "2099-01-01T00:00:00.000Z", "httpOnly": true},
              {"key": "old", "value": "x", "domain": "127.0.0.1", "path": "/", "expires": "2001-01-01T00:00:00.000Z", "hostOnly": true},
              {"key": "gone", "value": "x", "domain": "127.0.0.1", "path": "/", "maxAge": 0, "hostOnly": true}
            ]}
            """)
        let output = try ReqRunBinary.run(["run", "--all", "--cookie-jar", "jar.json"], in: dir.url)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        let record = try RecordFiles.newest(in: dir.url)
        let sent = record.results[0].request?.headers.first { $0.name.lowercased() == "cookie" }?.value ?? ""
        // Cookie values are masked in the record; the checks above saw them on httpbin's side.
        #expect(sent.contains("a=") && sent.contains("sub=") && !sent.contains("old=") && !sent.contains("gone="), "\(sent)")
        let cookies = try jar(try dir.read("jar.json"))
        #expect(Set(cookies.compactMap { $0["key"] as? String }) == ["a", "sub", "b"])
        let b = try #require(cookies.first { $0["key"] as? String == "b" })
        #expect(b["value"] as? String == "2" && b["domain"] as? String == "127.0.0.1" && b["hostOnly"] as? Bool == true && b["expires"] == nil)
        let sub = try #require(cookies.first { $0["key"] as? String == "sub" })
        #expect(sub["hostOnly"] as? Bool == false && sub["httpOnly"] as? Bool == true && sub["expires"] as? String == "2099-01-01T00:00:00.000Z")
        var info = stat()
        #expect(stat(dir.url.appendingPathComponent("jar.json").path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        // The jar written is one the next run reads: the cookie set above is sent.
        try dir.write("collections/t.json", #"{"name": "T", "groups": [{"name": "g", "requests": [{"url": "\#(try TestServers.httpbin())/cookies", "expect": [{"json": "$.cookies.b", "equals": "2"}]}]}]}"#)
        #expect(try ReqRunBinary.run(["run", "--all", "--cookie-jar", "jar.json"], in: dir.url).status == 0)
    }

    /// `--export-cookie-jar FILE` writes the run's cookies as Newman does, beside a Netscape `--cookie-jar`
    /// and with `send`; a file that cannot be written is exit 74 after the run.
    @Test func theRunsCookiesAreExported() throws {
        let dir = try workspace(#"{"name": "set", "url": "$B/cookies/set?c=3"}"#)
        let output = try ReqRunBinary.run(["run", "--all", "--cookie-jar", "jar.txt", "--export-cookie-jar", "out.json"], in: dir.url)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("cookie jar written to"))
        #expect(try dir.read("jar.txt").contains("\tc\t3"))
        #expect(try jar(try dir.read("out.json")).map { $0["key"] as? String } == ["c"])
        let sent = try ReqRunBinary.run(["send", "g/set", "--export-cookie-jar", "send.json"], in: dir.url)
        #expect(sent.status == 0, "\(sent.stdout)\(sent.stderr)")
        #expect(try jar(try dir.read("send.json")).map { $0["value"] as? String } == ["3"])
        try dir.write("ro/.keep", "")
        chmod(dir.url.appendingPathComponent("ro").path, 0o500)
        defer { chmod(dir.url.appendingPathComponent("ro").path, 0o700) }
        if getuid() != 0 {
            let refused = try ReqRunBinary.run(["run", "--all", "--export-cookie-jar", "ro/out.json"], in: dir.url)
            #expect(refused.status == 74, "\(refused.stderr)")
        }
    }

    /// A Newman jar that does not read is an input error at its place, before anything is sent.
    @Test func aBadJarIsAnErrorAtItsPlace() throws {
        let dir = try workspace(#"{"name": "set", "url": "$B/cookies/set?c=3"}"#)
        for (text, message) in [
            (#"{"cookies": [{"key": "a", "value": "1"}]}"#, "error: jar.json:1:14: cookies[0].domain: missing required field 'domain'"),
            (#"{"cookies": [{"key": "a", "domain": "h", "expires": 5}]}"#, "error: jar.json:1:53: cookies[0].expires: expected an ISO 8601 date or \"Infinity\", found a number"),
            (#"{"cookies": [{"key": "a", "domain": "h", "value": "x\ty"}]}"#, "error: jar.json:1:51: cookies[0].value: a cookie's fields cannot hold a tab or a line break"),
            (#"{"cookies": [}"#, "error: jar.json:1:14:"),
            (#"{"name": "not a jar"}"#, "error: jar.json: is not a cookie jar (Netscape format, or Newman's JSON); --cookie-jar would overwrite it (choose another file)\n"),
        ] {
            try dir.write("jar.json", text)
            let output = try ReqRunBinary.run(["run", "--all", "--cookie-jar", "jar.json"], in: dir.url)
            #expect(output.status == 2, "\(output.stderr)")
            #expect(output.stderr.hasPrefix(message), "\(output.stderr)")
            #expect(!dir.exists(".reqrun/runs"))
            #expect(try dir.read("jar.json") == text)
        }
    }
}
