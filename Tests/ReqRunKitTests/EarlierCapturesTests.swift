import Foundation
import Testing
@testable import ReqRunKit

/// Values captured by earlier recorded runs (`EarlierCaptures`): which variables need one, which record
/// gives it, and that the values stay data.
@Suite struct EarlierCapturesTests {
    private func references(_ requests: [Request], variables: [Variable] = []) -> [RequestReference] {
        let group = RequestGroup(id: UUID(), name: "g", requests: requests)
        let collection = RequestCollection(name: "C", file: "c.json", variables: variables, groups: [group])
        return Outline(collections: [collection], expansion: .transient([group.id])).allRequests()
    }

    private func record(_ id: String, captures: [CaptureResult]) -> RunRecord {
        var result = RequestResult(index: 0, collection: "C", groupPath: ["g"], groupID: UUID().lowercasedText, name: "login",
                                   method: "GET", url: "http://h/login", outcome: .response)
        result.captures = captures
        return RunRecord(id: id, startedAt: "", endedAt: "", reqrunVersion: "", libcurlVersion: "", workspace: "/w",
                         selection: RunSelection(mode: "send"), results: [result])
    }

    @Test func onlyVariablesNothingDefinesAndNoEarlierRequestCapturesAreMissing() {
        let refs = references([
            Request(url: "http://h/login?u={{user}}", captures: [Capture(variable: "token", source: .header("X-Token"), fieldPath: "capture")]),
            Request(url: "http://h/a?t={{token}}&s={{session}}&d={{defined}}&g={{$guid}}&e={{process.env.REQRUN_X}}"),
        ], variables: [Variable(name: "defined", value: "1")])
        let configuration = RunConfiguration(selection: RunSelection(mode: "send"), overrides: ["user": "ada"])
        #expect(EarlierCaptures.missing(refs, configuration) == ["session"])
        // Sent alone, the request that captures the token is not there to provide it.
        #expect(EarlierCaptures.missing([refs[1]], configuration) == ["session", "token"])
    }

    @Test func theNewestRecordThatCapturedAValueGivesItAndMaskedValuesAreNotUsed() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reqrun-earlier-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = RunStore(directory: folder)
        _ = try store.save(record("20261201-100000-000-aaaa", captures: [CaptureResult(variable: "token", value: "old", error: nil),
                                                                        CaptureResult(variable: "id", value: "7", error: nil)]))
        _ = try store.save(record("20261201-110000-000-bbbb", captures: [CaptureResult(variable: "token", value: "new {{base}}", error: nil),
                                                                        CaptureResult(variable: "sid", value: SecretMasker.mask, error: nil)]))
        let earlier = EarlierCaptures.find(["id", "sid", "token", "absent"], in: store)
        #expect(earlier.found == [
            EarlierCaptures.Found(variable: "id", value: "7", runID: "20261201-100000-000-aaaa", request: "login"),
            EarlierCaptures.Found(variable: "token", value: "new {{base}}", runID: "20261201-110000-000-bbbb", request: "login"),
        ])
        #expect(earlier.masked.map(\.variable) == ["sid"])
        // A literal layer: a `{{…}}` in a recorded value is sent as written, never resolved.
        let layer = try #require(earlier.layer(secretNames: ["token"]))
        #expect(layer.isLiteral && layer.secretNames == ["token"])
        let scope = VariableScope(layers: [VariableLayer(source: "collection", values: ["base": "http://secret-host"]), layer])
        #expect(try scope.resolve("{{token}}", field: "url") == "new {{base}}")
        #expect(scope.secretValues().contains("new {{base}}"))
    }
}
