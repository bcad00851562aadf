import Foundation
import Testing
import ReqRunKit
import TestSupport

/// The local test servers that `scripts/test` starts (nginx over HTTP and HTTPS/2, tinyproxy) behave as the
/// tests that use them expect. Plain HTTP goes through `HTTPExecutor`; TLS and the proxy are checked with the
/// `curl` CLI until the executor has options for a CA, a client certificate and a proxy.
@Suite struct TestServerTests {
    private func send(_ url: String, method: String = "GET", headers: [HeaderField] = [], body: String? = nil,
                      options: ExecutorOptions = ExecutorOptions()) -> TransferResult {
        let executor = HTTPExecutor(options: options)
        defer { executor.close() }
        return executor.send(PreparedRequest(method: method, url: url, headers: headers, body: body.map { .bytes(Array($0.utf8)) }))
    }

    private func header(_ response: ResponseRecord, _ name: String) -> String? {
        response.headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// A query value no other request uses, to find this request's line in a log.
    private func unique() -> String { UUID().uuidString.lowercased() }

    /// Pipes `bytes` through a decompressing command (`zstd -dc`, `gzip -dc`) and returns its output.
    private func decompress(_ bytes: [UInt8], with command: [String]) throws -> [UInt8] {
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("reqrun-\(unique())")
        try Data(bytes).write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command + [input.path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "\(command) failed")
        return Array(output)
    }

    @Test func nginxAnswersOverPlainHTTP() throws {
        let result = send(try TestServers.nginxHTTP() + "/")
        let response = try #require(result.response)
        #expect(result.error == nil)
        #expect(response.status == 200)
        #expect(response.httpVersion == "1.1")
        #expect(response.body.data == "ok")
        #expect(response.remoteAddress == "127.0.0.1")
    }

    @Test(arguments: ["/echo-uri?a=%2F&b=%2f&c=1+2", "/echo-uri/x%20y/%C3%A9?q", "/echo-uri/a//b?x=%00"])
    func echoURIReturnsTheTargetAsItArrivedAndTheLogHasTheRequestLine(_ target: String) throws {
        let sent = target + "&id=" + unique()
        let result = send(try TestServers.nginxHTTP() + sent)
        let response = try #require(result.response)
        #expect(response.status == 200)
        #expect(response.body.data == sent)
        #expect(header(response, "Content-Type") == "text/plain")
        #expect(header(response, "X-Method") == "GET")
        let line = try #require(TestServers.logLine(in: try TestServers.nginxLog(), containing: sent))
        #expect(line.contains("\"GET \(sent) HTTP/1.1\" HTTP/1.1 200 "), "\(line)")
    }

    @Test func echoURIReportsTheMethod() throws {
        let sent = "/echo-uri?id=" + unique()
        let result = send(try TestServers.nginxHTTP() + sent, method: "POST", body: "payload")
        let response = try #require(result.response)
        #expect(response.body.data == sent)
        #expect(header(response, "X-Method") == "POST")
    }

    @Test(arguments: [("/zstd", "zstd", [UInt8]([0x28, 0xB5, 0x2F, 0xFD]), ["zstd", "-q", "-dc"]),
                      ("/gzip", "gzip", [UInt8]([0x1F, 0x8B]), ["gzip", "-dc"])])
    func compressedRoutesServeThePrecompressedDocument(_ path: String, _ coding: String, _ magic: [UInt8],
                                                       _ decoder: [String]) throws {
        let plain = try #require(send(try TestServers.nginxHTTP() + "/zstd.json").response)
        #expect(header(plain, "Content-Type") == "application/json")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(plain.body.data.utf8)) as? [String: Any])
        #expect(document["server"] as? String == "nginx")
        #expect(document["text"] as? String == "héllo wörld")

        // Without decoding, the bytes arrive as they were stored, and the command-line tool decodes them.
        let raw = send(try TestServers.nginxHTTP() + path, options: ExecutorOptions(decodeContent: false))
        let rawResponse = try #require(raw.response)
        #expect(rawResponse.status == 200)
        #expect(header(rawResponse, "Content-Encoding") == coding)
        #expect(header(rawResponse, "Content-Type") == "application/json")
        #expect(Array(raw.body.prefix(magic.count)) == magic)
        #expect(raw.body.count == rawResponse.bodySize && rawResponse.bodySize < plain.bodySize)
        #expect(try decompress(raw.body, with: decoder) == Array(plain.body.data.utf8))

        // By default the executor asks for it, decodes it, and records both sizes.
        let decoded = try #require(send(try TestServers.nginxHTTP() + path).response)
        #expect(decoded.body.data == plain.body.data && decoded.bodySHA256 == plain.bodySHA256)
        #expect(decoded.bodySize == plain.bodySize && decoded.wireSize == rawResponse.bodySize)
    }

    @Test func bigIs64MiBOfZeros() throws {
        let result = send(try TestServers.nginxHTTP() + "/big")
        let response = try #require(result.response)
        #expect(result.error == nil)
        #expect(response.status == 200)
        #expect(header(response, "Content-Length") == String(64 << 20))
        #expect(response.bodySize == 64 << 20)
        #expect(response.body.truncated)
        #expect(result.body.allSatisfy { $0 == 0 })
        #expect(response.bodySHA256 == Digest.hex(Digest.sha256([UInt8](repeating: 0, count: 64 << 20))))
    }

    @Test func cookieRouteSetsACookieAndEchoesTheCookieHeader() throws {
        let result = send(try TestServers.nginxHTTP() + "/cookie", headers: [HeaderField(name: "Cookie", value: "a=1; b=2")])
        let response = try #require(result.response)
        #expect(header(response, "Set-Cookie") == "nginxcookie=fromnginx; Path=/")
        #expect(response.body.data == "a=1; b=2")
    }

    @Test func httpsIsServedOverHTTP2WithACertificateFromTheTestCA() throws {
        let base = try TestServers.nginxHTTPS()
        #expect(base.hasPrefix("https://localhost:"))
        let sent = "/echo-uri?id=" + unique()
        let output = try CurlTool.run(["--cacert", try TestServers.testCA(), "--write-out", "\n%{http_version}", base + sent])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == sent + "\n2")
        let line = try #require(TestServers.logLine(in: try TestServers.nginxLog(), containing: sent))
        #expect(line.contains("https ") && line.contains("\"GET \(sent) HTTP/2.0\" HTTP/2.0 200 "), "\(line)")

        // The certificate also names 127.0.0.1, and HTTP/1.1 is still offered.
        let byAddress = base.replacingOccurrences(of: "//localhost:", with: "//127.0.0.1:")
        let http1 = try CurlTool.run(["--cacert", try TestServers.testCA(), "--http1.1", "--write-out", " %{http_version}", byAddress + "/"])
        #expect(http1.status == 0, "\(http1.stderr)")
        #expect(http1.stdout == "ok 1.1")
    }

    @Test func theTestCAIsNotTrustedByDefault() throws {
        // curl: 60 = peer certificate cannot be authenticated with known CA certificates.
        let output = try CurlTool.run([try TestServers.nginxHTTPS() + "/"])
        #expect(output.status == 60, "\(output.stderr)")
        // The executor (no CA option yet) refuses it too, rather than sending anything.
        let result = send(try TestServers.nginxHTTPS() + "/")
        #expect(result.response == nil)
        #expect(result.error?.curlCode == 60)
    }

    @Test func clientCertificateIsVerifiedAgainstTheTestCA() throws {
        let url = try TestServers.nginxHTTPS() + "/client-cert"
        let ca = try TestServers.testCA()
        let with = try CurlTool.run(["--cacert", ca, "--cert", try TestServers.clientCertificate(),
                                        "--key", try TestServers.clientKey(), url])
        #expect(with.status == 0, "\(with.stderr)")
        #expect(with.stdout == "SUCCESS CN=reqrun-test-client")
        let without = try CurlTool.run(["--cacert", ca, url])
        #expect(without.status == 0, "\(without.stderr)")
        #expect(without.stdout == "NONE ")
    }

    @Test func proxyForwardsPlainRequestsAndLogsThem() throws {
        let target = try TestServers.nginxHTTP() + "/echo-uri?id=" + unique()
        let output = try CurlTool.run(["--proxy", try TestServers.proxy(), target])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == String(target.dropFirst(try TestServers.nginxHTTP().count)))
        let line = try #require(TestServers.logLine(in: try TestServers.proxyLog(), containing: target))
        #expect(line.contains("Request (file descriptor"), "\(line)")
        #expect(line.hasSuffix("GET \(target) HTTP/1.1"), "\(line)")
    }

    @Test func proxyTunnelsHTTPSWithConnect() throws {
        let base = try TestServers.nginxHTTPS()
        let sent = "/echo-uri?id=" + unique()
        let output = try CurlTool.run(["--proxy", try TestServers.proxy(), "--cacert", try TestServers.testCA(), base + sent])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == sent)
        let authority = String(base.dropFirst("https://".count))
        #expect(TestServers.logLine(in: try TestServers.proxyLog(), containing: "CONNECT \(authority) HTTP/1.1") != nil)
    }

    @Test func aMissingVariableNamesItselfAndHowToStartTheServers() {
        let message = TestServers.Missing(variable: "REQRUN_TEST_PROXY").description
        #expect(message.hasPrefix("REQRUN_TEST_PROXY is not set"))
        #expect(message.contains("scripts/test") && message.contains("scripts/proxy start DIR"))
    }
}
