import Testing
@testable import ReqRunCLI
import ReqRunKit

@Suite struct TimingsLineTests {
    @Test func millisecondsHaveOneDecimalRoundedHalfUp() {
        #expect(VerboseExchange.milliseconds(0) == "0.0")
        #expect(VerboseExchange.milliseconds(49) == "0.0")
        #expect(VerboseExchange.milliseconds(150) == "0.2")
        #expect(VerboseExchange.milliseconds(2049) == "2.0")
        #expect(VerboseExchange.milliseconds(123_456) == "123.5")
        #expect(VerboseExchange.milliseconds(-150) == "-0.2")
        #expect(VerboseExchange.timingsLine(Timings(namelookup: 100, connect: 300, appconnect: 0, pretransfer: 400, starttransfer: 2000, total: 2100))
                == "timings (ms): namelookup 0.1  connect 0.3  appconnect 0.0  pretransfer 0.4  starttransfer 2.0  total 2.1")
    }
}
