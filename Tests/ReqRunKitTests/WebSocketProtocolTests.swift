import Foundation
import Testing
@testable import ReqRunKit

/// The RFC 6455 pieces reqrun writes itself: handshake, accept key, framing and the checks on received frames.
@Suite struct WebSocketProtocolTests {
    @Test func theAcceptKeyIsTheRFCsExample() {
        // RFC 6455 §1.3.
        #expect(WebSocketProtocol.accept(for: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        #expect(Data(base64Encoded: WebSocketProtocol.makeKey())?.count == 16)
    }

    @Test func theHandshakeNamesTheTargetAndHostWithoutDefaultPortOrUserInformation() {
        let (bytes, fields) = WebSocketProtocol.handshake(url: "wss://u:p@example.com:443/feed?x=1#frag",
                                                          headers: [HeaderField(name: "Authorization", value: "Bearer t"),
                                                                    HeaderField(name: "Upgrade", value: "h2c")],
                                                          key: "k", userAgent: "reqrun/t")
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("GET /feed?x=1 HTTP/1.1\r\nHost: example.com\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"))
        #expect(text.hasSuffix("Sec-WebSocket-Key: k\r\nSec-WebSocket-Version: 13\r\nUser-Agent: reqrun/t\r\nAuthorization: Bearer t\r\n\r\n"))
        #expect(fields.filter { $0.name == "Upgrade" }.map(\.value) == ["websocket"])
        #expect(WebSocketProtocol.authorityAndTarget("ws://127.0.0.1:8080") == ("127.0.0.1:8080", "/"))
        #expect(WebSocketProtocol.authorityAndTarget("ws://[::1]:80?q") == ("[::1]", "/?q"))
    }

    @Test func aResponseOpensTheConnectionOnlyWith101AndTheRightAccept() throws {
        let accept = WebSocketProtocol.accept(for: "k")
        func response(_ head: String) throws -> WebSocketProtocol.HandshakeResponse {
            try #require(WebSocketProtocol.parseResponse(Array(head.utf8)))
        }
        let good = try response("HTTP/1.1 101 Switching Protocols\r\nUpgrade: WebSocket\r\nConnection: keep-alive, Upgrade\r\nSec-WebSocket-Accept: \(accept)\r\n\r\n")
        #expect(good.status == 101 && good.reasonPhrase == "Switching Protocols" && good.headers.count == 3)
        #expect(WebSocketProtocol.refusal(good, key: "k") == nil)
        #expect(WebSocketProtocol.refusal(good, key: "other")?.contains("Sec-WebSocket-Accept is '\(accept)'") == true)
        let notFound = try response("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
        #expect(WebSocketProtocol.refusal(notFound, key: "k") == "the server refused the WebSocket upgrade: status 404 Not Found (expected 101 Switching Protocols)")
        let compressed = try response("HTTP/1.1 101 x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: \(accept)\r\nSec-WebSocket-Extensions: permessage-deflate\r\n\r\n")
        #expect(WebSocketProtocol.refusal(compressed, key: "k")?.contains("permessage-deflate") == true)
    }

    @Test(arguments: [0, 125, 126, 65_535, 65_536, 70_000])
    func framesRoundTripWith7And16And64BitLengths(_ size: Int) throws {
        let payload = (0..<size).map { UInt8($0 & 0xFF) }
        let mask: [UInt8] = [1, 2, 3, 4]
        let frame = WebSocketProtocol.frame(.binary, payload, mask: mask)
        #expect(frame[0] == 0x82)
        #expect(frame[1] & 0x80 == 0x80)  // clients mask
        #expect(frame.count == payload.count + 4 + (size < 126 ? 2 : size <= 65_535 ? 4 : 10))
        // The same frame unmasked, as a server sends it, reads back whole, also when it arrives in pieces.
        var unmasked = [frame[0], frame[1] & 0x7F] + frame[2..<(frame.count - size - 4)]
        unmasked += payload
        var reader = WebSocketProtocol.FrameReader(limit: 0)
        for chunk in stride(from: 0, to: unmasked.count, by: 1000) {
            #expect(try reader.next() == nil)
            reader.append(Array(unmasked[chunk..<min(chunk + 1000, unmasked.count)]))
        }
        if unmasked.count == 0 { reader.append(unmasked) }
        #expect(try reader.next() == WebSocketProtocol.Frame(fin: true, opcode: .binary, payload: payload))
        #expect(try reader.next() == nil)
    }

    @Test(arguments: [
        ([0x81, 0x82, 1, 2, 3, 4, 0, 0], "masked frame"),
        ([0xC1, 0x00], "reserved bits"),
        ([0x83, 0x00], "unknown opcode 3"),
        ([0x09, 0x00], "fragmented a ping frame"),
        ([0x89, 0x7E, 0x00, 0x7E], "ping frame of 126 bytes"),
        ([0x82, 0x7F, 0x80, 0, 0, 0, 0, 0, 0, 0], "most significant bit"),
        ([0x82, 0x7E, 0x04, 0x00], "frame of 1024 bytes, more than the 1000-byte limit"),
    ] as [([UInt8], String)])
    func badFramesAreRefusedFromTheirHeader(_ bytes: [UInt8], _ reason: String) {
        var reader = WebSocketProtocol.FrameReader(limit: 1000)
        reader.append(bytes)
        #expect(throws: WebSocketProtocol.FrameError.self) { try reader.next() }
        do { _ = try reader.next() } catch { #expect(error.description.contains(reason), "\(error)") }
    }

    @Test func closePayloadsCarryACodeAndAUTF8Reason() throws {
        #expect(WebSocketProtocol.closePayload(code: 4000, reason: "bye") == [0x0F, 0xA0, 0x62, 0x79, 0x65])
        let parsed = try WebSocketProtocol.parseClose([0x03, 0xE8, 0x6F, 0x6B]).get()
        #expect(parsed.code == 1000 && parsed.reason == "ok")
        #expect(try WebSocketProtocol.parseClose([]).get().code == nil)
        #expect(throws: WebSocketProtocol.FrameError.self) { try WebSocketProtocol.parseClose([0x03]).get() }
        #expect(throws: WebSocketProtocol.FrameError.self) { try WebSocketProtocol.parseClose([0x03, 0xE8, 0xFF]).get() }
    }
}

/// The `messages` list of a collection request.
@Suite struct WebSocketStepDecoderTests {
    private func steps(_ messages: String) throws(InputError) -> [WebSocketStep]? {
        let text = #"{"name": "C", "groups": [{"name": "g", "requests": [{"url": "ws://h", "messages": \#(messages)}]}]}"#
        return try CollectionDecoder.decode(Array(text.utf8), file: "c.json", fileName: "c.json").groups[0].requests[0].messages
    }

    private func reason(_ messages: String) -> String? {
        do { _ = try steps(messages); return nil } catch { return error.description }
    }

    @Test func everyStepKindDecodes() throws {
        let decoded = try #require(try steps("""
            [{"send": "hi {{x}}"}, {"send": {"type": "ping"}}, {"send": {"base64": "AAE="}}, {"sendJSON": {"a": [1]}},
             {"receive": {}}, {"receive": {"json": "$.ok", "equals": true}, "within": 2000, "capture": [{"var": "v", "json": "$.v"}]},
             {"receiveCount": 2}, {"receiveUntil": {"base64": "AAE="}}, {"close": {"code": 4001, "reason": "r"}}]
            """))
        var actions = decoded.map(\.action)
        let json = actions.remove(at: 5)
        #expect(actions == [
            .send(.text("hi {{x}}")), .send(.ping("")), .send(.binary([0, 1])), .send(.json(#"{"a":[1]}"#)),
            .receive(nil), .receiveCount(2), .receiveUntil(.binary([0, 1])), .close(code: 4001, reason: "r"),
        ])
        guard case .receive(.json(let path, .equals(let value))) = json else { Issue.record("\(json)"); return }
        #expect(path.text == "$.ok" && value.value == .bool(true))
        #expect(decoded[5].withinMilliseconds == 2000 && decoded[5].captures.map(\.variable) == ["v"])
        #expect(decoded[5].fieldPath == "groups[0].requests[0].messages[5]")
    }

    @Test func mistakesAreInputErrorsWithTheirPlace() throws {
        #expect(reason(#"[{"sned": "x"}]"#)?.contains("messages[0]: a message step needs one of 'send'") == true)
        #expect(reason(#"[{"send": "x", "receive": {}}]"#)?.contains("a message step does one thing") == true)
        #expect(reason(#"[{"send": "x", "within": 5}]"#)?.contains("unknown field 'within'") == true)
        #expect(reason(#"[{"receive": {"matches": "("}}]"#)?.contains("invalid regular expression") == true)
        #expect(reason(#"[{"close": 1001}]"#)?.contains("expected a close code of 1000 or 3000 to 4999") == true)
        #expect(reason(#"[{"close": 1000}, {"send": "x"}]"#)?.contains("messages[1]: nothing can follow a 'close' step") == true)
        #expect(reason(#"[{"send": {"type": "ping", "data": "\#(String(repeating: "x", count: 126))"}}]"#)?.contains("at most 125 bytes") == true)
        #expect(reason(#"[{"send": {"file": "x.bin"}}]"#)?.contains("is outside the workspace") == true)
        #expect(reason(#"[{"receiveCount": 0}]"#)?.contains("expected a whole number of 1 or more") == true)
        #expect(reason(#"[{"send": {"type": "text", "base64": "/w=="}}]"#)?.contains("a text message must be UTF-8") == true)
        #expect(try steps(#"[{"send": {"type": "text", "base64": "e3t4fX0="}}]"#)?.first?.action == .send(.textBytes(Array("{{x}}".utf8))))
    }
}

/// The conversation a record keeps stays bounded, whatever a server streams.
@Suite struct WebSocketRecordTests {
    @Test func aRecordKeepsAtMost16MiBOfDataAnd10000Messages() {
        var record = WebSocketRecord()
        let big = [UInt8](repeating: 0x61, count: 100_000)
        for _ in 0..<300 {
            record.append(WebSocketMessageRecord(direction: "receive", offset: 0, type: "text", payload: big, limit: RunRecord.bodyLimit))
        }
        #expect(record.messages.count == 256 && record.omitted == 44)
        #expect(record.messages[0].size == 100_000 && record.messages[0].data.truncated)
        var small = WebSocketRecord()
        for _ in 0..<10_005 { small.append(WebSocketMessageRecord(direction: "send", offset: 0, type: "ping", payload: [], limit: 10)) }
        #expect(small.messages.count == 10_000 && small.omitted == 5)
        #expect(small == WebSocketRecord(messages: small.messages, omitted: 5))
    }
}

/// Receive steps' matchers on messages, in the words of `expect`.
@Suite struct WebSocketMatchingTests {
    private let scope = VariableScope(layers: [VariableLayer(source: "--var", values: ["want": "hi"])])

    @Test func textJSONAndBinaryMatchers() throws {
        let text = Array(#"{"ok": true, "n": 1.0}"#.utf8)
        #expect(WebSocketMatching.check(.text(.contains("ok")), binary: false, text, fieldPath: "m", scope: scope).passed)
        #expect(WebSocketMatching.check(.json(path: try JSONPath("$.n"), .equals(JSONNode(value: .number("1"), location: SourceLocation(line: 1, column: 1)))),
                                        binary: false, text, fieldPath: "m", scope: scope).passed)
        let templated = WebSocketMatching.check(.text(.equals("{{want}}")), binary: false, Array("hi".utf8), fieldPath: "m", scope: scope)
        #expect(templated.passed && templated.expected == "hi")
        let binary = WebSocketMatching.check(.binary([0, 1]), binary: false, [0, 1], fieldPath: "m", scope: scope)
        #expect(!binary.passed && binary.expected == "binary AAE=" && binary.actual.hasPrefix("text "))
        #expect(WebSocketMatching.check(.binary([0, 1]), binary: true, [0, 1], fieldPath: "m", scope: scope).passed)
        let notJSON = WebSocketMatching.check(.json(path: try JSONPath("$.a"), .exists(true)), binary: false, Array("x".utf8), fieldPath: "m", scope: scope)
        #expect(!notJSON.passed && notJSON.actual.hasPrefix("the body is not JSON"))
    }

    @Test func matchersInWords() throws {
        #expect(WebSocketMatching.describe(.text(.matches("^a"))) == "matches /^a/")
        #expect(WebSocketMatching.describe(.json(path: try JSONPath("$.ok"), .type("boolean"))) == "$.ok is boolean")
        #expect(WebSocketMatching.expected(nil, count: 3) == "3 messages")
    }
}
