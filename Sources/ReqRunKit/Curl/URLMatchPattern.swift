/// A Postman URL match pattern, as a client certificate's `matches` (Newman's `--ssl-client-cert-list`) holds:
/// `<all_urls>`, or `SCHEMES://HOST[:PORT]/PATH` where
/// - SCHEMES is `*` or one of `http`, `https`, `file`, `ftp`, several joined with `+` (`http+https`);
/// - HOST is `*` (any host), `*.example.com` (`example.com` and every name under it) or a host name, compared
///   without regard to case;
/// - PORT is `*` or digits; when the pattern or the URL has none, the scheme's default port stands for it
///   (`https://h/*` matches `https://h:443/x`, not `https://h:8443/x`);
/// - PATH is a glob over the URL's path without its query: `*` any characters, `?` one, the rest as written.
///
/// The rules of postman-collection's `UrlMatchPattern` (`lib/url-pattern/url-match-pattern.js`), which follow
/// Chrome's extension match patterns. Postman's pattern that cannot be read matches nothing; reqrun refuses it
/// where the list is loaded (`init` returns nil). So does a pattern with user information (`https://user@h/*`):
/// postman-collection reads `user@h` as the host and compares it with the URL's host, which never holds the
/// user, so it never matches; `https://user:pw@h/*` does not read as a pattern there at all.
public struct URLMatchPattern: Sendable, Equatable, CustomStringConvertible {
    /// The pattern as written.
    public let text: String
    private let schemes: [String]
    private let host: String
    private let port: String?
    private let path: [UInt8]

    static let allowedSchemes = ["http", "https", "file", "ftp"]
    static let defaultPorts = ["http": "80", "https": "443", "ftp": "21"]

    /// Why `text` is not a pattern of the form above, with user information as its own case (its message says
    /// to leave it out); nil when it is one.
    public static func refusal(_ text: String) -> String? {
        guard URLMatchPattern(text) == nil else { return nil }
        if let separator = text.range(of: "://"), text[separator.upperBound...].prefix(while: { $0 != "/" }).contains("@") {
            return "'\(text)' has user information (user@): a URL match pattern names the host alone (Postman's pattern with "
                + "it never matches); write SCHEME://HOST[:PORT]/PATH"
        }
        return "'\(text)' is not a URL match pattern: SCHEME://HOST[:PORT]/PATH, with * for any "
            + "scheme, host (or *.domain), port or characters of the path, or <all_urls>"
    }

    /// nil when `text` is not a pattern of the form above (`refusal` says why).
    public init?(_ text: String) {
        self.text = text
        if text == "<all_urls>" {
            (schemes, host, port, path) = (["*"], "*", "*", Array("*".utf8))
            return
        }
        guard let separator = text.range(of: "://") else { return nil }
        let schemes = text[..<separator.lowerBound].split(separator: "+", omittingEmptySubsequences: false).map(String.init)
        guard !schemes.isEmpty, schemes.enumerated().allSatisfy({ Self.allowedSchemes.contains($0.element) || ($0.offset == 0 && $0.element == "*") })
        else { return nil }
        let rest = text[separator.upperBound...]
        guard let slash = rest.firstIndex(of: "/") else { return nil }
        var authority = rest[..<slash]
        guard !authority.contains("@") else { return nil }
        var port: String?
        if let colon = authority.firstIndex(of: ":") {
            let digits = authority[authority.index(after: colon)...]
            guard digits == "*" || (!digits.isEmpty && digits.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
            port = String(digits)
            authority = authority[..<colon]
        }
        // `*`, `*.` followed by a name without `*`, or a name without `*`.
        let name = authority.hasPrefix("*.") ? authority.dropFirst(2) : authority
        guard authority == "*" || (!name.isEmpty && !name.contains("*")) else { return nil }
        self.schemes = schemes
        self.host = authority.lowercased()
        self.port = port
        self.path = Array(rest[slash...].utf8)
    }

    public var description: String { text }

    /// Whether `url` (absolute, as sent) matches.
    public func matches(_ url: String) -> Bool {
        guard let parts = Self.split(url) else { return false }
        guard Self.allowedSchemes.contains(parts.scheme), schemes.contains("*") || schemes.contains(parts.scheme) else { return false }
        let suffix = host.hasPrefix("*.") ? String(host.dropFirst(2)) : nil
        guard host == "*" || host == parts.host || suffix.map({ parts.host == $0 || parts.host.hasSuffix("." + $0) }) == true else { return false }
        if port != nil || parts.port != nil {
            let fallback = Self.defaultPorts[parts.scheme]
            guard let wanted = port ?? fallback else { return false }
            guard wanted == "*" || wanted == (parts.port ?? fallback) else { return false }
        }
        return Self.glob(path[...], Array(parts.path.utf8)[...])
    }

    /// The scheme (lowercased), host (lowercased, brackets kept for IPv6), port (nil when not written) and
    /// path (from the first `/` to the query or fragment; `/` when empty) of an absolute URL.
    static func split(_ url: String) -> (scheme: String, host: String, port: String?, path: String)? {
        guard let separator = url.range(of: "://") else { return nil }
        let scheme = url[..<separator.lowerBound].lowercased()
        let rest = url[separator.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var port: String?
        if let colon = authority.lastIndex(of: ":"), !authority[colon...].contains("]") {
            let digits = authority[authority.index(after: colon)...]
            port = digits.isEmpty ? nil : String(digits)
            authority = authority[..<colon]
        }
        let tail = rest[authorityEnd...]
        let pathEnd = tail.firstIndex { $0 == "?" || $0 == "#" } ?? tail.endIndex
        let path = tail[..<pathEnd]
        return (scheme, authority.lowercased(), port, path.isEmpty ? "/" : String(path))
    }

    /// Whether `text` matches the whole glob `pattern` (`*`: any bytes, `?`: one byte).
    static func glob(_ pattern: ArraySlice<UInt8>, _ text: ArraySlice<UInt8>) -> Bool {
        var (p, t) = (pattern.startIndex, text.startIndex)
        var star: (pattern: Int, text: Int)?
        while t < text.endIndex {
            if p < pattern.endIndex, pattern[p] == UInt8(ascii: "*") {
                star = (p, t)
                p += 1
            } else if p < pattern.endIndex, pattern[p] == UInt8(ascii: "?") || pattern[p] == text[t] {
                p += 1
                t += 1
            } else if let last = star {
                p = last.pattern + 1
                t = last.text + 1
                star = (last.pattern, last.text + 1)
            } else {
                return false
            }
        }
        while p < pattern.endIndex, pattern[p] == UInt8(ascii: "*") { p += 1 }
        return p == pattern.endIndex
    }
}
