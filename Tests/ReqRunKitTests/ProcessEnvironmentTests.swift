import Foundation
import Testing
@testable import ReqRunKit

/// `{{process.env.NAME}}` reads only `REQRUN_*` and allowed names; what a run reads is secret.
@Suite struct ProcessEnvironmentTests {
    private let all = ["REQRUN_BASE": "http://127.0.0.1:1", "REQRUN_TOKEN": "tok-123456", "AWS_SECRET_ACCESS_KEY": "aws-abcdef", "HOME": "/home/me"]

    @Test func onlyPrefixedAndAllowedNamesAreReadable() throws {
        let scope = VariableScope(layers: [], processEnvironment: ProcessEnvironment(all, allowing: ["HOME"]))
        #expect(try scope.resolve("{{process.env.REQRUN_TOKEN}}{{process.env.HOME}}", field: "url") == "tok-123456/home/me")
        #expect(throws: PreparationFailure.environmentVariableNotAllowed(name: "AWS_SECRET_ACCESS_KEY", field: "headers[0].value")) {
            try scope.resolve("{{process.env.AWS_SECRET_ACCESS_KEY}}", field: "headers[0].value")
        }
        #expect(PreparationFailure.environmentVariableNotAllowed(name: "AWS_SECRET_ACCESS_KEY", field: "url").description
                == "process.env.AWS_SECRET_ACCESS_KEY in url is not readable: collections may read only REQRUN_* variables "
                + "and those allowed with --allow-env AWS_SECRET_ACCESS_KEY")
        // Through a variable's value too.
        let layered = VariableScope(layers: [VariableLayer(source: "c", values: ["k": "{{process.env.HOME}}"])], processEnvironment: ProcessEnvironment(all))
        #expect(throws: PreparationFailure.environmentVariableNotAllowed(name: "HOME", field: "url")) { try layered.resolve("{{k}}", field: "url") }
        #expect(ProcessEnvironment(all).values.keys.sorted() == ["REQRUN_BASE", "REQRUN_TOKEN"])
    }

    /// 246b5b4 read `process.env.` with `hasPrefix`, as `ProcessEnvironment.narrowed` still does: a combining mark
    /// after the `.` makes another name (a variable), and the environment variable is not read.
    @Test func aCombiningMarkAfterTheDotIsAnotherName() throws {
        let name = "process.env.\u{301}REQRUN_TOKEN"
        let scope = VariableScope(layers: [VariableLayer(source: "c", values: [name: "a variable"])], processEnvironment: ProcessEnvironment(all))
        #expect(try scope.resolve("{{\(name)}}", field: "url") == "a variable")
        #expect(throws: PreparationFailure.undefinedVariables(names: [name], field: "url")) {
            try VariableScope(layers: [], processEnvironment: ProcessEnvironment(all)).resolve("{{\(name)}}", field: "url")
        }
        #expect(try scope.resolve("{{process.env.REQRUN_TOKEN}}", field: "url") == "tok-123456")
        #expect(throws: PreparationFailure.environmentVariableNotAllowed(name: "\u{E9}X", field: "url")) {
            try scope.resolve("{{process.env.\u{E9}X}}", field: "url")
        }
    }

    @Test func theValuesARunReadsAreSecrets() throws {
        let collection = try CollectionDecoder.decode(Array(#"""
            {"name": "c", "variables": {"auth": "Bearer {{process.env.REQRUN_TOKEN}}"},
             "groups": [{"name": "g", "requests": [{"url": "http://h/", "headers": {"Authorization": "{{auth}}"}}]}]}
            """#.utf8), file: "c.json", fileName: "c.json")
        let references = Outline(collections: [collection], expansion: .transient([])).allRequests()
        let environment = ProcessEnvironment(all).narrowed(to: references, alsoThrough: [])
        // REQRUN_BASE is readable but unused: not masked (it would mask every URL that starts with it).
        #expect(environment.secrets == ["tok-123456"])
        #expect(VariableScope(layers: [], processEnvironment: environment).secretValues() == ["tok-123456"])
        #expect(try VariableScope(layers: [], processEnvironment: environment).resolve("{{process.env.REQRUN_BASE}}", field: "url") == "http://127.0.0.1:1")
    }
}
