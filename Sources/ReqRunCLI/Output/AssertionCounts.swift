import ReqRunKit

/// The assertions a run evaluated, counted as its results are finished (constant memory, whatever the run's
/// size), for the line `reqrun run` prints after its summary: `14 assertions: 11 passed, 3 failed` (`, 2 skipped`
/// when any). An assertion is a declared expectation (`kind` nil) or a script's assertion (`pm.test`,
/// `tests[…]`: `kind` `script`; `pm.test.skip`: `script-skipped`, counted as skipped), as Newman's summary
/// table counts assertions (executed, failed). A request not run adds none; each iteration adds its own.
struct AssertionCounts: Sendable, Equatable {
    private(set) var passed = 0
    private(set) var failed = 0
    private(set) var skipped = 0

    /// Adds the assertions of one finished result.
    mutating func add(_ result: RequestResult) {
        for expectation in result.expectations {
            if expectation.isSkipped { skipped += 1 } else if expectation.passed { passed += 1 } else { failed += 1 }
        }
    }

    /// `14 assertions: 11 passed, 3 failed, 2 skipped`; nil when the run evaluated none.
    var line: String? {
        let total = passed + failed + skipped
        guard total > 0 else { return nil }
        return "\(total) assertion\(total == 1 ? "" : "s"): \(passed) passed, \(failed) failed" + (skipped > 0 ? ", \(skipped) skipped" : "")
    }
}
