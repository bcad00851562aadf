/// The rules by which a request is prepared and redirected where reqrun and Newman differ: reqrun's
/// (`.reqrun`, the default) or Newman's (`.newman`). A run's requests each follow their collection's rules:
/// `--compat MODE` for every collection of the run, else the workspace's `reqrun.json` (`WorkspaceSettings`)
/// for that collection file, else the native collection's own `compat` field, else reqrun's.
///
/// Newman's rules, each from Newman 6 / postman-runtime 7 / postman-collection 4 behaviour:
/// - an undefined `{{name}}` is sent as its literal text (postman-collection's `VariableScope.replaceIn`
///   leaves unknown references as written); reqrun refuses to send the request;
/// - a Postman URL object's query entry with neither key nor value is an empty entry (`?a=1&&b=2`,
///   `QueryParam.unparse`); reqrun leaves it out. A string URL keeps `&&` under both rules;
/// - `^` and `|` stay as they are in the path (postman-url-encoder's path set does not hold them); reqrun
///   percent-encodes them there as RFC 3986 §2 asks;
/// - `@` and `:` inside the user information (`http://us@r:p:ss@host/`: up to the last `@`, the user up
///   to the first `:`) are percent-encoded; reqrun leaves the URL as written (libcurl then refuses it);
/// - a body on GET, COPY, HEAD, PURGE or UNLOCK is not sent, unless the request's `disableBodyPruning`
///   (postman-runtime's `METHODS_WITHOUT_BODY`); reqrun drops it on HEAD only (RFC 9110 §9.3.2);
/// - on a 301, 302 or 303 every method but HEAD becomes GET, unless the request's
///   `followOriginalHttpMethod` (postman-request's redirect rule, Newman's default `false`); reqrun follows
///   RFC 9110 §15.4 (only POST becomes GET on 301 and 302).
///
/// Postman's `protocolProfileBehavior` fields `disableBodyPruning` and `followOriginalHttpMethod` set
/// the last two per request: `applying(disableBodyPruning:followOriginalHttpMethod:)` lays them over the
/// run's rules.
public struct RequestRules: Sendable, Equatable {
    /// Send an undefined `{{name}}` as its literal text (with a warning) instead of failing the request.
    public var sendsUndefinedVariablesAsText = false
    /// Keep a Postman URL object's query entry without key and value as an empty entry (applied when the
    /// collection loads).
    public var keepsEmptyQueryEntries = false
    /// Leave `^` and `|` unencoded in the path.
    public var keepsCaretAndPipeInPath = false
    /// Percent-encode `@` and `:` inside the URL's user information.
    public var encodesUserinfoDelimiters = false
    /// Do not send a body on `bodylessMethods`.
    public var prunesBodies = false
    /// The method is kept on 301 and 302 (but POST becomes GET) as RFC 9110 §15.4 has it; false: every
    /// method but HEAD becomes GET on 301, 302 and 303, as Newman's `followOriginalHttpMethod: false`.
    public var followsOriginalMethod = true

    /// postman-runtime's methods whose body is pruned.
    public static let bodylessMethods: Set<String> = ["GET", "COPY", "HEAD", "PURGE", "UNLOCK"]

    public init() {}

    /// reqrun's own rules.
    public static let reqrun = RequestRules()

    /// Newman's rules (`--compat newman`).
    public static let newman: RequestRules = {
        var rules = RequestRules()
        rules.sendsUndefinedVariablesAsText = true
        rules.keepsEmptyQueryEntries = true
        rules.keepsCaretAndPipeInPath = true
        rules.encodesUserinfoDelimiters = true
        rules.prunesBodies = true
        rules.followsOriginalMethod = false
        return rules
    }()

    /// The words that name rules: `--compat MODE`, a native collection's `compat`, `reqrun.json`'s `compat`.
    public static let modes = ["newman", "reqrun"]

    /// The rules `mode` names (`newman` or `reqrun`), or nil for another word.
    public static func named(_ mode: String) -> RequestRules? {
        switch mode {
        case "newman": return .newman
        case "reqrun": return .reqrun
        default: return nil
        }
    }

    /// Why `found` (a word, or a JSON kind such as `a number`) names no rules, with the closest word.
    static func unknownModeReason(_ found: String, isWord: Bool = true) -> String {
        var reason = "expected one of \(modes.map { "\"\($0)\"" }.joined(separator: ", ")), found " + (isWord ? "\"\(found)\"" : found)
        if isWord, let guess = Suggestion.closest(to: found, among: modes) { reason += " (did you mean '\(guess)'?)" }
        return reason
    }

    /// The word of `modes` that names these rules, or nil for rules no word names.
    public var mode: String? { self == .newman ? "newman" : self == .reqrun ? "reqrun" : nil }

    /// These rules with a request's `protocolProfileBehavior` laid over them (nil: not set on the request).
    public func applying(disableBodyPruning: Bool?, followOriginalHttpMethod: Bool?) -> RequestRules {
        var rules = self
        if let disableBodyPruning { rules.prunesBodies = !disableBodyPruning }
        if let followOriginalHttpMethod { rules.followsOriginalMethod = followOriginalHttpMethod }
        return rules
    }

    /// The console line that says `name` was sent as its literal text (once per name and run).
    public static func literalWarning(_ name: String) -> String {
        "warn: {{\(name)}} is not defined: sent as its literal text (Newman's rules)"
    }

    /// Whether a body on `method` is left out: always on HEAD, on `bodylessMethods` when `prunesBodies`.
    func prunesBody(of method: String) -> Bool {
        method == "HEAD" || (prunesBodies && Self.bodylessMethods.contains(method.uppercased()))
    }
}
