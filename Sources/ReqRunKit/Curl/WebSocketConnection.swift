import Foundation
internal import CCurl

/// A connection for a WebSocket request, opened by libcurl with `CURLOPT_CONNECT_ONLY` (DNS, TCP, an HTTP
/// proxy's CONNECT tunnel, TLS with the run's verification, CA file and client certificate), then driven
/// byte by byte with `curl_easy_send`/`curl_easy_recv`: the handshake and frames are `WebSocketProtocol`'s.
///
/// Every wait polls the socket in steps of at most 100 ms, so a deadline or Ctrl-C/SIGTERM (`Interruption`)
/// ends it promptly whatever the server does.
final class WebSocketConnection {
    private let easy: UnsafeMutableRawPointer
    private var socket: curl_socket_t = -1
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
    private var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)

    /// Why an I/O step ended the connection.
    enum Failure: Error, Equatable {
        /// libcurl's code and message.
        case curl(code: Int, message: String)
        /// The deadline passed.
        case timedOut
        /// Ctrl-C or SIGTERM.
        case interrupted

        var resultError: ResultError {
            switch self {
            case .curl(let code, let message): return ResultError(curlCode: code, message: message)
            case .timedOut: return ResultError(curlCode: Int(CURLE_OPERATION_TIMEDOUT.rawValue), message: "timed out")
            case .interrupted: return ResultError(curlCode: Int(CURLE_ABORTED_BY_CALLBACK.rawValue), message: Interruption.reason)
            }
        }
    }

    init() {
        CurlGlobal.ensureInitialized()
        easy = curl_easy_init()!
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    }

    deinit {
        curl_easy_cleanup(easy)
        errorBuffer.deallocate()
    }

    /// Connects to the host of `url` (`ws://` as `http://`, `wss://` as `https://`, HTTP/1.1 only, so ALPN
    /// offers `http/1.1`), through `options.proxy` (or the environment's) as a CONNECT tunnel
    /// (`CURLOPT_HTTPPROXYTUNNEL`).
    /// - Parameter timeLimit: milliseconds for connecting (0: the connect timeout only).
    func connect(_ url: String, options: ExecutorOptions, timeLimit: Int) -> Failure? {
        let httpURL = (url.lowercased().hasPrefix("wss:") ? "https:" : "http:") + url.drop(while: { $0 != ":" }).dropFirst()
        var codes: [CURLcode] = [
            reqrun_easy_setopt_string(easy, CURLOPT_URL, httpURL),
            reqrun_easy_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "http,https"),
            reqrun_easy_setopt_long(easy, CURLOPT_CONNECT_ONLY, 1),
            reqrun_easy_setopt_long(easy, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_1_1)),
            reqrun_easy_setopt_long(easy, CURLOPT_HTTPPROXYTUNNEL, 1),
            reqrun_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1),
            reqrun_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, timeLimit),
            reqrun_easy_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, options.connectTimeoutMilliseconds),
            reqrun_easy_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer),
            reqrun_easy_setopt_xferinfo_callback(easy, webSocketConnectProgress),
            reqrun_easy_setopt_long(easy, CURLOPT_NOPROGRESS, 0),
        ]
        codes += options.applyTLSAndProxy(to: easy, url: httpURL)
        if let failed = codes.first(where: { $0 != CURLE_OK }) { return curlFailure(failed) }
        let code = curl_easy_perform(easy)
        if Interruption.requested { return .interrupted }
        if code == CURLE_SSL_CERTPROBLEM, case .curl(let number, let message) = curlFailure(code) {
            return .curl(code: number, message: options.clientCertificateProblem(message, url: httpURL))
        }
        guard code == CURLE_OK else { return curlFailure(code) }
        guard reqrun_easy_getinfo_socket(easy, CURLINFO_ACTIVESOCKET, &socket) == CURLE_OK, socket >= 0 else {
            return .curl(code: Int(CURLE_UNSUPPORTED_PROTOCOL.rawValue), message: "libcurl gave no socket for the connection")
        }
        return nil
    }

    /// Sends all of `bytes` before `deadline`.
    func send(_ bytes: [UInt8], deadline: ContinuousClock.Instant?) -> Failure? {
        var sent = 0
        while sent < bytes.count {
            var n = 0
            let code = bytes.withUnsafeBytes { buffer in curl_easy_send(easy, buffer.baseAddress! + sent, bytes.count - sent, &n) }
            if code == CURLE_OK {
                sent += n
                continue
            }
            guard code == CURLE_AGAIN else { return curlFailure(code) }
            if let failure = wait(for: Int16(POLLOUT), deadline: deadline) { return failure }
        }
        return nil
    }

    /// The next bytes received before `deadline`; empty when the server closed the connection.
    func receive(deadline: ContinuousClock.Instant?) -> Result<[UInt8], Failure> {
        while true {
            var n = 0
            let code = readBuffer.withUnsafeMutableBytes { curl_easy_recv(easy, $0.baseAddress, $0.count, &n) }
            if code == CURLE_OK { return .success(Array(readBuffer[0..<n])) }
            guard code == CURLE_AGAIN else { return .failure(curlFailure(code)) }
            if let failure = wait(for: Int16(POLLIN), deadline: deadline) { return .failure(failure) }
        }
    }

    /// Waits until the socket is ready for `events`, in steps of at most 100 ms.
    private func wait(for events: Int16, deadline: ContinuousClock.Instant?) -> Failure? {
        if Interruption.requested { return .interrupted }
        var step = 100
        if let deadline {
            let left = deadline - ContinuousClock.now
            if left <= .zero { return .timedOut }
            step = min(step, max(1, Int(left / .milliseconds(1))))
        }
        var descriptor = pollfd(fd: socket, events: events, revents: 0)
        _ = poll(&descriptor, 1, Int32(step))
        return nil
    }

    /// Phase times so far (`CURLINFO_*_TIME_T`, microseconds): DNS, connect, TLS.
    func connectTimings() -> (namelookup: Int, connect: Int, appconnect: Int) {
        (offInfo(CURLINFO_NAMELOOKUP_TIME_T), offInfo(CURLINFO_CONNECT_TIME_T), offInfo(CURLINFO_APPCONNECT_TIME_T))
    }

    /// The peer's IP address and port (the proxy's, through a proxy).
    func remote() -> (address: String?, port: Int?) {
        var address: UnsafeMutablePointer<CChar>?
        _ = reqrun_easy_getinfo_string(easy, CURLINFO_PRIMARY_IP, &address)
        var port = 0
        _ = reqrun_easy_getinfo_long(easy, CURLINFO_PRIMARY_PORT, &port)
        return (address.map { String(cString: $0) }, port == 0 ? nil : port)
    }

    private func offInfo(_ info: CURLINFO) -> Int {
        var value: curl_off_t = 0
        _ = reqrun_easy_getinfo_off_t(easy, info, &value)
        return Int(value)
    }

    private func curlFailure(_ code: CURLcode) -> Failure {
        if code == CURLE_ABORTED_BY_CALLBACK, Interruption.requested { return .interrupted }
        let detail = String(cString: errorBuffer)
        return .curl(code: Int(code.rawValue), message: detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail)
    }
}

/// Stops the connecting transfer on Ctrl-C or SIGTERM (libcurl calls it at least once a second).
private func webSocketConnectProgress(_ userdata: UnsafeMutableRawPointer?, _ downloadTotal: curl_off_t, _ downloaded: curl_off_t,
                                      _ uploadTotal: curl_off_t, _ uploaded: curl_off_t) -> Int32 {
    Interruption.requested ? 1 : 0
}
