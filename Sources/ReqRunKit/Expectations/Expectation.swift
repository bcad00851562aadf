/// What a request expects of its response, declared in the collection (`expect`, documented in the README).
public enum Expectation: Sendable, Equatable {
    /// `{"status": 200}`, `{"status": [200, 201]}`, `{"status": "2xx"}` (a class: 1xx…5xx).
    case status(codes: [Int], classes: [Int])
    /// `{"header": NAME, "equals" | "contains" | "matches" | "exists": …}`: header field names match in any
    /// case (RFC 9110 §5.1); with repeats, any field with that name may satisfy it.
    case header(name: String, TextCheck)
    /// `{"body": {"contains" | "matches" | "equals": …}}`: the body as UTF-8 text.
    case body(TextCheck)
    /// `{"json": PATH, "equals": VALUE | "exists": BOOL | "type": TYPE}`: a value in the JSON body.
    case json(path: JSONPath, JSONCheck)
    /// `{"timeBelow": MS}`: total time, strictly below, in milliseconds.
    case timeBelow(milliseconds: Int)
    /// `{"bodySize": BYTES}` or `{"bodySizeBelow": BYTES}`: size of the content as received.
    case bodySize(bytes: Int, below: Bool)
    /// A string item: a check of the check grammar (`"$.items[*].id count == 3"`, see `Check`).
    case check(Check)

    /// Checks on text. Strings may hold `{{name}}`, resolved when the check runs.
    public enum TextCheck: Sendable, Equatable {
        case equals(String)
        case contains(String)
        /// A regular expression (ICU syntax, as `NSRegularExpression`), found anywhere unless anchored.
        case matches(String)
        case exists(Bool)
    }

    public enum JSONCheck: Sendable, Equatable {
        /// Compared as JSON values: numbers by value (`1.0` equals `1`), objects without regard to key order.
        /// A string value may use `{{name}}`.
        case equals(JSONNode)
        case exists(Bool)
        /// `string`, `number`, `integer`, `boolean`, `null`, `array` or `object`.
        case type(String)
    }

    /// The JSON types `type` accepts.
    public static let jsonTypes = ["string", "number", "integer", "boolean", "null", "array", "object"]
}

/// An expectation with where it was written, for messages.
public struct ExpectationSpec: Sendable, Equatable {
    public var expectation: Expectation
    /// e.g. `groups[0].requests[1].expect[2]`.
    public var fieldPath: String
    public var location: SourceLocation

    public init(expectation: Expectation, fieldPath: String, location: SourceLocation) {
        self.expectation = expectation
        self.fieldPath = fieldPath
        self.location = location
    }
}

/// A value a request takes from its response into a variable for later requests of the run (`capture`).
public struct Capture: Sendable, Equatable {
    public enum Source: Sendable, Equatable {
        /// `{"var": NAME, "json": PATH}`: a string is taken as is, anything else as its JSON text.
        case json(JSONPath)
        /// `{"var": NAME, "header": FIELD}`: the first field with that name (any case).
        case header(String)
        /// `{"var": NAME, "regex": PATTERN}`: on the body text; the first capture group if the pattern has
        /// one, else the whole match.
        case regex(String)
        /// `{"var": NAME, "cookie": COOKIE}`: the value of that cookie in a `Set-Cookie` field (RFC 6265 §4.1)
        /// of the response or of a redirect before it. A captured cookie is a secret (masked in output).
        case cookie(String)
        /// `{"var": NAME, "from": CHECK}`: a subject and filters of the check grammar (`"cookie 'id[Path]'"`,
        /// `"body regex 'n=(\\d+)' toInt"`); the value as `CheckValue.text` gives it.
        case check(Check)
    }

    /// True when the capture takes a cookie's value (a secret), in either form.
    public var takesCookie: Bool {
        switch source {
        case .cookie: return true
        case .check(let check):
            if case .cookie(_, let attribute) = check.subject { return attribute == nil || attribute == .value }
            return false
        default: return false
        }
    }

    public var variable: String
    public var source: Source
    public var fieldPath: String

    public init(variable: String, source: Source, fieldPath: String) {
        self.variable = variable
        self.source = source
        self.fieldPath = fieldPath
    }
}
