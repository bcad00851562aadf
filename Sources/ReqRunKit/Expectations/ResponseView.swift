/// A response as expectations and captures see it: the final status, header fields, and the body as far
/// as it was kept (`ExecutorOptions.inspectLimit`).
public struct ResponseView: Sendable {
    public var status: Int
    public var headers: [HeaderField]
    /// The body's first bytes, up to the inspection limit.
    public var body: [UInt8]
    /// Size of the whole body in bytes.
    public var bodySize: Int
    /// Total time in microseconds.
    public var totalMicroseconds: Int
    /// `Set-Cookie` fields of the redirect responses before this one, in order (cookie captures see them).
    public var redirectSetCookies: [String]
    /// The final URL, after redirects (the `url` subject).
    public var finalURL: String = ""
    /// The redirect hops before this response, in order.
    public var redirects: [RedirectHop] = []
    /// `1.0`, `1.1`, `2` or `3` (the record's `httpVersion`).
    public var httpVersion: String = ""
    /// Phase times of the final transfer, when known.
    public var timings: Timings?
    /// SHA-256 of the whole content, lower-case hex, when the transfer computed it.
    public var bodySHA256: String?
    /// The server certificate's fields (`CURLINFO_CERTINFO`), when collected.
    public var certificate: [String: String]?
    /// Values this request's own captures took (they run before its expectations, as in Hurl).
    public var capturedValues: [String: String] = [:]

    public init(status: Int, headers: [HeaderField], body: [UInt8], bodySize: Int, totalMicroseconds: Int,
                redirectSetCookies: [String] = []) {
        self.redirectSetCookies = redirectSetCookies
        self.status = status
        self.headers = headers
        self.body = body
        self.bodySize = bodySize
        self.totalMicroseconds = totalMicroseconds
    }

    /// True when `body` holds the whole content.
    public var bodyIsComplete: Bool { body.count == bodySize }

    /// The body as text: decoded from the charset its `Content-Type` names (iconv), else as UTF-8 (invalid
    /// sequences become U+FFFD); with an unknown charset or bytes invalid in it, as UTF-8 too.
    public var text: String { (try? bodyText().get()) ?? String(decoding: body, as: UTF8.self) }

    /// The body as text in the charset the response declares (`CharsetDecoder.declared`: `Content-Type`, an
    /// HTML `<meta>`, an XML declaration; UTF-8 without one, invalid UTF-8 sequences becoming U+FFFD), or why
    /// it cannot be read: an unknown charset, bytes invalid in it.
    func bodyText() -> Result<String, CharsetDecoder.Problem> {
        guard let charset = CharsetDecoder.declared(contentType: headerValues("Content-Type").last, body: body),
              !CharsetDecoder.isUTF8(charset) else { return .success(String(decoding: body, as: UTF8.self)) }
        return CharsetDecoder.decode(body, charset: charset)
    }

    /// Values of every field named `name` (any case, RFC 9110 §5.1), in order.
    public func headerValues(_ name: String) -> [String] {
        headers.values(named: name)
    }

    /// The body parsed as JSON, or why it cannot be.
    public func json() -> Result<JSONNode, BodyProblem> {
        guard bodyIsComplete else { return .failure(.tooLarge(limit: body.count)) }
        do {
            return .success(try JSONParser.parse(body))
        } catch {
            return .failure(.notJSON("\(error.location): \(error.reason)"))
        }
    }

    /// Why a body check could not look at the body.
    public enum BodyProblem: Error, Sendable, Equatable, CustomStringConvertible {
        case tooLarge(limit: Int)
        case notJSON(String)

        public var description: String {
            switch self {
            case .tooLarge(let limit): return "the body is larger than the \(limit) bytes that checks read"
            case .notJSON(let reason): return "the body is not JSON (\(reason))"
            }
        }
    }
}
