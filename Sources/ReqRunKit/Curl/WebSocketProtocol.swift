import Foundation

/// The WebSocket protocol (RFC 6455) as reqrun speaks it over a connection libcurl opened
/// (`WebSocketConnection`): the opening handshake and the framing. Pure: no I/O.
///
/// Debian's libcurl 7.88 declares `curl_ws_send`/`curl_ws_recv` (experimental since 7.86) but is built
/// without WebSocket support (no `ws` in its protocols; the functions return `CURLE_NOT_BUILT_IN`), so
/// libcurl connects (`CURLOPT_CONNECT_ONLY`: DNS, TCP, proxy tunnel, TLS) and reqrun writes the rest here.
enum WebSocketProtocol {
    /// The GUID a server appends to the key before hashing (RFC 6455 §1.3).
    static let acceptGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
    /// The most bytes a handshake response's header block may have (as libcurl's 100 KB `CURL_MAX_HTTP_HEADER`).
    static let maximumHandshakeSize = 100 * 1024

    /// A `Sec-WebSocket-Key`: 16 random bytes, base64 (RFC 6455 §4.1).
    static func makeKey() -> String {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }).base64EncodedString()
    }

    /// The `Sec-WebSocket-Accept` a server must answer `key` with: base64 of the SHA-1 of key + GUID (§4.2.2).
    static func accept(for key: String) -> String {
        Data(Digest.sha1(Array((key + acceptGUID).utf8))).base64EncodedString()
    }

    /// The opening handshake (RFC 6455 §4.1): `GET target HTTP/1.1`, `Host`, `Upgrade`, `Connection`,
    /// `Sec-WebSocket-Key`, `Sec-WebSocket-Version: 13`, `User-Agent`, then the request's own header fields
    /// (a field the request sets itself replaces reqrun's `Host` or `User-Agent`).
    /// - Parameter url: `ws://` or `wss://`, normalized (`URLNormalizer`).
    /// - Returns: the bytes to send and the header fields in them, in order.
    static func handshake(url: String, headers: [HeaderField], key: String, userAgent: String) -> (bytes: [UInt8], fields: [HeaderField]) {
        let (authority, target) = authorityAndTarget(url)
        var fields: [HeaderField] = []
        if !headers.contains(named: "host") { fields.append(HeaderField(name: "Host", value: authority)) }
        fields += [HeaderField(name: "Upgrade", value: "websocket"), HeaderField(name: "Connection", value: "Upgrade"),
                   HeaderField(name: "Sec-WebSocket-Key", value: key), HeaderField(name: "Sec-WebSocket-Version", value: "13")]
        if !headers.contains(named: "user-agent") { fields.append(HeaderField(name: "User-Agent", value: userAgent)) }
        fields += headers.filter { !$0.hasName(in: ["upgrade", "connection", "sec-websocket-key", "sec-websocket-version"]) }
        var text = "GET \(target) HTTP/1.1\r\n"
        for field in fields { text += "\(field.name): \(field.value)\r\n" }
        return (Array((text + "\r\n").utf8), fields)
    }

    /// The authority without user information (`host[:port]`, the port left out when it is the scheme's
    /// default, RFC 6455 §3) and the request target (path and query, `/` when empty; no fragment).
    static func authorityAndTarget(_ url: String) -> (authority: String, target: String) {
        var rest = Substring(url)
        let secure = rest.lowercased().hasPrefix("wss://")
        if let range = rest.range(of: "://") { rest = rest[range.upperBound...] }
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        let end = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        var authority = rest[..<end]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        let defaultPort = secure ? ":443" : ":80"
        if authority.hasSuffix(defaultPort) { authority = authority.dropLast(defaultPort.count) }
        var target = String(rest[end...])
        if target.isEmpty || target.hasPrefix("?") { target = "/" + target }
        return (String(authority), target)
    }

    /// A handshake response's status line and header fields.
    struct HandshakeResponse: Equatable {
        var status: Int
        var reasonPhrase: String
        var httpVersion: String
        var headers: [HeaderField]
    }

    /// Parses a complete header block (`head` ends with CRLF CRLF; the bytes after it are frames).
    static func parseResponse(_ head: [UInt8]) -> HandshakeResponse? {
        let lines = head.withUnsafeBytes { HeaderLine.lines(UnsafeRawBufferPointer($0)).map { Array($0) } }
        guard let statusLine = lines.first.map({ String(decoding: $0, as: UTF8.self) }) else { return nil }
        let parts = statusLine.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), let status = Int(parts[1]) else { return nil }
        var headers: [HeaderField] = []
        for line in lines.dropFirst() {
            if let field = line.withUnsafeBytes({ HeaderLine.field($0) }) { headers.append(field) }
        }
        return HandshakeResponse(status: status, reasonPhrase: parts.count > 2 ? String(parts[2]) : "",
                                 httpVersion: String(parts[0].dropFirst(5)), headers: headers)
    }

    /// Why a handshake response does not open a WebSocket (RFC 6455 §4.1, the client's checks), or nil.
    static func refusal(_ response: HandshakeResponse, key: String) -> String? {
        guard response.status == 101 else {
            return "the server refused the WebSocket upgrade: status \(response.status)\(response.reasonPhrase.isEmpty ? "" : " " + response.reasonPhrase) (expected 101 Switching Protocols)"
        }
        func tokens(_ name: String) -> [String] {
            response.headers.values(named: name).flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        }
        guard tokens("upgrade").contains("websocket") else { return "the server's 101 response has no 'Upgrade: websocket' (RFC 6455 §4.1)" }
        guard tokens("connection").contains("upgrade") else { return "the server's 101 response has no 'Connection: Upgrade' (RFC 6455 §4.1)" }
        let expected = accept(for: key)
        let accepts = response.headers.values(named: "sec-websocket-accept")
        guard accepts == [expected] else {
            return "the server's Sec-WebSocket-Accept is \(accepts.isEmpty ? "missing" : "'\(accepts.joined(separator: ", "))'"), expected '\(expected)' (RFC 6455 §4.1)"
        }
        if let extensions = response.headers.values(named: "sec-websocket-extensions").first {
            return "the server chose the extension '\(extensions)', which reqrun did not offer (RFC 6455 §9.1)"
        }
        return nil
    }

    /// Frame opcodes (RFC 6455 §5.2).
    enum Opcode: UInt8 {
        case continuation = 0x0, text = 0x1, binary = 0x2, close = 0x8, ping = 0x9, pong = 0xA

        var isControl: Bool { rawValue >= 0x8 }
        var name: String {
            switch self {
            case .continuation: "continuation"
            case .text: "text"
            case .binary: "binary"
            case .close: "close"
            case .ping: "ping"
            case .pong: "pong"
            }
        }
    }

    /// One final client frame: FIN set, masked with `mask` (4 bytes; clients mask every frame, §5.3), the
    /// length in 7, 16 or 64 bits (§5.2).
    static func frame(_ opcode: Opcode, _ payload: [UInt8], mask: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x80 | opcode.rawValue]
        out.reserveCapacity(payload.count + 14)
        let count = payload.count
        if count < 126 {
            out.append(0x80 | UInt8(count))
        } else if count <= 0xFFFF {
            out += [0x80 | 126, UInt8(count >> 8), UInt8(count & 0xFF)]
        } else {
            out.append(0x80 | 127)
            for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8((UInt64(count) >> UInt64(shift)) & 0xFF)) }
        }
        out += mask
        for (i, byte) in payload.enumerated() { out.append(byte ^ mask[i & 3]) }
        return out
    }

    /// A random masking key (§5.3: unpredictable, from a strong source).
    static func makeMask() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// A close frame's payload: the code (2 bytes, network order) and the UTF-8 reason (§5.5.1).
    static func closePayload(code: Int, reason: String) -> [UInt8] {
        [UInt8((code >> 8) & 0xFF), UInt8(code & 0xFF)] + Array(reason.utf8)
    }

    /// A received close frame's code and reason, or why the payload is invalid (§5.5.1, §7.4).
    static func parseClose(_ payload: [UInt8]) -> Result<(code: Int?, reason: String), FrameError> {
        if payload.isEmpty { return .success((nil, "")) }
        guard payload.count >= 2 else { return .failure(FrameError("a close frame with a 1-byte payload (RFC 6455 §5.5.1)")) }
        let code = Int(payload[0]) << 8 | Int(payload[1])
        guard let reason = String(validating: payload[2...], as: UTF8.self) else {
            return .failure(FrameError("a close frame whose reason is not UTF-8 (RFC 6455 §5.5.1)"))
        }
        return .success((code, reason))
    }

    /// A frame as received (payload unmasked: servers do not mask).
    struct Frame: Equatable {
        var fin: Bool
        var opcode: Opcode
        var payload: [UInt8]
    }

    /// A violation of the protocol by the server: the connection is failed (§7.1.7).
    struct FrameError: Error, Equatable, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// Cuts frames out of the bytes received, checking each header before its payload is held: reserved bits
    /// (no extension was negotiated, §5.2), unknown opcodes, masked frames (a server must not mask, §5.1),
    /// control frames that are fragmented or longer than 125 bytes (§5.5), and frames longer than `limit`.
    struct FrameReader {
        /// The largest payload accepted, in bytes (`--max-size`; 0: none).
        let limit: Int
        private var buffer: [UInt8] = []
        private var start = 0

        init(limit: Int) { self.limit = limit }

        mutating func append(_ bytes: [UInt8]) {
            // The bytes of frames already returned go, so a long stream of frames that rarely ends on a read's
            // boundary does not keep them all.
            if start == buffer.count {
                buffer.removeAll(keepingCapacity: true)
                start = 0
            } else if start >= 64 * 1024 {
                buffer.removeFirst(start)
                start = 0
            }
            buffer += bytes
        }

        /// Bytes received and not yet part of a frame.
        var pendingCount: Int { buffer.count - start }

        /// The next whole frame, nil when more bytes are needed.
        mutating func next() throws(FrameError) -> Frame? {
            let available = buffer.count - start
            guard available >= 2 else { return nil }
            let b0 = buffer[start], b1 = buffer[start + 1]
            if b0 & 0x70 != 0 { throw FrameError("the server set reserved bits in a frame header, but no extension was negotiated (RFC 6455 §5.2)") }
            guard let opcode = Opcode(rawValue: b0 & 0x0F) else {
                throw FrameError("the server sent a frame with the unknown opcode \(b0 & 0x0F) (RFC 6455 §5.2)")
            }
            if b1 & 0x80 != 0 { throw FrameError("the server sent a masked frame; a server must not mask its frames (RFC 6455 §5.1)") }
            var length = UInt64(b1 & 0x7F)
            var headerSize = 2
            if length == 126 {
                guard available >= 4 else { return nil }
                length = UInt64(buffer[start + 2]) << 8 | UInt64(buffer[start + 3])
                headerSize = 4
            } else if length == 127 {
                guard available >= 10 else { return nil }
                length = 0
                for i in 0..<8 { length = length << 8 | UInt64(buffer[start + 2 + i]) }
                if length >> 63 != 0 { throw FrameError("the server sent a frame length with the most significant bit set (RFC 6455 §5.2)") }
                headerSize = 10
            }
            let fin = b0 & 0x80 != 0
            if opcode.isControl {
                if !fin { throw FrameError("the server fragmented a \(opcode.name) frame; control frames must not be fragmented (RFC 6455 §5.5)") }
                if length > 125 { throw FrameError("the server sent a \(opcode.name) frame of \(length) bytes; control frames carry at most 125 (RFC 6455 §5.5)") }
            }
            if limit > 0, length > UInt64(limit) {
                throw FrameError("the server sent a frame of \(length) bytes, more than the \(limit)-byte limit (--max-size)")
            }
            guard UInt64(available - headerSize) >= length else {
                // Room for the whole frame at once (its length is within the limit), not by doubling.
                buffer.reserveCapacity(start + headerSize + Int(length))
                return nil
            }
            let payloadStart = start + headerSize
            let payload = Array(buffer[payloadStart..<(payloadStart + Int(length))])
            start = payloadStart + Int(length)
            return Frame(fin: fin, opcode: opcode, payload: payload)
        }
    }
}
