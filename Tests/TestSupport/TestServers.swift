import Foundation

/// The local servers the tests talk to. `make test` (`scripts/test`) starts them on 127.0.0.1 and passes their
/// addresses and files in the environment; a test that needs one fails with this message when it is missing
/// (never skips). The servers: httpbin under gunicorn (`scripts/httpbin`), nginx over HTTP and over TLS with
/// HTTP/2 (`scripts/nginx`, which also makes a test CA and a client certificate), tinyproxy (`scripts/proxy`),
/// and a server that misbehaves on purpose (`scripts/hostile-server`).
public enum TestServers {
    public struct Missing: Error, CustomStringConvertible {
        public var variable: String
        public init(variable: String) { self.variable = variable }
        public var description: String {
            "\(variable) is not set: the tests need the local test servers (httpbin, nginx, tinyproxy, the hostile server, the WebSocket server, the auth server). Run them with "
                + "'make test' or 'scripts/test', which install and start them, or start them yourself with "
                + "'scripts/httpbin start DIR', 'scripts/nginx start DIR', 'scripts/proxy start DIR' and "
                + "'scripts/hostile-server start DIR', 'scripts/ws-server start DIR' (before nginx), 'scripts/auth-server start DIR' and export what "
                + "scripts/test exports (\(variable) among them) from the files they write in DIR"
        }
    }

    private static func variable(_ name: String) throws -> String {
        guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else {
            throw Missing(variable: name)
        }
        return value
    }

    private static func baseURL(_ name: String) throws -> String {
        let url = try variable(name)
        return url.hasSuffix("/") ? String(url.dropLast()) : url
    }

    /// Base URL of a local httpbin, e.g. `http://127.0.0.1:38080` (no trailing slash).
    public static func httpbin() throws -> String { try baseURL("REQRUN_TEST_HTTPBIN") }

    /// Base URL of the local nginx over plain HTTP/1.1, e.g. `http://127.0.0.1:38081`. Routes (both servers):
    /// `/` ("ok"), `/echo-uri…` (the request target as it arrived, `X-Method`), `/zstd` and `/gzip` (a JSON
    /// document pre-compressed, with `Content-Encoding`; `/zstd.json` is it uncompressed), `/big` (64 MiB of
    /// zeros), `/cookie` (sets `nginxcookie=fromnginx`, echoes the `Cookie` header). See `scripts/nginx`.
    public static func nginxHTTP() throws -> String { try baseURL("REQRUN_TEST_NGINX_HTTP") }

    /// Base URL of the local nginx over TLS with HTTP/2 (ALPN h2, http/1.1), e.g. `https://localhost:38082`; its
    /// certificate (for `localhost` and `127.0.0.1`) is signed by `testCA()`. Same routes as `nginxHTTP()`, plus
    /// `/client-cert`: `"$ssl_client_verify $ssl_client_s_dn"` (`SUCCESS CN=reqrun-test-client` or `NONE `).
    public static func nginxHTTPS() throws -> String { try baseURL("REQRUN_TEST_NGINX_HTTPS") }

    /// Path of nginx's access log: one line a request, with the request line and the protocol, e.g.
    /// `127.0.0.1 [time] https 38082 "GET /echo-uri?a=%2F HTTP/2.0" HTTP/2.0 200 12 "reqrun/0.1"`.
    public static func nginxLog() throws -> String { try variable("REQRUN_TEST_NGINX_LOG") }

    /// Path of the test CA's certificate (PEM), which signed nginx's server certificate and the client certificate.
    public static func testCA() throws -> String { try variable("REQRUN_TEST_CA") }

    /// Path of the client certificate (PEM, CN=reqrun-test-client, signed by `testCA()`).
    public static func clientCertificate() throws -> String { try variable("REQRUN_TEST_CLIENT_CERT") }

    /// Path of the client certificate's private key (PEM, unencrypted).
    public static func clientKey() throws -> String { try variable("REQRUN_TEST_CLIENT_KEY") }

    /// Base URL of nginx's third server, e.g. `https://localhost:38085` (server certificate from `testCA()`),
    /// which requires a client certificate of a second CA (`clientCertificate2()`) and answers 400 without one
    /// or with `clientCertificate()`. Routes: `/client-cert` (as on `nginxHTTPS()`) and `/echo-uri…`.
    public static func nginxMutualTLS() throws -> String { try baseURL("REQRUN_TEST_NGINX_MTLS") }

    /// Path of the second CA's client certificate (PEM, CN=reqrun-test-client-2) and of its key (PEM, unencrypted).
    public static func clientCertificate2() throws -> String { try variable("REQRUN_TEST_CLIENT2_CERT") }
    public static func clientKey2() throws -> String { try variable("REQRUN_TEST_CLIENT2_KEY") }

    /// URL of the local HTTP proxy (tinyproxy), e.g. `http://127.0.0.1:38083`; it forwards to 127.0.0.1 and
    /// tunnels CONNECT to any port.
    public static func proxy() throws -> String { try baseURL("REQRUN_TEST_PROXY") }

    /// Path of the proxy's log, with a line for each request it forwarded, e.g.
    /// `Request (file descriptor 7): GET http://127.0.0.1:38081/path HTTP/1.1` or `… CONNECT localhost:38082 HTTP/1.1`.
    public static func proxyLog() throws -> String { try variable("REQRUN_TEST_PROXY_LOG") }

    /// Base URL of the hostile server (`scripts/hostile-server`), e.g. `http://127.0.0.1:38084`: HTTP/1.1 on
    /// 127.0.0.1 that misbehaves on purpose. Paths: `/ok`, `/bomb` (1 KB, `Content-Encoding: zstd, gzip`,
    /// 32 GiB decoded), `/endless`, `/big-header` (a 150 KB field), `/conflicting-length`,
    /// `/conflicting-length-list`, `/same-length-twice`, `/overflow-length`, `/invalid-utf8-header`
    /// (`X-Bytes: caf\xE9 \xFF`), `/escapes`. See the script's own description.
    public static func hostile() throws -> String { try baseURL("REQRUN_TEST_HOSTILE") }

    /// Base URL of the WebSocket server (`scripts/ws-server`, Python's `websockets`), e.g. `ws://127.0.0.1:38085`:
    /// `/echo` (and `/`) echoes, other paths misbehave on purpose (`/refuse-404`, `/wrong-accept`, `/masked-frame`,
    /// `/oversized`, `/invalid-utf8`, `/drop`, `/silent`…; see the script). nginx proxies `/ws/PATH` to it, so
    /// `wss://localhost:PORT/ws/echo` (the port of `nginxHTTPS()`) reaches it over TLS.
    public static func webSocket() throws -> String { try baseURL("REQRUN_TEST_WS") }

    /// Base URL of the auth server (`scripts/auth-server`), e.g. `http://127.0.0.1:38086`, which checks OAuth 1.0a
    /// (oauthlib), Hawk (mohawk), NTLM and JWT (PyJWT) and is an OAuth 2.0 token endpoint; see the script for
    /// its routes and credentials.
    public static func auth() throws -> String { try baseURL("REQRUN_TEST_AUTH") }

    /// Path of the RSA private key (PEM, PKCS #8) whose public half the auth server checks RSA signatures with.
    public static func authRSAKey() throws -> String { try variable("REQRUN_TEST_AUTH_RSA_KEY") }

    /// The first line of the log at `path` that contains `text`, waiting up to `timeout` seconds for it: servers
    /// write their log line after the response is sent, so it can arrive a moment after the client is done.
    public static func logLine(in path: String, containing text: String, timeout: Double = 5) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            if let data = FileManager.default.contents(atPath: path),
               let line = String(decoding: data, as: UTF8.self).split(separator: "\n").first(where: { $0.contains(text) }) {
                return String(line)
            }
            Thread.sleep(forTimeInterval: 0.02)
        } while Date() < deadline
        return nil
    }

    /// A TCP port on 127.0.0.1 with nothing listening: bound to port 0 (the kernel picks a free one), then closed.
    public static func closedPort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        precondition(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                precondition(bind(fd, socketAddress, length) == 0)
                precondition(getsockname(fd, socketAddress, &length) == 0)
            }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
