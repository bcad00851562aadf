import Foundation

/// Akamai EdgeGrid request authentication (`EG1-HMAC-SHA256`, as Postman's `edgegrid` auth sends it):
/// `Authorization: EG1-HMAC-SHA256 client_token=…;access_token=…;timestamp=…;nonce=…;signature=…`.
/// Every string is a template.
public struct EdgeGridAuth: Sendable, Equatable {
    /// The three credentials of an Akamai API client (`.edgerc`'s `access_token`, `client_token`, `client_secret`).
    public var accessToken: String
    public var clientToken: String
    public var clientSecret: String
    /// A fixed nonce; empty: a random UUID for each request (as Postman).
    public var nonce: String
    /// A fixed timestamp (`yyyyMMddTHH:mm:ss+0000`, UTC); empty: the time of sending.
    public var timestamp: String
    /// A URL whose host (with its port, when not the scheme's default) is signed instead of the request's
    /// (Postman's `baseURL`); empty: the request's host.
    public var baseURL: String
    /// Header field names to sign, in order, separated by commas (Postman's `headersToSign`); empty: none.
    public var headersToSign: String
    /// How many bytes of a POST body the content hash covers, a whole number as text; empty: 131072 (128 KiB,
    /// Postman's and edgegrid-python's default).
    public var maxBodySize: String

    public init(accessToken: String, clientToken: String, clientSecret: String, nonce: String = "", timestamp: String = "",
                baseURL: String = "", headersToSign: String = "", maxBodySize: String = "") {
        self.accessToken = accessToken
        self.clientToken = clientToken
        self.clientSecret = clientSecret
        self.nonce = nonce
        self.timestamp = timestamp
        self.baseURL = baseURL
        self.headersToSign = headersToSign
        self.maxBodySize = maxBodySize
    }

    var templates: [String] { [accessToken, clientToken, clientSecret, nonce, timestamp, baseURL, headersToSign, maxBodySize] }
    var secretTemplates: [String] { [clientSecret, accessToken, clientToken] }

    /// The body size hashed when `maxBodySize` is empty.
    public static let defaultMaxBodySize = 131_072
}

/// The EdgeGrid signature, by Akamai's "Authenticate with EdgeGrid" specification as postman-runtime's
/// `lib/authorizer/edgegrid.js` and edgegrid-python implement it:
/// - signing key = base64(HMAC-SHA256(key: client secret, message: timestamp));
/// - data to sign = method, scheme, host, path and query, canonical headers, content hash and the header
///   up to and with `nonce=…;`, joined by tabs;
/// - signature = base64(HMAC-SHA256(key: signing key, message: data to sign)).
enum EdgeGridSigner {
    /// `yyyyMMddTHH:mm:ss+0000` of `date` in UTC.
    static func timestamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { value.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "00" }
        return "\(c.year ?? 1970)\(two(c.month))\(two(c.day))T\(two(c.hour)):\(two(c.minute)):\(two(c.second))+0000"
    }

    /// The canonical headers: for each name of `names` (comma-separated, trimmed, lower-cased), `name:value`
    /// with the value trimmed and each run of white space made one space, joined by tabs. A name the request
    /// does not send, sends empty, or sends more than once is left out (postman-runtime's `canonicalizeHeaders`).
    static func canonicalHeaders(_ names: String, _ headers: [HeaderField]) -> String {
        var lines: [String] = []
        for piece in names.split(separator: ",") {
            let name = piece.trimmingCharacters(in: .whitespaces).lowercased()
            guard !name.isEmpty else { continue }
            let sent = headers.values(named: name)
            guard sent.count == 1 else { continue }
            let value = sent[0].split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
            if !value.isEmpty { lines.append(name + ":" + value) }
        }
        return lines.joined(separator: "\t")
    }

    /// base64(SHA-256) of the first `limit` bytes of a POST body, or empty: for other methods, no body, a
    /// multipart body (postman-runtime hashes no form-data either) or a limit of 0.
    static func contentHash(method: String, _ prepared: PreparedRequest, limit: Int) -> String {
        guard method.uppercased() == "POST", limit > 0 else { return "" }
        let bytes: [UInt8]
        switch prepared.body {
        case .bytes(let content)?: bytes = Array(content.prefix(limit))
        case .file(let path)?: bytes = BodyFile.contents(path, upTo: limit) ?? []
        case .multipart?, nil: return ""
        }
        return bytes.isEmpty ? "" : Data(Signing.digest(.sha256, bytes)).base64EncodedString()
    }

    /// Adds the `Authorization` header to `prepared` (final URL and content) with `auth`'s resolved values,
    /// unless the request sets one itself. Returns the secrets it made (the signature).
    /// - Throws: `PreparationFailure.invalidAuth` when `maxBodySize` is not a whole number.
    static func sign(_ auth: EdgeGridAuth, _ prepared: inout PreparedRequest, now: Date = Date()) throws(PreparationFailure) -> [String] {
        var limit = EdgeGridAuth.defaultMaxBodySize
        if !auth.maxBodySize.isEmpty {
            guard let value = Int(auth.maxBodySize.trimmingCharacters(in: .whitespaces)), value >= 0 else {
                throw .invalidAuth("EdgeGrid maxBodySize '\(auth.maxBodySize)' is not a whole number of bytes")
            }
            limit = value
        }
        let target = RequestTarget(prepared.url)
        var host = target.hasExplicitPort ? "\(target.host):\(target.port)" : target.host
        if !auth.baseURL.isEmpty {
            let base = RequestTarget(auth.baseURL.contains("://") ? auth.baseURL : "http://" + auth.baseURL)
            host = base.hasExplicitPort ? "\(base.host):\(base.port)" : base.host
        }
        let timestamp = auth.timestamp.isEmpty ? self.timestamp(now) : auth.timestamp
        let nonce = auth.nonce.isEmpty ? UUID().uuidString.lowercased() : auth.nonce
        let header = "EG1-HMAC-SHA256 client_token=\(auth.clientToken);access_token=\(auth.accessToken);timestamp=\(timestamp);nonce=\(nonce);"
        let data = [prepared.method, target.scheme, host, target.pathAndQuery, canonicalHeaders(auth.headersToSign, prepared.headers),
                    contentHash(method: prepared.method, prepared, limit: limit), header].joined(separator: "\t")
        func base64HMAC(_ key: String, _ message: String) -> String {
            Data(Signing.hmac(.sha256, key: Array(key.utf8), message: Array(message.utf8))).base64EncodedString()
        }
        let signature = base64HMAC(base64HMAC(auth.clientSecret, timestamp), data)
        if !prepared.headers.contains(named: "authorization") {
            prepared.headers.append(HeaderField(name: "Authorization", value: header + "signature=" + signature))
        }
        return [signature]
    }
}
