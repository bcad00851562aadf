import Foundation
import Testing
import ReqRunKit
import TestSupport

/// The executor against a real local httpbin (started by `make test`).
@Suite struct HTTPExecutorTests {
    private func send(_ path: String, method: String = "GET", headers: [HeaderField] = [], body: String? = nil,
                      options: ExecutorOptions = ExecutorOptions()) throws -> TransferResult {
        let executor = HTTPExecutor(options: options)
        defer { executor.close() }
        return executor.send(PreparedRequest(method: method, url: try TestServers.httpbin() + path, headers: headers,
                                             body: body.map { .bytes(Array($0.utf8)) }))
    }

    private func json(_ result: TransferResult) throws -> [String: Any] {
        let response = try #require(result.response)
        let object = try JSONSerialization.jsonObject(with: Data(response.body.data.utf8))
        return try #require(object as? [String: Any])
    }

    @Test func getRecordsStatusVersionHeadersBodyAndTimings() throws {
        let result = try send("/get?x=1")
        let response = try #require(result.response)
        #expect(result.error == nil)
        #expect(response.status == 200)
        #expect(response.httpVersion == "1.1")
        #expect(response.headers.first?.name == "Server")
        #expect(response.headers.contains(HeaderField(name: "Content-Type", value: "application/json")))
        #expect(response.remoteAddress == "127.0.0.1")
        #expect(response.remotePort == URL(string: try TestServers.httpbin())!.port)
        #expect(response.body.encoding == "utf8" && !response.body.truncated)
        #expect(response.bodySize == response.body.data.utf8.count)
        #expect(response.bodySHA256 == Digest.hex(Digest.sha256(Array(response.body.data.utf8))))
        #expect(try json(result)["args"] as? [String: String] == ["x": "1"])
        #expect(result.sentHeaders.contains(HeaderField(name: "User-Agent", value: "reqrun/\(reqrunVersion)")))
        let t = result.timings
        let phases = [t.namelookup, t.connect, t.pretransfer, t.starttransfer, t.total]
        #expect(phases == phases.sorted())
        #expect(t.total > 0)
        #expect(t.appconnect == 0)
    }

    /// One executor, one connection: each transfer records its own sent and received fields, also where
    /// the bytes differ from the transfer before only in a value (`HeaderFieldCache`).
    @Test func eachTransferRecordsItsOwnHeaderFields() throws {
        let executor = HTTPExecutor(options: ExecutorOptions())
        defer { executor.close() }
        let base = try TestServers.httpbin()
        for value in ["a", "b", "b", "a", "ccc"] {
            let result = executor.send(PreparedRequest(method: "GET", url: base + "/response-headers?X-Echo=" + value,
                                                       headers: [HeaderField(name: "X-Sent", value: value)], body: nil))
            #expect(result.sentHeaders.filter { $0.name == "X-Sent" } == [HeaderField(name: "X-Sent", value: value)])
            #expect(result.response?.headers.filter { $0.name == "X-Echo" } == [HeaderField(name: "X-Echo", value: value)])
        }
    }

    @Test func postSendsTheBodyAsGiven() throws {
        let body = #"{"big":12345678901234567890,"s":"é"}"#
        let result = try send("/post", method: "POST", headers: [HeaderField(name: "Content-Type", value: "application/json")], body: body)
        let echoed = try json(result)
        #expect(echoed["data"] as? String == body)
        #expect((echoed["headers"] as? [String: String])?["Content-Length"] == String(body.utf8.count))
        #expect((echoed["headers"] as? [String: String])?["Expect"] == nil)
        #expect(result.sentHeaders.first { $0.name == "Content-Type" }?.value == "application/json")
    }

    @Test(arguments: ["PUT", "PATCH", "DELETE"])
    func otherMethodsAreSentWithTheirBody(_ method: String) throws {
        let result = try send("/anything", method: method, body: "payload")
        let echoed = try json(result)
        #expect(echoed["method"] as? String == method)
        #expect(echoed["data"] as? String == "payload")
        // No Content-Type was given, so none is sent (curl's form default is removed).
        #expect((echoed["headers"] as? [String: String])?["Content-Type"] == nil)
    }

    @Test func headRequestEndsWithoutABody() throws {
        let result = try send("/get", method: "HEAD")
        #expect(result.response?.status == 200)
        #expect(result.response?.bodySize == 0)
    }

    @Test(arguments: [201, 204, 404, 418, 500, 503])
    func statusCodesAreRecorded(_ status: Int) throws {
        let result = try send("/status/\(status)")
        #expect(result.response?.status == status)
        #expect(result.error == nil)
    }

    @Test func headerFieldsKeepOrderRepeatsAndEmptyValues() throws {
        let result = try send("/headers", headers: [HeaderField(name: "X-B", value: "1"), HeaderField(name: "X-A", value: "2"),
                                                    HeaderField(name: "X-B", value: "3"), HeaderField(name: "X-Empty", value: "")])
        let sent = result.sentHeaders.filter { $0.name.hasPrefix("X-") }
        #expect(sent == [HeaderField(name: "X-B", value: "1"), HeaderField(name: "X-A", value: "2"),
                         HeaderField(name: "X-B", value: "3"), HeaderField(name: "X-Empty", value: "")])
        let received = try #require(try json(result)["headers"] as? [String: String])
        #expect(received["X-B"] == "1,3")
        #expect(received["X-Empty"] == "")
        // Response header fields are recorded in the order received, repeats kept.
        let response = try send("/response-headers?X-B=1&X-A=2&X-B=3")
        #expect(response.response?.headers.filter { $0.name.hasPrefix("X-") }
                == [HeaderField(name: "X-B", value: "1"), HeaderField(name: "X-B", value: "3"), HeaderField(name: "X-A", value: "2")])
    }

    @Test func userAgentFromARequestWins() throws {
        let result = try send("/user-agent", headers: [HeaderField(name: "User-Agent", value: "mine/1")])
        #expect(try json(result)["user-agent"] as? String == "mine/1")
    }

    @Test func bodyBeyondTheLimitIsHashedWholeAndKeptInPart() throws {
        let size = 100_000
        let result = try send("/range/\(size)")
        let response = try #require(result.response)
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz".utf8)
        let expected = (0..<size).map { alphabet[$0 % 26] }
        #expect(response.bodySize == size)
        #expect(response.bodySHA256 == Digest.hex(Digest.sha256(expected)))
        #expect(response.body.truncated)
        #expect(response.body.data.utf8.count == RunRecord.bodyLimit)
    }

    @Test func binaryBodyIsRecordedAsBase64() throws {
        let result = try send("/bytes/64?seed=7")
        let response = try #require(result.response)
        #expect(response.bodySize == 64)
        let decoded = try #require(Data(base64Encoded: response.body.data))
        #expect(response.body.encoding == "base64" || String(validating: Array(decoded), as: UTF8.self) != nil)
        #expect(Digest.hex(Digest.sha256(Array(decoded))) == response.bodySHA256)
    }

    @Test func connectionsAreReusedBetweenRequests() throws {
        let executor = HTTPExecutor()
        defer { executor.close() }
        let url = try TestServers.httpbin() + "/get"
        let results = (0..<3).map { _ in executor.send(PreparedRequest(method: "GET", url: url, headers: [], body: nil)) }
        #expect(results.map { $0.response?.status } == [200, 200, 200])
        // libcurl reports connect time 0 for a transfer on a reused (kept-alive) connection.
        #expect(results[0].timings.connect > 0)
        #expect(results[1].timings.connect == 0 && results[2].timings.connect == 0)
    }

    @Test func closedPortIsATransportError() {
        let executor = HTTPExecutor()
        defer { executor.close() }
        let port = TestServers.closedPort()
        let result = executor.send(PreparedRequest(method: "GET", url: "http://127.0.0.1:\(port)/", headers: [], body: nil))
        #expect(result.response == nil)
        #expect(result.error?.curlCode == 7)  // CURLE_COULDNT_CONNECT
        #expect(result.error?.message.contains("port \(port)") == true)
    }

    @Test func timeoutStopsASlowResponse() throws {
        let started = Date()
        let result = try send("/delay/5", options: ExecutorOptions(timeoutMilliseconds: 700))
        #expect(result.error?.curlCode == 28)  // CURLE_OPERATION_TIMEDOUT
        #expect(result.error?.message.contains("imed out") == true)
        #expect(Date().timeIntervalSince(started) < 3)
        #expect(result.timings.total >= 600_000)
    }

    @Test func fileURLsAreRefusedByLibcurl() {
        // Even a request that reaches the executor directly cannot read local files (CURLOPT_PROTOCOLS_STR).
        let executor = HTTPExecutor()
        defer { executor.close() }
        let result = executor.send(PreparedRequest(method: "GET", url: "file:///etc/passwd", headers: [], body: nil))
        #expect(result.response == nil)
        #expect(result.error?.curlCode == 1)  // CURLE_UNSUPPORTED_PROTOCOL
    }

    @Test func unresolvableHostIsATransportError() {
        let executor = HTTPExecutor(options: ExecutorOptions(connectTimeoutMilliseconds: 3000))
        defer { executor.close() }
        let result = executor.send(PreparedRequest(method: "GET", url: "http://no-such-host.invalid/", headers: [], body: nil))
        #expect(result.error?.curlCode == 6)  // CURLE_COULDNT_RESOLVE_HOST
    }
}
