import Foundation
import Testing
@testable import ReqRunKit

/// `Request` keeps the fields most requests leave unset in one shared box (issue 17 §1: a
/// 1,000,000-request collection copied each request of some thirty fields into its group's array).
@Suite struct RequestStorageTests {
    @Test func aRequestIsAFewWords() {
        // id, name, method, url, headers and the box: 4 strings of 2 words, 2 references.
        #expect(MemoryLayout<Request>.size <= 10 * MemoryLayout<Int>.size)
    }

    @Test func aCopyChangesAloneAndEqualityIsByValue() {
        let original = Request(url: "u")
        var copy = original
        copy.auth = .bearer(token: "t")
        copy.expectations.append(ExpectationSpec(expectation: .status(codes: [200], classes: []), fieldPath: "expect[0]", location: SourceLocation(line: 1, column: 1)))
        copy.body = .text("b")
        copy.maxRedirects = 3
        #expect(original.auth == nil && original.expectations.isEmpty && original.body == nil && original.maxRedirects == nil)
        #expect(copy.auth == .bearer(token: "t") && copy.expectations.count == 1 && copy.body == .text("b") && copy.maxRedirects == 3)
        #expect(copy != original)
        // Equal values are equal requests, whether or not they share a box.
        var again = copy
        again.maxRedirects = nil
        again.maxRedirects = 3
        #expect(again == copy)
        copy.auth = nil
        copy.expectations = []
        copy.body = nil
        copy.maxRedirects = nil
        #expect(copy == original)
        #expect(Request(url: "u", body: .json("{}"), timeoutMilliseconds: 5) == Request(url: "u", body: .json("{}"), timeoutMilliseconds: 5))
        #expect(Request(url: "u", timeoutMilliseconds: 5) != Request(url: "u", timeoutMilliseconds: 6))
    }

    @Test func everyFieldOfTheBoxIsKeptAsSet() {
        var r = Request(url: "wss://h/x", messages: [])
        r.query = [Parameter(name: "q", value: "1")]
        r.followRedirects = false
        r.followOriginalMethod = true
        r.followAuthorization = true
        r.insecure = false
        r.disableBodyPruning = true
        r.disableCookies = true
        r.tlsDisabledProtocols = ["TLSv1"]
        r.tlsCipherSelection = ["AES128-SHA"]
        r.poll = PollPolicy(count: 2)
        r.captures = [Capture(variable: "v", source: .header("Location"), fieldPath: "capture[0]")]
        r.scripts = SkippedScripts(events: ["test"])
        let copy = r
        r.eventScripts = [Script(event: .test, source: "1", file: "c.json", fieldPath: "scripts.test")]
        #expect(copy.eventScripts.isEmpty && r.eventScripts.count == 1)
        #expect(r.query == [Parameter(name: "q", value: "1")] && r.followRedirects == false && r.followOriginalMethod == true
            && r.followAuthorization == true && r.insecure == false && r.disableBodyPruning == true && r.disableCookies == true
            && r.tlsDisabledProtocols == ["TLSv1"] && r.tlsCipherSelection == ["AES128-SHA"] && r.poll == PollPolicy(count: 2)
            && r.captures.count == 1 && r.scripts == SkippedScripts(events: ["test"]) && r.messages == [])
    }
}
