import Foundation
import Testing
import ReqRunKit
import TestSupport

/// `--compat newman` against reqrun's own rules, rule by rule, through the built binary: what nginx's
/// `/echo-uri` route receives (the request target exactly as it arrived) and what httpbin echoes.
@Suite struct NewmanCompatEndToEndTests {
    private func workspace() throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory()
        let nginx = try TestServers.nginxHTTP(), httpbin = try TestServers.httpbin()
        let httpbinHost = String(httpbin.dropFirst("http://".count))
        try dir.write("collections/rules.postman_collection.json", """
            {"info": {"name": "Rules", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             "item": [
              {"name": "undefined", "request": {"method": "GET", "url": "\(nginx)/echo-uri/{{nope}}?x={{nope}}",
                "header": [{"key": "X-Token", "value": "{{token}}"}]}},
              {"name": "undefined again", "request": {"method": "GET", "url": "\(nginx)/echo-uri/again/{{nope}}"}},
              {"name": "empty query entry", "request": {"method": "GET", "url": {"raw": "\(nginx)/echo-uri?a=1&&b=2",
                "host": ["\(nginx)"], "path": ["echo-uri"],
                "query": [{"key": "a", "value": "1"}, {"key": null, "value": null}, {"key": "b", "value": "2"}]}}},
              {"name": "string query", "request": {"method": "GET", "url": "\(nginx)/echo-uri?a=1&&b=2"}},
              {"name": "caret and pipe", "request": {"method": "GET", "url": "\(nginx)/echo-uri/a^b|c?q=x^y|z"}},
              {"name": "userinfo", "request": {"method": "GET", "url": "http://us@r:p:ss@\(httpbinHost)/headers"}},
              {"name": "get with body", "request": {"method": "GET", "url": "\(httpbin)/anything",
                "body": {"mode": "raw", "raw": "hello"}}},
              {"name": "delete 302", "request": {"method": "DELETE", "url": "\(httpbin)/redirect-to?url=/anything&status_code=302"}},
              {"name": "delete 307", "request": {"method": "DELETE", "url": "\(httpbin)/redirect-to?url=/anything&status_code=307"}}
             ]}
            """)
        return dir
    }

    /// Runs `arguments` and returns the newest run record's results by request name.
    private func run(_ arguments: [String], in dir: TemporaryDirectory) throws -> (ReqRunBinary.Output, [String: RequestResult]) {
        let output = try ReqRunBinary.run(["run", "--all"] + arguments, in: dir.url)
        let folder = dir.url.appendingPathComponent(".reqrun/runs").path
        let newest = try #require(try FileManager.default.contentsOfDirectory(atPath: folder).sorted().last)
        let record = try RecordFiles.decode(dir.url.appendingPathComponent(".reqrun/runs/\(newest)"))
        return (output, Dictionary(record.results.map { ($0.name, $0) }, uniquingKeysWith: { $1 }))
    }

    private func json(_ result: RequestResult?) throws -> [String: Any] {
        let data = try #require(result?.response?.body.data)
        let object = try JSONSerialization.jsonObject(with: Data(data.utf8))
        return try #require(object as? [String: Any])
    }

    @Test func reqrunsRulesByDefault() throws {
        let dir = try workspace()
        let (output, results) = try run([], in: dir)
        #expect(output.status == 3)
        #expect(results["undefined"]?.error?.message == "undefined variable 'nope' in url")
        #expect(results["empty query entry"]?.response?.body.data == "/echo-uri?a=1&b=2")
        #expect(results["string query"]?.response?.body.data == "/echo-uri?a=1&&b=2")
        #expect(results["caret and pipe"]?.response?.body.data == "/echo-uri/a%5Eb%7Cc?q=x%5Ey%7Cz")
        // libcurl (and the curl CLI) refuse a URL whose user information holds '@' and ':' unencoded.
        #expect(results["userinfo"]?.outcome == .transportError)
        #expect(try json(results["get with body"])["data"] as? String == "hello")
        #expect(try json(results["delete 302"])["method"] as? String == "DELETE")
        #expect(try json(results["delete 307"])["method"] as? String == "DELETE")
    }

    @Test func newmansRulesWithCompatNewman() throws {
        let dir = try workspace()
        let (output, results) = try run(["--compat", "newman", "--show-secrets"], in: dir)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(results["undefined"]?.response?.body.data == "/echo-uri/%7B%7Bnope%7D%7D?x=%7B%7Bnope%7D%7D")
        #expect(results["undefined again"]?.response?.body.data == "/echo-uri/again/%7B%7Bnope%7D%7D")
        #expect(results["undefined"]?.request?.headers.contains(HeaderField(name: "X-Token", value: "{{token}}")) == true)
        // One warning per name and run, on the first request that sends it.
        #expect(output.stdout.components(separatedBy: "warn: {{nope}} is not defined: sent as its literal text (Newman's rules)").count == 2)
        #expect(output.stdout.contains("warn: {{token}} is not defined: sent as its literal text (Newman's rules)"))
        #expect(results["empty query entry"]?.response?.body.data == "/echo-uri?a=1&&b=2")
        #expect(results["string query"]?.response?.body.data == "/echo-uri?a=1&&b=2")
        #expect(results["caret and pipe"]?.response?.body.data == "/echo-uri/a^b|c?q=x%5Ey%7Cz")
        let headers = try #require(try json(results["userinfo"])["headers"] as? [String: String])
        #expect(headers["Authorization"] == "Basic " + Data("us@r:p:ss".utf8).base64EncodedString())
        #expect(try json(results["get with body"])["data"] as? String == "")
        #expect(try json(results["delete 302"])["method"] as? String == "GET")
        #expect(try json(results["delete 307"])["method"] as? String == "DELETE")
    }

    @Test func dryRunAndSendTakeTheOption() throws {
        let dir = try workspace()
        let dry = try ReqRunBinary.run(["run", "--all", "--dry-run", "--json", "--compat", "newman"], in: dir.url)
        #expect(dry.status == 0, "\(dry.stderr)")
        let entries = try JSONDecoder().decode([DryRunEntry].self, from: Data(dry.stdout.utf8))
        #expect(entries[0].console == ["warn: {{nope}} is not defined: sent as its literal text (Newman's rules)",
                                       "warn: {{token}} is not defined: sent as its literal text (Newman's rules)"])
        #expect(entries[6].body == nil)
        let send = try ReqRunBinary.run(["send", "caret and pipe", "--compat", "newman", "--body"], in: dir.url)
        #expect(send.stdout == "/echo-uri/a^b|c?q=x%5Ey%7Cz")
        let bad = try ReqRunBinary.run(["run", "--all", "--compat", "postman"], in: dir.url)
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("--compat postman: expected 'newman'"))
    }
}

/// Newman's rules per collection: a native collection's `compat`, and `reqrun.json`'s `compat` for a Postman
/// export that is not edited; `--compat` over both for the run.
extension NewmanCompatEndToEndTests {
    private func mixedWorkspace(settings: String?) throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory()
        let nginx = try TestServers.nginxHTTP(), httpbin = try TestServers.httpbin()
        try dir.write("collections/legacy.postman_collection.json", """
            {"info": {"name": "Legacy", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             "item": [
              {"name": "legacy caret", "request": {"method": "GET", "url": "\(nginx)/echo-uri/a^b|c"}},
              {"name": "legacy empty entry", "request": {"method": "GET", "url": {"raw": "\(nginx)/echo-uri?a=1&&b=2",
                "host": ["\(nginx)"], "path": ["echo-uri"],
                "query": [{"key": "a", "value": "1"}, {"key": null, "value": null}, {"key": "b", "value": "2"}]}}},
              {"name": "legacy undefined", "request": {"method": "GET", "url": "\(nginx)/echo-uri/{{nope}}"}},
              {"name": "legacy delete 302", "request": {"method": "DELETE", "url": "\(httpbin)/redirect-to?url=/anything/legacy&status_code=302"}}
             ]}
            """)
        try dir.write("collections/marked.json", """
            {"name": "Marked", "compat": "newman", "groups": [{"name": "m", "requests": [
              {"name": "marked caret", "url": "\(nginx)/echo-uri/a^b|c"}]}]}
            """)
        try dir.write("collections/own.json", """
            {"name": "Own", "groups": [{"name": "o", "requests": [{"name": "own caret", "url": "\(nginx)/echo-uri/a^b|c"},
              {"name": "own delete 302", "method": "DELETE", "url": "\(httpbin)/redirect-to?url=/anything/own&status_code=302"}]}]}
            """)
        if let settings { try dir.write("reqrun.json", settings) }
        return dir
    }

    @Test func eachCollectionFollowsItsOwnRulesInOneRun() throws {
        let dir = try mixedWorkspace(settings: #"{"compat": {"collections/legacy.postman_collection.json": "newman"}}"#)
        let (output, results) = try run(["--verbose"], in: dir)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        // A DELETE redirected by a 302 becomes GET by Newman's rules only; -v shows each by its collection's.
        #expect(try json(results["legacy delete 302"])["method"] as? String == "GET")
        #expect(try json(results["own delete 302"])["method"] as? String == "DELETE")
        #expect(output.stdout.contains("> GET \(try TestServers.httpbin())/anything/legacy"), "\(output.stdout)")
        #expect(output.stdout.contains("> DELETE \(try TestServers.httpbin())/anything/own"), "\(output.stdout)")
        #expect(results["legacy caret"]?.response?.body.data == "/echo-uri/a^b|c")
        #expect(results["legacy empty entry"]?.response?.body.data == "/echo-uri?a=1&&b=2")
        #expect(results["legacy undefined"]?.response?.body.data == "/echo-uri/%7B%7Bnope%7D%7D")
        #expect(results["marked caret"]?.response?.body.data == "/echo-uri/a^b|c")
        #expect(results["own caret"]?.response?.body.data == "/echo-uri/a%5Eb%7Cc")
        // --compat reqrun and --compat newman decide for every collection of the run.
        let (strict, strictResults) = try run(["--compat", "reqrun"], in: dir)
        #expect(strict.status == 3)
        #expect(strictResults["legacy caret"]?.response?.body.data == "/echo-uri/a%5Eb%7Cc")
        #expect(strictResults["legacy empty entry"]?.response?.body.data == "/echo-uri?a=1&b=2")
        #expect(strictResults["marked caret"]?.response?.body.data == "/echo-uri/a%5Eb%7Cc")
        let (loose, looseResults) = try run(["--compat", "newman"], in: dir)
        #expect(loose.status == 0, "\(loose.stdout)\(loose.stderr)")
        #expect(looseResults["own caret"]?.response?.body.data == "/echo-uri/a^b|c")
        // The dry run and send follow the collection's rules too.
        let dry = try ReqRunBinary.run(["run", "--all", "--dry-run", "--json"], in: dir.url)
        let entries = try JSONDecoder().decode([DryRunEntry].self, from: Data(dry.stdout.utf8))
        #expect(entries.map(\.url).filter { $0.hasSuffix("/echo-uri/a^b|c") }.count == 2, "\(entries.map(\.url))")
        #expect(try ReqRunBinary.run(["send", "legacy caret", "--body"], in: dir.url).stdout == "/echo-uri/a^b|c")
    }

    @Test func workspaceSettingsAreCheckedAndNamedInErrors() throws {
        let typo = try mixedWorkspace(settings: #"{"compat": {"collections/legacy.json": "newman"}}"#)
        let warned = try ReqRunBinary.run(["run", "--all", "--dry-run"], in: typo.url)
        #expect(warned.stderr.contains("reqrun.json: compat: 'collections/legacy.json' is not a collection file of the workspace (no such file)"),
                "\(warned.stderr)")
        // Many entries without their file (a renamed folder): one warning with the count and the first three.
        let renamed = try mixedWorkspace(settings: #"{"compat": {"old/a.json": "newman", "old/b.json": "newman", "old/c.json": "reqrun", "old/d.json": "newman", "old/e.json": "newman"}}"#)
        let grouped = try ReqRunBinary.run(["list", "--all"], in: renamed.url)
        #expect(grouped.status == 0, "\(grouped.stderr)")
        #expect(grouped.stderr == "warning: reqrun.json: compat: 5 entries name no collection file of the workspace (no such file): "
                + "'old/a.json', 'old/b.json', 'old/c.json' and 2 more\n")
        let two = try mixedWorkspace(settings: #"{"compat": {"old/a.json": "newman", "old/b.json": "newman"}}"#)
        #expect(try ReqRunBinary.run(["list", "--all"], in: two.url).stderr
                == "warning: reqrun.json: compat: 2 entries name no collection file of the workspace (no such file): 'old/a.json' and 'old/b.json'\n")
        let bad = try mixedWorkspace(settings: "{\"compat\": {\n  \"collections/legacy.postman_collection.json\": \"newmann\"}}")
        let refused = try ReqRunBinary.run(["run", "--all"], in: bad.url)
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(refused.stderr.contains(#"reqrun.json:2:49: compat.collections/legacy.postman_collection.json: expected one of "newman", "reqrun", found "newmann" (did you mean 'newman'?)"#),
                "\(refused.stderr)")
        let native = try mixedWorkspace(settings: nil)
        try native.write("collections/own.json", #"{"name": "Own", "compat": "postman", "groups": []}"#)
        let wrong = try ReqRunBinary.run(["list", "--all"], in: native.url)
        #expect(wrong.stderr.contains(#"collections/own.json:1:27: compat: expected one of "newman", "reqrun", found "postman""#), "\(wrong.stderr)")
    }

    /// `reqrun.json` comes with a cloned repository: a FIFO there is refused instead of blocking the run in
    /// `open(2)`, and a link to a file outside the workspace is not read (as for `environments/NAME.json`).
    @Test func workspaceSettingsAreARegularFileInsideTheWorkspace() throws {
        let fifo = try mixedWorkspace(settings: nil)
        #expect(mkfifo(fifo.url.appendingPathComponent("reqrun.json").path, 0o600) == 0)
        let blocked = try ReqRunBinary.run(["run", "--all", "--dry-run"], in: fifo.url, killedAfter: 15)
        #expect(blocked.status == 2, "\(blocked.stderr)")
        #expect(blocked.stderr.contains("error: reqrun.json: is a FIFO (named pipe), not a regular file"), "\(blocked.stderr)")
        let outside = try TemporaryDirectory()
        let secret = try outside.write("adc.json", #"{"client_secret": "outside-secret-1"}"#)
        let linked = try mixedWorkspace(settings: nil)
        try FileManager.default.createSymbolicLink(atPath: linked.url.appendingPathComponent("reqrun.json").path, withDestinationPath: secret.path)
        let refused = try ReqRunBinary.run(["list", "--all"], in: linked.url)
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(refused.stderr.contains("error: reqrun.json: ") && refused.stderr.contains("is outside the workspace"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("client_secret"), "\(refused.stderr)")
    }
}
