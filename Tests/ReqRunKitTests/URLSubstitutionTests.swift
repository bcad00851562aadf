import Foundation
import Testing
@testable import ReqRunKit

/// Values substituted into a URL stay in the part of the URL they stand in.
@Suite struct URLSubstitutionTests {
    private func url(_ template: String, _ values: [String: String], query: [Parameter] = []) throws -> String {
        let request = Request(url: template, query: query)
        return try RequestPreparation.prepare(request, scope: VariableScope(layers: [VariableLayer(source: "t", values: values)])).get().url
    }

    @Test func aHashOrQuestionMarkInAValueDoesNotCutThePath() throws {
        #expect(try url("http://h/r4/{{id}}", ["id": "qwert#2345"]) == "http://h/r4/qwert%232345")
        #expect(try url("http://h/r4/{{id}}/x", ["id": "a?b#c"]) == "http://h/r4/a%3Fb%23c/x")
        // A parameter's value stays one value: '#', '&' and '+' (a space to form parsers) encoded.
        #expect(try url("http://h/p?to={{e}}&x=1", ["e": "a+b&c=d#e?"]) == "http://h/p?to=a%2Bb%26c=d%23e?&x=1")
        // Elsewhere in the query only '#' would end it; '&' and '=' are kept (a value may hold parameters).
        #expect(try url("http://h/p?{{q}}&{{n}}=1", ["q": "a=1&b=2", "n": "k+#"]) == "http://h/p?a=1&b=2&k+%23=1")
        // Reached through another variable, too.
        #expect(try url("http://h/{{p}}", ["p": "u/{{id}}", "id": "1#2"]) == "http://h/u/1%232")
    }

    @Test func valuesInTheSchemeOrAuthorityOrAtTheStartAreKept() throws {
        #expect(try url("{{httpbin}}/get", ["httpbin": "http://127.0.0.1:8080"]) == "http://127.0.0.1:8080/get")
        #expect(try url("{{base}}", ["base": "http://h/a?b=1#top"]) == "http://h/a?b=1#top")
        #expect(try url("http://{{host}}:{{port}}/x", ["host": "h", "port": "80"]) == "http://h:80/x")
        #expect(try url("{{scheme}}://{{host}}{{path}}", ["scheme": "http", "host": "h", "path": "/a?b#c"]) == "http://h/a?b#c")
    }

    @Test func textTypedInTheTemplateKeepsItsMeaning() throws {
        #expect(try url("http://h/{{id}}#frag", ["id": "1"]) == "http://h/1#frag")
        #expect(try url("http://h/{{id}}?a=1", ["id": "1"], query: [Parameter(name: "b", value: "{{id}}")]) == "http://h/1?a=1&b=1")
    }

    @Test func everyUndefinedNameIsStillReportedAtOnce() {
        let failure = RequestPreparation.prepare(Request(url: "{{a}}/x/{{b}}/{{a}}"), scope: VariableScope(layers: []))
        #expect(failure == .failure(.undefinedVariables(names: ["a", "b"], field: "url")))
    }

    @Test func postmanPathVariablesAndQueryEntriesStayInTheirPart() throws {
        let url = try PostmanURL.decode(try JSONParser.parse(Array("""
            {"protocol": "http", "host": ["h"], "path": ["r4", ":id", ":other"],
             "variable": [{"key": "id", "value": "qwert#2345"}, {"key": "other", "value": "{{x}}?y"}],
             "query": [{"key": "k#", "value": "a&b#c"}]}
            """.utf8)), path: "url", file: "p.json")
        #expect(url == "http://h/r4/qwert%232345/{{x}}%3Fy?k%23=a%26b%23c")
    }
}
