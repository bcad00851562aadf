/// Whether a response's `Content-Length` fields frame it (RFC 9112 §6.3 ¶5, RFC 9110 §8.6). libcurl 7.88
/// takes the last of several fields and reads an out-of-range number as "until the connection closes", so
/// the transfer checks them itself, in the header callback, before any content is read.
enum ContentLength {
    /// The reason the values do not frame the message, or nil when they do: no field, or one decimal number
    /// (given once, or repeated as the same number in a list or in several fields, which RFC 9110 §8.6
    /// allows). Empty list elements are ignored (RFC 9110 §5.6.1).
    /// - Parameter values: the value of each `Content-Length` field of one header block, in order.
    /// - Returns: e.g. `conflicting Content-Length values 5 and 6: the response's framing is invalid (RFC 9112 §6.3)`.
    static func problem(_ values: [String]) -> String? {
        guard !values.isEmpty else { return nil }
        // The common case, one field with a number of up to 18 digits (always in range), costs one look at each byte.
        if values.count == 1, let only = values.first?.utf8, (1...18).contains(only.count),
           only.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) { return nil }
        var numbers: [Int64] = []
        for value in values {
            let elements = value.split(separator: ",", omittingEmptySubsequences: false)
                .map { $0.trimmingSpaces() }.filter { !$0.isEmpty }
            if elements.isEmpty { return invalid("an empty Content-Length") }
            for element in elements {
                guard element.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
                    return invalid("Content-Length '\(shortened(element))' is not a number")
                }
                // libcurl's curl_off_t is 64 bits: a longer number cannot be a size it can count.
                guard let number = Int64(element) else { return invalid("Content-Length \(shortened(element)) is out of range") }
                if !numbers.contains(number) { numbers.append(number) }
            }
        }
        guard numbers.count > 1 else { return nil }
        let listed = numbers.dropLast().map(String.init).joined(separator: ", ") + " and \(numbers.last!)"
        return invalid("conflicting Content-Length values \(listed)")
    }

    private static func invalid(_ what: String) -> String { "\(what): the response's framing is invalid (RFC 9112 §6.3)" }

    /// At most 64 characters of a server's value in a message.
    private static func shortened(_ text: Substring) -> String { text.count > 64 ? text.prefix(64) + "…" : String(text) }
}

private extension Substring {
    /// Without leading and trailing spaces and tabs (OWS, RFC 9110 §5.6.3).
    func trimmingSpaces() -> Substring {
        var text = drop(while: { $0 == " " || $0 == "\t" })
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}
