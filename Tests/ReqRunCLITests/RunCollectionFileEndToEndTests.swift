import Foundation
import Testing
import TestSupport

/// A Newman user's `newman run FILE` habit, as `reqrun run FILE.json --workspace .` in a folder without
/// collections/: the error says how to run the file, as it does inside a workspace.
@Suite struct RunCollectionFileEndToEndTests {
    @Test func runFileInAFolderWithoutCollectionsSaysHowToRunIt() throws {
        let dir = try TemporaryDirectory()
        _ = try dir.write("shop.postman_collection.json", #"{"info": {"name": "Shop"}, "item": []}"#)
        let run = try ReqRunBinary.run(["run", "shop.postman_collection.json", "--workspace", "."], in: dir.url)
        #expect(run.status == 2)
        #expect(run.stderr == "error: collections/ does not exist or cannot be read; to run a collection file, name it with --collection FILE and add --all\n")
        // Without a file name the error stays as it was.
        let all = try ReqRunBinary.run(["run", "--all", "--workspace", "."], in: dir.url)
        #expect(all.stderr == "error: collections/ does not exist or cannot be read\n")
    }
}
