internal import CCurl

/// A request's own TLS versions and ciphers (Postman's `protocolProfileBehavior.tlsDisabledProtocols` and
/// `tlsCipherSelection`, which postman-runtime hands to Node's `secureOptions` and `ciphers`), as libcurl
/// takes them:
/// - the versions left after `disabledProtocols` become `CURLOPT_SSLVERSION`'s range (lowest | highest << 16);
///   libcurl takes a range, so with a gap (only `TLSv1.2` disabled) the range is the one holding the highest
///   version left (`TLSv1.3` alone);
/// - `ciphers` go, joined with `:`, to `CURLOPT_SSL_CIPHER_LIST` (TLS 1.2 and below) and, for the names
///   that start with `TLS_` (OpenSSL's TLS 1.3 suites), to `CURLOPT_TLS13_CIPHERS`.
/// `tlsPreferServerCiphers` has no client side (OpenSSL's `SSL_OP_CIPHER_SERVER_PREFERENCE` acts on a server):
/// it is read and does nothing.
struct TLSChoice {
    /// The names taken, in version order, with libcurl's `CURL_SSLVERSION_TLSv1_0`… values.
    static let versions: [(names: [String], value: Int)] = [
        (["TLSv1", "TLSv1.0", "TLSv1_0"], 4), (["TLSv1.1", "TLSv1_1"], 5), (["TLSv1.2", "TLSv1_2"], 6), (["TLSv1.3", "TLSv1_3"], 7),
    ]

    var disabledProtocols: [String]?
    var ciphers: [String]?

    /// `CURLOPT_SSLVERSION`'s value, nil when nothing is disabled.
    var versionRange: Int? {
        guard let disabled = disabledProtocols, !disabled.isEmpty else { return nil }
        let enabled = Self.versions.map { version in !version.names.contains { disabled.contains($0) } }
        guard let highest = enabled.lastIndex(of: true) else { return nil }
        var lowest = highest
        while lowest > 0 && enabled[lowest - 1] { lowest -= 1 }
        return Self.versions[lowest].value | (Self.versions[highest].value << 16)
    }

    /// Sets the options on `easy`; each option's code.
    func apply(to easy: UnsafeMutableRawPointer) -> [CURLcode] {
        var codes: [CURLcode] = []
        if let range = versionRange { codes.append(reqrun_easy_setopt_long(easy, CURLOPT_SSLVERSION, range)) }
        if let ciphers, !ciphers.isEmpty {
            codes.append(reqrun_easy_setopt_string(easy, CURLOPT_SSL_CIPHER_LIST, ciphers.joined(separator: ":")))
            let suites = ciphers.filter { $0.hasPrefix("TLS_") }
            if !suites.isEmpty { codes.append(reqrun_easy_setopt_string(easy, CURLOPT_TLS13_CIPHERS, suites.joined(separator: ":"))) }
        }
        return codes
    }

    /// `tlsDisabledProtocols`: an array of version names (`SSLv2` and `SSLv3` taken: libcurl never uses them).
    /// - Throws: `InputError` for another type, an unknown name, or every TLS version disabled.
    static func protocols(_ node: JSONNode?, _ path: String, _ reader: FieldReader) throws(InputError) -> [String]? {
        guard let list = try names(node, path, reader) else { return nil }
        let known = versions.flatMap(\.names) + ["SSLv2", "SSLv3"]
        if let unknown = list.first(where: { !known.contains($0) }) {
            throw reader.error(node!, path, "unknown TLS version '\(unknown)' (expected TLSv1, TLSv1.1, TLSv1.2 or TLSv1.3)")
        }
        if TLSChoice(disabledProtocols: list).versionRange == nil && versions.allSatisfy({ $0.names.contains { list.contains($0) } }) {
            throw reader.error(node!, path, "every TLS version is disabled")
        }
        return list
    }

    /// An array of strings.
    /// - Throws: `InputError` for another type.
    static func names(_ node: JSONNode?, _ path: String, _ reader: FieldReader) throws(InputError) -> [String]? {
        guard let node else { return nil }
        guard case .array(let items) = node.value else { throw reader.error(node, path, "expected an array of names, found \(node.kindDescription)") }
        var names: [String] = []
        for item in items {
            guard case .string(let name) = item.value else { throw reader.error(item, path, "expected a name, found \(item.kindDescription)") }
            names.append(name)
        }
        return names
    }
}
