import Foundation
internal import CCurl

/// The run's cookie store (libcurl's, shared by every transfer through the executor's share handle), read
/// and written for `pm.cookies.jar()`: `CURLINFO_COOKIELIST` lists it in Netscape format, `CURLOPT_COOKIELIST`
/// adds a Netscape line or clears it (`ALL`). libcurl has no call that removes one cookie, so removing
/// rewrites the store without it.
extension HTTPExecutor {
    /// Every cookie of the store (expired ones left out).
    public func storedCookies() -> [JarCookie] {
        withStoreHandle { easy in
            var list: UnsafeMutableRawPointer?
            guard reqrun_easy_getinfo_pointer(easy, CURLINFO_COOKIELIST, &list) == CURLE_OK, let list else { return [] }
            let head = list.assumingMemoryBound(to: curl_slist.self)
            defer { curl_slist_free_all(head) }
            var cookies: [JarCookie] = []
            var node: UnsafeMutablePointer<curl_slist>? = head
            while let current = node {
                if let data = current.pointee.data, let cookie = Self.cookie(netscapeLine: String(cString: data)) { cookies.append(cookie) }
                node = current.pointee.next
            }
            let now = Int(Date().timeIntervalSince1970)
            return cookies.filter { $0.expires.map { $0 > now } ?? true }
        } ?? []
    }

    /// Adds `cookie` (its `domain`: a host for a host-only cookie, or a domain with `hostOnly` false).
    public func storeCookie(_ cookie: JarCookie, hostOnly: Bool) {
        _ = withStoreHandle { easy in
            _ = reqrun_easy_setopt_string(easy, CURLOPT_COOKIELIST, Self.netscapeLine(cookie, hostOnly: hostOnly))
        }
    }

    /// Rewrites the store without the cookies `drop` says.
    public func removeStoredCookies(where drop: (JarCookie) -> Bool) {
        let kept = storedCookiesWithScope().filter { !drop($0.cookie) }
        _ = withStoreHandle { easy in
            _ = reqrun_easy_setopt_string(easy, CURLOPT_COOKIELIST, "ALL")
            for (cookie, hostOnly) in kept { _ = reqrun_easy_setopt_string(easy, CURLOPT_COOKIELIST, Self.netscapeLine(cookie, hostOnly: hostOnly)) }
        }
    }

    /// The cookies with whether each is host-only (Netscape's "include subdomains" FALSE).
    func storedCookiesWithScope() -> [(cookie: JarCookie, hostOnly: Bool)] {
        storedCookies().map { cookie in
            var cookie = cookie
            let hostOnly = !(cookie.domain?.hasPrefix(".") ?? false)
            cookie.domain = cookie.domain.map { $0.hasPrefix(".") ? String($0.dropFirst()) : $0 }
            return (cookie, hostOnly)
        }
    }

    /// `domain \t includeSubdomains \t path \t secure \t expires \t name \t value` (`#HttpOnly_` before an
    /// HttpOnly cookie's domain), as libcurl reads and writes cookie files.
    static func netscapeLine(_ cookie: JarCookie, hostOnly: Bool) -> String {
        let domain = (cookie.httpOnly ? "#HttpOnly_" : "") + (hostOnly ? "" : ".") + (cookie.domain ?? "")
        return [domain, hostOnly ? "FALSE" : "TRUE", cookie.path.isEmpty ? "/" : cookie.path, cookie.secure ? "TRUE" : "FALSE",
                "\(cookie.expires ?? 0)", cookie.name, cookie.value].joined(separator: "\t")
    }

    /// A cookie from a Netscape line; `domain` keeps its leading dot when it includes subdomains.
    static func cookie(netscapeLine line: String) -> JarCookie? {
        var text = Substring(line)
        var httpOnly = false
        if text.hasPrefix("#HttpOnly_") {
            httpOnly = true
            text = text.dropFirst("#HttpOnly_".count)
        }
        let fields = text.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        guard fields.count >= 7 else { return nil }
        let includeSubdomains = fields[1] == "TRUE"
        let domain = includeSubdomains && !fields[0].hasPrefix(".") ? "." + fields[0] : fields[0]
        let expires = Int(fields[4]).flatMap { $0 == 0 ? nil : $0 }
        return JarCookie(name: fields[5], value: fields[6...].joined(separator: "\t"), domain: domain, path: fields[2],
                         secure: fields[3] == "TRUE", httpOnly: httpOnly, expires: expires)
    }

    /// Runs `body` with an easy handle attached to the store (nil when the executor is closed).
    private func withStoreHandle<T>(_ body: (UnsafeMutableRawPointer) -> T) -> T? {
        guard let share = cookieShare, let easy = curl_easy_init() else { return nil }
        defer { curl_easy_cleanup(easy) }
        _ = reqrun_easy_setopt_pointer(easy, CURLOPT_SHARE, share)
        _ = reqrun_easy_setopt_string(easy, CURLOPT_COOKIEFILE, "")
        return body(easy)
    }
}
