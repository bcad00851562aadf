import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Text in a named charset turned into a Swift string with glibc's iconv(3): `latin1`, `windows-1252`,
/// `Shift_JIS`, `GB2312`, `cp1256`… (names as IANA registers them, any case).
enum CharsetDecoder {
    enum Problem: Error, Equatable, CustomStringConvertible {
        case unknown(String)
        case invalid(String)

        var description: String {
            switch self {
            case .unknown(let name): return "unknown charset '\(name)'"
            case .invalid(let name): return "the body is not valid \(name)"
            }
        }
    }

    /// The `charset` parameter of a `Content-Type` value (RFC 9110 §8.3.1), without quotes, or nil.
    static func charset(ofContentType value: String) -> String? {
        for parameter in value.split(separator: ";").dropFirst() {
            let parts = parameter.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "charset" else { continue }
            let name = parts[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            return name.isEmpty ? nil : name
        }
        return nil
    }

    /// True for the names of UTF-8 and its subset US-ASCII, which need no conversion.
    static func isUTF8(_ name: String) -> Bool {
        ["utf-8", "utf8", "us-ascii", "ascii"].contains(name.lowercased())
    }

    /// `bytes` decoded from `charset`.
    static func decode(_ bytes: [UInt8], charset: String) -> Result<String, Problem> {
        if isUTF8(charset) {
            guard let text = String(validating: bytes, as: UTF8.self) else { return .failure(.invalid(charset)) }
            return .success(text)
        }
        let converter = iconv_open("UTF-8", charset)
        guard let converter, converter != iconv_t(bitPattern: -1) else { return .failure(.unknown(charset)) }
        defer { iconv_close(converter) }
        var input = bytes
        var output = [UInt8](repeating: 0, count: bytes.count * 4 + 16)
        let produced: Int? = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                var inPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(inBuffer.baseAddress)?.assumingMemoryBound(to: CChar.self)
                var outPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(outBuffer.baseAddress)?.assumingMemoryBound(to: CChar.self)
                var inLeft = inBuffer.count, outLeft = outBuffer.count
                guard iconv(converter, &inPointer, &inLeft, &outPointer, &outLeft) != -1 || inBuffer.isEmpty, inLeft == 0 else { return nil }
                return outBuffer.count - outLeft
            }
        }
        guard let produced, let text = String(validating: output.prefix(produced), as: UTF8.self) else { return .failure(.invalid(charset)) }
        return .success(text)
    }
}
