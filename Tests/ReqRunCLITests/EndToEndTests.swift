import Foundation
import Testing
import ReqRunKit
import TestSupport

/// The built `reqrun` binary in temporary workspaces: stdout, stderr, files written and exit codes.
@Suite struct EndToEndTests {
    /// The repository's own sample collection, copied into a fresh workspace.
    private func sampleWorkspace() throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory()
        let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("collections/sample.json")
        try dir.write("collections/sample.json", try String(contentsOf: sample, encoding: .utf8))
        return dir
    }

    private func reqrun(_ arguments: [String], in dir: TemporaryDirectory) throws -> ReqRunBinary.Output {
        try ReqRunBinary.run(arguments, in: dir.url)
    }

    private func records(_ dir: TemporaryDirectory) throws -> [RunRecord] {
        let runs = dir.url.appendingPathComponent(".reqrun/runs")
        return try FileManager.default.contentsOfDirectory(atPath: runs.path).sorted().map {
            try RecordFiles.decode(runs.appendingPathComponent($0))
        }
    }

    @Test func sampleWorkflowListExpandRun() throws {
        let httpbin = try TestServers.httpbin()
        let dir = try sampleWorkspace()

        let first = try reqrun(["list"], in: dir)
        #expect(first.status == 0)
        #expect(first.stdout == """
            Sample  collections/sample.json
              ▸ httpbin.org (2 requests)
              ▸ echo.websocket.org (1 request)

            """)
        #expect(!dir.exists(".reqrun"))

        let expand = try reqrun(["expand", "httpbin.org"], in: dir)
        #expect(expand.status == 0)
        #expect(expand.stdout == "expanded httpbin.org\n")
        #expect(try dir.read(".reqrun/state.json") == "{\n  \"expandedGroups\": \"[\\\"7BBD0224-3A31-4BA7-9DBB-B7138DE7AAEE\\\"]\"\n}\n")
        let again = try reqrun(["expand", "httpbin.org"], in: dir)
        #expect(again.stdout == "httpbin.org was already expanded\n")

        let listed = try reqrun(["list"], in: dir)
        #expect(listed.stdout == """
            Sample  collections/sample.json
              ▾ httpbin.org
                  GET  {{httpbin}}/get
                  POST {{httpbin}}/post
              ▸ echo.websocket.org (1 request)

            """)

        let run = try reqrun(["run", "--expanded", "--var", "httpbin=\(httpbin)"], in: dir)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let lines = run.stdout.split(separator: "\n")
        #expect(lines[0] == "❏ Sample › httpbin.org")
        #expect(lines[1].hasPrefix("  ✓ {{httpbin}}/get   GET      200  ") && lines[1].hasSuffix("  \(httpbin)/get"))
        #expect(lines[2].hasPrefix("  ✓ {{httpbin}}/post  POST     200  ") && lines[2].hasSuffix("  \(httpbin)/post"))
        #expect(lines[3] == "2 requests: 2 passed, 0 failed, 0 errors, 0 skipped in " + lines[3].split(separator: " in ").last!)

        let record = try #require(try records(dir).first)
        #expect(record.selection.mode == "expanded")
        #expect(record.selection.overriddenVariables == ["httpbin"])
        #expect(record.results.map(\.url) == ["\(httpbin)/get", "\(httpbin)/post"])
        #expect(record.results.map { $0.response?.status } == [200, 200])
        #expect(record.summary == RunSummary(record.results))
        #expect(record.results.allSatisfy { $0.groupID == "7bbd0224-3a31-4ba7-9dbb-b7138de7aaee" })
        // The POST's JSON body was sent as written, labelled as JSON.
        let echoed = try JSONSerialization.jsonObject(with: Data(record.results[1].response!.body.data.utf8)) as? [String: Any]
        let json = echoed?["json"] as? [String: Any]
        #expect(json?["message"] as? String == "hello from reqrun")
        #expect(json?["count"] as? Int == 1)
        #expect(record.results[1].request?.headers.contains(HeaderField(name: "Content-Type", value: "application/json")) == true)
        let recordFile = dir.url.appendingPathComponent(".reqrun/runs/\(record.id).jsonl").path
        #expect(try FileManager.default.attributesOfItem(atPath: recordFile)[.posixPermissions] as? Int == 0o600)

        let history = try reqrun(["history"], in: dir)
        #expect(history.stdout.contains("\(record.id)  \(record.startedAt)  "))
        #expect(history.stdout.contains("  -             expanded                        2      2       0       0       0\n"))
        let show = try reqrun(["show"], in: dir)
        #expect(show.status == 0)
        #expect(show.stdout.contains("run \(record.id)"))
        #expect(show.stdout.contains("HTTP/1.1 200"))
        let shownJSON = try reqrun(["show", "--json", String(record.id.prefix(20))], in: dir)
        #expect(try JSONDecoder().decode(RunRecord.self, from: Data(shownJSON.stdout.utf8)) == record)
    }

    @Test func runAllSendsTheSamplesWebSocketRequestToALocalEchoServer() throws {
        let httpbin = try TestServers.httpbin()
        let echo = try TestServers.webSocket()
        let dir = try sampleWorkspace()
        let run = try reqrun(["run", "--all", "--var", "httpbin=\(httpbin)", "--var", "echo=\(echo)"], in: dir)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("GET      101 ") && run.stdout.contains(" messages  \(echo)\n"), "\(run.stdout)")
        let record = try #require(try records(dir).first)
        #expect(record.results.map(\.outcome) == [.response, .response, .response])
        #expect(record.results[2].groupID == "6df253c4-3c91-4712-a398-605c67b1e5b5")
        let messages = try #require(record.results[2].webSocket?.messages)
        #expect(messages.map { "\($0.direction) \($0.type) \($0.data.data)" }
                == ["send text hello from reqrun", "receive text hello from reqrun", "send close ", "receive close "])
        #expect(record.summary.passed == 3)
    }

    @Test func otherSchemesAreSkippedWithoutFailing() throws {
        let dir = try TemporaryDirectory()
        try dir.write("collections/c.json", #"{"name": "C", "groups": [{"name": "g", "requests": [{"url": "ftp://example.invalid/x"}]}]}"#)
        let run = try reqrun(["run", "--all"], in: dir)
        #expect(run.status == 0)
        #expect(run.stdout.contains("ftp://example.invalid/x  skipped: the ftp:// scheme is not supported (reqrun sends only http, https, ws and wss)"), "\(run.stdout)")
        let record = try #require(try records(dir).first)
        #expect(record.results.map(\.outcome) == [.skipped])
        #expect(record.results[0].response == nil && record.results[0].timings == nil)
        #expect(record.summary.skipped == 1 && record.summary.failed == 0)
    }

    @Test func runGroupIgnoresTheSavedStateAndLeavesItAlone() throws {
        let httpbin = try TestServers.httpbin()
        let dir = try sampleWorkspace()
        let run = try reqrun(["run", "httpbin.org", "--var", "httpbin=\(httpbin)"], in: dir)
        #expect(run.status == 0)
        #expect(try records(dir).first?.results.count == 2)
        #expect(try records(dir).first?.selection.groups == [SelectedGroup(path: "httpbin.org", id: "7bbd0224-3a31-4ba7-9dbb-b7138de7aaee")])
        #expect(!dir.exists(".reqrun/state.json"))
        let listed = try reqrun(["list", "--all"], in: dir)
        #expect(listed.stdout.contains("▾ echo.websocket.org\n      GET  {{echo}}"))
        #expect(!dir.exists(".reqrun/state.json"))
    }

    @Test func requestErrorsExitWithThreeAndKeepGoing() throws {
        let httpbin = try TestServers.httpbin()
        let dir = try TemporaryDirectory()
        let port = TestServers.closedPort()
        try dir.write("collections/c.json", """
            {"name": "C", "groups": [{"name": "g", "requests": [
              {"url": "http://127.0.0.1:\(port)/refused"},
              {"url": "{{missing}}/x"},
              {"url": "\(httpbin)/delay/5", "name": "slow"},
              {"url": "\(httpbin)/status/500"}
            ]}]}
            """)
        let run = try reqrun(["run", "--all", "--timeout", "0.5"], in: dir)
        #expect(run.status == 3)
        #expect(run.stdout.contains("  http://127.0.0.1:\(port)/refused  Failed to connect"))
        #expect(run.stdout.contains("  {{missing}}/x  undefined variable 'missing' in url"))
        #expect(run.stdout.contains("4 requests: 1 passed, 0 failed, 3 errors, 0 skipped"))
        let record = try #require(try records(dir).first)
        #expect(record.results.map(\.outcome) == [.transportError, .invalid, .transportError, .response])
        #expect(record.results[0].error?.curlCode == 7)
        #expect(record.results[1].request == nil)
        #expect(record.results[2].error?.curlCode == 28)
        #expect(record.results[3].response?.status == 500)
    }

    @Test func stateFileIsByteIdenticalWhateverTheOrderAndProcess() throws {
        let a = try sampleWorkspace(), b = try sampleWorkspace()
        _ = try reqrun(["expand", "httpbin.org"], in: a)
        _ = try reqrun(["expand", "echo.websocket.org"], in: a)
        _ = try reqrun(["expand", "6df253c4", "7bbd0224-3a31-4ba7-9dbb-b7138de7aaee"], in: b)
        #expect(try a.read(".reqrun/state.json") == b.read(".reqrun/state.json"))
        #expect(try a.read(".reqrun/state.json").contains(#"[\"6DF253C4-3C91-4712-A398-605C67B1E5B5\",\"7BBD0224"#))
        let collapse = try reqrun(["collapse", "--all"], in: a)
        #expect(collapse.stdout == "collapsed httpbin.org\ncollapsed echo.websocket.org\n")
    }

    @Test func concurrentExpandsLoseNothing() throws {
        let dir = try TemporaryDirectory()
        let names = (0..<12).map { "g\($0)" }
        try dir.write("collections/many.json", """
            {"name": "Many", "groups": [\(names.map { "{\"name\": \"\($0)\"}" }.joined(separator: ","))]}
            """)
        let processes = try names.map { try ReqRunBinary.start(["expand", $0], in: dir.url) }
        let outputs = processes.map { $0.finish() }
        #expect(outputs.allSatisfy { $0.status == 0 })
        let listed = try reqrun(["list"], in: dir)
        #expect(!listed.stdout.contains("▸"))
        #expect(listed.stdout.components(separatedBy: "▾").count == names.count + 1)
    }

    @Test func invalidCollectionIsAnInputErrorAndTouchesNoState() throws {
        let dir = try sampleWorkspace()
        _ = try reqrun(["expand", "httpbin.org"], in: dir)
        let before = try dir.read(".reqrun/state.json")
        try dir.write("collections/z-bad.json", "{\n  \"name\": \"Bad\",\n  \"groups\": [\n    {\"name\": 1}\n  ]\n}\n")
        // expand --all needs every collection; expanding a group of another collection does not (issue 13 §3).
        let expand = try reqrun(["expand", "--all"], in: dir)
        #expect(expand.status == 2)
        #expect(expand.stderr == "error: collections/z-bad.json:4:14: groups[0].name: expected a string, found a number\n")
        #expect(try dir.read(".reqrun/state.json") == before)
        let other = try reqrun(["expand", "echo.websocket.org"], in: dir)
        #expect(other.status == 0)
        #expect(other.stderr == "warning: collections/z-bad.json:4:14: groups[0].name: expected a string, found a number (this collection is left out)\n")
        try dir.write("collections/z-bad.json", "{\"name\": \"Bad\", \"groups\": [}")
        let list = try reqrun(["list"], in: dir)
        #expect(list.status == 2)
        #expect(list.stderr == "error: collections/z-bad.json:1:28: expected a value, found character '}'\n")
        let run = try reqrun(["run", "--all"], in: dir)
        #expect(run.status == 2)
        #expect(!dir.exists(".reqrun/runs"))
    }

    @Test func unknownAndAmbiguousGroupsAreInputErrors() throws {
        let dir = try sampleWorkspace()
        try dir.write("collections/second.json", #"{"name": "Second", "groups": [{"name": "httpbin.org"}]}"#)
        let typo = try reqrun(["expand", "echo.websocket.com"], in: dir)
        #expect(typo.status == 2)
        #expect(typo.stderr == "error: no group named 'echo.websocket.com'; did you mean 'echo.websocket.org'?\n")
        let ambiguous = try reqrun(["expand", "httpbin.org"], in: dir)
        #expect(ambiguous.status == 2)
        let derived = GroupID.derived(fileName: "second.json", groupPath: ["httpbin.org"]).uuidString.lowercased()
        #expect(ambiguous.stderr == """
            error: 'httpbin.org' matches 2 groups; name one by its path or id:
              Sample: httpbin.org (7bbd0224-3a31-4ba7-9dbb-b7138de7aaee)
              Second: httpbin.org (\(derived))

            """)
        #expect(try reqrun(["expand", "Second/httpbin.org"], in: dir).stdout == "expanded httpbin.org\n")
    }

    @Test func unreadableStateIsMovedAsideWithOneWarning() throws {
        let dir = try sampleWorkspace()
        try dir.write(".reqrun/state.json", "[oops")
        let list = try reqrun(["list"], in: dir)
        #expect(list.status == 0)
        #expect(list.stderr.hasPrefix("warning: .reqrun/state.json:1:2: expected a value, found character 'o'; the file could not be read, so it was moved to .reqrun/state.json.unreadable-"))
        #expect(list.stdout.contains("▸ httpbin.org"))
        let backups = try FileManager.default.contentsOfDirectory(atPath: dir.url.appendingPathComponent(".reqrun").path)
            .filter { $0.hasPrefix("state.json.unreadable-") }
        #expect(backups.count == 1)
        #expect(try dir.read(".reqrun/\(backups[0])") == "[oops")
        #expect(try reqrun(["list"], in: dir).stderr == "")
    }

    @Test func listJSONDescribesTheTree() throws {
        let dir = try sampleWorkspace()
        _ = try reqrun(["expand", "httpbin.org"], in: dir)
        let output = try reqrun(["list", "--json"], in: dir)
        let tree = try JSONDecoder().decode(OutlineTree.self, from: Data(output.stdout.utf8))
        #expect(tree.expansion == "saved")
        let groups = tree.collections[0].groups
        #expect(groups.map(\.id) == ["7bbd0224-3a31-4ba7-9dbb-b7138de7aaee", "6df253c4-3c91-4712-a398-605c67b1e5b5"])
        #expect(groups.map(\.expanded) == [true, false])
        #expect(groups[0].requests.map(\.visible) == [true, true])
        #expect(groups[1].requests.map(\.visible) == [false])
        #expect(groups[1].requests[0].index == 2)
        let all = try JSONDecoder().decode(OutlineTree.self, from: Data(try reqrun(["list", "--all", "--json"], in: dir).stdout.utf8))
        #expect(all.expansion == "transient" && all.collections[0].groups.allSatisfy(\.expanded))
    }

    /// Output larger than stdout's 64 KiB buffer is written straight from the writer's bytes.
    @Test func largeListJSONArrivesWhole() throws {
        let dir = try TemporaryDirectory()
        let requests = (0..<1500).map { #"{"name": "réquête \#($0)", "url": "http://127.0.0.1:9/items/\#($0)"}"# }
        try dir.write("collections/big.json", #"{"name": "Big", "groups": [{"name": "g", "requests": ["#
                      + requests.joined(separator: ", ") + "]}]}")
        let output = try reqrun(["list", "--all", "--json"], in: dir)
        #expect(output.status == 0)
        #expect(output.stdout.utf8.count > 200_000 && output.stdout.hasSuffix("}\n"))
        let tree = try JSONDecoder().decode(OutlineTree.self, from: Data(output.stdout.utf8))
        let listed = tree.collections[0].groups[0].requests
        #expect(listed.count == 1500)
        #expect(listed.map(\.index) == Array(0..<1500))
        #expect(listed[1499].name == "réquête 1499" && listed[1499].url == "http://127.0.0.1:9/items/1499")
    }

    @Test func symlinkedCollectionsResolveFilesBesideTheRealFile() throws {
        let dir = try TemporaryDirectory()
        try dir.write("real/data.txt", "payload")
        try dir.write("real/c.json", #"{"name": "C", "groups": [{"name": "g", "requests": [{"url": "http://127.0.0.1:9/", "bodyFile": "data.txt"}]}]}"#)
        try FileManager.default.createDirectory(at: dir.url.appendingPathComponent("collections"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir.url.appendingPathComponent("collections/c.json").path,
                                                   withDestinationPath: dir.url.appendingPathComponent("real/c.json").path)
        #expect(try reqrun(["list", "--all"], in: dir).status == 0)
        try FileManager.default.createSymbolicLink(atPath: dir.url.appendingPathComponent("collections/gone.json").path,
                                                   withDestinationPath: dir.url.appendingPathComponent("real/missing.json").path)
        let dangling = try reqrun(["list"], in: dir)
        #expect(dangling.status == 2 && dangling.stderr == "error: collections/gone.json: is a symbolic link to a file that does not exist\n")
    }

    @Test func workspaceIsFoundFromASubfolderOrGiven() throws {
        let dir = try sampleWorkspace()
        try FileManager.default.createDirectory(at: dir.url.appendingPathComponent("a/b"), withIntermediateDirectories: true)
        let nested = try ReqRunBinary.run(["expand", "httpbin.org"], in: dir.url.appendingPathComponent("a/b"))
        #expect(nested.status == 0)
        #expect(dir.exists(".reqrun/state.json"))
        let elsewhere = try TemporaryDirectory()
        let given = try ReqRunBinary.run(["list", "--workspace", dir.path], in: elsewhere.url)
        #expect(given.stdout.contains("▾ httpbin.org"))
        let none = try ReqRunBinary.run(["list"], in: elsewhere.url)
        #expect(none.status == 2)
        #expect(none.stderr.hasPrefix("error: no workspace found at or above"))
        #expect(none.stderr.hasSuffix("use --workspace DIR, or make one here with 'reqrun init')\n"), "\(none.stderr)")
    }

    /// `newman run FILE` works from any folder; reqrun's equivalent outside a workspace says how
    /// (`--workspace .`) instead of only "no workspace found", and then runs the file.
    @Test func collectionFileOutsideAWorkspaceSaysHowToRunIt() throws {
        let httpbin = try TestServers.httpbin()
        let dir = try TemporaryDirectory()
        _ = try dir.write("shop.postman_collection.json", """
            {"info": {"name": "Shop", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             "item": [{"name": "get", "request": {"method": "GET", "url": "\(httpbin)/get"}}]}
            """)
        let named = try ReqRunBinary.run(["run", "shop.postman_collection.json"], in: dir.url)
        #expect(named.status == 2)
        #expect(named.stderr.hasSuffix("'reqrun init'); to run a collection file, name it with --collection FILE and add --all "
                                       + "(and '--workspace .' to run it from this folder)\n"), "\(named.stderr)")
        let given = try ReqRunBinary.run(["run", "--all", "--collection", "shop.postman_collection.json"], in: dir.url)
        #expect(given.status == 2)
        #expect(given.stderr.hasSuffix("'reqrun init'); to run only the --collection files from this folder, add '--workspace .' "
                                       + "(its .reqrun/ keeps the run records)\n"), "\(given.stderr)")
        let here = try ReqRunBinary.run(["run", "--all", "--collection", "shop.postman_collection.json", "--workspace", "."], in: dir.url)
        #expect(here.status == 0, "\(here.stderr)")
        #expect(here.stdout.contains("1 request: 1 passed"))
        #expect(dir.exists(".reqrun/runs"))
    }

    @Test func commandLineConventions() throws {
        let dir = try sampleWorkspace()
        let version = try reqrun(["--version"], in: dir)
        #expect(version.status == 0 && version.stdout == "\(reqrunVersion)\n")
        let help = try reqrun(["--help"], in: dir)
        #expect(help.status == 0 && help.stdout.contains("SUBCOMMANDS:") && help.stdout.contains("EXIT CODES:"))
        for command in ["list", "expand", "collapse", "run", "history", "show"] {
            let page = try reqrun([command, "--help"], in: dir)
            #expect(page.status == 0 && page.stdout.hasPrefix("OVERVIEW: ") && page.stdout.contains("USAGE: reqrun \(command)"))
        }
        let bad = try reqrun(["run", "--expandd"], in: dir)
        #expect(bad.status == 64)
        #expect(bad.stderr.hasPrefix("error: unknown option '--expandd'; did you mean '--expanded'?\nUsage: reqrun run "))
        let nothing = try reqrun(["run"], in: dir)
        #expect(nothing.status == 64 && nothing.stderr.hasPrefix("error: say what to run: --expanded, --all or NAME... (groups, collections or requests)\n"))
        let badVar = try reqrun(["run", "--all", "--var", "novalue"], in: dir)
        #expect(badVar.status == 64 && badVar.stderr.hasPrefix("error: --var expects NAME=VALUE, got 'novalue'\n"))
        let unknown = try reqrun(["lst"], in: dir)
        #expect(unknown.status == 64 && unknown.stderr.hasPrefix("error: unknown subcommand 'lst'; did you mean 'list'?"))
        #expect(try reqrun([], in: dir).status == 0)  // help, as `git` alone
        #expect(!dir.exists(".reqrun"))
    }
}
