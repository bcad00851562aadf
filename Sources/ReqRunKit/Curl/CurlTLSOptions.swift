internal import CCurl

extension ExecutorOptions {
    /// Sets TLS verification (`--insecure`: `CURLOPT_SSL_VERIFYPEER`/`VERIFYHOST` 0), `--cacert`
    /// (`CURLOPT_CAINFO`), the client certificate and key (`CURLOPT_SSLCERT`, `CURLOPT_SSLKEY`) and `--proxy`
    /// (`CURLOPT_PROXY`) on `easy`: the same for HTTP transfers and WebSocket connections.
    /// - Returns: each option's code.
    func applyTLSAndProxy(to easy: UnsafeMutableRawPointer) -> [CURLcode] {
        var codes: [CURLcode] = []
        if insecure {
            codes.append(reqrun_easy_setopt_long(easy, CURLOPT_SSL_VERIFYPEER, 0))
            codes.append(reqrun_easy_setopt_long(easy, CURLOPT_SSL_VERIFYHOST, 0))
        }
        if let caFile { codes.append(reqrun_easy_setopt_string(easy, CURLOPT_CAINFO, caFile)) }
        if let clientCertificate { codes.append(reqrun_easy_setopt_string(easy, CURLOPT_SSLCERT, clientCertificate)) }
        if let clientKey { codes.append(reqrun_easy_setopt_string(easy, CURLOPT_SSLKEY, clientKey)) }
        if let proxy { codes.append(reqrun_easy_setopt_string(easy, CURLOPT_PROXY, proxy)) }
        return codes
    }
}
