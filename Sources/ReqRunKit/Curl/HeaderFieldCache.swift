import Foundation

/// Header fields parsed from earlier transfers of one executor, given again when the same bytes come again:
/// the request header block libcurl sends (`CURLINFO_HEADER_OUT`) is the same after its request line for
/// every request to one host with the same fields, and a server sends most response header lines byte for
/// byte as it did the last time (`Server`, `Content-Type`, `Connection`, and `Date` within a second).
/// A cached field is what `HeaderLine.field` made of the same bytes, so the result is the same; what is
/// saved is the parse and its strings (about 600 instructions and an allocation or two a field, callgrind;
/// with 16 or 64 transfers in flight, a fifth of the work reqrun adds to libcurl's per response).
///
/// Not thread-safe: one per `HTTPExecutor`, used on its thread (the transfers' callbacks run inside
/// `curl_multi_perform`).
final class HeaderFieldCache {
    /// The last request header block after its request line, and its fields.
    private var sentBlock: [UInt8] = []
    private var sentFields: [HeaderField] = []
    /// The lines of the last response header blocks by their place in the block (the status line is not
    /// kept: its code and reason phrase are read apart), with the field each was parsed into.
    private var responseLines: [(bytes: [UInt8], field: HeaderField)?] = []
    /// Lines after this place in a block are parsed each time (a block of many fields is rare).
    static let maxResponseLines = 32

    /// The fields of a request header block as libcurl sent it, after its request line (the first line).
    func sentFields(_ block: UnsafeRawBufferPointer) -> [HeaderField] {
        let afterRequestLine = block.firstIndex(of: 0x0A).map { $0 + 1 } ?? block.count
        let fields = UnsafeRawBufferPointer(rebasing: block[afterRequestLine...])
        if Self.same(fields, sentBlock) { return sentFields }
        sentFields = HeaderLine.lines(fields).compactMap(HeaderLine.field)
        sentBlock = Array(fields)
        return sentFields
    }

    /// `HeaderLine.field(line)`, for the line at `place` (from 0, after the status line) of a response
    /// header block.
    func responseField(_ line: UnsafeRawBufferPointer, at place: Int) -> HeaderField? {
        guard place < Self.maxResponseLines else { return HeaderLine.field(line) }
        if place < responseLines.count, let cached = responseLines[place], Self.same(line, cached.bytes) { return cached.field }
        guard let field = HeaderLine.field(line) else { return nil }
        while responseLines.count <= place { responseLines.append(nil) }
        responseLines[place] = (Array(line), field)
        return field
    }

    private static func same(_ bytes: UnsafeRawBufferPointer, _ kept: [UInt8]) -> Bool {
        guard bytes.count == kept.count else { return false }
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return true }
        return kept.withUnsafeBytes { memcmp(base, $0.baseAddress!, bytes.count) == 0 }
    }
}
