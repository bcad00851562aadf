import Foundation

/// Runs a `Check` against a response: the subject's value, each filter in turn, then the predicate.
/// Pure: no I/O (the clock only for `daysBeforeNow`/`daysAfterNow`, through `now`).
public enum CheckEvaluator {
    /// Why a check could not produce a value: the body is not JSON, a filter does not apply…
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
        init(_ description: String) { self.description = description }
    }

    /// The outcome of an expectation: whether it passed, what it expected, what it found.
    public struct Outcome: Sendable, Equatable {
        public var passed: Bool
        public var expected: String
        public var actual: String
    }

    /// Evaluates an expectation; strings in its predicate may use `{{name}}` from `scope`.
    public static func evaluate(_ check: Check, _ response: ResponseView, scope: VariableScope, now: Date = Date()) -> Outcome {
        guard let predicate = check.predicate else { return Outcome(passed: false, expected: "", actual: "no predicate") }
        let expected = Check.text(predicate)
        let value: CheckValue?
        switch self.value(check, response, scope: scope, now: now) {
        case .failure(let failure): return Outcome(passed: false, expected: expected, actual: failure.description)
        case .success(let v): value = v
        }
        var actual = value.map { ExpectationCheck.excerpt($0.shown) } ?? "(absent)"
        switch CheckPredicates.holds(predicate, value, scope: scope) {
        case .failure(let failure): return Outcome(passed: false, expected: expected, actual: failure.description)
        case .success(let holds):
            if !holds, predicate.quantifier == .all, case .json(.array(let items))? = value,
               let k = CheckPredicates.firstFailing(predicate, items, scope: scope) {
                actual += " (item \(k) fails: \(ExpectationCheck.excerpt(CheckValue.json(items[k].value).shown)))"
            }
            return Outcome(passed: holds, expected: expected, actual: actual)
        }
    }

    /// The value of the subject after the filters; nil when the subject is absent.
    public static func value(_ check: Check, _ response: ResponseView, scope: VariableScope, now: Date = Date()) -> Result<CheckValue?, Failure> {
        var value: CheckValue?
        switch subject(check.subject, response, scope: scope) {
        case .failure(let failure): return .failure(failure)
        case .success(let v): value = v
        }
        for filter in check.filters {
            guard let input = value else { return .success(nil) }
            switch CheckFilters.apply(filter, input, now: now) {
            case .failure(let failure): return .failure(Failure("\(Check.text(filter)): \(failure.description)"))
            case .success(let v): value = v
            }
        }
        return .success(value)
    }

    private static func subject(_ subject: Check.Subject, _ response: ResponseView, scope: VariableScope) -> Result<CheckValue?, Failure> {
        func completeBody() -> Failure? {
            response.bodyIsComplete ? nil : Failure(ResponseView.BodyProblem.tooLarge(limit: response.body.count).description)
        }
        switch subject {
        case .status: return .success(.integer(response.status))
        case .url: return .success(.string(response.finalURL))
        case .httpVersion: return .success(.string(response.httpVersion))
        case .redirects:
            return .success(.list(response.redirects.map { hop in
                let fields: [(String, JSONNode.Value)] = [("method", .string(hop.method)), ("url", .string(hop.url)),
                                                          ("status", .number(String(hop.status))), ("location", .string(hop.location))]
                return .object(fields.map { JSONNode.Member(key: $0.0, keyLocation: .init(line: 0, column: 0), value: CheckValue.node($0.1)) })
            }))
        case .header(let name):
            let values = response.headerValues(name)
            switch values.count {
            case 0: return .success(nil)
            case 1: return .success(.string(values[0]))
            default: return .success(.list(values.map { .string($0) }))
            }
        case .cookie(let name, let attribute):
            guard let cookie = SetCookie.last(named: name, in: response.redirectSetCookies + response.headerValues("Set-Cookie")) else { return .success(nil) }
            switch attribute {
            case nil, .value?: return .success(.string(cookie.value))
            case .secure?, .httpOnly?: return .success(cookie.attribute(attribute!.rawValue) == nil ? nil : .json(.bool(true)))
            case .maxAge?:
                guard let text = cookie.attribute("Max-Age") else { return .success(nil) }
                return .success(Int(text).map { .integer($0) } ?? .string(text))
            case let other?: return .success(cookie.attribute(other.rawValue).map { .string($0) })
            }
        case .body:
            if let failure = completeBody() { return .failure(failure) }
            guard response.bodySize > 0 else { return .success(nil) }
            return response.bodyText().map { .string($0) }.mapError { Failure($0.description) }
        case .bytes:
            if let failure = completeBody() { return .failure(failure) }
            return .success(.bytes(response.body))
        case .sha256:
            if let hash = response.bodySHA256 { return .success(.string(hash)) }
            if let failure = completeBody() { return .failure(failure) }
            return .success(.string(Digest.hex(Digest.sha256(response.body))))
        case .md5:
            if let failure = completeBody() { return .failure(failure) }
            return .success(.string(Digest.hex(Digest.md5(response.body))))
        case .jsonpath(let path):
            switch response.json() {
            case .failure(let problem): return .failure(Failure(problem.description))
            case .success(let root): return .success(path.select(in: root).map { .json($0.value) })
            }
        case .regex(let pattern):
            if let failure = completeBody() { return .failure(failure) }
            return response.bodyText().map { text in CheckFilters.firstMatch(pattern, in: text).map { .string($0) } }.mapError { Failure($0.description) }
        case .xpath(let expression):
            if let failure = completeBody() { return .failure(failure) }
            let type = response.headerValues("Content-Type").last ?? ""
            return XPathQuery.evaluate(expression, on: response.body, html: type.lowercased().contains("html"),
                                       encoding: CharsetDecoder.charset(ofContentType: type)).map { $0 }
        case .variable(let name):
            if let value = response.capturedValues[name] { return .success(.string(value)) }
            guard scope.value(name) != nil else { return .success(nil) }
            do {
                return .success(.string(try scope.resolve("{{\(name)}}", field: "variable \(name)")))
            } catch {
                return .failure(Failure(error.description))
            }
        case .duration: return .success(.milliseconds(response.totalMicroseconds))
        case .timing(let name):
            guard let t = response.timings else { return .success(nil) }
            let all = ["namelookup": t.namelookup, "connect": t.connect, "appconnect": t.appconnect, "pretransfer": t.pretransfer,
                       "starttransfer": t.starttransfer, "total": t.total]
            return .success(all[name].map { .milliseconds($0) })
        case .bodySize: return .success(.integer(response.bodySize))
        case .certificate(let field):
            guard let text = response.certificate?[field.curlName] else { return .success(nil) }
            guard field == .startDate || field == .expireDate else { return .success(.string(text)) }
            // OpenSSL's form: `Jan  1 00:00:00 2030 GMT`.
            guard let date = StrptimeDate.parse(text, format: "%b %d %H:%M:%S %Y GMT") else { return .success(.string(text)) }
            return .success(.date(date))
        }
    }
}
