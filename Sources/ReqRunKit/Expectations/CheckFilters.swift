import Foundation

/// The filters of the check grammar (Hurl's filters): each takes a value and gives another, or says
/// why it does not apply.
enum CheckFilters {
    typealias Failure = CheckEvaluator.Failure

    static func apply(_ filter: Check.Filter, _ value: CheckValue, now: Date) -> Result<CheckValue?, Failure> {
        func wrong(_ wanted: String) -> Result<CheckValue?, Failure> { .failure(Failure("expected \(wanted), found \(describe(value))")) }
        switch filter {
        case .count:
            switch value {
            case .json(.array(let items)): return .success(.integer(items.count))
            case .json(.object(let members)): return .success(.integer(members.count))
            case .bytes(let bytes): return .success(.integer(bytes.count))
            default: return wrong("a list, an object or bytes")
            }
        case .first, .last, .nth:
            guard case .json(.array(let items)) = value else { return wrong("a list") }
            var index = 0
            if case .nth(let n) = filter { index = n < 0 ? items.count + n : n }
            if case .last = filter { index = items.count - 1 }
            guard items.indices.contains(index) else { return .failure(Failure("the list has \(items.count) item\(items.count == 1 ? "" : "s")")) }
            return .success(.json(items[index].value))
        case .toInt:
            switch value {
            case .json(.number(let text)):
                if NumberText.isInteger(text) { return .success(value) }
                guard let d = Double(text), d.isFinite, abs(d) < 9.2e18 else { return wrong("a number that fits an integer") }
                return .success(.integer(Int(d)))
            case .json(.string(let s)):
                let t = s.trimmingCharacters(in: .whitespaces)
                let digits = t.hasPrefix("-") || t.hasPrefix("+") ? t.dropFirst() : Substring(t)
                guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return wrong("an integer in text") }
                return .success(.json(.number(t.hasPrefix("+") ? String(digits) : t)))
            case .json(.bool(let b)): return .success(.integer(b ? 1 : 0))
            default: return wrong("a number or a string")
            }
        case .toFloat:
            let text: String
            switch value {
            case .json(.number(let t)): text = t
            case .json(.string(let s)): text = s.trimmingCharacters(in: .whitespaces)
            default: return wrong("a number or a string")
            }
            guard let d = Double(text), d.isFinite, text.lowercased() != "nan", !text.lowercased().contains("inf") else { return wrong("a number in text") }
            return .success(.json(.number(d.description)))
        case .toString:
            return .success(.string(value.text))
        case .regex(let pattern):
            guard let text = string(value) else { return wrong("a string") }
            guard let match = firstMatch(pattern, in: text) else { return .failure(Failure("no match in \(ExpectationCheck.excerpt(Check.quoted(text)))")) }
            return .success(.string(match))
        case .split(let separator):
            guard let text = string(value) else { return wrong("a string") }
            guard !separator.isEmpty else { return .success(.list(text.map { .string(String($0)) })) }
            return .success(.list(text.components(separatedBy: separator).map { .string($0) }))
        case .replace(let old, let new):
            guard let text = string(value) else { return wrong("a string") }
            return .success(.string(old.isEmpty ? text : text.replacingOccurrences(of: old, with: new)))
        case .replaceRegex(let pattern, let template):
            guard let text = string(value) else { return wrong("a string") }
            guard let regex = try? NSRegularExpression(pattern: pattern) else { return .failure(Failure("invalid regular expression")) }
            return .success(.string(regex.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: template)))
        case .urlDecode:
            guard let text = string(value) else { return wrong("a string") }
            guard let decoded = text.removingPercentEncoding else { return .failure(Failure("not valid percent-encoded UTF-8")) }
            return .success(.string(decoded))
        case .urlEncode:
            guard let text = string(value) else { return wrong("a string") }
            return .success(.string(text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text))
        case .base64Decode:
            guard var text = string(value)?.trimmingCharacters(in: .whitespacesAndNewlines) else { return wrong("a string") }
            text = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            while text.count % 4 != 0 { text += "=" }
            guard let data = Data(base64Encoded: text) else { return .failure(Failure("not base64")) }
            return .success(.bytes([UInt8](data)))
        case .base64Encode:
            switch value {
            case .bytes(let bytes): return .success(.string(Data(bytes).base64EncodedString()))
            case .json(.string(let s)): return .success(.string(Data(s.utf8).base64EncodedString()))
            default: return wrong("a string or bytes")
            }
        case .jsonpath(let path):
            let root: JSONNode
            switch value {
            case .json(.string(let s)):
                guard let parsed = try? JSONParser.parse(Array(s.utf8)) else { return .failure(Failure("the string is not JSON")) }
                root = parsed
            case .bytes(let bytes):
                guard let parsed = try? JSONParser.parse(bytes) else { return .failure(Failure("the bytes are not JSON")) }
                root = parsed
            case .json(let v): root = CheckValue.node(v)
            case .date: return wrong("JSON text, a list or an object")
            }
            return .success(path.select(in: root).map { .json($0.value) })
        case .xpath(let expression):
            guard let text = string(value) else { return wrong("a string holding XML or HTML") }
            let head = text.drop(while: { $0.isWhitespace }).prefix(14).lowercased()
            return XPathQuery.evaluate(expression, on: Array(text.utf8), html: head.hasPrefix("<!doctype html") || head.hasPrefix("<html"),
                                       encoding: "UTF-8").map { $0 }
        case .decode(let charset):
            let bytes: [UInt8]
            switch value {
            case .bytes(let b): bytes = b
            case .json(.string(let s)): bytes = Array(s.utf8)
            default: return wrong("bytes or a string")
            }
            return CharsetDecoder.decode(bytes, charset: charset).map { .string($0) }.mapError { Failure($0.description) }
        case .toDate(let format):
            guard let text = string(value) else { return wrong("a string") }
            guard let date = StrptimeDate.parse(text, format: format) else {
                return .failure(Failure("\(Check.quoted(text)) does not have the format \(Check.quoted(format))"))
            }
            return .success(.date(date))
        case .daysBeforeNow, .daysAfterNow:
            var date: Date
            switch value {
            case .date(let d): date = d
            case .json(.string(let s)):
                guard let d = CheckValue.isoDate(s) else { return wrong("a date (toDate, or an ISO 8601 string)") }
                date = d
            default: return wrong("a date (toDate, or an ISO 8601 string)")
            }
            let seconds = filter == .daysBeforeNow ? now.timeIntervalSince(date) : date.timeIntervalSince(now)
            return .success(.integer(Int((seconds / 86_400).rounded(.down))))
        }
    }

    /// RFC 3986 §2.3 unreserved characters: letters, digits, `-._~` (Hurl's urlEncode keeps these).
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    private static func string(_ value: CheckValue) -> String? {
        switch value {
        case .json(.string(let s)): return s
        case .bytes(let b): return String(validating: b, as: UTF8.self)
        default: return nil
        }
    }

    static func describe(_ value: CheckValue) -> String {
        let type = value.typeName
        return "\(type == "integer" || type == "object" ? "an" : "a") \(type) (\(ExpectationCheck.excerpt(value.shown)))"
    }

    /// The first capture group of `pattern` in `text` when it has one, else the whole match.
    static func firstMatch(_ pattern: String, in text: String) -> String? {
        guard let regex = try? NSRegularExpression(pattern: pattern),
              let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) else { return nil }
        let group = match.numberOfRanges > 1 ? 1 : 0
        return Range(match.range(at: group), in: text).map { String(text[$0]) }
    }
}

/// glibc's `strptime(3)`, which the Glibc module leaves out (it is declared only under `_XOPEN_SOURCE`).
@_silgen_name("strptime")
private func cStrptime(_ input: UnsafePointer<CChar>, _ format: UnsafePointer<CChar>, _ tm: UnsafeMutablePointer<tm>) -> UnsafeMutablePointer<CChar>?

/// Dates read with a `strptime(3)` format (glibc): `%Y-%m-%d`, `%a, %d %b %Y %H:%M:%S GMT`,
/// `%Y-%m-%dT%H:%M:%S%z`. Without `%z` the time is UTC.
enum StrptimeDate {
    static func parse(_ text: String, format: String) -> Date? {
        var tm = Glibc.tm()
        let end = text.withCString { input in format.withCString { cStrptime(input, $0, &tm) } }
        guard let end, end.pointee == 0 else { return nil }
        let offset = tm.tm_gmtoff
        let seconds = timegm(&tm)
        return Date(timeIntervalSince1970: TimeInterval(seconds - offset))
    }
}
