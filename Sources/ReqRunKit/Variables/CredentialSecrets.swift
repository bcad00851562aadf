import Foundation

/// The secret values a request carries in its credentials, found in what is sent rather than in how it was
/// written, so a value is masked however it got there (an auth field, a header written by hand, a captured
/// token, a cookie from the run's jar, the user information of a URL).
///
/// A value that goes into a credential is a secret for the whole run (see `Runner`): it is masked in every
/// result, record, report and console line made after it is known.
public enum CredentialSecrets {
    /// The shortest cookie value taken as a secret, in characters. The jar sends every cookie a server set,
    /// preferences (`lang=en`, `consent=true`) as well as session identifiers, which are long (OWASP asks for
    /// at least 64 bits of entropy: 16 hex digits); masking `true` in every body of the run would ruin the
    /// record. A cookie captured with `cookie` is a secret whatever its length (`SecretMasker.minimumLength`).
    public static let minimumCookieLength = 8

    /// Secrets in the credential header fields among `headers` (names in `names`, lower case):
    /// - for `Authorization` and `Proxy-Authorization`, the credentials after the scheme
    ///   (`Bearer abc` → `abc`, RFC 9110 §11.4), or the whole value without a scheme; for `Basic`, also the
    ///   password of the decoded `user:password` (RFC 7617 §2), which a server may echo decoded;
    /// - for `Cookie`, each cookie's value of at least `minimumCookieLength` characters (RFC 6265 §4.2.1:
    ///   `name=value; name=value`): names stay readable;
    /// - for any other credential field (an API key), the whole value.
    public static func inHeaders(_ headers: [HeaderField], names: Set<String>) -> [String] {
        var secrets: [String] = []
        for field in headers where field.hasName(in: names) {
            let value = field.value.trimmingCharacters(in: .whitespaces)
            guard !value.isEmpty else { continue }
            switch field.name.lowercased() {
            case "authorization", "proxy-authorization":
                guard let space = value.firstIndex(of: " ") else {
                    secrets.append(value)
                    continue
                }
                let credentials = value[value.index(after: space)...].trimmingCharacters(in: .whitespaces)
                if !credentials.isEmpty { secrets.append(credentials) }
                if value[..<space].lowercased() == "basic", let data = Data(base64Encoded: credentials),
                   let pair = String(data: data, encoding: .utf8), let colon = pair.firstIndex(of: ":") {
                    let password = String(pair[pair.index(after: colon)...])
                    if !password.isEmpty { secrets.append(password) }
                }
            case "cookie":
                for pair in value.split(separator: ";") {
                    let cookie = pair.firstIndex(of: "=").map { pair[pair.index(after: $0)...] } ?? pair
                    let trimmed = cookie.trimmingCharacters(in: .whitespaces)
                    if trimmed.count >= minimumCookieLength { secrets.append(trimmed) }
                }
            default:
                secrets.append(value)
            }
        }
        return secrets
    }

    /// Secrets in the user information of `url` (`scheme://user:password@host/`, RFC 3986 §3.2.1), which
    /// libcurl sends as `Authorization: Basic base64(user:password)`: the password (or, without one, the user
    /// name, as in `https://TOKEN@host/`) as written and percent-decoded, and the base64 of the decoded pair.
    public static func inURL(_ url: String) -> [String] {
        inURL(url, URLScan(url))
    }

    /// `inURL(url)` with `scan`, `url`'s scan: a URL without `@` has no user information.
    static func inURL(_ url: String, _ scan: URLScan) -> [String] {
        guard scan.hasAt, let info = userInfo(url) else { return [] }
        let decodedUser = info.user.removingPercentEncoding ?? info.user
        let decodedPassword = info.password.map { $0.removingPercentEncoding ?? $0 }
        let secret = info.password ?? info.user
        let secrets = [secret, secret.removingPercentEncoding ?? secret,
                       Data("\(decodedUser):\(decodedPassword ?? "")".utf8).base64EncodedString()]
        return secrets.filter { !$0.isEmpty }
    }

    /// The `Authorization` value libcurl sends for the user information of `url` (`Basic` and the base64 of
    /// the percent-decoded `user:password`, RFC 7617), or nil when the URL has none: for connections reqrun
    /// writes the request of itself (WebSocket handshakes).
    public static func basicAuthorization(_ url: String) -> String? {
        guard let info = userInfo(url) else { return nil }
        let user = info.user.removingPercentEncoding ?? info.user
        let password = info.password.map { $0.removingPercentEncoding ?? $0 } ?? ""
        return "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    }

    /// `url` with the secret of its user information (see `inURL`) replaced by `SecretMasker.mask`: what a
    /// request without a name is named (`http://ada:****@host/`), in every output, `list` included.
    public static func maskingUserInfo(_ url: String) -> String {
        guard let info = userInfo(url) else { return url }
        let masked = info.password == nil ? SecretMasker.mask : info.user + ":" + SecretMasker.mask
        let utf8 = Array(url.utf8)
        return String(decoding: utf8[..<info.range.lowerBound], as: UTF8.self) + masked
            + String(decoding: utf8[info.range.upperBound...], as: UTF8.self)
    }

    /// The user information of `url`: its UTF-8 byte range and its user name and password as written.
    private static func userInfo(_ url: String) -> (range: Range<Int>, user: String, password: String?)? {
        // Most URLs have no '@': one scan, no copy (this runs for every request, and names every unnamed one).
        guard url.containsUTF8Byte(UInt8(ascii: "@")), let end = URLNormalizer.schemeEnd(url) else { return nil }
        let utf8 = Array(url.utf8)
        let start = end + 3
        var stop = start
        while stop < utf8.count, ![UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#")].contains(utf8[stop]) { stop += 1 }
        guard let at = utf8[start..<stop].lastIndex(of: UInt8(ascii: "@")), at > start else { return nil }
        let text = String(decoding: utf8[start..<at], as: UTF8.self)
        guard let colon = text.firstIndex(of: ":") else { return (start..<at, text, nil) }
        return (start..<at, String(text[..<colon]), String(text[text.index(after: colon)...]))
    }
}
