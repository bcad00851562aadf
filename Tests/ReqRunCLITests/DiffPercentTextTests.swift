import Foundation
import Testing
@testable import ReqRunCLI

@Suite struct DiffPercentTextTests {
    /// `diff`'s time change is written as `String(format: "%+.0f")` wrote it, without calling it per row.
    @Test func percentIsWrittenAsPrintfWritesIt() {
        var values: [Double] = [0, 0.4, 0.5, 1.5, 2.5, -0.4, -0.5, -2.5, 12.49, 12.5, 99.99, -100, 250_000.5, 1e17, -3e20]
        for i in 0..<2000 { values.append(Double(i - 1000) * 0.137) }
        for i in 1...400 { values.append((Double(i) - 200) / 7 * 100) }
        for value in values {
            #expect(DiffCommand.percentText(value) == String(format: "%+.0f", value), "\(value)")
        }
    }
}
