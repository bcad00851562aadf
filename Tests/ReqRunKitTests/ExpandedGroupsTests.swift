import Foundation
import Testing
import ReqRunKit
import TestSupport

@Suite struct ExpandedGroupsCodecTests {
    let a = UUID(uuidString: "7bbd0224-3a31-4ba7-9dbb-b7138de7aaee")!
    let b = UUID(uuidString: "6df253c4-3c91-4712-a398-605c67b1e5b5")!

    @Test func rawValueIsASortedJSONArrayOfUUIDStrings() {
        let set: Set<UUID> = [a, b]
        #expect(set.rawValue == #"["6DF253C4-3C91-4712-A398-605C67B1E5B5","7BBD0224-3A31-4BA7-9DBB-B7138DE7AAEE"]"#)
        #expect(Set<UUID>().rawValue == "[]")
    }

    @Test func roundTrips() throws {
        let set: Set<UUID> = [a, b, UUID()]
        #expect(Set<UUID>(rawValue: set.rawValue) == set)
        // Lower case and duplicates are read too, as the seed's hand-written state may have them.
        #expect(Set<UUID>(rawValue: #"["7bbd0224-3a31-4ba7-9dbb-b7138de7aaee","7BBD0224-3A31-4BA7-9DBB-B7138DE7AAEE"]"#) == [a])
    }

    @Test(arguments: ["", "null", "{}", "[1]", #"["not-a-uuid"]"#, #"["7bbd0224-3a31-4ba7-9dbb-b7138de7aaee""#, "[] x"])
    func unreadableRawValuesGiveNil(_ raw: String) {
        #expect(Set<UUID>(rawValue: raw) == nil)
    }
}

@Suite struct StateStoreTests {
    let a = UUID(uuidString: "7bbd0224-3a31-4ba7-9dbb-b7138de7aaee")!

    @Test func newWorkspaceStartsCollapsedAndWritesNothing() throws {
        let dir = try TemporaryDirectory()
        let store = StateStore(directory: dir.url.appendingPathComponent(".reqrun"))
        #expect(try store.expandedGroups() == [])
        #expect(!dir.exists(".reqrun"))
    }

    @Test func updateSavesUnderTheSceneStorageKeyWithPrivateModes() throws {
        let dir = try TemporaryDirectory()
        let store = StateStore(directory: dir.url.appendingPathComponent(".reqrun"))
        try store.update { $0.insert(a) }
        #expect(try dir.read(".reqrun/state.json") == "{\n  \"expandedGroups\": \"[\\\"7BBD0224-3A31-4BA7-9DBB-B7138DE7AAEE\\\"]\"\n}\n")
        #expect(try store.expandedGroups() == [a])
        let folderMode = try FileManager.default.attributesOfItem(atPath: dir.url.appendingPathComponent(".reqrun").path)[.posixPermissions] as? Int
        let fileMode = try FileManager.default.attributesOfItem(atPath: dir.url.appendingPathComponent(".reqrun/state.json").path)[.posixPermissions] as? Int
        #expect(folderMode == 0o700)
        #expect(fileMode == 0o600)
        #expect(store.warnings.isEmpty)
    }

    @Test func unreadableFileIsMovedAsideNotOverwritten() throws {
        let dir = try TemporaryDirectory()
        let garbage = "{ this is not json"
        try dir.write(".reqrun/state.json", garbage)
        let store = StateStore(directory: dir.url.appendingPathComponent(".reqrun"))
        #expect(try store.expandedGroups() == [])
        #expect(store.warnings.count == 1)
        #expect(store.warnings[0].hasPrefix(".reqrun/state.json:1:3: expected a string key, found character 't'; the file could not be read, so it was moved to .reqrun/state.json.unreadable-"))
        let backups = try FileManager.default.contentsOfDirectory(atPath: dir.url.appendingPathComponent(".reqrun").path)
            .filter { $0.hasPrefix("state.json.unreadable-") }
        #expect(backups.count == 1)
        #expect(try dir.read(".reqrun/\(backups[0])") == garbage)
        // Reading again warns no more: the bad content is out of the way.
        let again = StateStore(directory: dir.url.appendingPathComponent(".reqrun"))
        #expect(try again.expandedGroups() == [])
        #expect(again.warnings.isEmpty)
    }

    @Test func unreadableRawValueIsBackedUpAndOtherKeysKept() throws {
        let dir = try TemporaryDirectory()
        let original = #"{"expandedGroups": "[\"zzz\"]", "other": "kept"}"#
        try dir.write(".reqrun/state.json", original)
        let store = StateStore(directory: dir.url.appendingPathComponent(".reqrun"))
        try store.update { $0.insert(a) }
        #expect(store.warnings.count == 1)
        let state = try dir.read(".reqrun/state.json")
        #expect(state.contains("\"other\": \"kept\""))
        #expect(state.contains("7BBD0224"))
        let backup = try FileManager.default.contentsOfDirectory(atPath: dir.url.appendingPathComponent(".reqrun").path)
            .first { $0.hasPrefix("state.json.unreadable-") }
        #expect(try dir.read(".reqrun/\(try #require(backup))") == original)
    }

    @Test func unknownIDsAreKept() throws {
        let dir = try TemporaryDirectory()
        let store = StateStore(directory: dir.url.appendingPathComponent(".reqrun"))
        let gone = UUID()
        try store.update { $0.insert(gone) }
        try store.update { $0.insert(a) }
        #expect(try store.expandedGroups() == [a, gone])
    }
}
