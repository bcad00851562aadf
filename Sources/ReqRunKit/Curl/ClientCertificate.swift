/// A TLS client certificate: PEM certificate and key files (`CURLOPT_SSLCERT`, `CURLOPT_SSLKEY`), or one
/// PKCS#12 file holding both (`CURLOPT_SSLCERT` with `CURLOPT_SSLCERTTYPE` "P12"), with the passphrase of an
/// encrypted key or PKCS#12 file (`CURLOPT_KEYPASSWD`). Paths are absolute. The passphrase is a secret.
public struct ClientCertificate: Sendable, Equatable {
    /// The entry's `name` in `--ssl-client-cert-list` (nil for `--cert`/`--key`), for messages.
    public var name: String?
    /// Which request URLs it is for; empty: every URL (`--cert`/`--key`, the fallback).
    public var matches: [URLMatchPattern]
    public var certificate: String?
    public var key: String?
    /// A PKCS#12 (`.pfx`, `.p12`) file: certificate and key in one (Newman's `pfx`).
    public var pkcs12: String?
    public var passphrase: String?

    public init(name: String? = nil, matches: [URLMatchPattern] = [], certificate: String? = nil, key: String? = nil,
                pkcs12: String? = nil, passphrase: String? = nil) {
        self.name = name
        self.matches = matches
        self.certificate = certificate
        self.key = key
        self.pkcs12 = pkcs12
        self.passphrase = passphrase
    }

    /// Whether it is for `url`: only `https` URLs get a certificate from the list (postman-collection's
    /// `Certificate.canApplyTo`), the first of whose patterns matches.
    public func applies(to url: String) -> Bool {
        URLMatchPattern.split(url)?.scheme == "https" && matches.contains { $0.matches(url) }
    }
}

extension ExecutorOptions {
    /// The client certificate for a transfer to `url`: the first `clientCertificateList` entry for it (Newman:
    /// the list takes precedence), else `--cert`/`--key` with `--ssl-client-passphrase`, else nil.
    public func clientCertificate(for url: String) -> ClientCertificate? {
        if let entry = clientCertificateList.first(where: { $0.applies(to: url) }) { return entry }
        guard clientCertificate != nil || clientKey != nil else { return nil }
        return ClientCertificate(certificate: clientCertificate, key: clientKey, passphrase: clientKeyPassphrase)
    }

    /// The passphrases of every client certificate: secrets for the whole run, masked wherever they appear.
    public var clientCertificatePassphrases: [String] {
        ([clientKeyPassphrase] + clientCertificateList.map(\.passphrase)).compactMap { $0 }.filter { !$0.isEmpty }
    }
}
