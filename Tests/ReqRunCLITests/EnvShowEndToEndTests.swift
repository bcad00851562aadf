import Foundation
import Testing
import TestSupport

/// `reqrun env show` without NAME and without an environment in use (a fresh clone, or a Newman user who
/// passes `--env FILE` to each run): the error says which names there are and how to save a choice.
@Suite struct EnvShowEndToEndTests {
    @Test func envShowWithNothingInUseNamesTheEnvironmentsAndEnvUse() throws {
        let dir = try TemporaryDirectory()
        _ = try dir.write("collections/c.json", #"{"name": "C", "groups": [{"name": "g", "requests": [{"url": "http://127.0.0.1:9/"}]}]}"#)
        let none = try ReqRunBinary.run(["env", "show"], in: dir.url)
        #expect(none.status == 64)
        #expect(none.stderr.hasPrefix("error: no environment in use, and environments/ holds none: name a file (reqrun env show FILE)\n"))
        _ = try dir.write("environments/staging.json", #"{"base": "http://127.0.0.1:9"}"#)
        _ = try dir.write("environments/local.json", #"{"base": "http://127.0.0.1:8"}"#)
        let two = try ReqRunBinary.run(["env", "show"], in: dir.url)
        #expect(two.status == 64)
        #expect(two.stderr.hasPrefix(
            "error: no environment in use: name one (reqrun env show NAME: local, staging), or save a choice with 'reqrun env use NAME'\n"))
    }
}
