/// Query parameters added to a URL (API keys today; the ordered `query` list later).
public enum URLQuery {
    /// `url` with `name=value` appended to its query (before any `#fragment`), both percent-encoded as
    /// WHATWG's `application/x-www-form-urlencoded` serializer does, but with space as `%20` (valid in any query).
    public static func appending(name: String, value: String, to url: String) -> String {
        let pair = encode(name) + "=" + encode(value)
        let fragmentStart = url.firstIndex(of: "#") ?? url.endIndex
        let base = url[..<fragmentStart], fragment = url[fragmentStart...]
        let separator = !base.contains("?") ? "?" : (base.hasSuffix("?") || base.hasSuffix("&") ? "" : "&")
        return base + separator + pair + fragment
    }

    /// `application/x-www-form-urlencoded` as WHATWG's URL standard serializes it: `encode`, but a space
    /// becomes `+`.
    public static func formEncode(_ text: String) -> String {
        encode(text, spaceAsPlus: true)
    }

    /// Percent-encodes everything but ASCII letters, digits and `*-._` (UTF-8 bytes, upper-case hex).
    public static func encode(_ text: String, spaceAsPlus: Bool = false) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: " ") where spaceAsPlus:
                out += "+"
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "*"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"):
                out.unicodeScalars.append(UnicodeScalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }
}
