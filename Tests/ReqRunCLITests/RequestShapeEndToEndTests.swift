import Foundation
import Testing
import ReqRunKit
import TestSupport

/// Requests come out as written: values stay in their part of the URL, credentials follow the redirect
/// rules, a multipart body has one boundary. Against the local httpbin, through both `localhost` and
/// `127.0.0.1`.
@Suite struct RequestShapeEndToEndTests {
    private func lastRecord(_ dir: TemporaryDirectory) throws -> RunRecord {
        try JSONDecoder().decode(RunRecord.self, from: Data(try ReqRunBinary.run(["show", "--json"], in: dir.url).stdout.utf8))
    }

    @Test func aHashInAValueIsSentInThePath() throws {
        let dir = try TemporaryDirectory()
        try dir.write("collections/u.json", """
            {"name": "U", "variables": {"base": "\(try TestServers.httpbin())", "id": "qwert#2345"}, "groups": [{"name": "g", "requests": [
              {"name": "r4", "url": "{{base}}/anything/r4/{{id}}#top", "expect": [{"status": 200}]}
            ]}]}
            """)
        let run = try ReqRunBinary.run(["run", "--all"], in: dir.url)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let result = try #require(try lastRecord(dir).results.first)
        #expect(result.url.hasSuffix("/anything/r4/qwert%232345#top"))
        // What httpbin received: the whole value, in the path.
        #expect(result.response?.body.data.contains("/anything/r4/qwert%232345\"") == true, "\(result.response?.body.data ?? "")")
    }

    @Test func credentialsComeBackWithARedirectToTheOriginalOrigin() throws {
        let base = try TestServers.httpbin()
        let port = try #require(base.split(separator: ":").last)
        let local = "http://localhost:\(port)", numeric = "http://127.0.0.1:\(port)"
        let back = "\(numeric)/redirect-to?url=" + URLQuery.encode("\(local)/headers")
        let dir = try TemporaryDirectory()
        try dir.write("collections/r.json", """
            {"name": "R", "auth": {"type": "bearer", "token": "tok-redirect-1"}, "groups": [{"name": "g", "requests": [
              {"name": "away and back", "url": "\(local)/redirect-to", "query": {"url": "\(back)"}, "headers": {"Cookie": "c=by-hand-1"},
               "expect": [{"json": "$.headers.Authorization", "equals": "Bearer tok-redirect-1"}, {"json": "$.headers.Cookie", "equals": "c=by-hand-1"}]},
              {"name": "away", "url": "\(local)/redirect-to", "query": {"url": "\(numeric)/headers"},
               "expect": [{"json": "$.headers.Authorization", "exists": false}, {"json": "$.headers.Cookie", "exists": false}]}
            ]}]}
            """)
        let run = try ReqRunBinary.run(["run", "--all"], in: dir.url)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let record = try lastRecord(dir)
        #expect(record.results.map(\.redirects.count) == [2, 1])
    }

    @Test func aMultipartBoundaryOfTheUsersOwnIsRefused() throws {
        let dir = try TemporaryDirectory()
        try dir.write("collections/m.json", """
            {"name": "M", "groups": [{"name": "g", "requests": [
              {"name": "own", "method": "POST", "url": "\(try TestServers.httpbin())/anything",
               "headers": {"X-A": "1", "Content-Type": "multipart/form-data; Boundary=XYZ"}, "multipart": [{"name": "a", "value": "1"}]},
              {"name": "plain", "method": "POST", "url": "\(try TestServers.httpbin())/anything",
               "headers": {"Content-Type": "multipart/form-data"}, "multipart": [{"name": "a", "value": "1"}],
               "expect": [{"json": "$.form.a", "equals": "1"}]}
            ]}]}
            """)
        let run = try ReqRunBinary.run(["run", "--all"], in: dir.url)
        #expect(run.stdout.contains("headers[1].value sets a multipart boundary, but reqrun chooses the boundary of a multipart body itself"), "\(run.stdout)")
        let record = try lastRecord(dir)
        #expect(record.results.map(\.outcome) == [.invalid, .response])
        #expect(record.results[1].passed)
        let sent = try #require(record.results[1].request?.headers.first { $0.name.lowercased() == "content-type" }?.value)
        #expect(sent.components(separatedBy: "boundary=").count == 2, "\(sent)")
    }

    /// `import` writes a Postman path variable's value encoded, so the file says what is sent.
    @Test func importKeepsAHashInAPathVariable() throws {
        let dir = try TemporaryDirectory()
        try dir.write("pm.json", """
            {"info": {"name": "P", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             "item": [{"name": "r", "request": {"url": {"protocol": "http", "host": ["h"], "path": ["r4", ":id"],
               "variable": [{"key": "id", "value": "qwert#2345"}]}}}]}
            """)
        try FileManager.default.createDirectory(at: dir.url.appendingPathComponent("collections"), withIntermediateDirectories: true)
        let run = try ReqRunBinary.run(["import", "pm.json"], in: dir.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try dir.read("collections/pm.json").contains(#""url": "http://h/r4/qwert%232345""#))
    }
}
