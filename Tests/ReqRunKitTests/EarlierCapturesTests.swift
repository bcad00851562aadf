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

    @Test func theStoreKeepsTheNewestValueOfEachVariableAndTheLayerIsLiteral() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reqrun-earlier-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = CaptureStore(directory: folder)
        #expect(EarlierCaptures.find(["token"], in: store).isEmpty)
        try store.remember([CapturedValue(variable: "token", value: "old", run: "20261201-100000-000-aaaa", request: "login", secret: false),
                            CapturedValue(variable: "id", value: "7", run: "20261201-100000-000-aaaa", request: "list", secret: false)])
        try store.remember([CapturedValue(variable: "token", value: "new {{base}}", run: "20261201-110000-000-bbbb", request: "login", secret: true)])
        let found = EarlierCaptures.find(["token", "id", "absent"], in: store)
        #expect(found.map(\.variable) == ["id", "token"])
        #expect(found.map(\.run) == ["20261201-100000-000-aaaa", "20261201-110000-000-bbbb"])
        // Private: mode 0600, like the run records.
        let attributes = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("captures.json").path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        // A literal layer: a `{{…}}` in a stored value is sent as written, never resolved; a secret stays one.
        let layer = try #require(EarlierCaptures.layer(found))
        #expect(layer.isLiteral && layer.secretNames == ["token"])
        let scope = VariableScope(layers: [VariableLayer(source: "collection", values: ["base": "http://secret-host"]), layer])
        #expect(try scope.resolve("{{token}}", field: "url") == "new {{base}}")
        #expect(scope.secretValues().contains("new {{base}}") && !scope.secretValues().contains("7"))
    }

    /// Counts the passes over the references it wraps.
    private final class Walked: Sequence, @unchecked Sendable {
        let references: [RequestReference]
        var passes = 0
        init(_ references: [RequestReference]) { self.references = references }
        func makeIterator() -> IndexingIterator<[RequestReference]> { passes += 1; return references.makeIterator() }
    }

    @Test func withNothingStoredTheReferencesAreNotWalked() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reqrun-earlier-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = CaptureStore(directory: folder)
        let refs = Walked(references([Request(url: "http://h/a?t={{token}}")]))
        var configuration = RunConfiguration(selection: RunSelection(mode: "send"))
        #expect(EarlierCaptures.carry(into: &configuration, for: refs, from: store).isEmpty)
        #expect(refs.passes == 0 && configuration.carriedCaptures == nil)
        // With a value stored, they are walked once and the missing one is carried.
        try store.remember([CapturedValue(variable: "token", value: "t1", run: "20261201-100000-000-aaaa", request: "login", secret: false)])
        #expect(EarlierCaptures.carry(into: &configuration, for: refs, from: store).map(\.variable) == ["token"])
        #expect(refs.passes == 1 && configuration.carriedCaptures?.values == ["token": "t1"])
    }

    @Test func anUnreadableStoreIsEmptyAndReplaced() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reqrun-earlier-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("{not json".utf8).write(to: folder.appendingPathComponent("captures.json"))
        let store = CaptureStore(directory: folder)
        #expect(store.load().isEmpty)
        try store.remember([CapturedValue(variable: "a", value: "1", run: "r", request: "q", secret: false)])
        #expect(store.load()["a"]?.value == "1")
    }
}
