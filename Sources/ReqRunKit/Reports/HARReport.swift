import Foundation

/// A run as HAR 1.2 (HTTP Archive, http://www.softwareishard.com/blog/har-12-spec/), which browsers'
/// developer tools and HAR viewers open. One entry per transfer: each redirect hop a request followed is an
/// entry of its own (its `redirectURL` the `Location` it answered with), then the final one; requests not sent
/// (invalid, skipped) have no entry. The run is one page (`pages[0].id` is the run id, each entry's `pageref`).
/// `cookies` are read from the header fields: `Cookie` sent (RFC 6265 §5.4), `Set-Cookie` received (§5.2: name,
/// value, and the Path, Domain, Expires, HttpOnly and Secure attributes). Timings are in milliseconds, from curl's cumulative phase times:
/// `dns` = namelookup, `connect` = connect − namelookup (+ TLS; 0 on a reused connection), `ssl` = appconnect − connect (−1 without
/// TLS), `send` = pretransfer − the latest of those, `wait` = starttransfer − pretransfer,
/// `receive` = total − starttransfer; `blocked` is −1 (not measured). A WebSocket request is an entry like
/// any other (its handshake: status 101) with Chrome's custom fields `_resourceType: "websocket"` and
/// `_webSocketMessages` (its text and binary messages: `type` `send` or `receive`, `time` in seconds since
/// 1970, `opcode` 1 or 2, `data` the text, or base64 for binary, up to the record's 64 KiB).
public enum HARReport {
    public static func render(_ record: RunRecord) -> String {
        ReportOutput.text { (try? write(record, to: $0)) ?? () }
    }

    /// Writes the HAR of `source` to `out`, one result at a time: the log without entries is encoded once and
    /// each entry goes in its `entries` array as it is encoded (indented as the rest).
    /// - Throws: what reading the record throws.
    public static func write(_ source: some RecordSource, to out: ReportOutput) throws {
        let record = source.head
        let page = HAR.Page(startedDateTime: record.startedAt, id: record.id, title: "reqrun run \(record.id)", pageTimings: .init())
        let log = HAR(log: .init(version: "1.2", creator: .init(name: "reqrun", version: record.reqrunVersion),
                                 pages: [page], entries: [], comment: "reqrun run \(record.id)"))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let empty = String(decoding: (try? encoder.encode(log)) ?? Data(), as: UTF8.self)
        guard let open = empty.range(of: "\"entries\" : ["),
              let close = empty[open.upperBound...].firstIndex(where: { !$0.isWhitespace }) else { return }
        out.write(String(empty[..<open.upperBound]))
        var first = true
        try source.forEach { result in
            guard result.request != nil else { return }
            for entry in HARTransfers.hops(result, pageref: record.id) + [entry(result, pageref: record.id)] {
                let text = String(decoding: (try? encoder.encode(entry)) ?? Data(), as: UTF8.self)
                let indented = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : "      " + $0 }
                out.write((first ? "\n" : ",\n") + indented.joined(separator: "\n"))
                first = false
            }
        }
        out.write((first ? "" : "\n    ") + String(empty[close...]) + "\n")
        out.flush()
    }

    private static func entry(_ result: RequestResult, pageref: String) -> HAR.Entry {
        let t = result.timings ?? Timings(namelookup: 0, connect: 0, appconnect: 0, pretransfer: 0, starttransfer: 0, total: 0)
        let ms = { (microseconds: Int) in Double(microseconds) / 1000 }
        let tlsEnd = max(t.namelookup, t.connect, t.appconnect)
        let timings = HAR.Timings(blocked: -1, dns: ms(t.namelookup), connect: ms(max(0, t.connect - t.namelookup) + max(0, t.appconnect - t.connect)),
                                  send: ms(max(0, t.pretransfer - tlsEnd)), wait: ms(max(0, t.starttransfer - t.pretransfer)),
                                  // No first byte (a failed transfer): nothing was received.
                                  receive: t.starttransfer == 0 ? 0 : ms(max(0, t.total - t.starttransfer)), ssl: t.appconnect > 0 ? ms(max(0, t.appconnect - t.connect)) : -1)
        let sent = result.request!
        let contentType = sent.headers.last(named: "content-type") ?? ""
        let request = HAR.Request(
            method: HARTransfers.finalMethod(result), url: result.redirects.last?.location ?? result.url,
            httpVersion: "HTTP/\(result.response?.httpVersion ?? "1.1")",
            cookies: HARTransfers.requestCookies(sent.headers), headers: sent.headers.map { .init(name: $0.name, value: $0.value) },
            queryString: queryString(result.url),
            postData: sent.body.map { .init(mimeType: contentType, text: $0.encoding == "utf8" ? $0.data : "", params: []) },
            headersSize: -1, bodySize: sent.bodySize)
        let response: HAR.Response
        if let r = result.response {
            let mimeType = r.headers.last(named: "content-type") ?? ""
            response = HAR.Response(
                status: r.status, statusText: r.reasonPhrase, httpVersion: "HTTP/\(r.httpVersion)",
                cookies: HARTransfers.responseCookies(r.headers),
                headers: r.headers.map { .init(name: $0.name, value: $0.value, valueBase64: $0.valueBase64) },
                content: .init(size: r.bodySize, mimeType: mimeType, text: r.body.data,
                               encoding: r.body.encoding == "base64" ? "base64" : nil,
                               comment: r.body.truncated ? "first \(RunRecord.bodyLimit) bytes of \(r.bodySize)" : nil),
                redirectURL: r.headers.last(named: "location") ?? "", headersSize: -1, bodySize: r.wireSize,
                comment: nil)
        } else {
            // HAR has no place for "no response": status 0, as browsers record a failed request.
            response = HAR.Response(status: 0, statusText: "", httpVersion: "", cookies: [], headers: [],
                                    content: .init(size: 0, mimeType: "", text: nil, encoding: nil, comment: nil),
                                    redirectURL: "", headersSize: -1, bodySize: -1, comment: result.error?.message)
        }
        return HAR.Entry(pageref: pageref, startedDateTime: HARTransfers.finalStart(result), time: ms(t.total), request: request, response: response,
                         cache: .init(), timings: timings, serverIPAddress: result.response?.remoteAddress,
                         comment: result.name, resourceType: result.webSocket == nil ? nil : "websocket",
                         webSocketMessages: result.webSocket.map { webSocketMessages($0, startedAt: result.startedAt) })
    }

    /// The data frames of a conversation as Chrome writes them (control frames are left out, as Chrome does).
    private static func webSocketMessages(_ record: WebSocketRecord, startedAt: String?) -> [HAR.WebSocketMessage] {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let start = startedAt.flatMap { formatter.date(from: $0) }?.timeIntervalSince1970 ?? 0
        return record.messages.compactMap { message in
            guard message.type == "text" || message.type == "binary" else { return nil }
            return HAR.WebSocketMessage(type: message.direction, time: start + message.offset / 1000,
                                        opcode: message.type == "text" ? 1 : 2, data: message.data.data)
        }
    }

    static func queryString(_ url: String) -> [HAR.NameValue] {
        guard let components = URLComponents(string: url) else { return [] }
        // HAR's queryString holds decoded names and values (the URL keeps the encoded form).
        return (components.queryItems ?? []).map { .init(name: $0.name, value: $0.value ?? "") }
    }

    // The HAR 1.2 objects, with its field names.
    struct HAR: Encodable {
        var log: Log
        struct Log: Encodable {
            var version: String
            var creator: Creator
            var pages: [Page]
            var entries: [Entry]
            var comment: String
        }
        struct Creator: Encodable { var name: String; var version: String }
        struct Page: Encodable {
            var startedDateTime: String
            var id: String
            var title: String
            var pageTimings: PageTimings
        }
        /// Not measured (no browser events): -1, as HAR 1.2 says.
        struct PageTimings: Encodable { var onContentLoad = -1; var onLoad = -1 }
        /// HAR's cookie object; nil fields are left out.
        struct Cookie: Encodable, Equatable {
            var name: String
            var value: String
            var path: String? = nil
            var domain: String? = nil
            var expires: String? = nil
            var httpOnly: Bool? = nil
            var secure: Bool? = nil
        }
        struct NameValue: Encodable {
            var name: String
            var value: String
            /// A header value that is not UTF-8, as received (base64): a custom field, which HAR 1.2 names
            /// with a leading underscore.
            var valueBase64: String? = nil

            enum CodingKeys: String, CodingKey { case name, value, valueBase64 = "_valueBase64" }
        }
        struct Entry: Encodable {
            var pageref: String
            var startedDateTime: String
            var time: Double
            var request: Request
            var response: Response
            var cache: Cache
            var timings: Timings
            var serverIPAddress: String?
            var comment: String
            var resourceType: String? = nil
            var webSocketMessages: [WebSocketMessage]? = nil

            enum CodingKeys: String, CodingKey {
                case pageref, startedDateTime, time, request, response, cache, timings, serverIPAddress, comment
                case resourceType = "_resourceType", webSocketMessages = "_webSocketMessages"
            }
        }
        /// One message of Chrome's `_webSocketMessages`.
        struct WebSocketMessage: Encodable {
            var type: String
            var time: Double
            var opcode: Int
            var data: String
        }
        struct Request: Encodable {
            var method: String
            var url: String
            var httpVersion: String
            var cookies: [Cookie]
            var headers: [NameValue]
            var queryString: [NameValue]
            var postData: PostData?
            var headersSize: Int
            var bodySize: Int
        }
        struct PostData: Encodable { var mimeType: String; var text: String; var params: [NameValue] }
        struct Response: Encodable {
            var status: Int
            var statusText: String
            var httpVersion: String
            var cookies: [Cookie]
            var headers: [NameValue]
            var content: Content
            var redirectURL: String
            var headersSize: Int
            var bodySize: Int
            var comment: String?
        }
        struct Content: Encodable {
            var size: Int
            var mimeType: String
            var text: String?
            var encoding: String?
            var comment: String?
        }
        struct Cache: Encodable {}
        struct Timings: Encodable {
            var blocked: Double
            var dns: Double
            var connect: Double
            var send: Double
            var wait: Double
            var receive: Double
            var ssl: Double
        }
    }
}
