import Foundation
import Testing
import ReqRunKit
import TestSupport

/// A Postman collection of our own, shaped like real exports, through the built binary: listed, dry-run,
/// run for real against the local httpbin with a Postman environment and `--var`, and imported.
@Suite struct PostmanEndToEndTests {
    private func workspace() throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory()
        try dir.write("collections/shop.postman_collection.json", """
            {"info": {"name": "Shop", "_postman_id": "5f0c5d32-1111-4a5e-9c1e-0a0b0c0d0e0f",
                      "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             "auth": {"type": "bearer", "bearer": [{"key": "token", "value": "{{token}}", "type": "string"}]},
             "variable": [{"key": "base", "value": "http://unused.invalid"}, {"key": "item", "value": "42"}],
             "item": [
              {"name": "Items", "id": "0b6c3bb5-5a5e-4f59-8d4e-6c35f0a4a001", "item": [
                {"name": "Get item", "event": [{"listen": "test", "script": {"exec": [
                   "pm.test(\\"Status code is 200\\", function () {", "    pm.response.to.have.status(200);", "});"]}}],
                 "request": {"method": "GET", "header": [{"key": "Accept", "value": "application/json"},
                             {"key": "X-Off", "value": "1", "disabled": true}],
                  "url": {"raw": "{{base}}/anything/items/:id?full=true", "host": ["{{base}}"], "path": ["anything", "items", ":id"],
                          "query": [{"key": "full", "value": "true"}, {"key": "debug", "value": "1", "disabled": true}],
                          "variable": [{"key": "id", "value": "{{item}}"}]}}},
                {"name": "Create item", "request": {"method": "POST", "url": "{{base}}/post",
                  "body": {"mode": "raw", "raw": "{\\"name\\": \\"{{name}}\\"}", "options": {"raw": {"language": "json"}}}}},
                {"name": "Form", "request": {"method": "POST", "url": "{{base}}/post", "auth": {"type": "noauth"},
                  "body": {"mode": "urlencoded", "urlencoded": [{"key": "a", "value": "1"}, {"key": "b", "value": "x", "disabled": true}]}}}
              ]},
              {"name": "Basic", "request": {"method": "GET", "url": "{{base}}/basic-auth/u/pa55w0rd",
               "auth": {"type": "basic", "basic": {"username": "u", "password": "pa55w0rd"}}}}
             ]}
            """)
        try dir.write("env/local.postman_environment.json", """
            {"id": "e", "name": "local", "values": [
              {"key": "base", "value": "\(try TestServers.httpbin())", "enabled": true},
              {"key": "token", "value": "old", "enabled": true}, {"key": "token", "value": "T0KEN", "type": "secret", "enabled": true},
              {"key": "name", "value": "ignored", "enabled": false}],
             "_postman_variable_scope": "environment"}
            """)
        return dir
    }

    @Test func listsWithScriptMarksAndWarnsOnce() throws {
        let dir = try workspace()
        let output = try ReqRunBinary.run(["list", "--all"], in: dir.url)
        #expect(output.status == 0)
        // Status checks are the scripts' to make when they run: nothing is translated into expectations.
        #expect(output.stdout.contains("GET  {{base}}/anything/items/{{item}}?full=true  Get item  [scripts: test]\n"))
        #expect(output.stderr == "warning: collections/shop.postman_collection.json: 1 script (1 test), not run by 'reqrun list' ('reqrun run', 'send' and "
                + "'ui' run them; 'reqrun list' marks the requests that have their own)\n")
        let json = try ReqRunBinary.run(["list", "--all", "--json"], in: dir.url)
        let tree = try JSONDecoder().decode(OutlineTree.self, from: Data(json.stdout.utf8))
        #expect(tree.collections[0].groups.map(\.name) == ["Items", "Shop"])
        #expect(tree.collections[0].groups[0].id == "0b6c3bb5-5a5e-4f59-8d4e-6c35f0a4a001")
        #expect(tree.collections[0].groups[0].requests[0].skippedScripts == ["test"])
    }

    /// The scripts warning is given where scripts do not run (list, show --curl) or run in part (a dry run's
    /// test scripts), never on a run, where they do.
    @Test func scriptsAreMentionedOnlyWhereTheyAreNotRun() throws {
        let dir = try workspace()
        let env = ["--env", "env/local.postman_environment.json", "--var", "name=Ada"]
        let run = try ReqRunBinary.run(["run", "Items"] + env, in: dir.url)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(!run.stderr.contains("script"), "\(run.stderr)")
        let dry = try ReqRunBinary.run(["run", "Items", "--dry-run"] + env, in: dir.url)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stderr == "warning: collections/shop.postman_collection.json: 1 test script, not run by --dry-run (pre-request scripts are)\n")
        let curl = try ReqRunBinary.run(["show", "--curl", "Get item"] + env, in: dir.url)
        #expect(curl.status == 0, "\(curl.stderr)")
        #expect(curl.stderr.contains("1 script (1 test), not run by 'reqrun show --curl'"))
        let expand = try ReqRunBinary.run(["expand", "Items"], in: dir.url)
        #expect(expand.status == 0 && expand.stderr.isEmpty, "\(expand.stderr)")
    }

    @Test func dryRunShowsWhatWouldBeSentAndUndefinedVariablesFail() throws {
        let dir = try workspace()
        let output = try ReqRunBinary.run(["run", "--all", "--dry-run", "--json", "--env", "env/local.postman_environment.json"], in: dir.url)
        #expect(output.status == 3)  // {{name}} is disabled in the environment
        let entries = try JSONDecoder().decode([DryRunEntry].self, from: Data(output.stdout.utf8))
        let base = try TestServers.httpbin()
        #expect(entries.map(\.url) == ["\(base)/anything/items/42?full=true", "{{base}}/post", "\(base)/post", "\(base)/basic-auth/u/****"])
        #expect(entries[0].headers == [HeaderField(name: "Accept", value: "application/json"), HeaderField(name: "Authorization", value: "****"),
                                       HeaderField(name: "User-Agent", value: "reqrun/\(reqrunVersion)")])
        #expect(entries[1].error == "undefined variable 'name' in body")
        #expect(entries[2].body?.text == "a=1")
        #expect(entries[2].headers?.contains { $0.name == "Authorization" } == false)
        #expect(!dir.exists(".reqrun/runs"))
        let text = try ReqRunBinary.run(["run", "Items", "--dry-run", "--env", "env/local.postman_environment.json", "--var", "name=Ada",
                                         "--show-secrets"], in: dir.url)
        #expect(text.stdout.contains("POST \(base)/post\nContent-Type: application/json\nAuthorization: Bearer T0KEN\nUser-Agent: reqrun/\(reqrunVersion)\n\n{\"name\": \"Ada\"}\n"))
    }

    @Test func runsAgainstHttpbinWithEnvironmentAndOverrides() throws {
        let dir = try workspace()
        let output = try ReqRunBinary.run(["run", "--all", "--env", "env/local.postman_environment.json", "--var", "name=Ada",
                                           "--var", "item=7"], in: dir.url)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("4 requests: 4 passed"))
        let runs = try FileManager.default.contentsOfDirectory(atPath: dir.url.appendingPathComponent(".reqrun/runs").path)
        let record = try RecordFiles.decode(dir.url.appendingPathComponent(".reqrun/runs/\(try #require(runs.first))"))
        #expect(record.results[0].url.hasSuffix("/anything/items/7?full=true"))
        // The test script runs (not its translation into a status expectation).
        #expect(record.results[0].expectations.map(\.description) == ["Status code is 200"])
        #expect(record.results[0].expectations.map(\.kind) == ["script"])
        #expect(record.results[0].request?.headers.contains(HeaderField(name: "Authorization", value: "****")) == true)
        #expect(record.results[1].response?.body.data.contains(#"{\"name\": \"Ada\"}"#) == true)
        #expect(record.results[3].response?.status == 200)
    }

    @Test func importWritesTheNativeFormatOnceWithoutForce() throws {
        let dir = try workspace()
        let source = dir.url.appendingPathComponent("collections/shop.postman_collection.json")
        try FileManager.default.moveItem(at: source, to: dir.url.appendingPathComponent("shop.postman_collection.json"))
        let first = try ReqRunBinary.run(["import", "shop.postman_collection.json"], in: dir.url)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr == "warning: shop.postman_collection.json: 1 script (1 test), written as the native format's scripts ('reqrun run', 'send' and 'ui' run them)\n")
        #expect(first.stdout.contains("imported 4 requests of 'Shop' to \(dir.url.appendingPathComponent("collections/shop.json").path)"))
        let list = try ReqRunBinary.run(["list", "--all", "--json"], in: dir.url)
        let tree = try JSONDecoder().decode(OutlineTree.self, from: Data(list.stdout.utf8))
        #expect(tree.collections[0].groups[0].id == "0b6c3bb5-5a5e-4f59-8d4e-6c35f0a4a001")
        #expect(tree.collections[0].requestCount == 4)
        let again = try ReqRunBinary.run(["import", "shop.postman_collection.json"], in: dir.url)
        #expect(again.status == 64)
        #expect(again.stderr.contains("already exists; use --force to overwrite it"))
        #expect(try ReqRunBinary.run(["import", "shop.postman_collection.json", "--force"], in: dir.url).status == 0)
    }
}
