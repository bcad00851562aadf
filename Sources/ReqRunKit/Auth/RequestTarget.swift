import Foundation

/// The parts of a prepared (normalized) URL that request signatures cover: scheme, host, port, path and
/// query, as sent (RFC 3986 §3). User information and the fragment are not part of the request target.
struct RequestTarget: Equatable {
    /// Lower-case scheme (`http`, `https`).
    var scheme: String
    /// Lower-case host, without brackets for IPv6 literals kept (`[::1]` stays `[::1]`).
    var host: String
    /// The port, written or implied by the scheme (80 for http, 443 for https).
    var port: Int
    /// Whether the URL wrote a port that is not the scheme's default.
    var hasExplicitPort: Bool
    /// The path as sent, percent-encoded, `/` when empty (RFC 9112 §3.2.1).
    var path: String
    /// The query without `?`, as sent; nil when the URL has none.
    var query: String?

    init(_ url: String) {
        var rest = Substring(url)
        if let range = rest.range(of: "://") {
            scheme = rest[..<range.lowerBound].lowercased()
            rest = rest[range.upperBound...]
        } else {
            scheme = "http"
        }
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var portText: Substring?
        if let colon = authority.lastIndex(of: ":"), !authority[colon...].contains("]") {
            portText = authority[authority.index(after: colon)...]
            authority = authority[..<colon]
        }
        host = authority.lowercased()
        let defaultPort = scheme == "https" || scheme == "wss" ? 443 : 80
        port = portText.flatMap { Int($0) } ?? defaultPort
        hasExplicitPort = port != defaultPort
        let target = rest[authorityEnd...]
        if let question = target.firstIndex(of: "?") {
            path = String(target[..<question])
            query = String(target[target.index(after: question)...])
        } else {
            path = String(target)
            query = nil
        }
        if path.isEmpty { path = "/" }
    }

    /// `path?query` (the origin-form request target, RFC 9112 §3.2.1).
    var pathAndQuery: String { query.map { path + "?" + $0 } ?? path }

    /// `application/x-www-form-urlencoded` pairs of `text` (the query or a form body), decoded: `+` is a
    /// space and `%XX` a byte (WHATWG URL standard §5.1); empty pieces between `&` are skipped.
    static func formPairs(_ text: String) -> [(name: String, value: String)] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { piece in
            let parts = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ part: Substring) -> String {
                let spaced = part.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
        }
    }
}
