internal import CCurl

extension ExecutorOptions {
    /// Sets TLS verification (`--insecure`: `CURLOPT_SSL_VERIFYPEER`/`VERIFYHOST` 0), `--cacert`
    /// (`CURLOPT_CAINFO`), the client certificate for `url` (`clientCertificate(for:)`: `CURLOPT_SSLCERT`,
    /// `CURLOPT_SSLKEY`, `CURLOPT_SSLCERTTYPE` "P12" for a PKCS#12 file, `CURLOPT_KEYPASSWD`) and `--proxy`
    /// (`CURLOPT_PROXY`) on `easy`: the same for HTTP transfers and WebSocket connections.
    /// - Returns: each option's code.
    func applyTLSAndProxy(to easy: UnsafeMutableRawPointer, url: String) -> [CURLcode] {
        var codes: [CURLcode] = []
        if insecure {
            codes.append(reqrun_easy_setopt_long(easy, CURLOPT_SSL_VERIFYPEER, 0))
            codes.append(reqrun_easy_setopt_long(easy, CURLOPT_SSL_VERIFYHOST, 0))
        }
        if let caFile { codes.append(reqrun_easy_setopt_string(easy, CURLOPT_CAINFO, caFile)) }
        if let client = clientCertificate(for: url) {
            if let pkcs12 = client.pkcs12 {
                codes.append(reqrun_easy_setopt_string(easy, CURLOPT_SSLCERT, pkcs12))
                codes.append(reqrun_easy_setopt_string(easy, CURLOPT_SSLCERTTYPE, "P12"))
            } else {
                if let certificate = client.certificate { codes.append(reqrun_easy_setopt_string(easy, CURLOPT_SSLCERT, certificate)) }
                if let key = client.key { codes.append(reqrun_easy_setopt_string(easy, CURLOPT_SSLKEY, key)) }
            }
            // Always set: without one, OpenSSL would ask for the passphrase of an encrypted key on the terminal
            // (its default PEM password callback) and wait there; with "" the key fails to load instead.
            codes.append(reqrun_easy_setopt_string(easy, CURLOPT_KEYPASSWD, client.passphrase ?? ""))
        }
        if let proxy { codes.append(reqrun_easy_setopt_string(easy, CURLOPT_PROXY, proxy)) }
        return codes
    }

    /// libcurl's message for a client certificate or key that did not load (`CURLE_SSL_CERTPROBLEM`), made to
    /// say which one and what to check: a wrong or missing passphrase is the usual cause.
    func clientCertificateProblem(_ detail: String, url: String) -> String {
        guard let client = clientCertificate(for: url) else { return detail }
        let which = client.name.map { "the client certificate '\($0)' of --ssl-client-cert-list" } ?? "the client certificate (--cert, --key)"
        let passphrase = client.passphrase == nil ? "no passphrase was given (--ssl-client-passphrase)" : "the passphrase may be wrong"
        return "\(which) could not be loaded: \(detail); \(passphrase), or the file is not a certificate or key"
    }
}
