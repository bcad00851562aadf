import Foundation
import Testing
import Synchronization
@testable import PostmanSandbox

/// How `require()` reads a module file (`SandboxModules.read`).
@Suite struct SandboxModuleReadTests {
    /// The file checked (regular, within the bound) is the file read: a module file replaced between the check
    /// and the read (by `rename(2)`, here by a thread that swaps a small and a too-large file under one name
    /// as fast as it can) gives the small text or nothing, never the large one. Reading by path after a
    /// `stat(2)` of that path gave the large text in some of the reads.
    @Test func theFileCheckedIsTheFileRead() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reqrun-modules-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let small = "module.exports = 1;", large = "module.exports = '" + String(repeating: "x", count: 200) + "';"
        try Data(small.utf8).write(to: folder.appendingPathComponent("s.js"))
        try Data(large.utf8).write(to: folder.appendingPathComponent("l.js"))
        let module = folder.appendingPathComponent("m.js").path
        #expect(link(folder.appendingPathComponent("s.js").path, module) == 0)
        let root = folder.resolvingSymlinksInPath().path + "/"
        #expect(SandboxModules.read(module, roots: [root], bound: 64) == small)
        #expect(SandboxModules.read(folder.appendingPathComponent("l.js").path, roots: [root], bound: 64) == nil)
        let stop = Atomic(false), stopped = DispatchSemaphore(value: 0)
        let swapper = Thread {
            defer { stopped.signal() }
            let next = folder.appendingPathComponent("next.js").path
            while !stop.load(ordering: .relaxed) {
                for source in ["l.js", "s.js"] {
                    _ = link(folder.appendingPathComponent(source).path, next)
                    _ = rename(next, module)
                }
            }
        }
        swapper.start()
        var smallReads = 0, largeReads = 0
        for _ in 0..<20_000 {
            switch SandboxModules.read(module, roots: [root], bound: 64) {
            case small: smallReads += 1
            case large: largeReads += 1
            default: break
            }
        }
        stop.store(true, ordering: .relaxed)
        stopped.wait()
        #expect(largeReads == 0 && smallReads > 0, "\(largeReads) reads of the large file, \(smallReads) of the small one")
    }
}
