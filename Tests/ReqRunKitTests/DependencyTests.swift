import Foundation
import Testing
@testable import ReqRunKit

/// Which requests wait for which (`Runner.dependencies`): what `--parallel` may start at once.
@Suite struct DependencyTests {
    private func references(_ requests: [Request]) -> [RequestReference] {
        let group = RequestGroup(id: UUID(), name: "g", requests: requests)
        let collection = RequestCollection(name: "C", file: "c.json", groups: [group])
        return Outline(collections: [collection], expansion: .transient([group.id])).allRequests()
    }

    private func capture(_ variable: String, cookie: Bool = false) -> Capture {
        Capture(variable: variable, source: cookie ? .cookie(variable) : .header("X-\(variable)"), fieldPath: "capture")
    }

    /// A check reading a captured variable (`variable "token"`, or `{{token}}` in its operand) waits for it.
    @Test func checksThatReadACaptureWaitForIt() throws {
        let refs = references([
            Request(url: "http://h/login", captures: [capture("token")]),
            Request(url: "http://h/a", expectations: [ExpectationSpec(expectation: .check(try CheckParser.parse("variable 'token' exists")), fieldPath: "e", location: .init(line: 1, column: 1))]),
            Request(url: "http://h/b", expectations: [ExpectationSpec(expectation: .check(try CheckParser.parse("$.t == '{{token}}'")), fieldPath: "e", location: .init(line: 1, column: 1))]),
            Request(url: "http://h/c", captures: [Capture(variable: "x", source: .check(try CheckParser.parse("variable 'token'", capture: true)), fieldPath: "c")]),
            Request(url: "http://h/d"),
        ])
        #expect(Runner.dependencies(refs, RunConfiguration(selection: RunSelection(mode: "all"))) == [[], [0], [0], [0], []])
    }

    @Test func capturesReachedThroughEnvironmentAndVarValuesAreWaitedFor() {
        let refs = references([
            Request(url: "http://h/login", captures: [capture("token")]),
            Request(url: "http://h/a", headers: [HeaderField(name: "Authorization", value: "{{auth}}")]),
            Request(url: "http://h/b?x={{viaVar}}"),
            Request(url: "http://h/c"),
        ])
        let environment = Environment(name: "e", file: "e.json", variables: [Variable(name: "auth", value: "Bearer {{token}}")])
        let configuration = RunConfiguration(selection: RunSelection(mode: "all"), environment: environment,
                                             overrides: ["viaVar": "{{auth}}-2"])
        #expect(Runner.dependencies(refs, configuration) == [[], [0], [0], []])
        // Without the environment and the --var, nothing leads from a or b to the capture.
        #expect(Runner.dependencies(refs, RunConfiguration(selection: RunSelection(mode: "all"))) == [[], [], [], []])
    }

    /// A request that captures a variable waits for the earlier ones that read or capture it: with
    /// `--parallel`, the second iteration's login had replaced the token before the first iteration's next
    /// request was sent, which then sent the second iteration's token.
    @Test func aCaptureWaitsForEarlierReadersAndCapturersOfItsVariable() {
        let all = RunConfiguration(selection: RunSelection(mode: "all"))
        let login = Request(url: "http://h/login", captures: [capture("token")])
        let use = Request(url: "http://h/a?t={{token}}")
        let refs = references([login, use, Request(url: "http://h/relogin", captures: [capture("token")]), Request(url: "http://h/c")])
        #expect(Runner.dependencies(refs, all) == [[], [0], [0, 1], []])
        // Shards keep only the waits for a captured value: the parts are other processes.
        #expect(Runner.dependencies(refs, all, runAlone: false) == [[], [0], [], []])
        let iterated = RunDependencies(references([login, use]), repeats: 3, all)
        #expect(iterated.positions(before: 2) == [0, 1])
        // The latest of each: the earlier ones were waited for by the login before.
        #expect(iterated.positions(before: 4) == [2, 3])
    }

    /// Requests that all capture the same variable wait each for the one before it only: lists of every
    /// earlier capturer made the waits quadratic in the selection (3,000 requests: 9 million entries).
    @Test func manyCapturesOfOneVariableWaitEachForThePreviousOne() {
        let refs = references((0..<3000).map { Request(url: "http://h/\($0)", captures: [capture("etag")]) })
        let waits = Runner.dependencies(refs, RunConfiguration(selection: RunSelection(mode: "all")))
        #expect(waits == (0..<3000).map { $0 == 0 ? [] : [$0 - 1] })
    }

    @Test func aMultipartPartNameCountsAsAUse() {
        let refs = references([
            Request(url: "http://h/login", captures: [capture("field")]),
            Request(method: "POST", url: "http://h/upload", body: .multipart([MultipartPart(name: "{{field}}", content: .text("v"))])),
        ])
        #expect(Runner.dependencies(refs, RunConfiguration(selection: RunSelection(mode: "all"))) == [[], [0]])
    }

    @Test func aRequestCapturingACookieRunsAlone() {
        let refs = references([
            Request(url: "http://h/1"),
            Request(url: "http://h/2"),
            Request(url: "http://h/login", captures: [capture("session", cookie: true)]),
            Request(url: "http://h/3"),
            Request(url: "http://h/4"),
        ])
        #expect(Runner.dependencies(refs, RunConfiguration(selection: RunSelection(mode: "all"))) == [[], [], [0, 1], [2], [2]])
    }

    /// A request that runs alone waits for the last one that ran alone and those after it: that one started
    /// only when every request before it was done. (Sets of every earlier position made 1,000 scripted
    /// requests quadratic.)
    @Test func aRequestThatRunsAloneWaitsFromTheLastOneThatDid() {
        let script = Script(event: .test, source: "pm.test('ok', () => {});", file: "c.json", fieldPath: "event[0]")
        var scripted = Request(url: "http://h/s")
        scripted.eventScripts = [script]
        let refs = references([
            Request(url: "http://h/1"), scripted, scripted, Request(url: "http://h/2"),
            Request(url: "http://h/login", captures: [capture("session", cookie: true)]), scripted,
        ])
        #expect(Runner.dependencies(refs, RunConfiguration(selection: RunSelection(mode: "all"))) == [[], [0], [1], [2], [2, 3], [4]])
        #expect(Runner.dependencies(references(Array(repeating: scripted, count: 1000)), RunConfiguration(selection: RunSelection(mode: "all")))
            .allSatisfy { $0.count <= 1 })
    }

    /// A run of `--iterations` computes each position's waits from the position (`RunDependencies`), not from
    /// one set per position: the same as the rules give for the selection written out once per iteration
    /// (a capture waited for across iterations, cookies and scripts that run alone), and from any first
    /// position not known to be done.
    @Test func iteratedRunsWaitAsTheSelectionWrittenOutOncePerIteration() {
        let script = Script(event: .test, source: "pm.test('ok', () => {});", file: "c.json", fieldPath: "event[0]")
        var scripted = Request(url: "http://h/s")
        scripted.eventScripts = [script]
        let selections = [
            references([Request(url: "http://h/a?t={{token}}"), Request(url: "http://h/login", captures: [capture("token")]),
                        Request(url: "http://h/b?t={{token}}"), Request(url: "http://h/c")]),
            references([Request(url: "http://h/1"), Request(url: "http://h/login", captures: [capture("session", cookie: true)]),
                        Request(url: "http://h/2?x={{x}}"), scripted, Request(url: "http://h/x", captures: [capture("x")]), Request(url: "http://h/3")]),
            references([Request(url: "http://h/1"), Request(url: "http://h/2")]),
        ]
        let configuration = RunConfiguration(selection: RunSelection(mode: "all"))
        for selection in selections {
            for runAlone in [true, false] {
                let written = Runner.dependencies(Array(RunSequence(selection, repeats: 4)), configuration, runAlone: runAlone)
                let computed = RunDependencies(selection, repeats: 4, configuration, runAlone: runAlone)
                #expect(written.indices.map { computed.positions(before: $0) } == written)
                for (position, waits) in written.enumerated() {
                    for lowest in 0...position {
                        var asked: Set<Int> = []
                        _ = computed.allSatisfy(position, from: lowest) { asked.insert($0); return true }
                        #expect(asked == waits.filter { $0 >= lowest }, "position \(position) from \(lowest)")
                    }
                }
            }
        }
    }

    /// A position that holds back every later one (`holdsBackLater`, where `Runner` stops looking for a request
    /// to start) is one that no later position can pass: with every position before it done and it not, none
    /// after it may start. Scripted requests and cookie captures are such positions; plain ones are not.
    @Test func noLaterPositionStartsBeforeOneThatHoldsThemBack() {
        let script = Script(event: .test, source: "pm.test('ok', () => {});", file: "c.json", fieldPath: "event[0]")
        var scripted = Request(url: "http://h/s")
        scripted.eventScripts = [script]
        let mixed = references([Request(url: "http://h/1"), Request(url: "http://h/login", captures: [capture("session", cookie: true)]),
                                Request(url: "http://h/2?x={{x}}"), scripted, Request(url: "http://h/x", captures: [capture("x")]),
                                Request(url: "http://h/3")])
        let configuration = RunConfiguration(selection: RunSelection(mode: "all"))
        let dependencies = RunDependencies(mixed, repeats: 3, configuration)
        let holding = (0..<18).filter { dependencies.holdsBackLater($0) }
        #expect(holding == [1, 3, 7, 9, 13, 15])
        for position in holding {
            for later in (position + 1)..<18 {
                #expect(!dependencies.allSatisfy(later) { $0 < position }, "\(later) passed \(position)")
            }
        }
        let plain = RunDependencies(references([Request(url: "http://h/1"), Request(url: "http://h/2", captures: [capture("x")])]),
                                    repeats: 3, configuration)
        #expect((0..<6).allSatisfy { !plain.holdsBackLater($0) })
        #expect(!RunDependencies(mixed, repeats: 3, configuration, runAlone: false).holdsBackLater(3))
    }
}
