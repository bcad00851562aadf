internal import CCurl

/// `curl_global_init`, once per process, before the first handle; done lazily so that commands that send
/// nothing (`--version`, `list`) never initialise libcurl or OpenSSL.
enum CurlGlobal {
    /// Swift runs a global's initializer exactly once, thread-safely (`swift_once`).
    private static let initialized: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    static func ensureInitialized() {
        precondition(initialized, "curl_global_init failed")
    }

    /// `curl_version()`, e.g. `libcurl/7.88.1 OpenSSL/3.0.19 zlib/1.2.13 …`, asked once: asking OpenLDAP
    /// for its version makes it load its SASL plugins (1.5–4 ms measured at the end of a run), so
    /// `HTTPExecutor.prepareInBackground` asks it ahead on its thread.
    static let version = String(cString: curl_version())
}
