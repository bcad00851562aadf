import Foundation

/// A cookie of the run's store with its scope: `hostOnly` true sends it to its domain's host only, false to
/// the subdomains too (RFC 6265 §5.3 step 6; Netscape's "include subdomains" FALSE and TRUE).
public struct StoredCookie: Sendable, Equatable {
    public var cookie: JarCookie
    public var hostOnly: Bool

    public init(_ cookie: JarCookie, hostOnly: Bool) {
        self.cookie = cookie
        self.hostOnly = hostOnly
    }
}

/// Newman's cookie jar file (`newman run --cookie-jar FILE`, `--export-cookie-jar FILE`): tough-cookie's
/// serialized `CookieJar` (`CookieJar.serializeSync()`), which Newman reads and writes:
///
///     {"version": "tough-cookie@4.1.3", "storeType": "MemoryCookieStore", "rejectPublicSuffixes": true,
///      "cookies": [{"key": "session", "value": "abc", "domain": "example.com", "path": "/",
///                   "expires": "2027-01-01T00:00:00.000Z", "secure": true, "httpOnly": true,
///                   "hostOnly": true, "creation": "2026-12-01T10:00:00.000Z"}]}
///
/// A JSON file without a `cookies` array is not a jar (`notAJar`). Read: each cookie's `key` (its name, required), `value`, `domain` (required; a leading dot is dropped, as
/// tough-cookie canonicalises it), `path` (default `/`), `secure`, `httpOnly`, `hostOnly` (absent: false, so
/// the subdomains get it, as tough-cookie's `domainMatch` does for a `hostOnly` that is not true), and its
/// expiry: `maxAge` in seconds from `creation` (else from now) when given, as tough-cookie's `expiryTime`
/// prefers it, else `expires` (ISO 8601; absent or `"Infinity"`: a session cookie). Expired cookies are left
/// out. The jar's other fields (`version`, `storeType`, `rejectPublicSuffixes`, a cookie's `lastAccessed`,
/// `sameSite`, `extensions`…) are read and not used: libcurl's store has no place for them.
public enum ToughCookieJar {
    /// Why a file named as a cookie jar is refused: it is neither a Netscape jar nor a Newman one.
    public static let notAJar = "is not a cookie jar (Netscape format, or Newman's JSON); --cookie-jar would overwrite it (choose another file)"

    /// Whether `bytes` look like such a jar rather than a Netscape one: the first byte that is not white
    /// space is `{` (a Netscape jar starts with a `#` comment or a domain).
    public static func isToughCookieJar(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } == UInt8(ascii: "{")
    }

    /// The cookies of the Newman jar at `path`, or nil when the file is missing, not readable or not such a
    /// jar (a Netscape one); `display`: the name errors give it.
    /// - Throws: `InputError` as `decode`, and for a file over 16 MiB (`FileSizeBound.cookieJar`).
    public static func load(_ path: String, display: String) throws(InputError) -> [StoredCookie]? {
        switch FileBytes.read(atPath: path, bound: .cookieJar) {
        case .success(let bytes): return isToughCookieJar(bytes) ? try decode(bytes, file: display) : nil
        case .failure(.tooLarge(let reason)): throw InputError(file: display, location: nil, reason: reason)
        case .failure: return nil
        }
    }

    /// The jar's cookies, expired ones left out.
    /// - Parameters:
    ///   - file: the name errors give the file; `now`: seconds since 1970, against which expiry is judged.
    /// - Throws: `InputError` (`file:line:column: cookies[2].domain: …`) for text that is not such a jar, or a
    ///   cookie field holding a tab or a line break (which libcurl's store cannot hold).
    public static func decode(_ bytes: [UInt8], file: String, now: Int = Int(Date().timeIntervalSince1970)) throws(InputError) -> [StoredCookie] {
        let root: JSONNode
        do { root = try JSONParser.parse(bytes) } catch { throw InputError(file: file, location: error.location, reason: error.reason) }
        // Another JSON file (a collection named by mistake) is not a jar, and writing one over it would lose it.
        guard case .object(let members) = root.value, let list = members.first(where: { $0.key == "cookies" }), case .array = list.value.value else {
            throw InputError(file: file, location: nil, reason: notAJar)
        }
        let jar = try FieldReader(file: file, node: root, path: "")
        var cookies: [StoredCookie] = []
        for (node, path) in try jar.optionalArray("cookies") {
            let reader = try FieldReader(file: file, node: node, path: path)
            func text(_ key: FieldKey, required: Bool = false) throws(InputError) -> String? {
                let value = required ? try reader.requiredString(key) : try reader.optionalString(key)
                if let value, value.utf8.contains(where: { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
                    throw reader.error(reader.optional(key)!, reader.childPath(key), "a cookie's fields cannot hold a tab or a line break")
                }
                return value
            }
            func flag(_ key: FieldKey) throws(InputError) -> Bool {
                guard let value = reader.optional(key) else { return false }
                guard case .bool(let flag) = value.value else {
                    throw reader.error(value, reader.childPath(key), "expected true or false, found \(value.kindDescription)")
                }
                return flag
            }
            let name = try text("key", required: true)!
            guard !name.isEmpty else { throw reader.error(reader.optional("key")!, reader.childPath("key"), "a cookie needs a name") }
            var domain = try text("domain", required: true)!
            if domain.hasPrefix(".") { domain.removeFirst() }
            guard !domain.isEmpty else { throw reader.error(reader.optional("domain")!, reader.childPath("domain"), "a cookie needs a domain") }
            let expires = try expiry(reader, now: now)
            if let expires, expires <= now { continue }
            let path = try text("path") ?? "/"
            let cookie = JarCookie(name: name, value: try text("value") ?? "", domain: domain, path: path.isEmpty ? "/" : path,
                                   secure: try flag("secure"), httpOnly: try flag("httpOnly"), expires: expires)
            cookies.append(StoredCookie(cookie, hostOnly: try flag("hostOnly")))
        }
        return cookies
    }

    /// The jar of `cookies` as Newman writes it (tough-cookie 4's serialization, the cookies in the order
    /// given; `creation` is `now`): what `newman run --cookie-jar` reads back.
    public static func encode(_ cookies: [StoredCookie], now: Date = Date()) -> [UInt8] {
        let created = iso8601(now)
        var out = #"{"version":"tough-cookie@4.1.3","storeType":"MemoryCookieStore","rejectPublicSuffixes":true,"cookies":["#
        for (index, stored) in cookies.enumerated() {
            let cookie = stored.cookie
            var fields = [("key", quoted(cookie.name)), ("value", quoted(cookie.value))]
            if let expires = cookie.expires { fields.append(("expires", quoted(iso8601(Date(timeIntervalSince1970: TimeInterval(expires)))))) }
            fields += [("domain", quoted(cookie.domain ?? "")), ("path", quoted(cookie.path))]
            if cookie.secure { fields.append(("secure", "true")) }
            if cookie.httpOnly { fields.append(("httpOnly", "true")) }
            fields += [("hostOnly", stored.hostOnly ? "true" : "false"), ("creation", quoted(created))]
            out += (index == 0 ? "\n" : ",\n") + "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
        }
        out += "]}\n"
        return Array(out.utf8)
    }

    /// Seconds since 1970 when the cookie expires, nil for a session cookie.
    private static func expiry(_ reader: FieldReader, now: Int) throws(InputError) -> Int? {
        if let node = reader.optional("maxAge") {
            switch node.value {
            case .number(let text):
                guard let seconds = Double(text), seconds.isFinite else { break }
                var base = now
                if let creation = reader.optional("creation"), case .string(let written) = creation.value, let date = parseISO8601(written) {
                    base = Int(date.timeIntervalSince1970)
                }
                return seconds <= 0 ? Int.min : base + Int(seconds.rounded(.down))
            case .string("Infinity"): return nil
            case .string("-Infinity"): return Int.min
            default: break
            }
            throw reader.error(node, reader.childPath("maxAge"), "expected a number of seconds, \"Infinity\" or \"-Infinity\", found \(node.kindDescription)")
        }
        guard let node = reader.optional("expires") else { return nil }
        guard case .string(let written) = node.value else {
            throw reader.error(node, reader.childPath("expires"), "expected an ISO 8601 date or \"Infinity\", found \(node.kindDescription)")
        }
        if written == "Infinity" { return nil }
        guard let date = parseISO8601(written) else {
            throw reader.error(node, reader.childPath("expires"), "'\(written)' is not an ISO 8601 date such as 2027-01-01T00:00:00.000Z")
        }
        return Int(date.timeIntervalSince1970)
    }

    private static func parseISO8601(_ text: String) -> Date? {
        let withFraction = ISO8601DateFormatter()
        withFraction.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return withFraction.date(from: text) ?? ISO8601DateFormatter().date(from: text)
    }

    private static func iso8601(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    private static func quoted(_ text: String) -> String {
        var out = ""
        JSONNode.appendQuoted(text, to: &out)
        return out
    }
}
