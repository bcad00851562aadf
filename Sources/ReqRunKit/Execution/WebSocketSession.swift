import Foundation

/// What came of a WebSocket request: the handshake, the conversation, and the checks on both.
struct WebSocketOutcome {
    var sentHeaders: [HeaderField] = []
    /// The handshake's response (status 101 when the upgrade was accepted).
    var response: ResponseRecord?
    var timings = Timings(namelookup: 0, connect: 0, appconnect: 0, pretransfer: 0, starttransfer: 0, total: 0)
    /// Why the request ended early: a refused upgrade, a protocol violation by the server, a timeout.
    var error: ResultError?
    var record = WebSocketRecord()
    /// The request's `expect` on the handshake, then one result per receive step that ran.
    var expectations: [ExpectationResult] = []
    /// The request's `capture` on the handshake, then the receive steps' captures.
    var captures: [CaptureResult] = []
}

/// Runs one WebSocket request over a `WebSocketConnection`: connects, sends the opening handshake and checks
/// it (RFC 6455 §4.1), checks the request's expectations on the handshake response, runs the `messages`
/// steps in order, and ends with the close handshake (§7.1.2; code 1000 unless a `close` step chose one).
///
/// Pings from the server are answered with a pong at once (§5.5.2); every frame in both directions is
/// recorded. A protocol violation by the server (see `WebSocketProtocol.FrameReader`, invalid UTF-8 in a
/// text message, §8.1; a connection closed without a close frame, §7.1.5) fails the connection
/// (a close frame with 1002 or 1007 is sent when possible) and ends the request with an error; a receive
/// step whose `within` passes, or whose message does not match, is a failed expectation.
final class WebSocketSession {
    private let prepared: PreparedRequest
    private let request: Request
    private var scope: VariableScope
    private let options: ExecutorOptions
    private let connection = WebSocketConnection()
    private let started = ContinuousClock.now
    /// The request's time limit (`timeout`, else `--timeout`), from the start; nil: none.
    private let deadline: ContinuousClock.Instant?
    private var reader: WebSocketProtocol.FrameReader
    private var outcome = WebSocketOutcome()
    /// The opcode and bytes of a fragmented message being received (§5.4).
    private var fragments: (opcode: WebSocketProtocol.Opcode, payload: [UInt8])?
    private var sentClose = false
    /// The server's close frame, once received.
    private var serverClose: (code: Int?, reason: String)?
    /// The largest message accepted, in bytes (`--max-size`; 0: none).
    private var sizeLimit: Int { options.maxBodySize }

    /// How long the closing handshake waits for the server's close frame when the request has no time limit.
    static let closeWaitMilliseconds = 10_000

    init(_ prepared: PreparedRequest, request: Request, scope: VariableScope, options: ExecutorOptions) {
        self.prepared = prepared
        self.request = request
        var scope = scope
        // Captures from messages, visible to later steps; values from the server are data, never templates.
        scope.layers.append(VariableLayer.captures())
        self.scope = scope
        self.options = options
        let limit = prepared.timeoutMilliseconds ?? options.timeoutMilliseconds
        deadline = limit > 0 ? started + .milliseconds(limit) : nil
        reader = WebSocketProtocol.FrameReader(limit: options.maxBodySize)
    }

    /// A failure that ends the request (an error, not a failed expectation).
    private struct Stop: Error { var error: ResultError }

    private var elapsedMicroseconds: Int { Int((ContinuousClock.now - started) / .microseconds(1)) }
    private var elapsedMilliseconds: Double { Double(elapsedMicroseconds) / 1000 }

    func run() -> WebSocketOutcome {
        do throws(Stop) {
            try open()
            if outcome.error == nil { try converse() }
        } catch {
            outcome.error = error.error
        }
        outcome.timings.total = elapsedMicroseconds
        return outcome
    }

    // MARK: - Opening handshake

    private func open() throws(Stop) {
        if prepared.transferAuth != nil {
            throw Stop(error: ResultError(message: "digest, NTLM and AWS Signature v4 auth are not supported on WebSocket requests"))
        }
        let timeLimit = deadline.map { max(1, Int(($0 - ContinuousClock.now) / .milliseconds(1))) } ?? 0
        if let failure = connection.connect(prepared.url, options: options, timeLimit: timeLimit) { throw stop(failure, "connecting") }
        let connected = connection.connectTimings()
        outcome.timings.namelookup = connected.namelookup
        outcome.timings.connect = connected.connect
        outcome.timings.appconnect = connected.appconnect
        let key = WebSocketProtocol.makeKey()
        var headers = prepared.headers
        // URL user information goes as Basic auth, as libcurl sends it for HTTP (its secrets are known already).
        if !headers.contains(named: "authorization"), let basic = CredentialSecrets.basicAuthorization(prepared.url) {
            headers.append(HeaderField(name: "Authorization", value: basic))
        }
        let handshake = WebSocketProtocol.handshake(url: prepared.url, headers: headers, key: key, userAgent: options.userAgent)
        outcome.sentHeaders = handshake.fields
        if let failure = connection.send(handshake.bytes, deadline: deadline) { throw stop(failure, "sending the handshake") }
        outcome.timings.pretransfer = elapsedMicroseconds
        var head: [UInt8] = []
        var end: Int?
        while end == nil {
            let bytes: [UInt8]
            switch connection.receive(deadline: deadline) {
            case .success(let received): bytes = received
            case .failure(let failure): throw stop(failure, "waiting for the handshake response")
            }
            if bytes.isEmpty { throw Stop(error: ResultError(message: "the server closed the connection before it answered the WebSocket handshake")) }
            if head.isEmpty { outcome.timings.starttransfer = elapsedMicroseconds }
            let searchFrom = max(0, head.count - 3)
            head += bytes
            end = Self.endOfHead(head, from: searchFrom)
            if end == nil, head.count > WebSocketProtocol.maximumHandshakeSize {
                throw Stop(error: ResultError(message: "the handshake response's header block is over \(WebSocketProtocol.maximumHandshakeSize / 1024) KB"))
            }
        }
        guard let parsed = WebSocketProtocol.parseResponse(Array(head[..<end!])) else {
            throw Stop(error: ResultError(message: "the server's answer to the WebSocket handshake is not an HTTP/1.1 response"))
        }
        let remote = connection.remote()
        outcome.response = ResponseRecord(status: parsed.status, reasonPhrase: parsed.reasonPhrase, httpVersion: parsed.httpVersion,
                                          headers: parsed.headers, bodySize: 0, bodySHA256: Digest.hex(Digest.sha256([])),
                                          body: RecordedBody(prefix: [], truncated: false), remoteAddress: remote.address, remotePort: remote.port)
        let view = ResponseView(status: parsed.status, headers: parsed.headers, body: [], bodySize: 0, totalMicroseconds: elapsedMicroseconds)
        outcome.expectations = request.expectations.map { ExpectationCheck.check($0, view, scope: scope) }
        outcome.captures = request.captures.map { CaptureCheck.evaluate($0, view) }
        for capture in outcome.captures { if let value = capture.value { scope.layers[scope.layers.count - 1].values[capture.variable] = value } }
        if let refusal = WebSocketProtocol.refusal(parsed, key: key) { throw Stop(error: ResultError(message: refusal)) }
        reader.append(Array(head[end!...]))
    }

    /// The index just past the CR LF CR LF that ends a header block, searching from `from`.
    private static func endOfHead(_ bytes: [UInt8], from: Int) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for i in from...(bytes.count - 4) where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
            return i + 4
        }
        return nil
    }

    // MARK: - Conversation

    private func converse() throws(Stop) {
        let steps = request.messages ?? []
        steps: for step in steps {
            if serverClose != nil, case .close = step.action { break }
            switch step.action {
            case .send(let payload):
                if serverClose != nil { throw Stop(error: ResultError(message: "\(step.fieldPath): the server closed the connection before this message was sent")) }
                try send(payload, step)
            case .close(let code, let reason):
                try close(code: code, reason: reason)
            case .receive, .receiveCount, .receiveUntil:
                let (result, stopSteps) = try receive(step)
                outcome.expectations.append(result)
                if stopSteps { break steps }
            }
        }
        if !sentClose && serverClose == nil { try close(code: 1000, reason: "") }
    }

    private func send(_ payload: WebSocketPayload, _ step: WebSocketStep) throws(Stop) {
        let field = "\(step.fieldPath).send"
        func resolved(_ template: String) throws(Stop) -> String {
            do throws(PreparationFailure) {
                return try scope.resolve(template, field: field)
            } catch {
                throw Stop(error: ResultError(message: error.description))
            }
        }
        switch payload {
        case .text(let template): try sendFrame(.text, Array(try resolved(template).utf8))
        case .json(let template):
            let text: String
            do throws(PreparationFailure) {
                text = try RequestPreparation.resolveJSON(template, scope)
            } catch {
                throw Stop(error: ResultError(message: error.description))
            }
            try sendFrame(.text, Array(text.utf8))
        case .binary(let bytes): try sendFrame(.binary, bytes)
        case .textBytes(let bytes): try sendFrame(.text, bytes)
        case .ping(let data): try sendFrame(.ping, Array(try resolved(data).utf8))
        case .pong(let data): try sendFrame(.pong, Array(try resolved(data).utf8))
        case .file(let path, let asText):
            let bytes = try readFile(path, field)
            if asText, String(validating: bytes, as: UTF8.self) == nil {
                throw Stop(error: ResultError(message: "\(field): \(path) is not UTF-8, so it cannot be sent as a text message (RFC 6455 §5.6)"))
            }
            try sendFrame(asText ? .text : .binary, bytes)
        }
    }

    /// A file's bytes, opened as body files are (`BodyFile.open`: regular files only), up to `--max-size`.
    private func readFile(_ path: String, _ field: String) throws(Stop) -> [UInt8] {
        let fd: Int32
        switch BodyFile.open(path) {
        case .success(let opened): fd = opened
        case .failure(let failure): throw Stop(error: ResultError(message: "\(field): \(failure)"))
        }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        let data = (sizeLimit > 0 ? (try? handle.read(upToCount: sizeLimit + 1)) : (try? handle.readToEnd())) ?? nil
        let bytes = [UInt8](data ?? Data())
        if sizeLimit > 0, bytes.count > sizeLimit {
            throw Stop(error: ResultError(message: "\(field): \(path) is larger than the \(sizeLimit)-byte limit (--max-size)"))
        }
        return bytes
    }

    private func sendFrame(_ opcode: WebSocketProtocol.Opcode, _ payload: [UInt8], closeCode: Int? = nil) throws(Stop) {
        let frame = WebSocketProtocol.frame(opcode, payload, mask: WebSocketProtocol.makeMask())
        if let failure = connection.send(frame, deadline: deadline) { throw stop(failure, "sending a \(opcode.name) frame") }
        let recorded = closeCode == nil ? payload : Array(payload.dropFirst(2))
        outcome.record.append(WebSocketMessageRecord(direction: "send", offset: elapsedMilliseconds, type: opcode.name,
                                                     payload: recorded, limit: options.bodyLimit, closeCode: closeCode))
        if opcode == .close { sentClose = true }
    }

    /// Runs a receive step; returns its expectation result and whether the steps stop (the server closed).
    private func receive(_ step: WebSocketStep) throws(Stop) -> (ExpectationResult, Bool) {
        let stepDeadline = step.withinMilliseconds.map { ContinuousClock.now + .milliseconds($0) }
        let waitUntil = [stepDeadline, deadline].compactMap { $0 }.min()
        let withinText = step.withinMilliseconds.map { " within \($0) ms" } ?? ""
        func result(_ description: String, _ passed: Bool, _ expected: String, _ actual: String) -> ExpectationResult {
            ExpectationResult(description: description, passed: passed, expected: expected, actual: actual, fieldPath: step.fieldPath)
        }
        var count = 0
        let wanted: Int
        let matcher: WebSocketMatcher?
        let description: String
        switch step.action {
        case .receive(let m):
            (wanted, matcher) = (1, m)
            description = "message " + (m.map(WebSocketMatching.describe) ?? "arrives") + withinText
        case .receiveCount(let n):
            (wanted, matcher) = (n, nil)
            description = "\(n) message\(n == 1 ? "" : "s") arrive\(n == 1 ? "s" : "")" + withinText
        case .receiveUntil(let m):
            (wanted, matcher) = (Int.max, m)
            description = "a message " + WebSocketMatching.describe(m) + withinText
        default: preconditionFailure("a receive step")
        }
        var last: (opcode: WebSocketProtocol.Opcode, payload: [UInt8])?
        while count < wanted {
            let message: (opcode: WebSocketProtocol.Opcode, payload: [UInt8])
            switch try nextMessage(until: waitUntil) {
            case .message(let opcode, let payload): message = (opcode, payload)
            case .timedOut:
                if stepDeadline == nil || (deadline != nil && deadline! <= stepDeadline!) {
                    throw Stop(error: ResultError(curlCode: 28, message: "\(step.fieldPath): timed out waiting for a message (the request's time limit)"))
                }
                let actual = count == 0 ? "no message" : "\(count) message\(count == 1 ? "" : "s")" + (matcher == nil ? "" : ", none matching")
                return (result(description, false, WebSocketMatching.expected(matcher, count: wanted), actual + " within \(step.withinMilliseconds!) ms"), false)
            case .closed(let code, let reason):
                let actual = "the server closed the connection (\(code.map(String.init) ?? "no code")\(reason.isEmpty ? "" : " " + reason)) after \(count) message\(count == 1 ? "" : "s")"
                return (result(description, false, WebSocketMatching.expected(matcher, count: wanted), actual), true)
            }
            count += 1
            last = message
            guard let matcher else { continue }
            let check = WebSocketMatching.check(matcher, binary: message.opcode == .binary, message.payload, fieldPath: step.fieldPath, scope: scope)
            if check.passed {
                takeCaptures(step, message.payload)
                return (result(description, true, check.expected, check.actual), false)
            }
            if case .receive = step.action { return (result(description, false, check.expected, check.actual), false) }
        }
        if let last { takeCaptures(step, last.payload) }
        return (result(description, true, WebSocketMatching.expected(nil, count: wanted), "\(count) message\(count == 1 ? "" : "s")"), false)
    }

    private func takeCaptures(_ step: WebSocketStep, _ payload: [UInt8]) {
        let view = WebSocketMatching.view(payload)
        for capture in step.captures {
            let taken = CaptureCheck.evaluate(capture, view)
            outcome.captures.append(taken)
            if let value = taken.value { scope.layers[scope.layers.count - 1].values[capture.variable] = value }
        }
    }

    // MARK: - Reading frames

    private enum Received {
        case message(WebSocketProtocol.Opcode, [UInt8])
        case timedOut
        case closed(code: Int?, reason: String)
    }

    /// The next text or binary message; control frames on the way are recorded (pings answered).
    private func nextMessage(until: ContinuousClock.Instant?) throws(Stop) -> Received {
        if let serverClose { return .closed(code: serverClose.code, reason: serverClose.reason) }
        while true {
            let frame: WebSocketProtocol.Frame?
            do throws(WebSocketProtocol.FrameError) {
                frame = try reader.next()
            } catch {
                throw failConnection(1002, error.description)
            }
            guard let frame else {
                switch connection.receive(deadline: until) {
                case .success(let bytes):
                    if bytes.isEmpty {
                        throw Stop(error: ResultError(message: "the server closed the connection without a close frame (RFC 6455 §7.1.5: abnormal closure, 1006)"))
                    }
                    reader.append(bytes)
                    continue
                case .failure(.timedOut): return .timedOut
                case .failure(let failure): throw stop(failure, "waiting for a message")
                }
            }
            if let message = try handle(frame) { return message }
        }
    }

    /// Handles one frame: a whole message or a close comes back; control frames and fragments return nil.
    private func handle(_ frame: WebSocketProtocol.Frame) throws(Stop) -> Received? {
        let offset = elapsedMilliseconds
        switch frame.opcode {
        case .ping:
            outcome.record.append(WebSocketMessageRecord(direction: "receive", offset: offset, type: "ping", payload: frame.payload, limit: options.bodyLimit))
            if !sentClose { try sendFrame(.pong, frame.payload) }
            return nil
        case .pong:
            outcome.record.append(WebSocketMessageRecord(direction: "receive", offset: offset, type: "pong", payload: frame.payload, limit: options.bodyLimit))
            return nil
        case .close:
            switch WebSocketProtocol.parseClose(frame.payload) {
            case .failure(let error): throw failConnection(1002, error.description)
            case .success(let (code, reason)):
                outcome.record.append(WebSocketMessageRecord(direction: "receive", offset: offset, type: "close",
                                                             payload: Array(reason.utf8), limit: options.bodyLimit, closeCode: code))
                serverClose = (code, reason)
                // Echo the code (§5.5.1); then the server closes the TCP connection.
                if !sentClose { try sendFrame(.close, code.map { WebSocketProtocol.closePayload(code: $0, reason: "") } ?? [], closeCode: code) }
                return .closed(code: code, reason: reason)
            }
        case .continuation:
            guard var message = fragments else { throw failConnection(1002, "the server sent a continuation frame with no message to continue (RFC 6455 §5.4)") }
            message.payload += frame.payload
            if sizeLimit > 0, message.payload.count > sizeLimit {
                throw failConnection(1009, "the server sent a message of more than \(sizeLimit) bytes (--max-size)")
            }
            if !frame.fin {
                fragments = message
                return nil
            }
            fragments = nil
            return try complete(message.opcode, message.payload, offset)
        case .text, .binary:
            if fragments != nil { throw failConnection(1002, "the server started a new message inside a fragmented one (RFC 6455 §5.4)") }
            if !frame.fin {
                fragments = (frame.opcode, frame.payload)
                return nil
            }
            return try complete(frame.opcode, frame.payload, offset)
        }
    }

    private func complete(_ opcode: WebSocketProtocol.Opcode, _ payload: [UInt8], _ offset: Double) throws(Stop) -> Received {
        if opcode == .text, String(validating: payload, as: UTF8.self) == nil {
            outcome.record.append(WebSocketMessageRecord(direction: "receive", offset: offset, type: "text", payload: payload, limit: options.bodyLimit))
            throw failConnection(1007, "the server sent a text message that is not valid UTF-8 (RFC 6455 §8.1)")
        }
        outcome.record.append(WebSocketMessageRecord(direction: "receive", offset: offset, type: opcode.name, payload: payload, limit: options.bodyLimit))
        return .message(opcode, payload)
    }

    /// Sends a close frame with `code` (best effort) and ends the request with `reason` (§7.1.7).
    private func failConnection(_ code: Int, _ reason: String) -> Stop {
        if !sentClose {
            let payload = WebSocketProtocol.closePayload(code: code, reason: "")
            let frame = WebSocketProtocol.frame(.close, payload, mask: WebSocketProtocol.makeMask())
            if connection.send(frame, deadline: ContinuousClock.now + .milliseconds(500)) == nil {
                outcome.record.append(WebSocketMessageRecord(direction: "send", offset: elapsedMilliseconds, type: "close", payload: [],
                                                             limit: options.bodyLimit, closeCode: code))
                sentClose = true
            }
        }
        return Stop(error: ResultError(message: reason))
    }

    // MARK: - Closing handshake

    /// Sends a close frame and waits for the server's (messages that arrive meanwhile are recorded).
    private func close(code: Int, reason: String) throws(Stop) {
        if !sentClose { try sendFrame(.close, WebSocketProtocol.closePayload(code: code, reason: reason), closeCode: code) }
        let wait = deadline ?? ContinuousClock.now + .milliseconds(Self.closeWaitMilliseconds)
        while serverClose == nil {
            switch try nextMessage(until: wait) {
            case .message: continue
            case .closed: return
            case .timedOut:
                throw Stop(error: ResultError(curlCode: 28, message: "the server did not answer the close frame (RFC 6455 §7.1.2) before the time limit"))
            }
        }
    }

    private func stop(_ failure: WebSocketConnection.Failure, _ doing: String) -> Stop {
        var error = failure.resultError
        if failure == .timedOut { error.message = "timed out after \(elapsedMicroseconds / 1000) ms \(doing)" }
        return Stop(error: error)
    }
}
