import Foundation

/// A run as JUnit XML, the format Jenkins, GitLab and most CI servers read.
///
/// One `testsuite` per group path (`Collection/Group/Sub`), one `testcase` per request: `name` is the
/// request's name (with ` (2)`, ` (3)`… for repeats in the same suite, so names are stable between runs),
/// `classname` is the collection and group names joined by dots, each name's own dots written as `․` (U+2024 ONE
/// DOT LEADER) so that a CI server that splits a classname at its last dot into package and class (Jenkins,
/// GitLab) keeps `httpbin.org` whole; `time` is seconds. The file is valid against `junit-10.xsd` (the
/// Surefire schema Jenkins' xUnit plugin and pytest use): `testsuites` carries only name, tests, failures,
/// errors and time. A failed expectation or
/// capture is a `failure` (message: what was expected and what came); a request not sent or without a
/// response is an `error`; a skipped request, or one `--bail` kept from running, is `skipped`. Each assertion of a
/// Postman script (`pm.test`, `tests[…]`) is a `testcase` of its own after its request's, named after the test,
/// its `classname` the request's ending in the request's name, as Newman's JUnit reporter gives one per assertion;
/// a failed one has Newman's `failure` (`type="AssertionFailure"`, `message` the error's message: `errorMessage`).
/// What still differs from Newman's reporter, and why: docs/reports.md.
/// In an iterated run each testcase's name ends in ` (iteration N)` (N from 1; junit-10.xsd allows no
/// `properties` in a testcase).
///
/// Written from the record in two passes that read one result at a time (`RecordSource`): the first counts
/// each suite and notes where its requests are, the second writes each suite's testcases from there.
public enum JUnitReport {
    public static func render(_ record: RunRecord) -> String {
        ReportOutput.text { (try? write(record, to: $0)) ?? () }
    }

    /// What the first pass keeps of a suite: counts, and where each stretch of its requests starts.
    private struct Suite {
        var name: String
        var counts = RunSummary([])
        var scripts = ScriptCounts()
        var microseconds = 0
        /// (position, count) of each stretch of consecutive results in this suite (an iterated run has one
        /// per iteration).
        var stretches: [(start: Int, count: Int)] = []
    }

    /// Writes the report of `source` to `out`.
    /// - Throws: what reading the record throws.
    public static func write(_ source: some RecordSource, to out: ReportOutput) throws {
        let record = source.head
        var suites: [Suite] = []
        var suiteIndex: [String: Int] = [:]
        var all = ScriptCounts(), microseconds = 0
        var current: Int?
        try source.scan(from: nil) { position, result in
            let name = ([result.collection] + result.groupPath).joined(separator: "/")
            let index = suiteIndex[name] ?? {
                suites.append(Suite(name: name))
                suiteIndex[name] = suites.count - 1
                return suites.count - 1
            }()
            if current == index { suites[index].stretches[suites[index].stretches.count - 1].count += 1 } else {
                suites[index].stretches.append((position, 1))
            }
            current = index
            suites[index].counts.add(result)
            suites[index].scripts.add(result)
            all.add(result)
            let time = result.timings?.total ?? 0
            suites[index].microseconds += time
            microseconds += time
            return true
        }
        let timestamp = String(record.startedAt.prefix(19))  // YYYY-MM-DDTHH:MM:SS, UTC, as Ant's schema wants
        let summary = record.summary
        out.write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        out.write("<testsuites name=\"reqrun run \(record.id)\" tests=\"\(summary.total + all.tests)\" failures=\"\(summary.failed + all.adjustment)\" "
            + "errors=\"\(summary.errors)\" time=\"\(seconds(microseconds))\">\n")
        for (index, suite) in suites.enumerated() {
            let counts = suite.counts, scripts = suite.scripts
            out.write("  <testsuite name=\"\(XMLText.escape(suite.name))\" id=\"\(index)\" tests=\"\(counts.total + scripts.tests)\" "
                + "failures=\"\(counts.failed + scripts.adjustment)\" errors=\"\(counts.errors)\" skipped=\"\(counts.skipped + counts.notRun + scripts.skipped)\" "
                + "time=\"\(seconds(suite.microseconds))\" timestamp=\"\(timestamp)\" hostname=\"localhost\">\n")
            var seen: [String: Int] = [:]
            for stretch in suite.stretches {
                var left = stretch.count
                try source.scan(from: stretch.start) { _, result in
                    testcases(result, &seen, out)
                    left -= 1
                    return left > 0
                }
            }
            out.write("  </testsuite>\n")
        }
        out.write("</testsuites>\n")
        out.flush()
    }

    /// A request's testcase, then one per script assertion.
    private static func testcases(_ result: RequestResult, _ seen: inout [String: Int], _ out: ReportOutput) {
        let key = result.iteration.map { "\(result.name)\u{0}\($0)" } ?? result.name
        seen[key, default: 0] += 1
        let name = (seen[key]! == 1 ? result.name : "\(result.name) (\(seen[key]!))") + iterationSuffix(result)
        let classname = className([result.collection] + result.groupPath)
        var xml = "    <testcase name=\"\(XMLText.escape(name))\" classname=\"\(XMLText.escape(classname))\" "
            + "time=\"\(seconds(result.timings?.total ?? 0))\">\n"
        xml += body(result)
        xml += "      <system-out>\(XMLText.escape(summaryLine(result)))</system-out>\n"
        xml += "    </testcase>\n"
        for assertion in result.expectations where assertion.kind != nil {
            xml += "    <testcase name=\"\(XMLText.escape(assertion.description + iterationSuffix(result)))\" "
                + "classname=\"\(XMLText.escape(className([result.collection] + result.groupPath + [result.name])))\" time=\"0.000\">\n"
            if assertion.isSkipped {
                xml += "      <skipped/>\n"
            } else if !assertion.passed {
                xml += "      <failure message=\"\(XMLText.escape(errorMessage(assertion.actual)))\" type=\"AssertionFailure\">"
                    + XMLText.escape("\(assertion.fieldPath): \(assertion.actual)") + "</failure>\n"
            }
            xml += "    </testcase>\n"
        }
        out.write(xml)
    }

    /// A script assertion's error (`AssertionError: expected 1 to equal 2`, as the sandbox gives it: the
    /// error's name, then its message) as Newman's JUnit reporter puts it in `message`: the message only
    /// (`error.message`, newman's lib/reporters/junit/index.js). A text without an error's name (`throw 'x'`)
    /// is kept whole.
    static func errorMessage(_ error: String) -> String {
        guard let colon = error.range(of: ": ") else { return error }
        let name = error[..<colon.lowerBound]
        guard name.hasSuffix("Error"), name.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "$" })
        else { return error }
        return String(error[colon.upperBound...])
    }

    /// Names joined by `.`, the dots inside each written as `․` (U+2024), so the last dot is the last join.
    static func className(_ names: [String]) -> String {
        names.map { $0.replacingOccurrences(of: ".", with: "\u{2024}") }.joined(separator: ".")
    }

    /// ` (iteration 2)` for a result of an iterated run (`--iterations`, `--iteration-data`), so that each
    /// iteration's testcases have names of their own (junit-10.xsd allows no `properties` in a testcase).
    private static func iterationSuffix(_ result: RequestResult) -> String {
        result.iteration.map { " (iteration \($0 + 1))" } ?? ""
    }

    private static func body(_ result: RequestResult) -> String {
        switch result.outcome {
        case .skipped, .notRun:
            return "      <skipped message=\"\(XMLText.escape(result.error?.message ?? "skipped"))\"/>\n"
        case .invalid, .transportError, .scriptError:
            let message = result.error?.message ?? "no response"
            let type = result.outcome == .invalid ? "notSent" : result.outcome == .scriptError ? "scriptError" : "transportError"
            return "      <error message=\"\(XMLText.escape(message))\" type=\"\(type)\">\(XMLText.escape(message))</error>\n"
        case .response:
            let failedExpectations = result.expectations.filter { !$0.passed && $0.kind == nil }
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
            // `pm.test.skip`: as the console marks it, not `✓`.
            line += expectation.isSkipped ? "\n- \(expectation.description) (skipped)"
                : "\n\(expectation.passed ? "✓" : "✗") \(expectation.description)"
        }
        return line
    }

    private static func seconds(_ microseconds: Int) -> String {
        String(format: "%.3f", Double(microseconds) / 1_000_000)
    }
}

/// The script assertions of some results, as JUnit counts them: `tests` more testcases; `adjustment` to add to
/// the requests' failures (each failed assertion, less the requests that failed by their assertions only,
/// whose own testcase passes); `skipped`, the `pm.test.skip` ones, whose testcases are `<skipped/>`
/// (junit-10.xsd's `testsuite` `skipped`: its skipped tests).
private struct ScriptCounts {
    var tests = 0
    var adjustment = 0
    var skipped = 0

    mutating func add(_ result: RequestResult) {
        let scripted = result.expectations.filter { $0.kind != nil }
        tests += scripted.count
        adjustment += scripted.filter { !$0.passed }.count
        skipped += scripted.filter { $0.isSkipped }.count
        let ownFailure = result.expectations.contains { !$0.passed && $0.kind == nil } || result.captures.contains { $0.error != nil }
        if result.outcome == .response, !result.passed, !ownFailure { adjustment -= 1 }
    }
}
