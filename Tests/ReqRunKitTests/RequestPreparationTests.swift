import Foundation
import Testing
@testable import ReqRunKit

@Suite struct VariableScopeTests {
    private func scope(_ layers: [String: String]...) -> VariableScope {
        VariableScope(layers: layers.enumerated().map { VariableLayer(source: "layer \($0)", values: $1) },
                      processEnvironment: ProcessEnvironment(["HOME_DIR": "/home/me"], allowing: ["HOME_DIR"]))
    }

    @Test func templateSplitsTextAndReferences() {
        #expect(Template.segments("a{{ b }}c{{d}}{{e") == [.text("a"), .reference("b"), .text("c"), .reference("d"), .text("{{e")])
        #expect(Template.segments("{{\tb \t}}") == [.reference("b")])
        #expect(Template.references("{{x}}/{{y}}/{{x}}") == ["x", "y"])
    }

    /// `forEachSegment` splits on the bytes by offset: the text around multi-byte characters, a name that is not
    /// ASCII, a third brace and an unclosed `{{` come out as they did through the UTF-8 view's indices.
    @Test func templateSplitsAroundNonASCIIText() {
        #expect(Template.segments("é{{ ñame }}ü/{{a}}{{{b}}}x{{ unclosed é")
                == [.text("é"), .reference("ñame"), .text("ü/"), .reference("a"), .reference("{b"), .text("}x{{ unclosed é")])
        #expect(Template.segments("e\u{301}{{ \tñ\t }}😀") == [.text("e\u{301}"), .reference("ñ"), .text("😀")])
        #expect(Template.segments("{{}}{{ }}") == [.reference(""), .reference("")])
    }

    @Test func higherLayersWin() throws {
        let s = scope(["a": "collection", "b": "collection"], ["b": "group"], ["c": "env"])
        #expect(try s.resolve("{{a}} {{b}} {{c}}", field: "url") == "collection group env")
    }

    @Test func referencesInsideValuesAreResolved() throws {
        let s = scope(["base": "http://{{host}}:{{port}}", "host": "127.0.0.1", "port": "80"], ["port": "8080"])
        #expect(try s.resolve("{{base}}/get", field: "url") == "http://127.0.0.1:8080/get")
    }

    @Test func emptyValueIsTheEmptyString() throws {
        #expect(try scope(["e": ""]).resolve("[{{e}}]", field: "body") == "[]")
    }

    @Test func undefinedNamesAreAllReported() {
        #expect(throws: PreparationFailure.undefinedVariables(names: ["x", "y"], field: "url")) {
            try scope(["a": "{{y}}"]).resolve("{{x}}/{{a}}/{{x}}", field: "url")
        }
    }

    @Test func cycleIsNamed() {
        let failure = PreparationFailure.variableCycle(names: ["a", "b", "c", "a"], field: "headers[0].value")
        #expect(throws: failure) { try scope(["a": "{{b}}", "b": "x{{c}}", "c": "{{a}}"]).resolve("{{a}}", field: "headers[0].value") }
        #expect(failure.description == "variable cycle in headers[0].value: a → b → c → a")
        #expect(throws: PreparationFailure.variableCycle(names: ["self", "self"], field: "url")) {
            try scope(["self": "{{self}}"]).resolve("{{self}}", field: "url")
        }
    }

    @Test func depthIsLimited() throws {
        var values: [String: String] = [:]
        for i in 0..<20 { values["v\(i)"] = "{{v\(i + 1)}}" }
        values["v20"] = "end"
        let error = try #require(throws: PreparationFailure.self) { try scope(values).resolve("{{v0}}", field: "url") }
        guard case .variableDepth(let names, _) = error else { Issue.record("expected a depth error, got \(error)"); return }
        #expect(names.count == VariableScope.maximumDepth + 1)
        values["v5"] = "end"
        #expect(try scope(values).resolve("{{v0}}", field: "url") == "end")
    }

    @Test func dynamicValuesAreFreshAndWellFormed() throws {
        let s = scope([:])
        let guids = try s.resolve("{{$guid}} {{$randomUUID}}", field: "url").split(separator: " ").map(String.init)
        #expect(guids.count == 2 && guids[0] != guids[1])
        #expect(guids.allSatisfy { UUID(uuidString: $0) != nil && $0 == $0.lowercased() })
        let now = Int(Date().timeIntervalSince1970)
        let timestamp = try #require(Int(try s.resolve("{{$timestamp}}", field: "url")))
        #expect(abs(timestamp - now) <= 2)
        #expect(try s.resolve("{{$isoTimestamp}}", field: "url").wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil)
        let random = try #require(Int(try s.resolve("{{$randomInt}}", field: "url")))
        #expect((0...1000).contains(random))
    }

    @Test func processEnvironmentOnlyThroughItsSyntax() throws {
        let s = scope([:])
        #expect(try s.resolve("{{process.env.HOME_DIR}}", field: "url") == "/home/me")
        #expect(throws: PreparationFailure.undefinedVariables(names: ["HOME_DIR"], field: "url")) { try s.resolve("{{HOME_DIR}}", field: "url") }
        #expect(throws: PreparationFailure.undefinedVariables(names: ["process.env.REQRUN_NOPE"], field: "url")) {
            try s.resolve("{{process.env.REQRUN_NOPE}}", field: "url")
        }
    }

    @Test func secretValuesAreResolved() {
        let s = VariableScope(layers: [VariableLayer(source: "c", values: ["user": "bob"]),
                                       VariableLayer(source: "env", values: ["token": "t-{{user}}", "empty": ""], secretNames: ["token", "empty"])])
        #expect(s.secretValues() == ["t-bob"])
    }
}

@Suite struct RequestPreparationTests {
    private func prepare(_ request: Request, _ values: [String: String] = [:]) -> Result<PreparedRequest, PreparationFailure> {
        RequestPreparation.prepare(request, scope: VariableScope(layers: [VariableLayer(source: "test", values: values)]))
    }

    @Test func resolvesURLAndHeaders() throws {
        let prepared = try prepare(Request(url: "{{host}}/get", headers: [HeaderField(name: "X", value: "{{v}}")]),
                                   ["host": "http://127.0.0.1:9", "v": "1"]).get()
        #expect(prepared.url == "http://127.0.0.1:9/get")
        #expect(prepared.headers == [HeaderField(name: "X", value: "1")])
        #expect(prepared.body == nil)
    }

    @Test func undefinedVariableNamesTheVariableAndField() throws {
        let result = prepare(Request(url: "http://h", headers: [HeaderField(name: "A", value: "{{token}}")]))
        #expect(result == .failure(.undefinedVariables(names: ["token"], field: "headers[0].value")))
        if case .failure(let failure) = result {
            #expect(failure.description == "undefined variable 'token' in headers[0].value")
            #expect(!failure.isSkip)
        }
    }

    @Test func jsonBodyGetsContentTypeUnlessAHeaderSetsIt() throws {
        let json = try prepare(Request(method: "POST", url: "http://h", body: .json(#"{"a":"{{v}}"}"#)), ["v": "x"]).get()
        #expect(json.body == .bytes(Array(#"{"a":"x"}"#.utf8)))
        #expect(json.headers == [HeaderField(name: "Content-Type", value: "application/json")])
        let custom = try prepare(Request(method: "POST", url: "http://h",
            headers: [HeaderField(name: "content-type", value: "application/vnd.api+json")], body: .json("[]"))).get()
        #expect(custom.headers == [HeaderField(name: "content-type", value: "application/vnd.api+json")])
        let text = try prepare(Request(method: "POST", url: "http://h", body: .text("a=1\nb"))).get()
        #expect(text.headers == [HeaderField(name: "Content-Type", value: "text/plain; charset=utf-8")])
        #expect(text.body == .bytes(Array("a=1\nb".utf8)))
    }

    @Test func schemesOtherThanHTTPAndWebSocketAreSkippedAndMissingSchemeMeansHTTP() throws {
        for (url, scheme) in [("wsx://echo.websocket.org", "wsx"), ("FILE:///etc/passwd", "file"), ("ftp://x", "ftp"),
                              ("httpx://x", "httpx"), ("htt://x", "htt"), ("hxxp://x", "hxxp")] {
            let result = prepare(Request(url: url))
            #expect(result == .failure(.unsupportedScheme(scheme)))
            if case .failure(let failure) = result { #expect(failure.isSkip) }
        }
        #expect(try prepare(Request(url: "127.0.0.1:8080/get")).get().url == "http://127.0.0.1:8080/get")
        #expect(try prepare(Request(url: "HTTPS://x")).get().scheme == "https")
        #expect(try prepare(Request(url: "wss://echo.websocket.org")).get().isWebSocket)
        #expect(try prepare(Request(url: "WS://127.0.0.1:1/x")).get().isWebSocket)
        #expect(prepare(Request(url: "http://h/", messages: [])) == .failure(.invalidURL(
            "the request has 'messages', which only a ws:// or wss:// URL sends, but its URL is http://")))
        #expect(try prepare(Request(url: "hTtP://x/a://b")).get().scheme == "http")
    }

    @Test func lineBreaksInjectedIntoURLOrHeadersAreRefused() throws {
        let injected = prepare(Request(url: "http://h/", headers: [HeaderField(name: "A", value: "{{v}}")]), ["v": "x\r\nEvil: 1"])
        #expect(injected == .failure(.forbiddenCharacter(field: "headers[0].value")))
        #expect(prepare(Request(url: "http://h/{{v}}"), ["v": "a\nb"]) == .failure(.forbiddenCharacter(field: "url")))
    }
}
