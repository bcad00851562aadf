internal import CCurl

/// `curl_global_init`, once per process, before the first handle; done lazily so that commands that send
/// nothing (`--version`, `list`) never initialise libcurl or OpenSSL.
enum CurlGlobal {
    /// Swift runs a global's initializer exactly once, thread-safely (`swift_once`).
    private static let initialized: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    static func ensureInitialized() {
        precondition(initialized, "curl_global_init failed")
    }

    /// `curl_version()`, e.g. `libcurl/7.88.1 OpenSSL/3.0.19 zlib/1.2.13 …`.
    static var version: String { String(cString: curl_version()) }
}
