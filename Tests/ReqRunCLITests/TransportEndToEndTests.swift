import Foundation
import Testing
import ReqRunKit
import TestSupport

/// TLS, HTTP/2, proxies, raw request targets and zstd, through the built binary against the local nginx
/// (TLS with a test CA, HTTP/2) and tinyproxy that `make test` starts.
@Suite struct TransportEndToEndTests {
    private func run(_ urls: [String], _ options: [String], environment: [String: String] = [:]) throws -> (ReqRunBinary.Output, RunRecord) {
        let dir = try TemporaryDirectory()
        let requests = urls.map { #"{"url": "\#($0)"}"# }.joined(separator: ",")
        try dir.write("collections/t.json", #"{"name": "T", "groups": [{"name": "g", "requests": [\#(requests)]}]}"#)
        let output = try ReqRunBinary.run(["run", "--all"] + options, in: dir.url, environment: environment)
        let shown = try ReqRunBinary.run(["show", "--json"], in: dir.url)
        return (output, try JSONDecoder().decode(RunRecord.self, from: Data(shown.stdout.utf8)))
    }

    private func unique() -> String { UUID().uuidString.prefix(8).lowercased() }

    @Test func tlsIsVerifiedAndHTTP2IsUsedWhenOffered() throws {
        let https = try TestServers.nginxHTTPS()
        let (refused, refusedRecord) = try run([https + "/"], [])
        #expect(refused.status == 3)
        #expect(refusedRecord.results[0].error?.curlCode == 60)
        #expect(refusedRecord.results[0].error?.message.contains("SSL certificate problem") == true)

        let (trusted, record) = try run([https + "/zstd"], ["--cacert", try TestServers.testCA()])
        #expect(trusted.status == 0, "\(trusted.stdout)")
        let response = try #require(record.results[0].response)
        #expect(response.httpVersion == "2")
        #expect(record.results[0].timings!.appconnect > 0)
        // zstd content, decoded: the same document as /zstd.json, smaller on the wire.
        #expect(response.headers.contains { $0.name.lowercased() == "content-encoding" && $0.value == "zstd" })
        #expect(response.body.data.contains("héllo wörld") && response.wireSize < response.bodySize)

        let (insecure, insecureRecord) = try run([https + "/"], ["--insecure"])
        #expect(insecure.status == 0 && insecureRecord.results[0].response?.status == 200)
        let (http1, http1Record) = try run([https + "/"], ["--insecure", "--http1.1"])
        #expect(http1.status == 0 && http1Record.results[0].response?.httpVersion == "1.1")
        let (prior, priorRecord) = try run([try TestServers.nginxHTTP() + "/"], ["--http2"])
        // The plain server speaks only HTTP/1.1: prior knowledge fails, which proves --http2 was used.
        #expect(prior.status == 3 && priorRecord.results[0].error != nil)
    }

    @Test func parallelRequestsShareOneHTTP2Connection() throws {
        let marker = unique()
        let urls = (0..<12).map { try! TestServers.nginxHTTPS() + "/echo-uri?m=\(marker)&i=\($0)" }
        let (output, record) = try run(urls, ["--cacert", try TestServers.testCA(), "--parallel", "6"])
        #expect(output.status == 0)
        #expect(record.results.allSatisfy { $0.response?.httpVersion == "2" })
        #expect(record.results.map { $0.response?.body.data } == (0..<12).map { "/echo-uri?m=\(marker)&i=\($0)" })
        // nginx logs each request's connection number: multiplexed, they all came over one connection.
        var connections = Set<String>()
        for i in 0..<12 {
            let line = try #require(TestServers.logLine(in: try TestServers.nginxLog(), containing: "m=\(marker)&i=\(i) "))
            connections.insert(String(line[line.range(of: "conn=")!.upperBound...]))
        }
        #expect(connections.count == 1, "\(connections)")
    }

    @Test func clientCertificateIsPresented() throws {
        let url = try TestServers.nginxHTTPS() + "/client-cert"
        let ca = try TestServers.testCA()
        let (_, without) = try run([url], ["--cacert", ca])
        #expect(without.results[0].response?.body.data.hasPrefix("NONE") == true)
        let (with, record) = try run([url], ["--cacert", ca, "--cert", try TestServers.clientCertificate(), "--key", try TestServers.clientKey()])
        #expect(with.status == 0)
        #expect(record.results[0].response?.body.data == "SUCCESS CN=reqrun-test-client")
    }

    @Test func requestTargetArrivesAsWritten() throws {
        let id = unique()
        let (output, record) = try run([try TestServers.nginxHTTP() + "/echo-uri/a%2Fb/../é x?id=\(id)&q=%2f"], [])
        #expect(output.status == 0)
        // Escapes and dot segments stay as written (CURLOPT_PATH_AS_IS); only what cannot be in a URL is encoded.
        let expected = "/echo-uri/a%2Fb/../%C3%A9%20x?id=\(id)&q=%2f"
        #expect(record.results[0].response?.body.data == expected)
        let line = TestServers.logLine(in: try TestServers.nginxLog(), containing: id)
        #expect(line?.contains("\"GET \(expected) HTTP/1.1\"") == true, "\(line ?? "no log line")")
    }

    @Test func proxyFromTheEnvironmentAndFromTheOption() throws {
        let proxy = try TestServers.proxy()
        let log = try TestServers.proxyLog()
        let viaEnvironment = "/echo-uri?env=\(unique())"
        let (first, _) = try run([try TestServers.nginxHTTP() + viaEnvironment], [], environment: ["http_proxy": proxy, "no_proxy": ""])
        #expect(first.status == 0)
        #expect(TestServers.logLine(in: log, containing: viaEnvironment) != nil)

        let viaOption = "/echo-uri?option=\(unique())"
        let (second, _) = try run([try TestServers.nginxHTTP() + viaOption], ["--proxy", proxy],
                                  environment: ["http_proxy": "http://127.0.0.1:\(TestServers.closedPort())"])
        #expect(second.status == 0)
        #expect(TestServers.logLine(in: log, containing: viaOption) != nil)

        let bypassed = "/echo-uri?bypass=\(unique())"
        let (third, _) = try run([try TestServers.nginxHTTP() + bypassed], [], environment: ["http_proxy": proxy, "no_proxy": "127.0.0.1"])
        #expect(third.status == 0)
        #expect(TestServers.logLine(in: log, containing: bypassed, timeout: 1) == nil)
    }
}
