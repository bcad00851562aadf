import Foundation

/// The outcome of one capture, as recorded.
public struct CaptureResult: Codable, Sendable, Equatable {
    public var variable: String
    /// The value taken, when found.
    public var value: String?
    /// Why nothing was taken.
    public var error: String?

    public init(variable: String, value: String?, error: String?) {
        self.variable = variable
        self.value = value
        self.error = error
    }
}

/// Takes capture values from a response. Pure: no I/O.
public enum CaptureCheck {
    /// Takes `capture`'s value; `scope` is what a `variable` subject reads.
    public static func evaluate(_ capture: Capture, _ response: ResponseView, scope: VariableScope = VariableScope(layers: [])) -> CaptureResult {
        switch value(capture.source, response, scope: scope) {
        case .success(let value): return CaptureResult(variable: capture.variable, value: value, error: nil)
        case .failure(let miss): return CaptureResult(variable: capture.variable, value: nil, error: "capture '\(capture.variable)' found nothing: \(miss.reason)")
        }
    }

    /// Why a capture found nothing.
    private struct Miss: Error, ExpressibleByStringInterpolation {
        var reason: String
        init(stringLiteral value: String) { reason = value }
        init(stringInterpolation: DefaultStringInterpolation) { reason = String(stringInterpolation: stringInterpolation) }
    }

    /// Why a capture found nothing when its subject is absent, in the check grammar for every form:
    /// `header "ETag" is absent`.
    private static func absent(_ source: Capture.Source) -> Miss { "\(source.canonicalCheck) is absent" }

    private static func value(_ source: Capture.Source, _ response: ResponseView, scope: VariableScope) -> Result<String, Miss> {
        switch source {
        case .json(let path):
            switch response.json() {
            case .failure(let problem): return .failure(Miss(stringLiteral: problem.description))
            case .success(let root):
                guard let node = path.select(in: root) else { return .failure(absent(source)) }
                if case .string(let s) = node.value { return .success(s) }
                return .success(node.compactText)
            }
        case .header(let name):
            guard let value = response.headerValues(name).first else { return .failure(absent(source)) }
            return .success(value)
        case .regex(let pattern):
            guard let match = CheckFilters.firstMatch(pattern, in: response.text) else { return .failure(absent(source)) }
            return .success(match)
        case .cookie(let name):
            // Set-Cookie: NAME=VALUE; attributes… (RFC 6265 §4.1.1); redirect responses set cookies too, and a
            // later one wins.
            guard let cookie = SetCookie.last(named: name, in: response.redirectSetCookies + response.headerValues("Set-Cookie")) else {
                return .failure(absent(source))
            }
            return .success(cookie.value)
        case .check(let check):
            switch CheckEvaluator.value(check, response, scope: scope) {
            case .failure(let failure): return .failure(Miss(stringLiteral: failure.description))
            case .success(nil): return .failure(absent(source))
            case .success(let value?): return .success(value.text)
            }
        }
    }
}
