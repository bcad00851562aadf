/// One check of reqrun's check grammar: a subject (what is looked at), filters applied in order, then a
/// predicate (absent in a capture, which takes the value). Written as one string, e.g.
/// `$.items[*].id count == 3`, `header "Content-Type" startsWith "application/json"`,
/// `cookie "session[HttpOnly]" exists`, `body regex "id=(\d+)" toInt > 0` (parsed by `CheckParser`,
/// documented in the README's "Expectations and captures"; modelled on Hurl's asserts and captures).
///
/// `description` is the check in its canonical spelling, which parses back to the same check; `show`,
/// the console and the reports print it.
public struct Check: Sendable, Equatable, CustomStringConvertible {
    public var subject: Subject
    public var filters: [Filter]
    /// Nil in a capture.
    public var predicate: Predicate?

    public init(subject: Subject, filters: [Filter] = [], predicate: Predicate? = nil) {
        self.subject = subject
        self.filters = filters
        self.predicate = predicate
    }

    /// What a check looks at.
    public enum Subject: Sendable, Equatable {
        /// The final status code (a number).
        case status
        /// The final URL, after redirects (a string).
        case url
        /// The redirect hops before the final response: a list of `{"method", "url", "status", "location"}`.
        case redirects
        /// `1.0`, `1.1`, `2` or `3` (a string).
        case httpVersion
        /// The value of the header field (a string), or a list when the field is repeated.
        case header(String)
        /// A cookie a `Set-Cookie` field of the response (or of a redirect before it) sets: its value, or one
        /// attribute (`session[Path]`).
        case cookie(name: String, attribute: CookieAttribute?)
        /// The body as text; absent when the response has no content.
        case body
        /// The body's bytes (after content decoding), and their SHA-256 and MD5 as lower-case hex.
        case bytes, sha256, md5
        /// The JSON body at a path (RFC 9535): one value for a singular path, else a list.
        case jsonpath(JSONPath)
        /// The first group (or the whole match) of a regular expression on the body text.
        case regex(String)
        /// XPath 1.0 (libxml2) on the XML or HTML body: a node set as a list of string values, a string,
        /// a number or a boolean.
        case xpath(String)
        /// A variable: one this request captured, or one of the run's scope.
        case variable(String)
        /// Total time in milliseconds.
        case duration
        /// One of curl's phase times in milliseconds: `namelookup`, `connect`, `appconnect`, `pretransfer`,
        /// `starttransfer`, `total`.
        case timing(String)
        /// The body's size in bytes, after content decoding.
        case bodySize
        /// A field of the server's TLS certificate (`CURLINFO_CERTINFO`): `Subject`, `Issuer`, `Start-Date`,
        /// `Expire-Date` (dates) or `Serial-Number`.
        case certificate(CertificateField)
    }

    /// The certificate fields a check reads, by Hurl's names, and libcurl's names for them.
    public enum CertificateField: String, Sendable, Equatable, CaseIterable {
        case subject = "Subject", issuer = "Issuer", startDate = "Start-Date", expireDate = "Expire-Date", serialNumber = "Serial-Number"

        /// The name in libcurl's `CURLINFO_CERTINFO` lines (`Start date:…`).
        var curlName: String {
            switch self {
            case .subject: return "Subject"
            case .issuer: return "Issuer"
            case .startDate: return "Start date"
            case .expireDate: return "Expire date"
            case .serialNumber: return "Serial Number"
            }
        }
    }

    /// `Set-Cookie` attributes (RFC 6265 §5.2) by the names `cookie "name[Attr]"` takes (any case).
    public enum CookieAttribute: String, Sendable, Equatable, CaseIterable {
        case value = "Value", expires = "Expires", maxAge = "Max-Age", domain = "Domain", path = "Path"
        case secure = "Secure", httpOnly = "HttpOnly", sameSite = "SameSite"
    }

    /// Filters transform the value, in order (Hurl's filters).
    public enum Filter: Sendable, Equatable {
        case count, first, last
        case nth(Int)
        case toInt, toFloat, toString
        case regex(String)
        case split(String)
        /// Every occurrence of a literal text replaced.
        case replace(String, String)
        /// Every match of a regular expression (ICU syntax) replaced by a template (`$1` is the first group),
        /// Hurl's `replaceRegex`.
        case replaceRegex(String, String)
        case urlDecode, urlEncode, base64Decode, base64Encode
        case jsonpath(JSONPath)
        /// XPath on a string holding XML (or HTML, when it starts with `<!DOCTYPE html` or `<html`).
        case xpath(String)
        /// A `strptime(3)` format: `%Y-%m-%d`, `%d/%m/%Y %H:%M:%S %z`.
        case toDate(String)
        case daysBeforeNow, daysAfterNow
        /// Bytes (or a string's UTF-8 bytes) decoded from a charset with iconv: `decode "latin1"`.
        case decode(String)
    }

    /// A predicate, optionally negated with `not`, optionally applied to each item of a list (`all`, `any`).
    public struct Predicate: Sendable, Equatable {
        public var negated: Bool
        /// `all`: every item of the list satisfies the (possibly negated) test, true for an empty list;
        /// `any`: at least one does, false for an empty list. A value that is not a list counts as a list of
        /// one; an absent value fails. Nil: the test applies to the value itself.
        public var quantifier: Quantifier?
        public var test: Test

        public init(negated: Bool = false, quantifier: Quantifier? = nil, _ test: Test) {
            self.negated = negated
            self.quantifier = quantifier
            self.test = test
        }

        /// `all` or `any`, written before `not` and the predicate: `$.items[*].price all > 0`.
        public enum Quantifier: String, Sendable, Equatable, CaseIterable {
            case all, any
        }

        public enum Test: Sendable, Equatable {
            /// A comparison with a JSON literal; a string may hold `{{name}}`.
            case compare(Comparison, JSONNode.Value)
            case contains(JSONNode.Value), startsWith(JSONNode.Value), endsWith(JSONNode.Value)
            /// A regular expression (ICU syntax), found anywhere unless anchored.
            case matches(String)
            /// A member of a list (compared as `==`).
            case includes(JSONNode.Value)
            case exists, isEmpty
            case isType(TypeTest)
        }

        public enum Comparison: String, Sendable, Equatable {
            case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
        }

        public enum TypeTest: String, Sendable, Equatable, CaseIterable {
            case isString, isInteger, isFloat, isNumber, isBoolean, isList, isObject, isNull, isIsoDate, isUuid, isIpv4, isIpv6
        }
    }

    /// Strings the check resolves `{{name}}` in when it runs (the predicate's operand), and `{{name}}` for
    /// a `variable` subject, so that `--parallel` waits for the request that captures it.
    public var templates: [String] {
        var own: [String] = []
        if case .variable(let name) = subject { own.append("{{\(name)}}") }
        guard let predicate else { return own }
        return own + predicateTemplates(predicate)
    }

    private func predicateTemplates(_ predicate: Predicate) -> [String] {
        switch predicate.test {
        case .compare(_, let value), .contains(let value), .startsWith(let value), .endsWith(let value), .includes(let value):
            if case .string(let s) = value { return [s] }
            return []
        case .matches(let s): return [s]
        default: return []
        }
    }

    /// True when the check reads the server's certificate.
    public var readsCertificate: Bool {
        if case .certificate = subject { return true }
        return false
    }

    /// True when the subject reads the response's content.
    public var readsBody: Bool {
        switch subject {
        case .body, .bytes, .md5, .jsonpath, .regex, .xpath: return true
        default: return false
        }
    }

    public var description: String {
        var words = [subjectText]
        words += filters.map(Self.text)
        if let predicate { words.append(Self.text(predicate)) }
        return words.joined(separator: " ")
    }

    private var subjectText: String {
        switch subject {
        case .status: return "status"
        case .url: return "url"
        case .redirects: return "redirects"
        case .httpVersion: return "httpVersion"
        case .header(let name): return "header \(Self.quoted(name))"
        case .cookie(let name, let attribute): return "cookie \(Self.quoted(name + (attribute.map { "[\($0.rawValue)]" } ?? "")))"
        case .body: return "body"
        case .bytes: return "bytes"
        case .sha256: return "sha256"
        case .md5: return "md5"
        case .jsonpath(let path): return CheckParser.isBarePath(path.text) ? path.text : "jsonpath \(Self.quoted(path.text))"
        case .regex(let pattern): return "regex \(Self.quoted(pattern))"
        case .xpath(let expression): return "xpath \(Self.quoted(expression))"
        case .variable(let name): return "variable \(Self.quoted(name))"
        case .duration: return "duration"
        case .timing(let name): return "timings.\(name)"
        case .bodySize: return "bodySize"
        case .certificate(let field): return "certificate \(Self.quoted(field.rawValue))"
        }
    }

    static func text(_ filter: Filter) -> String {
        switch filter {
        case .count: return "count"
        case .first: return "first"
        case .last: return "last"
        case .nth(let n): return "nth \(n)"
        case .toInt: return "toInt"
        case .toFloat: return "toFloat"
        case .toString: return "toString"
        case .regex(let pattern): return "regex \(quoted(pattern))"
        case .split(let separator): return "split \(quoted(separator))"
        case .replace(let old, let new): return "replace \(quoted(old)) \(quoted(new))"
        case .replaceRegex(let pattern, let template): return "replaceRegex \(quoted(pattern)) \(quoted(template))"
        case .urlDecode: return "urlDecode"
        case .urlEncode: return "urlEncode"
        case .base64Decode: return "base64Decode"
        case .base64Encode: return "base64Encode"
        case .jsonpath(let path): return "jsonpath \(quoted(path.text))"
        case .xpath(let expression): return "xpath \(quoted(expression))"
        case .toDate(let format): return "toDate \(quoted(format))"
        case .daysBeforeNow: return "daysBeforeNow"
        case .daysAfterNow: return "daysAfterNow"
        case .decode(let charset): return "decode \(quoted(charset))"
        }
    }

    static func text(_ predicate: Predicate) -> String {
        let body: String
        switch predicate.test {
        case .compare(let op, let value): body = "\(op.rawValue) \(literal(value))"
        case .contains(let value): body = "contains \(literal(value))"
        case .startsWith(let value): body = "startsWith \(literal(value))"
        case .endsWith(let value): body = "endsWith \(literal(value))"
        case .matches(let pattern): body = "matches \(quoted(pattern))"
        case .includes(let value): body = "includes \(literal(value))"
        case .exists: body = "exists"
        case .isEmpty: body = "isEmpty"
        case .isType(let type): body = type.rawValue
        }
        return (predicate.quantifier.map { $0.rawValue + " " } ?? "") + (predicate.negated ? "not " + body : body)
    }

    /// The operand of a predicate as text, for reports' "expected".
    static func operandText(_ predicate: Predicate) -> String {
        switch predicate.test {
        case .exists: return predicate.negated ? "(absent)" : "present"
        case .isEmpty, .isType: return text(predicate)
        default: return text(predicate)
        }
    }

    static func quoted(_ s: String) -> String { JSONNode(value: .string(s), location: .init(line: 0, column: 0)).compactText }

    static func literal(_ value: JSONNode.Value) -> String { JSONNode(value: value, location: .init(line: 0, column: 0)).compactText }
}

extension Request {
    /// True when an expectation or capture reads the server's certificate (then libcurl collects it).
    public var readsCertificate: Bool {
        expectations.contains { if case .check(let c) = $0.expectation { c.readsCertificate } else { false } }
            || captures.contains { if case .check(let c) = $0.source { c.readsCertificate } else { false } }
    }
}
