import Foundation

/// A run as JUnit XML, the format Jenkins, GitLab and most CI servers read.
///
/// One `testsuite` per group path (`Collection/Group/Sub`), one `testcase` per request: `name` is the
/// request's name (with ` (2)`, ` (3)`… for repeats in the same suite, so names are stable between runs),
/// `classname` is the collection and group names joined by dots, `time` is seconds. A failed expectation or
/// capture is a `failure` (message: what was expected and what came); a request not sent or without a
/// response is an `error`; a skipped request, or one `--bail` kept from running, is `skipped`.
public enum JUnitReport {
    public static func render(_ record: RunRecord) -> String {
        var suites: [(name: String, results: [RequestResult])] = []
        for result in record.results {
            let name = ([result.collection] + result.groupPath).joined(separator: "/")
            if let index = suites.firstIndex(where: { $0.name == name }) {
                suites[index].results.append(result)
            } else {
                suites.append((name, [result]))
            }
        }
        let timestamp = String(record.startedAt.prefix(19))  // YYYY-MM-DDTHH:MM:SS, UTC, as Ant's schema wants
        let summary = record.summary
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"reqrun run \(record.id)\" tests=\"\(summary.total)\" failures=\"\(summary.failed)\" "
            + "errors=\"\(summary.errors)\" skipped=\"\(summary.skipped + summary.notRun)\" time=\"\(seconds(record.results))\" timestamp=\"\(timestamp)\">\n"
        for (index, suite) in suites.enumerated() {
            let counts = RunSummary(suite.results)
            xml += "  <testsuite name=\"\(XMLText.escape(suite.name))\" id=\"\(index)\" tests=\"\(counts.total)\" "
                + "failures=\"\(counts.failed)\" errors=\"\(counts.errors)\" skipped=\"\(counts.skipped + counts.notRun)\" "
                + "time=\"\(seconds(suite.results))\" timestamp=\"\(timestamp)\" hostname=\"localhost\">\n"
            var seen: [String: Int] = [:]
            for result in suite.results {
                seen[result.name, default: 0] += 1
                let name = seen[result.name]! == 1 ? result.name : "\(result.name) (\(seen[result.name]!))"
                let classname = ([result.collection] + result.groupPath).joined(separator: ".")
                xml += "    <testcase name=\"\(XMLText.escape(name))\" classname=\"\(XMLText.escape(classname))\" "
                    + "time=\"\(seconds([result]))\">\n"
                xml += body(result)
                xml += "      <system-out>\(XMLText.escape(summaryLine(result)))</system-out>\n"
                xml += "    </testcase>\n"
            }
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
    }

    private static func body(_ result: RequestResult) -> String {
        switch result.outcome {
        case .skipped, .notRun:
            return "      <skipped message=\"\(XMLText.escape(result.error?.message ?? "skipped"))\"/>\n"
        case .invalid, .transportError:
            let message = result.error?.message ?? "no response"
            let type = result.outcome == .invalid ? "notSent" : "transportError"
            return "      <error message=\"\(XMLText.escape(message))\" type=\"\(type)\">\(XMLText.escape(message))</error>\n"
        case .response:
            let failedExpectations = result.expectations.filter { !$0.passed }
            let failedCaptures = result.captures.compactMap(\.error)
            guard !failedExpectations.isEmpty || !failedCaptures.isEmpty else { return "" }
            let lines = failedExpectations.map { "\($0.description): expected \($0.expected), actual \($0.actual)" } + failedCaptures
            let type = failedExpectations.isEmpty ? "capture" : "expectation"
            return "      <failure message=\"\(XMLText.escape(lines[0]))\" type=\"\(type)\">"
                + XMLText.escape(lines.joined(separator: "\n")) + "</failure>\n"
        }
    }

    private static func summaryLine(_ result: RequestResult) -> String {
        var line = "\(result.method) \(result.url)"
        if let response = result.response { line += " → \(response.status), \(response.bodySize) bytes" }
        for expectation in result.expectations {
            line += "\n\(expectation.passed ? "✓" : "✗") \(expectation.description)"
        }
        return line
    }

    private static func seconds(_ results: [RequestResult]) -> String {
        String(format: "%.3f", Double(results.reduce(0) { $0 + ($1.timings?.total ?? 0) }) / 1_000_000)
    }
}
