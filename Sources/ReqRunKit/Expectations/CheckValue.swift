import Foundation

/// A value as a check sees it between subject, filters and predicate: a JSON value (numbers keep their
/// text, lists are JSON arrays), bytes, or a date.
public enum CheckValue: Sendable, Equatable {
    case json(JSONNode.Value)
    case bytes([UInt8])
    case date(Date)

    static func string(_ s: String) -> CheckValue { .json(.string(s)) }
    static func integer(_ n: Int) -> CheckValue { .json(.number(String(n))) }
    static func list(_ values: [JSONNode.Value]) -> CheckValue { .json(.array(values.map(node))) }

    static func node(_ value: JSONNode.Value) -> JSONNode { JSONNode(value: value, location: SourceLocation(line: 0, column: 0)) }

    /// A number of milliseconds from microseconds, with up to three decimals (`12.345`, `3`).
    static func milliseconds(_ microseconds: Int) -> CheckValue {
        let whole = microseconds / 1000, part = microseconds % 1000
        guard part != 0 else { return .json(.number(String(whole))) }
        var fraction = String(part)
        fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return .json(.number("\(whole).\(fraction)"))
    }

    /// The text a report shows, and a capture takes: a string as is, bytes as UTF-8 (or `hex:…` when not
    /// UTF-8), a date in ISO 8601 (UTC, milliseconds), anything else as compact JSON.
    public var text: String {
        switch self {
        case .json(.string(let s)): return s
        case .json(let value): return CheckValue.node(value).compactText
        case .bytes(let bytes): return String(validating: bytes, as: UTF8.self) ?? "hex:" + Digest.hex(bytes)
        case .date(let date):
            Self.isoLock.lock()
            defer { Self.isoLock.unlock() }
            return Self.isoFormatter.string(from: date)
        }
    }

    /// How a report shows the value: like `text`, with strings quoted.
    var shown: String {
        if case .json(.string(let s)) = self { return Check.quoted(s) }
        return text
    }

    /// `string`, `integer`, `float`, `boolean`, `null`, `list`, `object`, `bytes` or `date`.
    var typeName: String {
        switch self {
        case .json(.string): return "string"
        case .json(.number(let t)): return NumberText.isInteger(t) ? "integer" : "float"
        case .json(.bool): return "boolean"
        case .json(.null): return "null"
        case .json(.array): return "list"
        case .json(.object): return "object"
        case .bytes: return "bytes"
        case .date: return "date"
        }
    }

    nonisolated(unsafe) static let isoFormatter: ISO8601DateFormatter = {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f
    }()

    /// An RFC 3339 date-time (`2026-12-01T09:30:00Z`, `…T09:30:00.123+01:00`), or a full date
    /// (`2026-12-01`, midnight UTC).
    static func isoDate(_ text: String) -> Date? {
        let lock = isoLock
        lock.lock()
        defer { lock.unlock() }
        if let d = isoFormatter.date(from: text) { return d }
        if let d = plainISOFormatter.date(from: text) { return d }
        return dateOnlyFormatter.date(from: text)
    }

    private static let isoLock = NSLock()
    nonisolated(unsafe) private static let plainISOFormatter = ISO8601DateFormatter()
    nonisolated(unsafe) private static let dateOnlyFormatter: ISO8601DateFormatter = {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withFullDate]
        return f
    }()
}
