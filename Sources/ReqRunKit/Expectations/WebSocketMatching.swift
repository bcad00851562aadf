import Foundation

/// Checks a received WebSocket message against a receive step's matcher, in the words of `expect`. Pure:
/// no I/O. A text or JSON matcher sees the message as a response body (`ExpectationCheck`, `CaptureCheck`).
enum WebSocketMatching {
    /// The message as the checks see it: its data as the body, no status or header fields.
    static func view(_ payload: [UInt8]) -> ResponseView {
        ResponseView(status: 0, headers: [], body: payload, bodySize: payload.count, totalMicroseconds: 0)
    }

    /// Whether the message matches, and the expected and actual text for the record.
    /// - Parameter binary: the message is a binary one (else text).
    static func check(_ matcher: WebSocketMatcher, binary: Bool, _ payload: [UInt8], fieldPath: String,
                      scope: VariableScope) -> (passed: Bool, expected: String, actual: String) {
        let expectation: Expectation
        switch matcher {
        case .binary(let bytes):
            let actual = binary ? "binary " + Data(payload).base64EncodedString() : "text " + String(decoding: payload, as: UTF8.self)
            return (binary && payload == bytes, "binary " + Data(bytes).base64EncodedString(), ExpectationCheck.excerpt(actual))
        case .text(let check): expectation = .body(check)
        case .json(let path, let check): expectation = .json(path: path, check)
        }
        let spec = ExpectationSpec(expectation: expectation, fieldPath: fieldPath, location: SourceLocation(line: 1, column: 1))
        let checked = ExpectationCheck.check(spec, view(payload), scope: scope)
        return (checked.passed, checked.expected, checked.actual)
    }

    /// The matcher in words, after "message": `equals "hi"`, `$.ok equals true`, `is binary 4 bytes`.
    static func describe(_ matcher: WebSocketMatcher) -> String {
        switch matcher {
        case .binary(let bytes): return "is binary \(bytes.count) bytes"
        case .text(.exists): return "arrives"
        case .text(let check): return ExpectationCheck.describe(check)
        case .json(let path, let check):
            switch check {
            case .equals(let node): return "\(path) equals \(node.compactText)"
            case .exists(let wanted): return "\(path) \(wanted ? "exists" : "is absent")"
            case .type(let type): return "\(path) is \(type)"
            }
        }
    }

    /// What a receive step expected, for a step that got no message to check: the matcher, or a count.
    static func expected(_ matcher: WebSocketMatcher?, count: Int) -> String {
        if let matcher { return describe(matcher) }
        return "\(count) message\(count == 1 ? "" : "s")"
    }
}
