import Foundation
import Testing
@testable import ReqRunKit

@Suite struct RequestPreparationTests {
    private func reference(_ request: Request, variables: [Variable] = []) -> RequestReference {
        RequestReference(index: 0, collectionIndex: 0, collectionName: "c", collectionVariables: variables,
                         groups: [RequestGroup(id: UUID(), name: "g")], request: request)
    }

    @Test func templateReplacesAndReportsMissingNames() throws {
        #expect(try Template.resolve("{{a}}/x/{{ b }}", ["a": "1", "b": "2"]).get() == "1/x/2")
        #expect(Template.resolve("{{a}}{{c}}{{c}}{{d}}", ["a": "1"]) == .failure(UnresolvedVariables(names: ["c", "d"])))
        // A value's own braces are not expanded again; unclosed braces stay as written.
        #expect(try Template.resolve("{{a}} {{x", ["a": "{{b}}"]).get() == "{{b}} {{x")
        #expect(try Template.resolve("", [:]).get() == "")
    }

    @Test func overridesWinOverCollectionVariables() throws {
        let prepared = try RequestPreparation.prepare(
            reference(Request(url: "{{host}}/get", headers: [HeaderField(name: "X", value: "{{v}}")]),
                      variables: [Variable(name: "host", value: "https://far"), Variable(name: "v", value: "1")]),
            overrides: ["host": "http://127.0.0.1:9"]).get()
        #expect(prepared.url == "http://127.0.0.1:9/get")
        #expect(prepared.headers == [HeaderField(name: "X", value: "1")])
        #expect(prepared.body == nil)
    }

    @Test func undefinedVariableNamesTheVariableAndField() throws {
        let result = RequestPreparation.prepare(reference(Request(url: "http://h", headers: [HeaderField(name: "A", value: "{{token}}")])), overrides: [:])
        #expect(result == .failure(.undefinedVariables(names: ["token"], field: "headers[0].value")))
        if case .failure(let failure) = result {
            #expect(failure.description == "undefined variable 'token' in headers[0].value")
            #expect(!failure.isSkip)
        }
    }

    @Test func jsonBodyGetsContentTypeUnlessAHeaderSetsIt() throws {
        let json = try RequestPreparation.prepare(reference(Request(method: "POST", url: "http://h", body: .json(#"{"a":"{{v}}"}"#)),
                                                            variables: [Variable(name: "v", value: "x")]), overrides: [:]).get()
        #expect(json.body == Array(#"{"a":"x"}"#.utf8))
        #expect(json.headers == [HeaderField(name: "Content-Type", value: "application/json")])
        let custom = try RequestPreparation.prepare(reference(Request(method: "POST", url: "http://h",
            headers: [HeaderField(name: "content-type", value: "application/vnd.api+json")], body: .json("[]"))), overrides: [:]).get()
        #expect(custom.headers == [HeaderField(name: "content-type", value: "application/vnd.api+json")])
        let text = try RequestPreparation.prepare(reference(Request(method: "POST", url: "http://h", body: .text("a=1\nb"))), overrides: [:]).get()
        #expect(text.headers == [HeaderField(name: "Content-Type", value: "text/plain; charset=utf-8")])
        #expect(text.body == Array("a=1\nb".utf8))
    }

    @Test func schemesOtherThanHTTPAreSkippedAndMissingSchemeMeansHTTP() throws {
        for (url, scheme) in [("wss://echo.websocket.org", "wss"), ("FILE:///etc/passwd", "file"), ("ftp://x", "ftp")] {
            let result = RequestPreparation.prepare(reference(Request(url: url)), overrides: [:])
            #expect(result == .failure(.unsupportedScheme(scheme)))
            if case .failure(let failure) = result { #expect(failure.isSkip) }
        }
        #expect(try RequestPreparation.prepare(reference(Request(url: "127.0.0.1:8080/get")), overrides: [:]).get().url
                == "http://127.0.0.1:8080/get")
        #expect(try RequestPreparation.prepare(reference(Request(url: "HTTPS://x")), overrides: [:]).get().scheme == "https")
    }

    @Test func lineBreaksInjectedIntoURLOrHeadersAreRefused() throws {
        let injected = RequestPreparation.prepare(
            reference(Request(url: "http://h/", headers: [HeaderField(name: "A", value: "{{v}}")])),
            overrides: ["v": "x\r\nEvil: 1"])
        #expect(injected == .failure(.forbiddenCharacter(field: "headers[0].value")))
        #expect(RequestPreparation.prepare(reference(Request(url: "http://h/{{v}}")), overrides: ["v": "a\nb"])
                == .failure(.forbiddenCharacter(field: "url")))
    }
}
