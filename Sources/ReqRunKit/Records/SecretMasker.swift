import Foundation

/// Replaces secrets with `****` in what reqrun shows and writes (console, run record, reports), unless
/// `--show-secrets`.
///
/// Secrets are: the values of variables marked secret (wherever the text appears: URL, header fields,
/// bodies, messages), and the whole values of the header fields in `sensitiveHeaderNames`.
public struct SecretMasker: Sendable {
    /// The mask.
    public static let mask = "****"
    /// Header fields whose values are always masked (lower case): credentials and session cookies.
    public static let sensitiveHeaderNames: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie"]

    /// The shortest secret value searched for in text, in characters.
    public static let minimumLength = 4

    /// Secret texts, longest first so a secret that contains another is masked whole.
    private let values: [String]
    private let enabled: Bool

    ///   - enabled: false for `--show-secrets`: everything passes unchanged.
    /// - Parameters:
    ///   - values: the secret values (empty ones are ignored); each is also masked in its percent-encoded
    ///     forms, as it appears in a query string, a form body or a URL's path.
    public init(values: [String], enabled: Bool = true) {
        // Values shorter than `minimumLength` are not searched for in text: a secret "e" would mask every "e"
        // in URLs, header fields and messages. Sensitive header fields are still masked whole.
        let plain = values.filter { $0.count >= Self.minimumLength }
        // As written, and as each way of putting it in a URL spells it: a query value, a form value, and
        // anywhere else in a URL (a path: only spaces, non-ASCII and a few others percent-encoded).
        let spellings = plain + plain.map { URLQuery.encode($0) } + plain.map { URLQuery.formEncode($0) } + plain.map { URLNormalizer.encodedAsInURL($0) }
        self.values = Array(Set(spellings)).sorted { $0.count > $1.count }
        self.enabled = enabled
    }

    public func mask(_ text: String) -> String {
        guard enabled, !values.isEmpty else { return text }
        var text = text
        for value in values where text.contains(value) { text = text.replacingOccurrences(of: value, with: Self.mask) }
        return text
    }

    public func mask(_ headers: [HeaderField]) -> [HeaderField] {
        // Nothing to do (the common case) costs a scan, not a copy.
        guard enabled, !values.isEmpty || headers.contains(where: { $0.hasName(in: Self.sensitiveHeaderNames) }) else { return headers }
        return headers.map { field in
            HeaderField(name: field.name,
                        value: field.hasName(in: Self.sensitiveHeaderNames) ? Self.mask : mask(field.value))
        }
    }

    public func mask(_ body: RecordedBody) -> RecordedBody {
        guard enabled, body.encoding == "utf8" else { return body }
        var copy = body
        copy.data = mask(body.data)
        return copy
    }

    /// A result with every secret masked (the body hash and sizes stay those of the real content).
    public func mask(_ result: consuming RequestResult) -> RequestResult {
        guard enabled else { return result }
        // Without secret values only sensitive header fields can need masking; most results have none.
        if values.isEmpty {
            var r = result
            if let headers = r.request?.headers { r.request?.headers = mask(headers) }
            if let headers = r.response?.headers { r.response?.headers = mask(headers) }
            return r
        }
        var r = result
        r.url = mask(r.url)
        if let message = r.error?.message { r.error?.message = mask(message) }
        if var request = r.request {
            request.headers = mask(request.headers)
            request.body = request.body.map(mask)
            r.request = request
        }
        if var response = r.response {
            response.headers = mask(response.headers)
            response.body = mask(response.body)
            r.response = response
        }
        r.expectations = r.expectations.map { e in
            var e = e
            e.description = mask(e.description)
            e.expected = mask(e.expected)
            e.actual = mask(e.actual)
            return e
        }
        r.redirects = r.redirects.map { hop in
            var hop = hop
            hop.url = mask(hop.url)
            hop.location = mask(hop.location)
            return hop
        }
        r.captures = r.captures.map { c in
            var c = c
            c.value = c.value.map(mask)
            c.error = c.error.map(mask)
            return c
        }
        r.console = r.console?.map(mask)
        return r
    }
}
