import Foundation
import Testing
@testable import ReqRunKit

/// `ResultPipeline` holds at most `maxPending` (1,024) results that wait to be processed, whatever the run's pace.
@Suite struct ResultPipelineTests {
    private static func result(_ index: Int) -> RequestResult {
        RequestResult(index: index, collection: "c", groupPath: ["g"], groupID: "x", name: "n", method: "GET",
                      url: "http://h/\(index)", outcome: .response, error: nil)
    }

    /// Counts what `onResult` saw, from either thread.
    private final class Seen: @unchecked Sendable {
        private let lock = NSLock()
        private var indices: [Int] = []
        func add(_ index: Int) { lock.withLock { indices.append(index) } }
        var all: [Int] { lock.withLock { indices } }
    }

    @Test func oneAtATimeProcessesTheOldestWhenTooManyWait() {
        let seen = Seen()
        let pipeline = ResultPipeline(expectedCount: 5000, showSecrets: false, inBackground: false, writer: nil, keep: false,
                                      onResult: { seen.add($0.index) })
        // No idle moment at all (the network never made the run wait): submitting alone keeps the queue bounded.
        for index in 0..<5000 { pipeline.submit(Self.result(index), secrets: []) }
        // 1,024 at most (`maxPending`), kept in an array of at most about twice that.
        #expect(pipeline.waitingCount <= 1024)
        #expect(seen.all == Array(0..<(5000 - pipeline.waitingCount)))
        #expect(pipeline.waitingCapacity <= 4096)
        _ = pipeline.finish()
        #expect(seen.all == Array(0..<5000))
        #expect(pipeline.waitingCount == 0)
    }

    @Test func inTheBackgroundTheSubmitterWaitsWhenTooManyWait() {
        let seen = Seen()
        let gate = DispatchSemaphore(value: 0)
        let count = ResultPipeline.maxHandedOver + 5000
        let pipeline = ResultPipeline(expectedCount: count, showSecrets: false, inBackground: true, writer: nil, keep: false,
                                      onResult: { result in
                                          if result.index == 0 { gate.wait() }  // the second thread is stuck on the first result
                                          seen.add(result.index)
                                      })
        let submitted = Seen()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            for index in 0..<count {
                pipeline.submit(Self.result(index), secrets: [])
                submitted.add(index)
            }
            _ = pipeline.finish()
            done.signal()
        }
        Thread.sleep(forTimeInterval: 0.5)
        // Held back: no more than maxHandedOver (8,192) results handed over and waiting, one batch of 32 being gathered.
        #expect(submitted.all.count <= ResultPipeline.maxHandedOver + 32)
        gate.signal()
        done.wait()
        #expect(seen.all == Array(0..<count))
        #expect(submitted.all.count == count)
    }
}

@Suite struct SensitiveFieldTests {
    /// `SecretMasker.isSensitive` (by length, then name) says what `sensitiveHeaderNames` says, in any case.
    @Test func theLengthFastPathAgreesWithTheSet() {
        let names = ["Authorization", "proxy-AUTHORIZATION", "Cookie", "Set-Cookie", "cookies", "Content-Type", "x", "",
                     "Authorisation", "Set-Cookie2", "Proxy-Authenticate", "Date", "cookie!"]
        for name in names {
            let field = HeaderField(name: name, value: "v")
            #expect(SecretMasker.isSensitive(field) == field.hasName(in: SecretMasker.sensitiveHeaderNames), "\(name)")
        }
        #expect(SecretMasker.sensitiveHeaderNames.allSatisfy { SecretMasker.isSensitive(HeaderField(name: $0, value: "")) })
    }
}
