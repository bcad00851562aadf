import Foundation

/// Makes a URL written by a person sendable, changing nothing that is already valid:
/// - an international host name becomes its ASCII (punycode) form, by Foundation's IDNA conversion, so it
///   does not depend on the process locale (libcurl's libidn2 path does);
/// - in the path, query and fragment, bytes that may not appear in a URL (space, non-ASCII, control
///   characters, `"<>\^`{|}`) are percent-encoded as UTF-8 (RFC 3986 §2.1); existing `%XX` escapes are kept
///   as written (`%2F` stays `%2F`).
public enum URLNormalizer {
    /// - Throws: `PreparationFailure.invalidURL` for a host that cannot be converted.
    public static func normalize(_ url: String) throws(PreparationFailure) -> String {
        guard let schemeEnd = url.range(of: "://") else { return encodeRest(url) }
        let afterScheme = url[schemeEnd.upperBound...]
        let authorityEnd = afterScheme.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? afterScheme.endIndex
        var authority = String(afterScheme[..<authorityEnd])
        let rest = String(afterScheme[authorityEnd...])
        if authority.unicodeScalars.contains(where: { !$0.isASCII }) {
            authority = try asciiAuthority(authority)
        }
        return url[..<schemeEnd.upperBound] + authority + encodeRest(rest)
    }

    /// Checks that `url` names a host and, if any, a port from 1 to 65535, so a URL libcurl would refuse
    /// fails before anything is sent, with a reason.
    /// - Throws: `PreparationFailure.invalidURL`.
    public static func validate(_ url: String) throws(PreparationFailure) {
        // Parsed by hand (as `normalize` splits the URL) rather than with URLComponents, which is slow enough
        // to show in a profile of a 1,000-request run.
        guard let schemeEnd = url.range(of: "://") else { throw .invalidURL("'\(url)' has no scheme") }
        let afterScheme = url[schemeEnd.upperBound...]
        let authorityEnd = afterScheme.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? afterScheme.endIndex
        var hostPort = afterScheme[..<authorityEnd]
        if let at = hostPort.lastIndex(of: "@") { hostPort = hostPort[hostPort.index(after: at)...] }
        var host = hostPort
        if hostPort.hasPrefix("[") {
            guard let close = hostPort.firstIndex(of: "]") else { throw .invalidURL("'\(url)' has an unclosed IPv6 address") }
            host = hostPort[...close]
            let rest = hostPort[hostPort.index(after: close)...]
            if !rest.isEmpty { try checkPort(rest, url) }
        } else if let colon = hostPort.lastIndex(of: ":") {
            host = hostPort[..<colon]
            try checkPort(hostPort[colon...], url)
        }
        guard !host.isEmpty else { throw .invalidURL("'\(url)' has no host") }
    }

    /// `:PORT`: digits from 1 to 65535 (an empty port is allowed, RFC 3986 §3.2.3).
    private static func checkPort(_ text: Substring, _ url: String) throws(PreparationFailure) {
        let digits = text.dropFirst()
        guard text.first == ":", digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { throw .invalidURL("'\(url)' has an invalid port") }
        if digits.isEmpty { return }
        guard let port = Int(digits), (1...65535).contains(port) else {
            throw .invalidURL("port \(digits) is out of range (1-65535)")
        }
    }

    /// `user:pass@host:port` with the host in punycode (user information percent-encoded).
    private static func asciiAuthority(_ authority: String) throws(PreparationFailure) -> String {
        var userInfo = ""
        var hostPort = authority[...]
        if let at = authority.lastIndex(of: "@") {
            userInfo = encodeRest(String(authority[..<at])) + "@"
            hostPort = authority[authority.index(after: at)...]
        }
        var host = hostPort, port = ""[...]
        if let colon = hostPort.lastIndex(of: ":"), !hostPort.hasPrefix("[") {
            host = hostPort[..<colon]
            port = hostPort[colon...]
        }
        guard !host.unicodeScalars.contains(where: { !$0.isASCII }) else {
            guard let ascii = URLComponents(string: "http://\(host)/")?.encodedHost, !ascii.isEmpty,
                  !ascii.unicodeScalars.contains(where: { !$0.isASCII }) else {
                throw .invalidURL("'\(host)' is not a valid international domain name")
            }
            return userInfo + ascii + port
        }
        return userInfo + host + port
    }

    private static func encodeRest(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case 0x21, 0x23...0x3B, 0x3D, 0x3F...0x5B, 0x5D, 0x5F, 0x61...0x7A, 0x7E:
                // Printable ASCII except space " < > \ ^ ` { | } (and `%`, which is in 0x23...0x3B, is kept).
                out.unicodeScalars.append(UnicodeScalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }
}
