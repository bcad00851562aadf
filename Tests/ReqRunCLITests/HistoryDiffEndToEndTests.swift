import Foundation
import Testing
import ReqRunKit
import TestSupport

/// `history`, `diff` and `env list` for people and scripts (issue 13 §3): diff with no run or one run,
/// colours, `--ignore-time`, bodies compared only when both are text, and the `--json` forms.
@Suite struct HistoryDiffEndToEndTests {
    private func workspace() throws -> TemporaryDirectory {
        let httpbin = try TestServers.httpbin()
        let dir = try TemporaryDirectory()
        try dir.write("collections/d.json", """
            {"name": "D", "groups": [{"name": "g.v1", "requests": [
              {"name": "status", "url": "\(httpbin)/status/{{code}}"},
              {"name": "random bytes", "url": "\(httpbin)/bytes/32"},
              {"name": "same", "url": "\(httpbin)/get"}]}]}
            """)
        try dir.write("environments/local.json", #"{"code": "200"}"#)
        return dir
    }

    private func ids(_ dir: TemporaryDirectory) throws -> [String] {
        let history = try ReqRunBinary.run(["history", "--json"], in: dir.url)
        let runs = try #require(try JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [[String: Any]])
        return runs.compactMap { $0["id"] as? String }
    }

    @Test func diffWithNoRunOrOneRunAndItsJSON() throws {
        let dir = try workspace()
        #expect(try ReqRunBinary.run(["run", "--all", "-e", "local"], in: dir.url).status == 0)
        let none = try ReqRunBinary.run(["diff"], in: dir.url)
        #expect(none.status == 2 && none.stderr.hasPrefix("error: no run recorded before "))
        #expect(try ReqRunBinary.run(["run", "g.v1", "-e", "local", "--var", "code=500"], in: dir.url).status == 0)
        #expect(try ReqRunBinary.run(["run", "D", "-e", "local"], in: dir.url).status == 0)
        let ids = try ids(dir)
        #expect(ids.count == 3)
        let last = try ReqRunBinary.run(["diff"], in: dir.url)
        #expect(last.status == 0)
        #expect(last.stdout.hasPrefix("\(ids[1]) → \(ids[0])\n"))
        #expect(last.stdout == (try ReqRunBinary.run(["diff", ids[1], ids[0]], in: dir.url)).stdout)
        let one = try ReqRunBinary.run(["diff", ids[1]], in: dir.url)
        #expect(one.stdout.hasPrefix("\(ids[2]) → \(ids[1])\n"))
        #expect(one.stdout.contains("~ D › g.v1 › status  status 200 → 500"))
        // Binary bodies differ every time (random bytes) but are not compared; text bodies are.
        #expect(!one.stdout.contains("random bytes  body changed"))
        let quiet = try ReqRunBinary.run(["diff", ids[1], "--ignore-time"], in: dir.url)
        #expect(!quiet.stdout.contains("time ") && !quiet.stdout.contains("› same"))
        let coloured = try ReqRunBinary.run(["diff", ids[1], "--color", "always"], in: dir.url)
        #expect(coloured.stdout.contains("\u{1B}[33m~\u{1B}[0m D › g.v1 › status"))
        let json = try ReqRunBinary.run(["diff", ids[1], "--json"], in: dir.url)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["before"] as? String == ids[2] && object["after"] as? String == ids[1])
        let requests = try #require(object["requests"] as? [[String: Any]])
        #expect(requests.map { $0["request"] as? String } == ["D › g.v1 › status", "D › g.v1 › random bytes", "D › g.v1 › same"])
        #expect((requests[0]["status"] as? [String: String]) == ["before": "200", "after": "500"])
        #expect(requests[1]["bodyCompared"] as? Bool == false && requests[2]["bodyCompared"] as? Bool == true)
        #expect(object["changed"] as? Int == 1)
    }

    @Test func historyShowsDurationEnvironmentAndSelectionByName() throws {
        let dir = try workspace()
        #expect(try ReqRunBinary.run(["run", "g.v1", "-e", "local"], in: dir.url).status == 0)
        #expect(try ReqRunBinary.run(["run", "D", "same", "--var", "code=200"], in: dir.url).status == 0)
        let history = try ReqRunBinary.run(["history"], in: dir.url)
        let lines = history.stdout.split(separator: "\n").map(String.init)
        #expect(lines[0].hasPrefix("RUN                       STARTED                   DURATION  ENVIRONMENT   SELECTION "))
        #expect(lines[1].contains(" -             D, D › g.v1 › same ") || lines[1].contains(" -             D, "), "\(lines[1])")
        #expect(lines[2].contains(" local         g.v1 "), "\(lines[2])")
        #expect(lines[2].contains(" ms ") || lines[2].contains(" s "))
        let json = try ReqRunBinary.run(["history", "--json"], in: dir.url)
        let runs = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(runs.count == 2)
        #expect(runs[1]["environment"] as? String == "local")
        #expect((runs[1]["selection"] as? [String: Any])?["groups"] as? [String] == ["g.v1"])
        #expect((runs[1]["summary"] as? [String: Int])?["total"] == 3)
        #expect(runs[1]["durationMs"] is Int)
    }

    @Test func envListJSON() throws {
        let dir = try workspace()
        try dir.write("environments/prod.json", #"{"code": "200"}"#)
        #expect(try ReqRunBinary.run(["env", "use", "prod"], in: dir.url).status == 0)
        let list = try ReqRunBinary.run(["env", "list", "--json"], in: dir.url)
        let environments = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        #expect(environments.map { $0["name"] as? String } == ["local", "prod"])
        #expect(environments.map { $0["inUse"] as? Bool } == [false, true])
    }
}
