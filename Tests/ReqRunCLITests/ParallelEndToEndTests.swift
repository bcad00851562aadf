import Foundation
import Testing
import ReqRunKit
import TestSupport

/// `reqrun run --parallel N` against the local httpbin: order, captures, failures.
@Suite struct ParallelEndToEndTests {
    private func run(_ requests: String, _ options: [String]) throws -> (ReqRunBinary.Output, RunRecord) {
        let dir = try TemporaryDirectory()
        try dir.write("collections/p.json", #"{"name": "P", "groups": [{"name": "g", "requests": [\#(requests.replacingOccurrences(of: "$B", with: try TestServers.httpbin()))]}]}"#)
        let output = try ReqRunBinary.run(["run", "--all"] + options, in: dir.url)
        let record = try JSONDecoder().decode(RunRecord.self, from: Data(try ReqRunBinary.run(["show", "--json"], in: dir.url).stdout.utf8))
        return (output, record)
    }

    @Test func resultsKeepListOrderWhateverFinishesFirst() throws {
        // Slowest first: in flight together, they finish in reverse order.
        let delays = [1.2, 1.0, 0.8, 0.6, 0.4, 0.2]
        let requests = delays.enumerated().map { #"{"name": "r\#($0)", "url": "$B/delay/\#($1)"}"# }.joined(separator: ",")
        let started = Date()
        let (output, record) = try run(requests, ["--parallel", "6"])
        let elapsed = Date().timeIntervalSince(started)
        #expect(output.status == 0)
        #expect(record.results.map(\.name) == (0..<6).map { "r\($0)" })
        let lines = output.stdout.split(separator: "\n").dropFirst().prefix(6)  // after the heading
        for (i, line) in lines.enumerated() { #expect(line.contains("/delay/\(delays[i])"), "\(line)") }
        // All six overlapped: the run took about the longest delay, far less than their sum (4.2 s).
        #expect(elapsed < 3.0)
        let offsets = record.results.compactMap(\.startOffset)
        #expect(offsets.max()! - offsets.min()! < 500_000)
    }

    @Test func requestsUsingACaptureWaitForIt() throws {
        let requests = """
            {"name": "login", "url": "$B/delay/0.5?token=tok-7", "capture": [{"var": "token", "json": "$.args.token"}]},
            {"name": "independent", "url": "$B/get"},
            {"name": "uses 1", "url": "$B/anything?t={{token}}", "expect": [{"json": "$.args.t", "equals": "tok-7"}]},
            {"name": "uses 2", "url": "$B/headers", "headers": {"X-T": "{{token}}"}, "expect": [{"json": "$.headers.X-T", "equals": "tok-7"}]},
            {"name": "later capture", "url": "$B/anything?t={{token}}-2", "capture": [{"var": "second", "json": "$.args.t"}]},
            {"name": "uses second", "url": "$B/anything?s={{second}}", "expect": [{"json": "$.args.s", "equals": "tok-7-2"}]}
            """
        let (output, record) = try run(requests, ["--parallel", "8"])
        #expect(output.status == 0, "\(output.stdout)")
        let byName = Dictionary(uniqueKeysWithValues: record.results.map { ($0.name, $0) })
        let loginEnd = byName["login"]!.startOffset! + byName["login"]!.timings!.total
        #expect(byName["independent"]!.startOffset! < loginEnd)
        for name in ["uses 1", "uses 2", "later capture"] { #expect(byName[name]!.startOffset! >= loginEnd, "\(name)") }
        let secondEnd = byName["later capture"]!.startOffset! + byName["later capture"]!.timings!.total
        #expect(byName["uses second"]!.startOffset! >= secondEnd)
    }

    @Test func failuresUnderConcurrencyAreCountedAndOrdered() throws {
        let port = TestServers.closedPort()
        var requests: [String] = []
        for i in 0..<24 {
            switch i % 4 {
            case 0: requests.append(#"{"name": "ok\#(i)", "url": "$B/get?i=\#(i)", "expect": [{"json": "$.args.i", "equals": "\#(i)"}]}"#)
            case 1: requests.append(#"{"name": "refused\#(i)", "url": "http://127.0.0.1:\#(port)/\#(i)"}"#)
            case 2: requests.append(#"{"name": "wrong\#(i)", "url": "$B/status/500", "expect": [{"status": 200}]}"#)
            default: requests.append(#"{"name": "undefined\#(i)", "url": "$B/{{nope}}"}"#)
            }
        }
        let (output, record) = try run(requests.joined(separator: ","), ["--parallel", "16"])
        #expect(output.status == 3)
        #expect(record.results.map(\.index) == Array(0..<24))
        #expect(record.summary == RunSummary(record.results))
        #expect(record.summary.passed == 6 && record.summary.failed == 6 && record.summary.errors == 12)
        #expect(record.results.filter { $0.name.hasPrefix("ok") }.allSatisfy { $0.passed })

        let (bailed, bailedRecord) = try run(requests.joined(separator: ","), ["--parallel", "4", "--bail"])
        #expect(bailed.status == 3)
        #expect(bailedRecord.summary.notRun > 0)
        #expect(bailedRecord.results.map(\.index) == Array(0..<24))
    }

    /// More results than several of the second thread's batches: console lines and record keep list order,
    /// and a secret is masked in each, on the same path as in a sequential run.
    @Test func manyResultsKeepOrderAndAreMasked() throws {
        let dir = try TemporaryDirectory()
        let requests = (0..<101).map { #"{"name": "r\#($0)", "url": "{{base}}/anything?i=\#($0)&key={{apiKey}}", "expect": [{"json": "$.args.i", "equals": "\#($0)"}]}"# }
        try dir.write("collections/p.json", #"{"name": "P", "groups": [{"name": "g", "requests": [\#(requests.joined(separator: ","))]}]}"#)
        try dir.write("environments/e.json", #"{"base": "\#(try TestServers.httpbin())", "apiKey": {"value": "HUSH-HUSH-9", "secret": true}}"#)
        for options in [["--parallel", "8"], []] {
            let output = try ReqRunBinary.run(["run", "--all", "--env", "e"] + options, in: dir.url)
            #expect(output.status == 0, "\(options): \(output.stdout)")
            let lines = output.stdout.split(separator: "\n").dropFirst().prefix(101)  // after the heading
            #expect(lines.enumerated().allSatisfy { i, line in line.contains("?i=\(i)&key=****") }, "\(options)")
            let shown = try ReqRunBinary.run(["show", "--json"], in: dir.url).stdout
            #expect(!shown.contains("HUSH-HUSH-9"))
            let record = try JSONDecoder().decode(RunRecord.self, from: Data(shown.utf8))
            #expect(record.results.map(\.name) == (0..<101).map { "r\($0)" })
            #expect(record.results.allSatisfy { $0.passed && $0.url.hasSuffix("&key=****") })
        }
    }

    /// Found in review: with the next request started before the previous one was finished, a plain run
    /// sent a request that did not need the capture ahead of one that did, resolved `{{auth}}` (an
    /// environment value holding `{{token}}`) before `token` was captured, and left a captured cookie
    /// unmasked in the next request's record. Requests go in list order, one after another.
    @Test func capturesThroughEnvironmentValuesAndCookiesKeepSequentialOrder() throws {
        let dir = try TemporaryDirectory()
        let requests = """
            {"name": "login", "url": "{{base}}/anything?token=tok-9", "capture": [{"var": "token", "json": "$.args.token"}]},
            {"name": "uses auth", "url": "{{base}}/headers", "headers": {"X-Auth": "{{auth}}"},
             "expect": [{"json": "$.headers.X-Auth", "equals": "Bearer tok-9"}]},
            {"name": "independent", "url": "{{base}}/get"},
            {"name": "set cookie", "url": "{{base}}/cookies/set?sess=cookie-value-77", "capture": [{"var": "sess", "cookie": "sess"}]},
            {"name": "echo cookie", "url": "{{base}}/cookies", "expect": [{"json": "$.cookies.sess", "exists": true}]}
            """
        try dir.write("collections/c.json", #"{"name": "C", "groups": [{"name": "g", "requests": [\#(requests)]}]}"#)
        try dir.write("environments/e.json", #"{"base": "\#(try TestServers.httpbin())", "auth": "Bearer {{token}}"}"#)
        for options in [[], ["--parallel", "4"]] {
            let output = try ReqRunBinary.run(["run", "--all", "--env", "e"] + options, in: dir.url)
            #expect(output.status == 0, "\(options): \(output.stdout)")
            let shown = try ReqRunBinary.run(["show", "--json"], in: dir.url).stdout
            #expect(!shown.contains("cookie-value-77"), "\(options): a captured cookie is a secret")
            let record = try JSONDecoder().decode(RunRecord.self, from: Data(shown.utf8))
            #expect(record.results.allSatisfy { $0.passed }, "\(options)")
            // The request using {{auth}} started only after the login it depends on was over.
            let login = record.results[0], usesAuth = record.results[1]
            #expect(usesAuth.startOffset! >= login.startOffset! + login.timings!.total, "\(options)")
            if options.isEmpty {
                // One after another: each starts after the one before it ended.
                for (before, after) in zip(record.results, record.results.dropFirst()) {
                    #expect(after.startOffset! >= before.startOffset! + before.timings!.total, "\(after.name)")
                }
            }
        }
    }

    /// Found in review: a request that captures started beside the earlier requests that read the same
    /// variable, so with --iterations a later iteration's login replaced the token, or was replaced by an
    /// earlier one's, before a request sent it: here iteration 1's slow login finished last and iteration 2
    /// sent tok-1.
    @Test func aCaptureWaitsForTheEarlierRequestsThatReadItsVariable() throws {
        let dir = try TemporaryDirectory()
        let base = try TestServers.httpbin()
        let requests = """
            {"name": "login", "url": "\(base)/delay/{{d}}?token=tok-{{n}}", "capture": [{"var": "token", "json": "$.args.token"}]},
            {"name": "use", "url": "\(base)/anything?t={{token}}"}
            """
        try dir.write("collections/c.json", #"{"name": "C", "groups": [{"name": "g", "requests": [\#(requests)]}]}"#)
        try dir.write("data.json", #"[{"n": "1", "d": "0.6"}, {"n": "2", "d": "0"}, {"n": "3", "d": "0"}]"#)
        let output = try ReqRunBinary.run(["run", "--all", "--iteration-data", "data.json", "--parallel", "4"], in: dir.url)
        #expect(output.status == 0, "\(output.stdout)")
        let record = try JSONDecoder().decode(RunRecord.self, from: Data(try ReqRunBinary.run(["show", "--json"], in: dir.url).stdout.utf8))
        #expect(record.results.filter { $0.name == "use" }.map(\.url) == (1...3).map { "\(base)/anything?t=tok-\($0)" })
    }

    @Test(arguments: [(SIGINT, Int32(130), "interrupted (Ctrl-C)"), (SIGTERM, Int32(143), "stopped by SIGTERM")])
    func aSignalStopsTheRunAndTheRecordIsWritten(_ number: Int32, _ status: Int32, _ reason: String) throws {
        let dir = try TemporaryDirectory()
        let base = try TestServers.httpbin()
        try dir.write("collections/s.json", #"{"name": "S", "groups": [{"name": "g", "requests": [{"url": "\#(base)/get"}, {"url": "\#(base)/delay/5"}, {"url": "\#(base)/get"}]}]}"#)
        let started = Date()
        let running = try ReqRunBinary.start(["run", "--all"], in: dir.url)
        Thread.sleep(forTimeInterval: 1.0)
        running.send(signal: number)
        let output = running.finish()
        #expect(output.status == status)
        #expect(Date().timeIntervalSince(started) < 3.5)
        let record = try JSONDecoder().decode(RunRecord.self, from: Data(try ReqRunBinary.run(["show", "--json"], in: dir.url).stdout.utf8))
        #expect(record.results.map(\.outcome) == [.response, .transportError, .notRun])
        #expect(record.results[1].error?.message == reason)
        #expect(record.results[2].error?.message == "not run: the run was \(reason)")
    }

    @Test func aSignalStopsTheRunDuringARetryWait() throws {
        let dir = try TemporaryDirectory()
        try dir.write("collections/s.json", #"{"name": "S", "groups": [{"name": "g", "requests": [{"url": "\#(try TestServers.httpbin())/status/503"}]}]}"#)
        let running = try ReqRunBinary.start(["run", "--all", "--retry", "5"], in: dir.url)
        Thread.sleep(forTimeInterval: 2.0)  // past the first attempts, inside a backoff of 2 s or more
        let signalled = Date()
        running.send(signal: SIGTERM)
        let output = running.finish()
        #expect(output.status == 143)
        #expect(Date().timeIntervalSince(signalled) < 1.0)
    }

    /// A cookie set by a response that captures nothing, captured by a later request: every result sent
    /// with it before the capture is masked in the record too (their console lines were printed already).
    @Test func aCookieCapturedLateIsMaskedInEarlierResultsOfTheRecord() throws {
        let dir = try TemporaryDirectory()
        let nginx = try TestServers.nginxHTTP(), httpbin = try TestServers.httpbin()
        let requests = [#"{"name": "sets", "url": "\#(nginx)/cookie"}"#, #"{"name": "echoes", "url": "\#(httpbin)/cookies"}"#,
                        #"{"name": "captures", "url": "\#(nginx)/cookie", "capture": [{"var": "nc", "cookie": "nginxcookie"}]}"#]
        try dir.write("collections/c.json", #"{"name": "C", "groups": [{"name": "g", "requests": [\#(requests.joined(separator: ","))]}]}"#)
        for options in [[], ["--parallel", "2"]] {
            let output = try ReqRunBinary.run(["run", "--all", "--report", "har=r.har"] + options, in: dir.url)
            #expect(output.status == 0, "\(options): \(output.stdout)")
            let shown = try ReqRunBinary.run(["show", "--json"], in: dir.url).stdout
            #expect(shown.contains("nginxcookie") && !shown.contains("fromnginx"), "\(options)")
            #expect(!(try String(contentsOf: dir.url.appendingPathComponent("r.har"), encoding: .utf8)).contains("fromnginx"))
        }
    }

    @Test func aSignalStopsTheRunDuringADelay() throws {
        let dir = try TemporaryDirectory()
        let base = try TestServers.httpbin()
        try dir.write("collections/s.json", #"{"name": "S", "groups": [{"name": "g", "requests": [{"url": "\#(base)/get"}, {"url": "\#(base)/get"}]}]}"#)
        let started = Date()
        let running = try ReqRunBinary.start(["run", "--all", "--delay", "8000"], in: dir.url)
        Thread.sleep(forTimeInterval: 1.0)
        running.send(signal: SIGINT)
        let output = running.finish()
        #expect(output.status == 130)
        #expect(Date().timeIntervalSince(started) < 3)
        let record = try JSONDecoder().decode(RunRecord.self, from: Data(try ReqRunBinary.run(["show", "--json"], in: dir.url).stdout.utf8))
        #expect(record.results.map(\.outcome) == [.response, .notRun])
    }

    @Test func delayIsForSequentialRuns() throws {
        let dir = try TemporaryDirectory()
        try dir.write("collections/p.json", #"{"name": "P", "groups": [{"name": "g", "requests": [{"url": "http://127.0.0.1:9/"}]}]}"#)
        let output = try ReqRunBinary.run(["run", "--all", "--parallel", "2", "--delay", "10"], in: dir.url)
        #expect(output.status == 64)
        #expect(output.stderr.hasPrefix("error: --delay paces requests one after another"))
        #expect(!dir.exists(".reqrun"))
    }
}
