import Foundation
import Testing
import ReqRunKit
import TestSupport

/// Requests as people write them, checked on the wire by the local httpbin (which echoes what arrived).
@Suite struct RequestsEndToEndTests {
    /// Runs a one-group collection of `requests` (JSON text, `$B` standing for httpbin's base URL) and
    /// returns the exit code, stdout and the run record.
    private func run(_ requests: String, options: [String] = [], files: [String: String] = [:]) throws -> (ReqRunBinary.Output, RunRecord, TemporaryDirectory) {
        let dir = try TemporaryDirectory()
        for (name, text) in files { try dir.write("collections/\(name)", text) }
        try dir.write("collections/t.json", #"{"name": "T", "groups": [{"name": "g", "requests": [\#(requests.replacingOccurrences(of: "$B", with: try TestServers.httpbin()))]}]}"#)
        let output = try ReqRunBinary.run(["run", "--all"] + options, in: dir.url)
        let shown = try ReqRunBinary.run(["show", "--json"], in: dir.url)
        let record = try JSONDecoder().decode(RunRecord.self, from: Data(shown.stdout.utf8))
        return (output, record, dir)
    }

    private func echoed(_ result: RequestResult) throws -> [String: Any] {
        let body = try #require(result.response?.body.data)
        return try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
    }

    @Test func redirectsFollowTheRulesOnTheWire() throws {
        let (output, record, _) = try run("""
            {"name": "post302", "method": "POST", "url": "$B/redirect-to?url=/anything&status_code=302", "body": {"a": 1},
             "expect": [{"json": "$.method", "equals": "GET"}, {"json": "$.data", "equals": ""}, {"json": "$.headers.Content-Type", "exists": false}]},
            {"name": "put303", "method": "PUT", "url": "$B/redirect-to?url=/anything&status_code=303", "body": "x", "expect": [{"json": "$.method", "equals": "GET"}]},
            {"name": "post307", "method": "POST", "url": "$B/redirect-to?url=/anything&status_code=307", "body": {"a": 1},
             "expect": [{"json": "$.method", "equals": "POST"}, {"json": "$.json.a", "equals": 1}]},
            {"name": "put308", "method": "PUT", "url": "$B/redirect-to?url=/anything&status_code=308", "body": "kept",
             "expect": [{"json": "$.method", "equals": "PUT"}, {"json": "$.data", "equals": "kept"}]},
            {"name": "head303", "method": "HEAD", "url": "$B/redirect-to?url=/get&status_code=303"},
            {"name": "other host", "url": "$B/redirect-to?url=\(try TestServers.httpbin().replacingOccurrences(of: "127.0.0.1", with: "localhost"))/headers",
             "headers": {"Authorization": "Bearer x", "Cookie": "c=1", "X-Keep": "1"},
             "expect": [{"json": "$.headers.Authorization", "exists": false}, {"json": "$.headers.Cookie", "exists": false}, {"json": "$.headers.X-Keep", "equals": "1"}]},
            {"name": "same host", "url": "$B/redirect-to?url=/headers", "headers": {"Authorization": "Bearer x"},
             "expect": [{"json": "$.headers.Authorization", "equals": "Bearer x"}]},
            {"name": "too many", "url": "$B/redirect/5", "maxRedirects": 2},
            {"name": "to a file", "url": "$B/redirect-to?url=file:///etc/passwd"},
            {"name": "not followed", "url": "$B/redirect-to?url=/get", "followRedirects": false, "expect": [{"status": 302}]}
            """)
        #expect(output.status == 3)
        let byName = Dictionary(uniqueKeysWithValues: record.results.map { ($0.name, $0) })
        for name in ["post302", "put303", "post307", "put308", "head303", "other host", "same host", "not followed"] {
            #expect(byName[name]?.passed == true, "\(name): \(byName[name]?.expectations.filter { !$0.passed } ?? [])")
        }
        #expect(byName["head303"]?.redirects.map(\.status) == [303])
        #expect(byName["head303"]?.request?.headers.isEmpty == false)
        #expect(byName["post302"]?.redirects == [RedirectHop(method: "POST", url: "\(try TestServers.httpbin())/redirect-to?url=/anything&status_code=302",
                                                             status: 302, location: "\(try TestServers.httpbin())/anything",
                                                             total: byName["post302"]!.redirects[0].total)])
        #expect(byName["too many"]?.redirects.count == 2)
        #expect(byName["too many"]?.error?.message == "stopped after the maximum of 2 redirects (--max-redirs)")
        #expect(byName["to a file"]?.error?.message == "a redirect to a file:// URL is not followed (only http and https)")
        #expect(byName["not followed"]?.redirects.isEmpty == true)
        #expect(output.stdout.contains("200  ") && output.stdout.contains("↪ 1 redirect"))
    }

    @Test func locationTrustedAndNoFollowOptions() throws {
        let other = try TestServers.httpbin().replacingOccurrences(of: "127.0.0.1", with: "localhost")
        let request = #"{"url": "$B/redirect-to?url=\#(other)/headers", "headers": {"Authorization": "Bearer x"}, "expect": [{"json": "$.headers.Authorization", "equals": "Bearer x"}]}"#
        #expect(try run(request, options: ["--location-trusted"]).0.status == 0)
        let (_, record, _) = try run(#"{"url": "$B/redirect/3"}"#, options: ["--no-follow"])
        #expect(record.results[0].response?.status == 302 && record.results[0].redirects.isEmpty)
    }

    @Test func cookiesFlowThroughTheRunAndTheJar() throws {
        let localhost = try TestServers.httpbin().replacingOccurrences(of: "127.0.0.1", with: "localhost")
        let requests = """
            {"name": "set by redirect", "url": "$B/cookies/set?k=v", "expect": [{"json": "$.cookies.k", "equals": "v"}]},
            {"name": "sent later", "url": "$B/cookies", "expect": [{"json": "$.cookies.k", "equals": "v"}]},
            {"name": "domain localhost", "url": "\(localhost)/response-headers?Set-Cookie=d%3D1%3B%20Domain%3Dlocalhost%3B%20Path%3D/"},
            {"name": "domain sent", "url": "\(localhost)/cookies", "expect": [{"json": "$.cookies.d", "equals": "1"}]}
            """
        let (output, record, dir) = try run(requests, options: ["--cookie-jar", "jar.txt"])
        #expect(output.status == 0, "\(record.results.map { ($0.name, $0.expectations.filter { !$0.passed }) })")
        let jar = try dir.read("jar.txt")
        #expect(jar.contains("# Netscape HTTP Cookie File"))
        #expect(jar.contains("\tk\tv") && jar.contains("\td\t1"))
        // A later run starts with the jar's cookies.
        try dir.write("collections/t.json", #"{"name": "T", "groups": [{"name": "g", "requests": [{"url": "\#(try TestServers.httpbin())/cookies", "expect": [{"json": "$.cookies.k", "equals": "v"}]}]}]}"#)
        #expect(try ReqRunBinary.run(["run", "--all", "--cookie-jar", "jar.txt"], in: dir.url).status == 0)
        #expect(try ReqRunBinary.run(["run", "--all"], in: dir.url).status == 1)
    }

    @Test func cookieJarMustBeAJarAndCookieCapturesAreSecret() throws {
        let (refused, _, _) = try runExpectingNoRecord(#"{"url": "$B/get"}"#, options: ["--cookie-jar", "collections/t.json"])
        #expect(refused.status == 2)
        #expect(refused.stderr == "error: collections/t.json: is not a cookie jar (Netscape format, or Newman's JSON); --cookie-jar would overwrite it (choose another file)\n")
        let (output, record, _) = try run("""
            {"name": "login", "url": "$B/cookies/set?session=TopSecretCookie", "capture": [{"var": "sid", "cookie": "session"}]},
            {"name": "echo", "url": "$B/headers", "headers": {"X-Session": "{{sid}}"}, "expect": [{"json": "$.headers.X-Session", "equals": "{{sid}}"}]}
            """)
        #expect(output.status == 0, "\(output.stdout)")
        // The cookie came with the 302 before /cookies; the capture sees it, and it is masked everywhere.
        #expect(record.results[0].captures == [CaptureResult(variable: "sid", value: "****", error: nil)])
        #expect(record.results[1].request?.headers.contains(HeaderField(name: "X-Session", value: "****")) == true)
        #expect(!output.stdout.contains("TopSecretCookie"))
    }

    private func runExpectingNoRecord(_ requests: String, options: [String]) throws -> (ReqRunBinary.Output, Int, TemporaryDirectory) {
        let dir = try TemporaryDirectory()
        try dir.write("collections/t.json", #"{"name": "T", "groups": [{"name": "g", "requests": [\#(requests.replacingOccurrences(of: "$B", with: try TestServers.httpbin()))]}]}"#)
        let output = try ReqRunBinary.run(["run", "--all"] + options, in: dir.url)
        #expect(!dir.exists(".reqrun/runs"))
        #expect(try dir.read("collections/t.json").hasPrefix("{"))
        return (output, 0, dir)
    }

    @Test func compressedResponsesAreDecodedAndBothSizesRecorded() throws {
        let (output, record, _) = try run("""
            {"name": "gzip", "url": "$B/gzip", "expect": [{"json": "$.gzipped", "equals": true}]},
            {"name": "brotli", "url": "$B/brotli", "expect": [{"json": "$.brotli", "equals": true}]},
            {"name": "deflate", "url": "$B/deflate", "expect": [{"json": "$.deflated", "equals": true}]}
            """)
        #expect(output.status == 0)
        for result in record.results {
            let response = try #require(result.response)
            #expect(response.wireSize > 0 && response.wireSize < response.bodySize, "\(result.name)")
            #expect(response.headers.contains { $0.name.lowercased() == "content-encoding" })
            #expect(result.request?.headers.contains { $0.name == "Accept-Encoding" && $0.value.contains("br") && $0.value.contains("zstd") } == true)
        }
    }

    @Test func aRequestThatBreaksItsConnectionDoesNotStallTheNext() throws {
        // A 1.1 MB header field is more than libcurl will send (it fails with code 27); the request after it
        // must still run, sequentially and with --parallel.
        let long = String(repeating: "a", count: 1_100_000)
        for options in [["--timeout", "5"], ["--timeout", "5", "--parallel", "2"]] {
            let started = Date()
            let (output, record, _) = try run(#"{"url": "$B/get", "headers": {"X-Long": "\#(long)"}}, {"url": "$B/get"}"#, options: options)
            #expect(output.status == 3)
            #expect(record.results.map(\.outcome) == [.transportError, .response])
            #expect(Date().timeIntervalSince(started) < 4)
        }
    }

    @Test func chunkedResponsesArriveWhole() throws {
        let (output, record, _) = try run(#"{"url": "$B/stream/20"}, {"url": "$B/stream-bytes/100000?chunk_size=4096&seed=3"}"#)
        #expect(output.status == 0)
        let lines = try #require(record.results[0].response)
        #expect(lines.headers.contains { $0.name.lowercased() == "transfer-encoding" && $0.value == "chunked" })
        #expect(lines.body.data.split(separator: "\n").count == 20)
        #expect(record.results[1].response?.bodySize == 100_000 && record.results[1].response?.body.encoding == "base64")
    }

    @Test func emptyResponsesFinishAtOnce() throws {
        let (output, record, _) = try run("""
            {"name": "head", "method": "HEAD", "url": "$B/drip?duration=5&numbytes=5&delay=0"},
            {"name": "204", "url": "$B/status/204"},
            {"name": "304", "url": "$B/status/304"}
            """, options: ["--timeout", "4"])
        #expect(output.status == 0)
        #expect(record.results.map { $0.response?.status } == [200, 204, 304])
        #expect(record.results.allSatisfy { $0.response?.bodySize == 0 && ($0.timings?.total ?? .max) < 2_000_000 })
    }

    @Test func bodiesArriveAsWritten() throws {
        let dir = try TemporaryDirectory()
        let payload = (0..<30_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try dir.write("collections/note.txt", "hello file")
        try Data(payload).write(to: dir.url.appendingPathComponent("collections/blob.bin"))
        let base = try TestServers.httpbin()
        try dir.write("collections/t.json", """
            {"name": "T", "groups": [{"name": "g", "requests": [
              {"name": "json", "method": "POST", "url": "\(base)/anything", "body": {"big": 12345678901234567890123, "f": 1.50, "z": 1, "a": [1e3]}},
              {"name": "form", "method": "POST", "url": "\(base)/anything", "form": [{"name": "a b", "value": "1&2=3+4%"}, {"name": "ü", "value": "ü"}, {"name": "a b", "value": ""}]},
              {"name": "multipart", "method": "POST", "url": "\(base)/anything", "multipart": [{"name": "field", "value": "text value"},
                {"name": "upload", "file": "note.txt", "contentType": "text/plain"}]},
              {"name": "file", "method": "PUT", "url": "\(base)/anything", "bodyFile": "blob.bin"},
              {"name": "graphql", "method": "POST", "url": "\(base)/anything", "graphql": {"query": "{ me { id } }", "variables": {"n": 1}}},
              {"name": "query", "url": "\(base)/anything?x=1", "query": [{"name": "b", "value": "2 3"}, {"name": "b", "value": "ü"}]},
              {"name": "empty header", "url": "\(base)/headers", "headers": [{"name": "X-Empty", "value": ""}, {"name": "X-Twice", "value": "1"}, {"name": "X-Twice", "value": "2"}]}
            ]}]}
            """)
        let output = try ReqRunBinary.run(["run", "--all"], in: dir.url)
        #expect(output.status == 0, "\(output.stdout)")
        let record = try JSONDecoder().decode(RunRecord.self, from: Data(try ReqRunBinary.run(["show", "--json"], in: dir.url).stdout.utf8))
        let r = Dictionary(uniqueKeysWithValues: record.results.map { ($0.name, $0) })
        #expect(try echoed(r["json"]!)["data"] as? String == #"{"big":12345678901234567890123,"f":1.50,"z":1,"a":[1e3]}"#)
        #expect(try echoed(r["form"]!)["data"] as? String == "" )
        #expect(try echoed(r["form"]!)["form"] as? NSDictionary == ["a b": ["1&2=3+4%", ""], "ü": "ü"] as NSDictionary)
        #expect(r["form"]?.request?.body?.data == "a+b=1%262%3D3%2B4%25&%C3%BC=%C3%BC&a+b=")
        let multipart = try echoed(r["multipart"]!)
        #expect(multipart["form"] as? [String: String] == ["field": "text value"])
        #expect(multipart["files"] as? [String: String] == ["upload": "hello file"])
        #expect(((multipart["headers"] as? [String: String])?["Content-Type"] ?? "").hasPrefix("multipart/form-data; boundary="))
        let file = try echoed(r["file"]!)
        #expect(r["file"]?.request?.bodySize == payload.count)
        let fileData = try #require(file["data"] as? String)
        #expect(fileData.hasPrefix("data:application/octet-stream;base64,"))
        #expect(Data(base64Encoded: String(fileData.dropFirst("data:application/octet-stream;base64,".count))) == Data(payload))
        #expect(try echoed(r["graphql"]!)["json"] as? NSDictionary == ["query": "{ me { id } }", "variables": ["n": 1]] as NSDictionary)
        #expect(r["query"]?.url == "\(base)/anything?x=1&b=2%203&b=%C3%BC")
        #expect(try echoed(r["query"]!)["args"] as? NSDictionary == ["x": "1", "b": ["2 3", "ü"]] as NSDictionary)
        let headers = try #require(try echoed(r["empty header"]!)["headers"] as? [String: String])
        #expect(headers["X-Empty"] == "" && headers["X-Twice"] == "1,2")
    }

    @Test func internationalHostsGoAsPunycode() throws {
        let port = URL(string: try TestServers.httpbin())!.port!
        let (output, record, _) = try run(#"{"url": "http://bücher.localhost:\#(port)/headers", "expect": [{"json": "$.headers.Host", "equals": "xn--bcher-kva.localhost:\#(port)"}]}"#)
        #expect(output.status == 0, "\(record.results.first?.error?.message ?? "")")
        #expect(record.results[0].url == "http://xn--bcher-kva.localhost:\(port)/headers")
    }

    @Test func retryDelayBailAndPerRequestTimeout() throws {
        let started = Date()
        let (output, record, _) = try run("""
            {"name": "busy", "url": "$B/status/503"},
            {"name": "slow", "url": "$B/delay/3", "timeout": 0.5},
            {"name": "never", "url": "$B/get"}
            """, options: ["--retry", "2", "--bail", "--delay", "200"])
        #expect(output.status == 3)
        #expect(record.results[0].attempts == 3 && record.results[0].response?.status == 503)
        // The 503 has no expectations, so it passes; the timeout is the first failure and --bail stops there.
        #expect(record.results.map(\.outcome) == [.response, .transportError, .notRun])
        #expect(record.results[1].error?.curlCode == 28)
        #expect(record.results[2].error?.message == "not run: --bail stopped the run at request #1 (slow)")
        #expect(output.stdout.contains("3 requests: 1 passed, 0 failed, 1 error, 0 skipped, 1 not run"))
        // Backoff 0.5 s then 1 s between the three attempts, 0.2 s between requests, 0.5 s timeout.
        #expect(Date().timeIntervalSince(started) >= 2.2)

        let (timed, timedRecord, _) = try run(#"{"name": "slow", "url": "$B/delay/3", "timeout": 0.5}, {"name": "next", "url": "$B/get"}"#)
        #expect(timed.status == 3)
        #expect(timedRecord.results[0].error?.curlCode == 28 && timedRecord.results[1].outcome == .response)
    }
}

/// `reqrun show --curl`: the printed command, run by a shell, sends what `reqrun run` sends.
@Suite struct CurlCommandEndToEndTests {
    @Test func printedCommandSendsTheSameRequest() throws {
        let dir = try TemporaryDirectory()
        let base = try TestServers.httpbin()
        try dir.write("collections/c.json", """
            {"name": "C", "variables": {"base": "\(base)", "token": "t0k'en"}, "groups": [{"name": "g", "requests": [
              {"name": "create", "method": "POST", "url": "{{base}}/anything?x=1 2", "query": {"q": "ü"},
               "headers": [{"name": "X-Quote", "value": "it's \\"quoted\\""}, {"name": "X-Empty", "value": ""}],
               "auth": {"type": "bearer", "token": "{{token}}"}, "body": {"name": "O'Brien", "n": 1}}
            ]}]}
            """)
        let masked = try ReqRunBinary.run(["show", "--curl", "g/create"], in: dir.url)
        #expect(masked.status == 0)
        #expect(masked.stdout.contains("'Authorization: ****'") && !masked.stdout.contains("t0k"))
        let shown = try ReqRunBinary.run(["show", "--curl", "create", "--show-secrets"], in: dir.url)
        #expect(shown.stdout.hasPrefix("curl --request POST '\(base)/anything?x=1%202&q=%C3%BC' --header "))

        let viaCurl = try shell(shown.stdout)
        #expect(try ReqRunBinary.run(["run", "--all", "--show-secrets"], in: dir.url).status == 0)
        let record = try JSONDecoder().decode(RunRecord.self, from: Data(try ReqRunBinary.run(["show", "--json"], in: dir.url).stdout.utf8))
        let viaReqrun = try #require(record.results.first?.response?.body.data)
        let a = try JSONSerialization.jsonObject(with: Data(viaCurl.utf8)) as? NSDictionary
        let b = try JSONSerialization.jsonObject(with: Data(viaReqrun.utf8)) as? NSDictionary
        #expect(a != nil && a == b)
        #expect((a?["headers"] as? [String: String])?["Authorization"] == "Bearer t0k'en")
    }

    private func shell(_ command: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
