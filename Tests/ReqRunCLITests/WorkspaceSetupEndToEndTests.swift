import Foundation
import Testing
import ReqRunKit
import TestSupport

/// Issue 13 §3: `reqrun init`, a workspace that stays usable when one collection does not load, `import`
/// that never leaves it broken, reports that never replace reqrun's own files, and `send -q`.
@Suite struct WorkspaceSetupEndToEndTests {
    @Test func initMakesAWorkspaceThatListAndRunLoadAsTheyAre() throws {
        let httpbin = try TestServers.httpbin()
        let dir = try TemporaryDirectory()
        let made = try ReqRunBinary.run(["init", "api"], in: dir.url)
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stderr.isEmpty)
        #expect(made.stdout.contains("Next, in api, try:\n  reqrun list --all "))
        #expect(made.stdout.contains("\n  reqrun run Example "))
        #expect(made.stdout.contains("\n  reqrun run --all --report junit=reqrun-junit.xml "))
        let ws = dir.url.appendingPathComponent("api")
        #expect(try dir.read("api/.gitignore").contains("\n.reqrun/\n"))
        #expect(try dir.read("api/environments/local.json").contains("\"baseUrl\""))
        #expect(try dir.read("api/collections/example.json").contains("\"description\""))
        let list = try ReqRunBinary.run(["list", "--all"], in: ws)
        #expect(list.status == 0 && list.stderr.isEmpty, "\(list.stderr)")
        #expect(list.stdout.hasPrefix("Example  collections/example.json\n  ▾ httpbin\n      GET  {{baseUrl}}/get  get\n"))
        // The suggested run, with the local httpbin in place of httpbin.org; the capture reaches the third request.
        let run = try ReqRunBinary.run(["run", "Example", "--var", "baseUrl=\(httpbin)"], in: ws)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("3 requests: 3 passed, 0 failed, 0 errors, 0 skipped"))
        let ci = try ReqRunBinary.run(["run", "--all", "--env", "local", "--var", "baseUrl=\(httpbin)", "--report", "junit=reqrun-junit.xml"], in: ws)
        #expect(ci.status == 0, "\(ci.stderr)")
        #expect(FileManager.default.fileExists(atPath: ws.appendingPathComponent("reqrun-junit.xml").path))
    }

    @Test func initNeverOverwritesAFile() throws {
        let dir = try TemporaryDirectory()
        try dir.write("collections/example.json", "mine")
        try dir.write(".gitignore", "node_modules")
        let refused = try ReqRunBinary.run(["init"], in: dir.url)
        #expect(refused.status == 2)
        #expect(refused.stderr == "error: collections/example.json: already exists; reqrun init never overwrites a file, so nothing was written "
                + "(move it away, or init another folder)\n")
        #expect(try dir.read("collections/example.json") == "mine")
        #expect(try dir.read(".gitignore") == "node_modules")
        #expect(!dir.exists("environments"))
        // Once it is moved away: an existing .gitignore gets the line, once.
        try FileManager.default.removeItem(at: dir.url.appendingPathComponent("collections/example.json"))
        #expect(try ReqRunBinary.run(["init"], in: dir.url).status == 0)
        #expect(try dir.read(".gitignore") == "node_modules\n" + "# reqrun's saved state, lock and run records (see docs/workspace.md)\n.reqrun/\n")
        try FileManager.default.removeItem(at: dir.url.appendingPathComponent("collections/example.json"))
        try FileManager.default.removeItem(at: dir.url.appendingPathComponent("environments/local.json"))
        let again = try ReqRunBinary.run(["init"], in: dir.url)
        #expect(again.status == 0 && again.stdout.contains("already keeps .reqrun/"))
        #expect(try dir.read(".gitignore").components(separatedBy: ".reqrun/\n").count == 2)
    }

    /// A good collection next to one with a JSON syntax error at line 3, column 5.
    /// A folder someone else made (a cloned repository) may hold a `.gitignore` that is a link to a file
    /// outside it (`~/.bashrc`), or a FIFO or `/dev/zero` that would block or fill memory when read: init
    /// refuses it before writing anything, and never appends through a link.
    @Test func initNeitherFollowsNorBlocksOnAHostileGitignore() throws {
        let dir = try TemporaryDirectory()
        let outside = try dir.write("outside/bashrc", "export PS1='$ '\n")
        try FileManager.default.createDirectory(at: dir.url.appendingPathComponent("ws"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir.url.appendingPathComponent("ws/.gitignore").path, withDestinationPath: outside.path)
        let linked = try ReqRunBinary.run(["init", "ws"], in: dir.url)
        #expect(linked.status == 2)
        #expect(linked.stderr == "error: ws/.gitignore: is a symbolic link; reqrun init neither reads nor writes through one, so nothing was written (remove it, or init another folder)\n")
        #expect(try dir.read("outside/bashrc") == "export PS1='$ '\n")
        #expect(!dir.exists("ws/collections/example.json"))
        try FileManager.default.createDirectory(at: dir.url.appendingPathComponent("fifo"), withIntermediateDirectories: true)
        #expect(mkfifo(dir.url.appendingPathComponent("fifo/.gitignore").path, 0o644) == 0)
        let running = try ReqRunBinary.start(["init", "fifo"], in: dir.url)
        let killer = DispatchWorkItem { running.send(signal: SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + 10, execute: killer)
        let fifo = running.finish()
        killer.cancel()
        #expect(fifo.status == 2)
        #expect(fifo.stderr == "error: fifo/.gitignore: is not a regular file; reqrun init reads only a regular .gitignore, so nothing was written (remove it, or init another folder)\n")
    }

    private func workspaceWithABrokenCollection() throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory()
        try dir.write("collections/a.json", #"{"name": "A", "groups": [{"name": "ga", "requests": [{"name": "r", "url": "ftp://example.invalid/a"}]}]}"#)
        try dir.write("collections/b.json", "{\n  \"name\": \"B\",\n    \"groups\" [\n}\n")
        return dir
    }

    private let brokenError = #"collections/b.json:3:14: expected ':' after the key "groups", found character '['"#

    @Test func aCollectionThatDoesNotLoadFailsOnlyTheCommandsThatNeedIt() throws {
        let dir = try workspaceWithABrokenCollection()
        let list = try ReqRunBinary.run(["list"], in: dir.url)
        #expect(list.status == 2)
        #expect(list.stdout == "A  collections/a.json\n  ▸ ga (1 request)\n")
        #expect(list.stderr == "error: \(brokenError)\n")
        // A group of the other collection runs; the broken file is a warning.
        let group = try ReqRunBinary.run(["run", "ga"], in: dir.url)
        #expect(group.status == 0, "\(group.stderr)")
        #expect(group.stdout.contains("1 request: 0 passed, 0 failed, 0 errors, 1 skipped"))
        #expect(group.stderr == "warning: \(brokenError) (this collection is left out)\n")
        #expect(try ReqRunBinary.run(["expand", "ga"], in: dir.url).status == 0)
        // show --curl of a request that loads, as send: found (and refused for its ftp:// scheme, not for b.json).
        let curl = try ReqRunBinary.run(["show", "--curl", "ga/r"], in: dir.url)
        #expect(curl.stderr.hasPrefix("warning: \(brokenError) (this collection is left out)\n"), "\(curl.stderr)")
        #expect(curl.stderr.hasSuffix("error: cannot build request 'r': the ftp:// scheme is not supported (reqrun sends only http, https, ws and wss)\n"))
        // Everything, or what is expanded, needs every collection: exit 2 with the broken file, nothing recorded.
        for arguments in [["run", "--all"], ["run", "--expanded"], ["expand", "--all"]] {
            let output = try ReqRunBinary.run(arguments, in: dir.url)
            #expect(output.status == 2, "\(arguments)")
            #expect(output.stderr == "error: \(brokenError)\n", "\(arguments)")
        }
        // A name that may be in the broken file gets its error, not "no group named".
        let unknown = try ReqRunBinary.run(["run", "gb"], in: dir.url)
        #expect(unknown.status == 2 && unknown.stderr == "error: \(brokenError)\n")
        let records = try FileManager.default.contentsOfDirectory(atPath: dir.url.appendingPathComponent(".reqrun/runs").path)
        #expect(records.count == 1)
    }

    private func postman(_ items: String) -> String {
        #"{"info": {"name": "Shop", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}, "item": [\#(items)]}"#
    }

    /// `collections/NAME.json`, the path import chooses, may be a link a cloned repository carries, dangling
    /// (import would create the file it names, anywhere) or not (`--force` would replace that file): import
    /// never writes through a link it chose; `--to` names a path to write through.
    @Test func importDoesNotWriteThroughALinkItChose() throws {
        let dir = try TemporaryDirectory()
        try dir.write("collections/a.json", #"{"name": "A", "groups": []}"#)
        try dir.write("Shop.postman_collection.json", postman(#"{"name": "r", "request": {"method": "GET", "url": "http://h/"}}"#))
        let outside = dir.url.appendingPathComponent("outside/made.json")
        try FileManager.default.createDirectory(at: outside.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir.url.appendingPathComponent("collections/Shop.json").path, withDestinationPath: outside.path)
        for arguments in [["import", "Shop.postman_collection.json"], ["import", "Shop.postman_collection.json", "--force"]] {
            let refused = try ReqRunBinary.run(arguments, in: dir.url)
            #expect(refused.status == 64, "\(refused.stdout)")
            #expect(refused.stderr.hasPrefix("error: \(dir.url.appendingPathComponent("collections/Shop.json").standardizedFileURL.path) is a symbolic link; "
                                             + "import does not write through a link it did not get with --to PATH"), "\(refused.stderr)")
            #expect(!FileManager.default.fileExists(atPath: outside.path))
        }
    }

    @Test func importRefusesWhatTheWorkspaceCouldNotLoad() throws {
        let dir = try TemporaryDirectory()
        try dir.write("collections/a.json", #"{"name": "A", "groups": [{"name": "ga", "requests": [{"url": "ftp://x/"}]}]}"#)
        // A body file the export refers to but does not ship.
        try dir.write("shop.postman_collection.json", postman(#"{"name": "F", "item": [{"name": "upload", "request": {"method": "POST", "url": "http://h/u", "body": {"mode": "file", "file": {"src": "missing.bin"}}}}]}"#))
        let refused = try ReqRunBinary.run(["import", "shop.postman_collection.json"], in: dir.url)
        #expect(refused.status == 2)
        #expect(refused.stderr.hasPrefix("error: shop.postman_collection.json: not imported, since the converted collection would not load in this workspace "
                                         + "(nothing was written): collections/shop.json:"), "\(refused.stderr)")
        #expect(refused.stderr.contains("missing.bin"))
        #expect(refused.stderr.hasSuffix("; write it outside collections/ with --to PATH to fix it there\n"))
        #expect(!dir.exists("collections/shop.json"))
        #expect(try ReqRunBinary.run(["list"], in: dir.url).status == 0)
        // Outside collections/ it is written, with the reason as a warning.
        let elsewhere = try ReqRunBinary.run(["import", "shop.postman_collection.json", "--to", "drafts/shop.json"], in: dir.url)
        #expect(elsewhere.status == 0)
        #expect(elsewhere.stderr.contains("warning: the converted collection will not load until this is fixed: drafts/shop.json:"))
        #expect(dir.exists("drafts/shop.json"))
        // Nor over reqrun's own files, --force or not.
        try dir.write(".reqrun/state.json", "{}")
        let own = try ReqRunBinary.run(["import", "shop.postman_collection.json", "--to", ".reqrun/state.json", "--force"], in: dir.url)
        #expect(own.status == 64 && own.stderr.hasPrefix("error: --to .reqrun/state.json would overwrite reqrun's own .reqrun/state.json; choose another PATH\n"))
        #expect(try dir.read(".reqrun/state.json") == "{}")
        // The Postman file itself in collections/: the converted one would define the same group ids.
        try dir.write("collections/shop.postman_collection.json", postman(#"{"name": "F", "item": [{"name": "get", "request": {"method": "GET", "url": "http://h/g"}}]}"#))
        let twice = try ReqRunBinary.run(["import", "collections/shop.postman_collection.json"], in: dir.url)
        #expect(twice.status == 2)
        #expect(twice.stderr.contains("group ids must be unique in a workspace; move shop.postman_collection.json out of collections/ first"), "\(twice.stderr)")
        #expect(!dir.exists("collections/shop.json"))
    }

    /// Nor does an export of variables or a cookie jar (usage errors, 64, before anything is sent).
    @Test func aReportNeverReplacesReqrunsOwnFiles() throws {
        let dir = try TemporaryDirectory()
        try dir.write("collections/c.json", #"{"name": "C", "groups": [{"name": "g", "requests": [{"url": "ftp://example.invalid/"}]}]}"#)
        #expect(try ReqRunBinary.run(["expand", "g"], in: dir.url).status == 0)
        #expect(try ReqRunBinary.run(["run", "--all"], in: dir.url).status == 0)
        let state = try dir.read(".reqrun/state.json")
        let record = try #require(try FileManager.default.contentsOfDirectory(atPath: dir.url.appendingPathComponent(".reqrun/runs").path).first)
        let recordText = try dir.read(".reqrun/runs/\(record)")
        try FileManager.default.createSymbolicLink(atPath: dir.url.appendingPathComponent("out").path, withDestinationPath: ".reqrun/runs")
        for report in ["json=.reqrun/state.json", "html=.reqrun/runs/\(record)", "junit=./.reqrun/lock", "har=.reqrun/captures.json",
                       "json=out/\(record)", "json=\(dir.path)/.reqrun/state.json.unreadable-1"] {
            let run = try ReqRunBinary.run(["run", "--all", "--report", report], in: dir.url)
            #expect(run.status == 64, "\(report)")
            #expect(run.stderr.hasPrefix("error: --report \(report) would overwrite reqrun's own .reqrun/"), "\(run.stderr)")
        }
        // The variables a run exports and the cookie jar it saves are files reqrun writes too.
        for (option, path) in [("--export-environment", ".reqrun/state.json"), ("--export-globals", ".reqrun/captures.json"),
                               ("--cookie-jar", ".reqrun/lock"), ("--export-environment", "out/\(record)")] {
            let run = try ReqRunBinary.run(["run", "--all", option, path], in: dir.url)
            #expect(run.status == 64, "\(option) \(path)")
            #expect(run.stderr.hasPrefix("error: \(option) \(path) would overwrite reqrun's own .reqrun/"), "\(run.stderr)")
        }
        let send = try ReqRunBinary.run(["send", "g/ftp://example.invalid/", "--cookie-jar", ".reqrun/lock"], in: dir.url)
        #expect(send.status == 64, "\(send.stderr)")
        #expect(try dir.read(".reqrun/state.json") == state)
        #expect(try dir.read(".reqrun/runs/\(record)") == recordText)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.appendingPathComponent(".reqrun/runs").path).count == 1)
        // Another file in .reqrun/ is the user's.
        #expect(try ReqRunBinary.run(["run", "--all", "--report", "json=.reqrun/report.json"], in: dir.url).status == 0)
        #expect(dir.exists(".reqrun/report.json"))
    }

    @Test func sendQuietPrintsOnlyWhatWentWrong() throws {
        let httpbin = try TestServers.httpbin()
        let dir = try TemporaryDirectory()
        try dir.write("collections/c.json", """
            {"name": "C", "groups": [{"name": "g", "requests": [
              {"name": "ok", "url": "\(httpbin)/get", "expect": [{"status": 200}]},
              {"name": "bad", "url": "\(httpbin)/status/404", "expect": [{"status": 200}]}]}]}
            """)
        let ok = try ReqRunBinary.run(["send", "ok", "-q"], in: dir.url)
        #expect(ok.status == 0 && ok.stdout.isEmpty && ok.stderr.isEmpty, "\(ok.stdout)\(ok.stderr)")
        let bad = try ReqRunBinary.run(["send", "bad", "--quiet"], in: dir.url)
        #expect(bad.status == 1 && bad.stdout.isEmpty)
        #expect(bad.stderr.contains("✗ status is 200") || bad.stderr.contains("status"), "\(bad.stderr)")
        #expect(!bad.stderr.contains("recorded in"))
        let both = try ReqRunBinary.run(["send", "ok", "-q", "-v"], in: dir.url)
        #expect(both.status == 64 && both.stderr.hasPrefix("error: give only one of --quiet and --verbose\n"))
    }
}
