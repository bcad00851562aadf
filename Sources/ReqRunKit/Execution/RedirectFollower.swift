import Foundation

/// When and how far redirects are followed.
public struct RedirectPolicy: Sendable, Equatable {
    /// Follow 301, 302, 303, 307 and 308 responses that carry a `Location` (`--no-follow` turns it off).
    public var follow: Bool
    /// How many redirects one request may follow (`--max-redirs`).
    public var maximum: Int
    /// Send credentials to another origin too (`--location-trusted`, as curl's option).
    public var trustLocation: Bool
    /// RFC 9110's method rule (true), or Newman's `followOriginalHttpMethod: false` (every method but HEAD
    /// becomes GET on 301, 302 and 303): `RequestRules.followsOriginalMethod`.
    public var followsOriginalMethod = true
    /// Keep the method and content on 301, 302 and 303 too (a request's `followOriginalMethod`).
    public var keepsMethod = false

    /// Follows by default, up to 10 redirects, as Postman does (curl's default limit is 50, Newman's 10).
    public init(follow: Bool = true, maximum: Int = 10, trustLocation: Bool = false) {
        self.follow = follow
        self.maximum = maximum
        self.trustLocation = trustLocation
    }
}

/// One redirect that was followed, as recorded.
public struct RedirectHop: Codable, Sendable, Equatable {
    /// The request that got the redirect response.
    public var method: String
    public var url: String
    /// The redirect's status code and its `Location`, resolved against `url`.
    public var status: Int
    public var location: String
    /// Total time of that transfer, in microseconds.
    public var total: Int

    public init(method: String, url: String, status: Int, location: String, total: Int) {
        self.method = method
        self.url = url
        self.status = status
        self.location = location
        self.total = total
    }
}

/// Follows redirects one hop at a time with the rules of RFC 9110 §15.4, rather than libcurl's follow mode
/// (which keeps a custom method across 301/302/303 in 7.88 and cannot tell which fields are credentials):
/// - 303 See Other: the next request is GET (HEAD stays HEAD);
/// - 301 and 302: POST becomes GET (what every browser and curl do); other methods are kept;
/// - 307 and 308: method and content are kept;
/// - when the method becomes GET, the content and its header fields (`Content-Type`, `Content-Length`,
///   `Content-Encoding`, `Content-Language`, `Content-Location`) are dropped;
/// - credentials (`Authorization`, `Cookie`, `Proxy-Authorization`, an API-key field, digest/AWS credentials)
///   are sent only to the origin (scheme, host and port) of the request as written, unless `trustLocation`:
///   not to another origin, and again on a hop that comes back to it (localhost → 127.0.0.1 → localhost),
///   as curl decides by the original host;
/// - only `http` and `https` targets are followed. Cookies set by any response, a redirect's included, go
///   back on later matching requests through the run's cookie store.
public enum RedirectFollower {
    /// What to do after a transfer.
    public enum Decision: Sendable {
        /// Send `request` next; `hop` records the redirect.
        case follow(PreparedRequest, RedirectHop)
        /// The transfer's response is the final one; `stopReason` says why following stopped early (too
        /// many redirects, a scheme not followed), if it did.
        case done(stopReason: String?)
    }

    /// Decides whether `transfer` (the answer to `request`, after `hopsSoFar` redirects from `original`, the
    /// request as prepared; nil: `request` is it) is followed.
    public static func decide(_ transfer: TransferResult, request: PreparedRequest, original: PreparedRequest? = nil,
                              policy: RedirectPolicy, hopsSoFar: Int) -> Decision {
        guard policy.follow, let response = transfer.response, [301, 302, 303, 307, 308].contains(response.status),
              let location = response.headers.last(named: "location") else {
            return .done(stopReason: nil)
        }
        guard let target = resolve(location, against: request.url) else {
            return .done(stopReason: "the Location '\(location)' of a \(response.status) response is not a valid URL")
        }
        guard target.scheme == "http" || target.scheme == "https" else {
            return .done(stopReason: "a redirect to a \(target.scheme):// URL is not followed (only http and https)")
        }
        guard hopsSoFar < policy.maximum else {
            return .done(stopReason: "stopped after the maximum of \(policy.maximum) redirects (--max-redirs)")
        }
        let hop = RedirectHop(method: request.method, url: request.url, status: response.status, location: target.url,
                              total: transfer.timings.total)
        return .follow(next(after: request, original: original, status: response.status, to: target.url, trustLocation: policy.trustLocation,
                            followsOriginalMethod: policy.followsOriginalMethod, keepsMethod: policy.keepsMethod), hop)
    }

    /// The request a redirect of `request` leads to; `original` is the request as prepared, before any
    /// redirect (nil: `request` is it), whose origin alone gets its credentials.
    public static func next(after request: PreparedRequest, original: PreparedRequest? = nil, status: Int, to url: String,
                            trustLocation: Bool, followsOriginalMethod: Bool = true, keepsMethod: Bool = false) -> PreparedRequest {
        let original = original ?? request
        var next = request
        next.url = url
        if !keepsMethod, method(after: request.method, status: status, followsOriginalMethod: followsOriginalMethod) != request.method {
            next.method = "GET"
            next.body = nil
            let contentFields: Set<String> = ["content-type", "content-length", "content-encoding", "content-language", "content-location"]
            next.headers.removeAll { $0.hasName(in: contentFields) }
        }
        if !trustLocation {
            next.headers.removeAll { $0.hasName(in: original.credentialHeaderNames) }
            next.transferAuth = nil
            if origin(original.url) == origin(url) {
                next.headers += original.headers.filter { $0.hasName(in: original.credentialHeaderNames) }
                next.transferAuth = original.transferAuth
            }
        }
        return next
    }

    /// The method of the request a `status` redirect of a `method` request leads to (the rules above; with
    /// `followsOriginalMethod` false, Newman's: every method but HEAD becomes GET on 301, 302 and 303, as
    /// postman-request does unless `followOriginalHttpMethod`).
    public static func method(after method: String, status: Int, followsOriginalMethod: Bool = true) -> String {
        if !followsOriginalMethod { return [301, 302, 303].contains(status) && method != "HEAD" ? "GET" : method }
        let becomesGET = (status == 303 && method != "HEAD" && method != "GET") || ((status == 301 || status == 302) && method == "POST")
        return becomesGET ? "GET" : method
    }

    /// `Location` (possibly relative, possibly with spaces or non-ASCII) resolved against `base`
    /// (RFC 3986 §5, by Foundation's URL).
    /// Foundation on Linux encodes the whole string again, `%` of existing escapes included (`a%20b[1]` →
    /// `a%2520b%5B1%5D`), when the path or query holds a character it does not allow there: so `[`, `]` and a
    /// `%` without two hex digits are encoded after the authority first (RFC 3986 §3.3–3.5 allow none of them
    /// there).
    static func resolve(_ location: String, against base: String) -> (url: String, scheme: String)? {
        guard let normalized = try? URLNormalizer.normalize(location), let baseURL = URL(string: base),
              let resolved = URL(string: escapedForFoundation(normalized), relativeTo: baseURL)?.absoluteURL,
              let scheme = resolved.scheme?.lowercased() else {
            return nil
        }
        return (resolved.absoluteString, scheme)
    }

    /// `url` with `[`, `]` and a stray `%` percent-encoded after its authority (path, query and fragment).
    static func escapedForFoundation(_ url: String) -> String {
        let bytes = Array(url.utf8)
        var start = 0
        if let schemeEnd = URLNormalizer.schemeEnd(url) {
            start = schemeEnd + 3
        } else if bytes.starts(with: [UInt8(ascii: "/"), UInt8(ascii: "/")]) {
            start = 2
        }
        if start > 0 {
            start = bytes[start...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.count
        }
        let end = bytes.count  // through the fragment
        func isHex(_ i: Int) -> Bool { i < end && Character(UnicodeScalar(bytes[i])).isHexDigit }
        var out = Array(bytes[..<start])
        var i = start
        while i < end {
            switch bytes[i] {
            case UInt8(ascii: "["): out += Array("%5B".utf8)
            case UInt8(ascii: "]"): out += Array("%5D".utf8)
            case UInt8(ascii: "%") where !(isHex(i + 1) && isHex(i + 2)): out += Array("%25".utf8)
            default: out.append(bytes[i])
            }
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Scheme, host and port (default ports filled in), lower case.
    static func origin(_ url: String) -> String {
        guard let components = URLComponents(string: url) else { return url }
        let scheme = components.scheme?.lowercased() ?? ""
        let port = components.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(components.host?.lowercased() ?? ""):\(port)"
    }
}
