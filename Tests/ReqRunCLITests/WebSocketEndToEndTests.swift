import Foundation
import Testing
import ReqRunKit
import TestSupport

/// WebSocket requests (`ws://`, `wss://`) against the local `websockets` server (`scripts/ws-server`), directly
/// and through nginx over TLS, through the test proxy, and against its misbehaving paths.
@Suite struct WebSocketEndToEndTests {
    /// A workspace whose collection holds `requests` (JSON objects, as text) in one group.
    private func workspace(_ requests: [String], files: [String: String] = [:]) throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory()
        try dir.write("collections/c.json", #"{"name": "C", "groups": [{"name": "g", "requests": [\#(requests.joined(separator: ","))]}]}"#)
        for (path, text) in files { try dir.write(path, text) }
        return dir
    }

    private func record(_ dir: TemporaryDirectory) throws -> RunRecord {
        try JSONDecoder().decode(RunRecord.self, from: Data(try ReqRunBinary.run(["show", "--json"], in: dir.url).stdout.utf8))
    }

    private func conversation(_ result: RequestResult) -> [String] {
        (result.webSocket?.messages ?? []).map { "\($0.direction) \($0.type) \($0.size) \($0.data.encoding == "utf8" ? $0.data.data : "b64:" + $0.data.data)" }
    }

    @Test func aConversationIsSentCheckedCapturedAndRecorded() throws {
        let ws = try TestServers.webSocket()
        let dir = try workspace([#"""
            {"name": "talk", "url": "\#(ws)/echo", "headers": {"X-Hello": "{{who}}"},
             "expect": [{"status": 101}, {"header": "Upgrade", "equals": "websocket"}],
             "messages": [
               {"send": "hi {{who}}"},
               {"receive": {"matches": "^hi w"}, "within": 2000, "capture": [{"var": "greeting", "regex": "hi (.*)"}]},
               {"sendJSON": {"op": "sub", "who": "{{greeting}}", "n": 1}},
               {"receive": {"json": "$.who", "equals": "world"}, "capture": [{"var": "op", "json": "$.op"}]},
               {"send": {"type": "binary", "base64": "AAEC/w=="}},
               {"receive": {"base64": "AAEC/w=="}},
               {"send": {"file": "data/msg.txt", "type": "text"}},
               {"receive": {"contains": "from a file"}},
               {"send": {"type": "ping", "data": "p1"}},
               {"close": {"code": 4000, "reason": "done"}}
             ]}
            """#, #"{"url": "\#(ws)/echo", "messages": [{"send": "{{op}}"}, {"receive": {"equals": "sub"}}]}"#],
            files: ["collections/data/msg.txt": "hello from a file"])
        let run = try ReqRunBinary.run(["run", "--all", "--var", "who=world"], in: dir.url)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let record = try record(dir)
        let result = record.results[0]
        #expect(result.outcome == .response && result.passed)
        #expect(result.response?.status == 101)
        #expect(result.request?.headers.contains(HeaderField(name: "X-Hello", value: "world")) == true)
        #expect(result.request?.headers.contains { $0.name == "Sec-WebSocket-Version" && $0.value == "13" } == true)
        #expect(conversation(result) == [
            "send text 8 hi world", "receive text 8 hi world",
            #"send text 32 {"op":"sub","who":"world","n":1}"#, #"receive text 32 {"op":"sub","who":"world","n":1}"#,
            "send binary 4 b64:AAEC/w==", "receive binary 4 b64:AAEC/w==",
            "send text 17 hello from a file", "receive text 17 hello from a file",
            // The pong comes after the close frame went: the close step does not wait for it.
            "send ping 2 p1", "send close 4 done", "receive pong 2 p1", "receive close 4 done",
        ])
        #expect(result.webSocket?.messages.last?.closeCode == 4000)
        let offsets = result.webSocket!.messages.map(\.offset)
        #expect(offsets == offsets.sorted() && offsets[0] > 0)
        #expect(result.expectations.map(\.description) == [
            "status == 101", "header \"Upgrade\" == \"websocket\"", "message matches /^hi w/ within 2000 ms",
            "message $.who equals \"world\"", "message is binary 4 bytes", "message contains \"from a file\"",
        ])
        #expect(result.captures.map(\.value) == ["world", "sub"])
        // A capture from a message reaches the next request.
        #expect(record.results[1].passed)
        let shown = try ReqRunBinary.run(["show"], in: dir.url).stdout
        #expect(shown.contains(" ms text 8 B  hi world\n  ← "), "\(shown)")
        #expect(shown.contains(" ms binary 4 B  base64 AAEC/w==\n"))
        #expect(shown.contains(" ms close 4 B 4000  done\n"))
    }

    @Test func withoutMessagesTheHandshakeIsCheckedAndTheConnectionClosedCleanly() throws {
        let ws = try TestServers.webSocket()
        let dir = try workspace([#"{"url": "\#(ws)/", "expect": [{"status": 101}, {"header": "Sec-WebSocket-Accept", "exists": true}]}"#])
        let run = try ReqRunBinary.run(["run", "--all"], in: dir.url)
        #expect(run.status == 0, "\(run.stdout)")
        #expect(conversation(try record(dir).results[0]) == ["send close 0 ", "receive close 0 "])
    }

    @Test func aMessageThatDoesNotMatchOrComeInTimeIsAFailedExpectation() throws {
        let ws = try TestServers.webSocket()
        let dir = try workspace([
            #"{"url": "\#(ws)/echo", "messages": [{"send": "a"}, {"receive": {"equals": "b"}}]}"#,
            #"{"url": "\#(ws)/echo", "messages": [{"receive": {}, "within": 200}]}"#,
            #"{"url": "\#(ws)/stream", "messages": [{"send": "2"}, {"receiveCount": 3, "within": 300}]}"#,
            #"{"url": "\#(ws)/close-4001", "messages": [{"receive": {}}]}"#,
        ])
        let started = Date()
        let run = try ReqRunBinary.run(["run", "--all"], in: dir.url)
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(run.status == 1, "\(run.stdout)")
        let results = try record(dir).results
        #expect(results.map(\.outcome) == [.response, .response, .response, .response])
        #expect(results.map { $0.expectations.last?.actual } == [
            "a", "no message within 200 ms", "2 messages within 300 ms",
            "the server closed the connection (4001 go away) after 0 messages",
        ])
        #expect(results.allSatisfy { !$0.passed })
    }

    @Test func streamsAreReadByCountOrUntilAMessageMatches() throws {
        let ws = try TestServers.webSocket()
        let dir = try workspace([
            #"{"url": "\#(ws)/stream", "messages": [{"send": "3"}, {"receiveCount": 3, "capture": [{"var": "last", "regex": "\\d+"}]}]}"#,
            #"{"url": "\#(ws)/stream", "messages": [{"send": "{{last}}"}, {"receiveUntil": {"equals": "tick 2"}}]}"#,
            #"{"url": "\#(ws)/greeting", "messages": [{"send": "x"}, {"receiveUntil": {"equals": "x"}, "within": 2000}]}"#,
        ])
        let run = try ReqRunBinary.run(["run", "--all"], in: dir.url)
        #expect(run.status == 0, "\(run.stdout)")
        let results = try record(dir).results
        #expect(results[0].captures.map(\.value) == ["3"])
        #expect(conversation(results[1]).filter { $0.hasPrefix("receive text") } == ["receive text 6 tick 1", "receive text 6 tick 2", "receive text 6 tick 3"])
        #expect(conversation(results[2]).prefix(3) == ["send text 1 x", "receive text 20 hello from ws-server", "receive text 1 x"])
    }

    @Test func fragmentedMessagesAreJoinedWithControlFramesBetweenTheirFragments() throws {
        let ws = try TestServers.webSocket()
        let dir = try workspace([#"{"url": "\#(ws)/fragments", "messages": [{"receive": {"equals": "fragmented"}}, {"receive": {"equals": "again"}}]}"#])
        let run = try ReqRunBinary.run(["run", "--all"], in: dir.url)
        #expect(run.status == 0, "\(run.stdout)")
        #expect(conversation(try record(dir).results[0]).prefix(4) == [
            "receive text 10 fragmented", "receive ping 3 mid", "send pong 3 mid", "receive text 5 again",
        ])
    }

    @Test func pingsFromTheServerAreAnsweredAndRecorded() throws {
        let ws = try TestServers.webSocket()
        let dir = try workspace([#"{"url": "\#(ws)/ping", "messages": [{"send": "after"}, {"receive": {"equals": "after"}}]}"#])
        let run = try ReqRunBinary.run(["run", "--all"], in: dir.url)
        #expect(run.status == 0, "\(run.stdout)")
        #expect(conversation(try record(dir).results[0]).prefix(4) == [
            "send text 5 after", "receive ping 13 are you there", "send pong 13 are you there", "receive text 5 after",
        ])
    }

    /// Each misbehaving server is a recorded error with its reason, exit code 3, and never a wait past the
    /// request's time limit.
    @Test func badPeersAreErrorsWithAClearReason() throws {
        let ws = try TestServers.webSocket()
        let cases: [(String, String)] = [
            ("refuse-200", "the server refused the WebSocket upgrade: status 200 OK (expected 101 Switching Protocols)"),
            ("refuse-404", "the server refused the WebSocket upgrade: status 404 Not Found (expected 101 Switching Protocols)"),
            ("wrong-accept", "the server's Sec-WebSocket-Accept is 'dGhpcyBpcyBub3QgdGhlIGtleQ==', expected '"),
            ("masked-frame", "the server sent a masked frame; a server must not mask its frames (RFC 6455 §5.1)"),
            ("oversized", "the server sent a frame of 2000000 bytes, more than the 1048576-byte limit (--max-size)"),
            ("invalid-utf8", "the server sent a text message that is not valid UTF-8 (RFC 6455 §8.1)"),
            ("drop", "the server closed the connection without a close frame (RFC 6455 §7.1.5: abnormal closure, 1006)"),
            ("silent", "timed out after "),
            ("big-handshake", "the handshake response's header block is over 100 KB"),
        ]
        let dir = try workspace(cases.map { #"{"url": "\#(ws)/\#($0.0)", "messages": [{"send": "x"}, {"receive": {}}]}"# })
        let started = Date()
        let run = try ReqRunBinary.run(["run", "--all", "--timeout", "1", "--max-size", "1M"], in: dir.url)
        #expect(Date().timeIntervalSince(started) < 6)
        #expect(run.status == 3, "\(run.stdout)")
        let results = try record(dir).results
        for (result, (path, reason)) in zip(results, cases) {
            #expect(result.outcome == .transportError, "\(path)")
            #expect(result.error?.message.hasPrefix(reason) == true, "\(path): \(result.error?.message ?? "no error")")
        }
        #expect(results[1].response?.status == 404)
        #expect(results[7].error?.curlCode == 28)
        // A protocol violation is answered with a close frame (1002, 1007) before the connection is dropped.
        #expect(results[3].webSocket?.messages.last?.closeCode == 1002)
        #expect(results[5].webSocket?.messages.last?.closeCode == 1007)
    }

    @Test func wssThroughNginxVerifiesTheCertificateAndTunnelsThroughTheProxy() throws {
        let https = try TestServers.nginxHTTPS()
        let wss = "wss" + https.dropFirst("https".count) + "/ws/echo"
        let dir = try workspace([#"{"url": "\#(wss)", "messages": [{"send": "over tls"}, {"receive": {"equals": "over tls"}}]}"#])
        let unverified = try ReqRunBinary.run(["run", "--all"], in: dir.url)
        #expect(unverified.status == 3)
        #expect(try record(dir).results[0].error?.curlCode == 60)
        let verified = try ReqRunBinary.run(["run", "--all", "--cacert", try TestServers.testCA()], in: dir.url)
        #expect(verified.status == 0, "\(verified.stdout)")
        #expect(try record(dir).results[0].timings.map { $0.appconnect > 0 } == true)
        let insecure = try ReqRunBinary.run(["run", "--all", "--insecure"], in: dir.url)
        #expect(insecure.status == 0, "\(insecure.stdout)")
        let proxied = try ReqRunBinary.run(["run", "--all", "--cacert", try TestServers.testCA(), "--proxy", try TestServers.proxy()], in: dir.url)
        #expect(proxied.status == 0, "\(proxied.stdout)")
        let port = https.split(separator: ":").last!
        #expect(TestServers.logLine(in: try TestServers.proxyLog(), containing: "CONNECT localhost:\(port)") != nil)
    }

    @Test func aClientCertificateIsPresentedOnTheWebSocketsTLSConnection() throws {
        let https = try TestServers.nginxHTTPS()
        let wss = "wss" + https.dropFirst("https".count) + "/ws/headers"
        let dir = try workspace([#"{"url": "\#(wss)", "headers": {"X-Mine": "yes"}, "messages": [{"receive": {"json": "$['X-Client-Verify']", "equals": "{{verify}}"}}]}"#])
        let without = try ReqRunBinary.run(["run", "--all", "--cacert", try TestServers.testCA(), "--var", "verify=NONE"], in: dir.url)
        #expect(without.status == 0, "\(without.stdout)")
        let with = try ReqRunBinary.run(["run", "--all", "--cacert", try TestServers.testCA(), "--cert", try TestServers.clientCertificate(),
                                         "--key", try TestServers.clientKey(), "--var", "verify=SUCCESS"], in: dir.url)
        #expect(with.status == 0, "\(with.stdout)")
        let headers = try #require(try record(dir).results[0].webSocket?.messages.first { $0.direction == "receive" }?.data.data)
        #expect(headers.contains(#""X-Mine": "yes""#))
    }

    @Test func secretsAreMaskedInTheConversation() throws {
        let ws = try TestServers.webSocket()
        let dir = try workspace([#"""
            {"url": "\#(ws)/echo", "auth": {"type": "bearer", "token": "{{token}}"},
             "messages": [{"send": "token={{token}}"}, {"receive": {"contains": "token="}}]}
            """#])
        let run = try ReqRunBinary.run(["run", "--all", "--var", "token=s3cr3t-t0ken"], in: dir.url)
        #expect(run.status == 0, "\(run.stdout)")
        let text = try String(contentsOf: dir.url.appendingPathComponent(".reqrun/runs").appendingPathComponent(
            try FileManager.default.contentsOfDirectory(atPath: dir.url.appendingPathComponent(".reqrun/runs").path).first!), encoding: .utf8)
        #expect(!text.contains("s3cr3t-t0ken"))
        #expect(conversation(try record(dir).results[0]).prefix(2) == ["send text 18 token=****", "receive text 18 token=****"])
    }

    @Test func urlUserInformationGoesAsBasicAuthAndIsMasked() throws {
        let ws = try TestServers.webSocket()
        let withUser = ws.replacingOccurrences(of: "ws://", with: "ws://user:pa55word@")
        let dir = try workspace([#"{"name": "basic", "url": "\#(withUser)/headers", "messages": [{"receive": {"json": "$.Authorization", "equals": "Basic dXNlcjpwYTU1d29yZA=="}}]}"#])
        let run = try ReqRunBinary.run(["run", "--all"], in: dir.url)
        #expect(run.status == 0, "\(run.stdout)")
        let json = try ReqRunBinary.run(["show", "--json"], in: dir.url).stdout
        #expect(!json.contains("pa55word") && !json.contains("dXNlcjpwYTU1d29yZA=="))
        #expect(try record(dir).results[0].request?.headers.contains(HeaderField(name: "Authorization", value: "****")) == true)
    }

    @Test func parallelRunsKeepListOrderWithWebSocketRequestsAmongHTTPOnes() throws {
        let ws = try TestServers.webSocket()
        let http = try TestServers.nginxHTTP()
        let dir = try workspace([
            #"{"url": "\#(ws)/slow", "messages": [{"receive": {"equals": "late"}, "capture": [{"var": "word", "regex": "l(at)e"}]}]}"#,
            #"{"url": "\#(http)/"}"#, #"{"url": "\#(ws)/echo", "messages": [{"send": "1"}, {"receive": {"equals": "1"}}]}"#,
            #"{"url": "\#(http)/"}"#,
            #"{"url": "\#(http)/echo-uri?w={{word}}", "expect": [{"body": {"equals": "/echo-uri?w=at"}}]}"#,
        ])
        let started = Date()
        let run = try ReqRunBinary.run(["run", "--all", "--parallel", "3"], in: dir.url)
        #expect(Date().timeIntervalSince(started) < 3)
        #expect(run.status == 0, "\(run.stdout)")
        let results = try record(dir).results
        #expect(results.map(\.index) == Array(0..<5))
        #expect(results.map { $0.response?.status } == [101, 200, 101, 200, 200])
        // The slow WebSocket request (about 1 s) did not hold up the requests after it…
        let slowEnd = results[0].startOffset! + results[0].timings!.total
        #expect(results[0].timings!.total > 900_000)
        #expect(results[1...3].allSatisfy { $0.startOffset! + $0.timings!.total < slowEnd })
        // …except the one that uses what it captured from a message.
        #expect(results[4].startOffset! >= slowEnd)
    }

    @Test func reportsShowTheConversation() throws {
        let ws = try TestServers.webSocket()
        let dir = try workspace([
            #"{"name": "chat", "url": "\#(ws)/echo", "messages": [{"send": "<hi>"}, {"receive": {"equals": "<hi>"}}, {"send": {"base64": "AAE="}}, {"receive": {"base64": "AAE="}}, {"send": "x"}, {"receive": {"equals": "nope"}}]}"#,
            #"{"url": "\#(ws)/refuse-404"}"#,
        ])
        let run = try ReqRunBinary.run(["run", "--all", "--report", "har=r.har", "--report", "html=r.html", "--report", "junit=r.xml"], in: dir.url)
        #expect(run.status == 3, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("  ✗ chat                             GET      101  "), "\(run.stdout)")
        #expect(run.stdout.contains("  8 messages  \(ws)/echo\n      ✗ message equals \"nope\""), "\(run.stdout)")
        let lines = try Python.run("""
            import json, sys
            from haralyzer import HarParser, HarEntry
            data = json.load(open(sys.argv[1]))
            HarParser(data)
            for raw in data["log"]["entries"]:
                e = HarEntry(raw)
                print("entry|%s|%d|%s" % (e.request.method, e.status, raw.get("_resourceType")))
                for m in raw.get("_webSocketMessages", []):
                    print("message|%s|%d|%s|%s" % (m["type"], m["opcode"], m["data"], m["time"] > 1.7e9))
            """, [dir.url.appendingPathComponent("r.har").path]).split(separator: "\n")
        #expect(lines == [
            "entry|GET|101|websocket", "message|send|1|<hi>|True", "message|receive|1|<hi>|True",
            "message|send|2|AAE=|True", "message|receive|2|AAE=|True", "message|send|1|x|True", "message|receive|1|x|True",
            "entry|GET|404|websocket",
        ])
        let html = try dir.read("r.html")
        #expect(html.contains("<ul class=\"ws\"><li class=\"send\">→ "))
        #expect(html.contains("text 4 B <span class=\"data\">&lt;hi&gt;</span></li><li class=\"receive\">← "))
        #expect(html.contains("binary 2 B <span class=\"data\">base64 AAE=</span>"))
        let junit = try Python.run("""
            import sys
            from junitparser import JUnitXml
            for suite in JUnitXml.fromfile(sys.argv[1]):
                for case in suite:
                    print("%s|%s" % (case.name, ",".join(type(r).__name__ + ":" + (r.message or "") for r in case.result)))
            """, [dir.url.appendingPathComponent("r.xml").path]).split(separator: "\n")
        #expect(junit == ["chat|Failure:message equals \"nope\": expected nope, actual x",
                          "\(ws)/refuse-404|Error:the server refused the WebSocket upgrade: status 404 Not Found (expected 101 Switching Protocols)"])
    }

    @Test func escapeSequencesFromTheServerAreEscapedOnTheConsole() throws {
        let ws = try TestServers.webSocket()
        let dir = try workspace([#"{"url": "\#(ws)/echo", "messages": [{"send": "\u001b]0;pwned\u0007\u001b[2J"}, {"receive": {"equals": "x"}}]}"#])
        let run = try ReqRunBinary.run(["run", "--all"], in: dir.url)
        #expect(run.status == 1)
        #expect(!run.stdout.contains("\u{1b}") && !run.stdout.contains("\u{7}"))
        #expect(run.stdout.contains(#"actual:   \u{1b}]0;pwned\u{7}\u{1b}[2J"#), "\(run.stdout)")
    }

    @Test(arguments: [(SIGINT, Int32(130), "interrupted (Ctrl-C)"), (SIGTERM, Int32(143), "stopped by SIGTERM")])
    func aSignalStopsAWaitingWebSocketRequest(_ number: Int32, _ status: Int32, _ reason: String) throws {
        let ws = try TestServers.webSocket()
        let dir = try workspace([#"{"url": "\#(ws)/silent"}"#, #"{"url": "\#(ws)/echo", "messages": [{"receive": {}}]}"#,
                                 #"{"url": "\#(ws)/echo"}"#])
        let running = try ReqRunBinary.start(["run", "--all", "--timeout", "0", "--parallel", "2"], in: dir.url)
        Thread.sleep(forTimeInterval: 0.5)
        let signalled = ContinuousClock.now
        running.send(signal: number)
        let output = running.finish()
        #expect(ContinuousClock.now - signalled < .seconds(1.5))
        #expect(output.status == status)
        let results = try record(dir).results
        #expect(results.map(\.outcome) == [.transportError, .transportError, .notRun])
        #expect(results[0].error?.message == reason && results[1].error?.message == reason)
    }

    @Test func aServerThatSendsNothingEndsAtTheRequestsTimeLimit() throws {
        let ws = try TestServers.webSocket()
        let dir = try workspace([#"{"url": "\#(ws)/echo", "timeout": 0.5, "messages": [{"receive": {}}]}"#])
        let started = Date()
        let run = try ReqRunBinary.run(["run", "--all"], in: dir.url)
        #expect(Date().timeIntervalSince(started) < 3)
        #expect(run.status == 3)
        let result = try record(dir).results[0]
        #expect(result.error == ResultError(curlCode: 28, message: "groups[0].requests[0].messages[0]: timed out waiting for a message (the request's time limit)"))
    }

    @Test func showCurlExplainsThatAWebSocketRequestHasNoCurlCommand() throws {
        let dir = try workspace([#"{"name": "live", "url": "wss://example.invalid/feed"}"#])
        let shown = try ReqRunBinary.run(["show", "--curl", "live"], in: dir.url)
        #expect(shown.status == 3)
        #expect(shown.stderr == "error: 'live' is a WebSocket request, which has no curl command line (this curl does not speak WebSocket); 'reqrun run' sends it\n")
    }

    @Test func aFileOutsideTheWorkspaceIsRefusedWhenTheCollectionLoads() throws {
        let dir = try workspace([#"{"url": "ws://127.0.0.1:1/", "messages": [{"send": {"file": "/etc/hostname"}}]}"#])
        let run = try ReqRunBinary.run(["run", "--all"], in: dir.url)
        #expect(run.status != 0 && run.status != 1 && run.status != 3)
        #expect(run.stderr.contains("messages[0].send.file"), "\(run.stderr)")
        #expect(run.stderr.contains("is outside the workspace"), "\(run.stderr)")
    }
}
