import Foundation

/// The parts of a HAR entry that the record holds indirectly: one entry per redirect hop, the final
/// transfer's method, URL and start, and cookies read from header fields (see `HARReport`).
enum HARTransfers {
    /// One entry per redirect hop before the final response: its request line, the status and
    /// `redirectURL` (the `Location`, resolved) that answered it, its total time. The record keeps no header
    /// fields or timings by phase for a hop, so those are empty and `-1` (not known), as HAR allows.
    static func hops(_ result: RequestResult, pageref: String) -> [HARReport.HAR.Entry] {
        var offset = 0
        return result.redirects.map { hop in
            defer { offset += hop.total }
            let ms = Double(hop.total) / 1000
            return HARReport.HAR.Entry(
                pageref: pageref, startedDateTime: shifted(result.startedAt, by: offset), time: ms,
                request: .init(method: hop.method, url: hop.url, httpVersion: "HTTP/\(result.response?.httpVersion ?? "1.1")",
                               cookies: [], headers: [], queryString: HARReport.queryString(hop.url), postData: nil,
                               headersSize: -1, bodySize: -1),
                response: .init(status: hop.status, statusText: "", httpVersion: "HTTP/\(result.response?.httpVersion ?? "1.1")",
                                cookies: [], headers: [], content: .init(size: 0, mimeType: "", text: nil, encoding: nil, comment: nil),
                                redirectURL: hop.location, headersSize: -1, bodySize: -1, comment: "redirect"),
                cache: .init(),
                timings: .init(blocked: -1, dns: -1, connect: -1, send: 0, wait: ms, receive: 0, ssl: -1),
                serverIPAddress: nil, comment: result.name)
        }
    }

    /// The final transfer's method: the first request's, changed by each hop as RFC 9110 §15.4 says.
    static func finalMethod(_ result: RequestResult) -> String {
        result.redirects.reduce(result.method) { RedirectFollower.method(after: $1.method, status: $1.status) }
    }

    /// When the final transfer started: the request's start plus each hop's time.
    static func finalStart(_ result: RequestResult) -> String {
        shifted(result.startedAt, by: result.redirects.reduce(0) { $0 + $1.total })
    }

    /// An ISO 8601 time (milliseconds) `microseconds` later; "" when there is none.
    static func shifted(_ time: String?, by microseconds: Int) -> String {
        guard let time else { return "" }
        guard microseconds > 0 else { return time }
        let format = ISO8601DateFormatter()
        format.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        guard let date = format.date(from: time) else { return time }
        return format.string(from: date.addingTimeInterval(Double(microseconds) / 1_000_000))
    }

    /// An HTTP date (RFC 9110 §5.6.7, `Wed, 21 Oct 2026 07:28:00 GMT`) as ISO 8601, as HAR wants `expires`;
    /// the text as given when it is not one.
    static func isoDate(_ text: String) -> String {
        let http = DateFormatter()
        http.locale = Locale(identifier: "en_US_POSIX")
        http.timeZone = TimeZone(identifier: "GMT")
        http.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = http.date(from: text) else { return text }
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return iso.string(from: date)
    }

    /// `Cookie: a=1; b=2` fields as HAR cookies (RFC 6265 §5.4: pairs separated by `; `).
    static func requestCookies(_ headers: [HeaderField]) -> [HARReport.HAR.Cookie] {
        headers.filter { $0.name.lowercased() == "cookie" }.flatMap { field in
            field.value.split(separator: ";").compactMap { pair -> HARReport.HAR.Cookie? in
                let pair = pair.trimmingCharacters(in: .whitespaces)
                guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else { return nil }
                return .init(name: String(pair[..<equals]), value: String(pair[pair.index(after: equals)...]))
            }
        }
    }

    /// Each `Set-Cookie` field as a HAR cookie (RFC 6265 §5.2): the name and value before the first `;`, then
    /// the attributes HAR has a place for, names in any case. A field without `=` in its first part is left out.
    static func responseCookies(_ headers: [HeaderField]) -> [HARReport.HAR.Cookie] {
        headers.filter { $0.name.lowercased() == "set-cookie" }.compactMap { field in
            var parts = field.value.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard !parts.isEmpty, let equals = parts[0].firstIndex(of: "="), equals != parts[0].startIndex else { return nil }
            var cookie = HARReport.HAR.Cookie(name: String(parts[0][..<equals]), value: String(parts[0][parts[0].index(after: equals)...]))
            parts.removeFirst()
            for attribute in parts {
                let name = attribute.split(separator: "=", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
                let value = attribute.split(separator: "=", maxSplits: 1).dropFirst().first.map { $0.trimmingCharacters(in: .whitespaces) }
                switch name {
                case "path": cookie.path = value
                case "domain": cookie.domain = value
                case "expires": cookie.expires = value.map(isoDate)
                case "httponly": cookie.httpOnly = true
                case "secure": cookie.secure = true
                default: break
                }
            }
            return cookie
        }
    }
}
