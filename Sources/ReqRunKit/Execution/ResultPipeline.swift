/// The work on a finished result that no later request waits for — masking its secrets, reporting it
/// (`onResult`: the console line) and encoding it for the run record — kept aside and done while the run
/// would otherwise sleep waiting for the network (`HTTPExecutor.waitForCompletions`'s `whileWaiting`).
///
/// Measured with callgrind on 1,000 requests, this work was about a sixth of a run's instructions. Done at
/// once, it delays the next request; handed to a second thread, it cost more in wake-ups (a context switch
/// per result, `perf stat`) than it saved. Done in the gaps, it overlaps with the server's work for free.
final class ResultPipeline {
    private var pending: [(result: RequestResult, secrets: [String])] = []
    private var nextPending = 0
    private var masked: [RequestResult] = []
    private var encoded: [[UInt8]] = []
    private let showSecrets: Bool
    private let onResult: (RequestResult) -> Void

    /// - Parameters:
    ///   - expectedCount: how many results will come (the arrays are sized once).
    ///   - showSecrets: `--show-secrets`: nothing is masked.
    ///   - onResult: called with each masked result, in submission order.
    init(expectedCount: Int, showSecrets: Bool, onResult: @escaping (RequestResult) -> Void) {
        self.showSecrets = showSecrets
        self.onResult = onResult
        masked.reserveCapacity(expectedCount)
        encoded.reserveCapacity(expectedCount)
    }

    /// Keeps `result` (not yet masked) with the secret values to mask in it. Call in list order.
    func submit(_ result: RequestResult, secrets: [String]) {
        pending.append((result, secrets))
    }

    /// Processes the oldest waiting result, if any; returns whether it did.
    func processOne() -> Bool {
        guard nextPending < pending.count else { return false }
        let (result, secrets) = pending[nextPending]
        nextPending += 1
        if nextPending == pending.count { pending.removeAll(keepingCapacity: true); nextPending = 0 }
        let masked = SecretMasker(values: secrets, enabled: !showSecrets).mask(result)
        onResult(masked)
        encoded.append(masked.jsonFragment())
        self.masked.append(masked)
        return true
    }

    /// Processes what is left; returns every result masked, with its record JSON
    /// (`RequestResult.jsonFragment()`), in submission order.
    func finish() -> (results: [RequestResult], encoded: [[UInt8]]) {
        while processOne() {}
        return (masked, encoded)
    }
}
