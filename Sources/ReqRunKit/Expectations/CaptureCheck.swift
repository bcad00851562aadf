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
    public static func evaluate(_ capture: Capture, _ response: ResponseView) -> CaptureResult {
        switch value(capture.source, response) {
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

    private static func value(_ source: Capture.Source, _ response: ResponseView) -> Result<String, Miss> {
        switch source {
        case .json(let path):
            switch response.json() {
            case .failure(let problem): return .failure(Miss(stringLiteral: problem.description))
            case .success(let root):
                guard let node = path.select(in: root) else { return .failure("\(path) is not in the body") }
                if case .string(let s) = node.value { return .success(s) }
                return .success(node.compactText)
            }
        case .header(let name):
            guard let value = response.headerValues(name).first else { return .failure("no \(name) header field") }
            return .success(value)
        case .regex(let pattern):
            let text = response.text
            guard let regex = try? NSRegularExpression(pattern: pattern),
                  let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) else {
                return .failure("/\(pattern)/ does not match the body")
            }
            let group = match.numberOfRanges > 1 ? 1 : 0
            guard let range = Range(match.range(at: group), in: text) else { return .failure("/\(pattern)/ matched no text in group \(group)") }
            return .success(String(text[range]))
        case .cookie(let name):
            // Set-Cookie: NAME=VALUE; attributes… (RFC 6265 §4.1.1); the last one for that name wins.
            var found: String?
            // Redirect responses set cookies too; a later one wins.
            for field in response.redirectSetCookies + response.headerValues("Set-Cookie") {
                let pair = field.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
                guard let equals = pair.firstIndex(of: "=") else { continue }
                if pair[..<equals].trimmingCharacters(in: .whitespaces) == name {
                    found = pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces)
                }
            }
            guard let found else { return .failure("no Set-Cookie field sets '\(name)'") }
            return .success(found)
        }
    }
}
