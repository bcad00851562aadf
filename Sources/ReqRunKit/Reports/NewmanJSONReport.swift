import Foundation

/// A run in the shape of Newman's JSON reporter (`newman run -r json --reporter-json-export FILE`, which
/// writes Newman's run summary: `collection`, `environment`, `globals`, `run`), for tools that read that file.
///
/// Filled from the record only (so masked as the record is), without invented values:
/// - `collection.info.name`: the collection's name (a run of several: `reqrun run <id>`); `collection.item`
///   (the collection tree) is left out, the record does not hold it. `environment.name` when the run had one;
///   `environment.values` and `globals` are left out (not in the record).
/// - `run.stats`: `iterations` (total: the iterations run), `items` (total: results run, not those `--bail`
///   kept from running; failed: those not sent, without a response or with a failed script), `requests`
///   (total: sent; failed: without a response), `assertions` (every `pm.test`/`tests[…]` and every declared
///   expectation; failed: not passed; pending: `pm.test.skip`), each `{total, pending, failed}`. `scripts`,
///   `prerequests`, `tests`, `testScripts` and `prerequestScripts` are left out: the record does not say which
///   requests had scripts.
/// - `run.timings`: `responseAverage/Min/Max/Sd` (curl's total time), `dnsAverage/…` (namelookup),
///   `firstByteAverage/…` (starttransfer − pretransfer) over the requests with a response, in milliseconds
///   (population standard deviation, as Newman); `started`, `completed` in milliseconds since 1970.
/// - `run.executions[]`, one per result run: `cursor` {position, iteration, length, cycles, empty, eof, bof}
///   (position within its iteration, from 0; `ref`, `cr` and `httpRequestId` are Newman's own and left out),
///   `item` {name}, `request` {url {raw, protocol, host, port, path, query}, method, header, body {mode: raw}}
///   when sent, `response` {status, code, header, responseTime (ms), responseSize (bytes after decoding)} when
///   one came (`stream`, the body's bytes, is left out: the record keeps at most its first 64 KiB; see the
///   JSON report), `assertions` [{assertion, skipped, error {name, index, test, message}}].
/// - `run.transfers.responseTotal`: bytes of every response's content; `run.failures[]`: one per failed
///   assertion (`at: "assertion:N in test-script"`) and per request that failed without one
///   (`at: "request"`, `"prerequest-script"` or `"test-script"`), each {error, at, source {name}, parent
///   {id, name}, cursor}; `run.error`: null.
///
/// Written in two passes over the record (`RecordSource`), one result at a time: the first counts stats and
/// timings, the second writes each execution as it reads it and keeps only the failures.
public enum NewmanJSONReport {
    public static func render(_ record: RunRecord) -> String {
        ReportOutput.text { (try? write(record, to: $0)) ?? () }
    }

    /// Count, mean and population variance of a series, in constant memory (Welford's method).
    struct Series {
        var count = 0, mean = 0.0, m2 = 0.0, min = 0.0, max = 0.0

        mutating func add(_ value: Double) {
            count += 1
            if count == 1 { min = value; max = value } else { min = Swift.min(min, value); max = Swift.max(max, value) }
            let delta = value - mean
            mean += delta / Double(count)
            m2 += delta * (value - mean)
        }

        func fields(_ prefix: String) -> [String: Any] {
            ["\(prefix)Average": mean, "\(prefix)Min": min, "\(prefix)Max": max,
             "\(prefix)Sd": count > 0 ? (m2 / Double(count)).squareRoot() : 0]
        }
    }

    /// Writes the report of `source` to `out`.
    /// - Throws: what reading the record throws.
    public static func write(_ source: some RecordSource, to out: ReportOutput) throws {
        let record = source.head
        var collections: Set<String> = [], iterations = 0, length = 0
        var items = 0, itemsFailed = 0, requests = 0, requestsFailed = 0
        var assertions = 0, assertionsFailed = 0, assertionsPending = 0, responseTotal = 0
        var response = Series(), dns = Series(), firstByte = Series()
        try source.forEach { result in
            if collections.count < 2 { collections.insert(result.collection) }
            iterations = max(iterations, (result.iteration ?? 0) + 1)
            if (result.iteration ?? 0) == 0 { length += 1 }
            guard result.outcome != .notRun else { return }
            items += 1
            if [.invalid, .transportError, .scriptError].contains(result.outcome) { itemsFailed += 1 }
            if result.request != nil {
                requests += 1
                if result.response == nil { requestsFailed += 1 }
            }
            for expectation in result.expectations {
                assertions += 1
                if expectation.isSkipped { assertionsPending += 1 } else if !expectation.passed { assertionsFailed += 1 }
            }
            if let r = result.response, let t = result.timings {
                responseTotal += r.bodySize
                response.add(milliseconds(t.total))
                dns.add(milliseconds(t.namelookup))
                firstByte.add(milliseconds(max(0, t.starttransfer - t.pretransfer)))
            }
        }
        let counts = { (total: Int, pending: Int, failed: Int) -> [String: Any] in ["total": total, "pending": pending, "failed": failed] }
        let stats: [String: Any] = [
            "iterations": counts(iterations, 0, 0), "items": counts(items, 0, itemsFailed),
            "requests": counts(requests, 0, requestsFailed), "assertions": counts(assertions, assertionsPending, assertionsFailed),
        ]
        var timings = response.fields("response").merging(dns.fields("dns")) { a, _ in a }.merging(firstByte.fields("firstByte")) { a, _ in a }
        timings["started"] = epochMilliseconds(record.startedAt)
        timings["completed"] = epochMilliseconds(record.endedAt)
        let name = collections.count == 1 ? collections.first! : "reqrun run \(record.id)"
        var environment: [String: Any] = [:]
        if let env = record.environment { environment["name"] = env }
        out.write("{\"collection\": \(json(["info": ["name": name]])),\n \"environment\": \(json(environment)),\n")
        out.write(" \"run\": {\"stats\": \(json(stats)),\n  \"timings\": \(json(timings)),\n  \"executions\": [")

        var failures: [[String: Any]] = []
        var first = true, position = 0, currentIteration: Int?
        try source.forEach { result in
            guard result.outcome != .notRun else { return }
            let iteration = result.iteration ?? 0
            position = currentIteration == iteration ? position + 1 : 0
            currentIteration = iteration
            let cursor: [String: Any] = ["position": position, "iteration": iteration, "length": length, "cycles": iterations,
                                         "empty": length == 0, "bof": position == 0, "eof": position == length - 1]
            let parent: [String: Any] = ["id": result.groupID, "name": result.groupPath.last ?? result.collection]
            var execution: [String: Any] = ["cursor": cursor, "item": ["name": result.name]]
            if let sent = result.request { execution["request"] = request(result, sent) }
            if let r = result.response {
                execution["response"] = ["status": r.reasonPhrase, "code": r.status, "header": header(r.headers),
                                         "responseTime": milliseconds(result.timings?.total ?? 0), "responseSize": r.bodySize] as [String: Any]
            }
            var list: [[String: Any]] = []
            for (index, expectation) in result.expectations.enumerated() {
                var assertion: [String: Any] = ["assertion": expectation.description, "skipped": expectation.isSkipped]
                if !expectation.passed {
                    let error = assertionError(expectation, index: index)
                    assertion["error"] = error
                    failures.append(["error": error, "at": "assertion:\(index) in test-script", "source": ["name": result.name],
                                     "parent": parent, "cursor": cursor])
                }
                list.append(assertion)
            }
            execution["assertions"] = list
            if let at = failurePlace(result) {
                failures.append(["error": failureError(result), "at": at,
                                 "source": ["name": result.name], "parent": parent, "cursor": cursor])
            }
            out.write((first ? "\n   " : ",\n   ") + json(execution))
            first = false
        }
        out.write("],\n  \"transfers\": \(json(["responseTotal": responseTotal])),\n  \"failures\": [")
        out.write(failures.map { "\n   " + json($0) }.joined(separator: ","))
        out.write("],\n  \"error\": null}}\n")
        out.flush()
    }

    /// Where a request failed other than by an assertion, in Newman's words; nil when it did not.
    private static func failurePlace(_ result: RequestResult) -> String? {
        switch result.outcome {
        case .invalid, .transportError: return "request"
        case .scriptError: return result.response == nil ? "prerequest-script" : "test-script"
        case .response, .skipped, .notRun: return nil
        }
    }

    /// A failure's `error` other than an assertion's: for a script error the JavaScript exception's name and
    /// message, as Newman's (`ReferenceError`, `Can't find variable: foo`), taken from the end of reqrun's
    /// message (`FILE: item[0].event[1] (test) 4:4: ReferenceError: …`); else `Error` and the whole message.
    static func failureError(_ result: RequestResult) -> [String: Any] {
        let message = result.error?.message ?? "no response"
        guard result.outcome == .scriptError,
              let event = message.range(of: " (test) ") ?? message.range(of: " (prerequest) ") else {
            return ["name": "Error", "message": message]
        }
        var rest = message[event.upperBound...]
        // The position, `4:4: ` or `2: `, when there is one.
        if let colon = rest.range(of: ": "), !rest[..<colon.lowerBound].isEmpty,
           rest[..<colon.lowerBound].allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ":") }) {
            rest = rest[colon.upperBound...]
        }
        if let colon = rest.range(of: ": "), rest[..<colon.lowerBound].allSatisfy({ $0.isASCII && $0.isLetter }),
           rest[..<colon.lowerBound].hasSuffix("Error") {
            return ["name": String(rest[..<colon.lowerBound]), "message": String(rest[colon.upperBound...])]
        }
        return ["name": "Error", "message": message]
    }

    /// chai's `AssertionError: message` split into name and message, as Newman's assertion error; a declared
    /// expectation's failure says what was expected and what came.
    private static func assertionError(_ expectation: ExpectationResult, index: Int) -> [String: Any] {
        var name = "AssertionError", message = expectation.actual
        if expectation.kind == nil {
            message = "expected \(expectation.expected), actual \(expectation.actual)"
        } else if let colon = message.range(of: ": "), message[..<colon.lowerBound].allSatisfy({ $0.isLetter }),
                  message[..<colon.lowerBound].hasSuffix("Error") {
            name = String(message[..<colon.lowerBound])
            message = String(message[colon.upperBound...])
        }
        return ["name": name, "index": index, "test": expectation.description, "message": message]
    }

    /// postman-collection's request as JSON: the URL in parts, header as key/value, a UTF-8 body as raw.
    private static func request(_ result: RequestResult, _ sent: SentRequest) -> [String: Any] {
        var url: [String: Any] = ["raw": result.url]
        if let components = URLComponents(string: result.url) {
            if let scheme = components.scheme { url["protocol"] = scheme }
            if let host = components.host { url["host"] = host.split(separator: ".").map(String.init) }
            if let port = components.port { url["port"] = String(port) }
            url["path"] = components.percentEncodedPath.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
            if let query = components.percentEncodedQueryItems {
                url["query"] = query.map { ["key": $0.name, "value": $0.value ?? NSNull()] as [String: Any] }
            }
        }
        var request: [String: Any] = ["url": url, "method": result.method, "header": header(sent.headers)]
        if let body = sent.body, body.encoding == "utf8" { request["body"] = ["mode": "raw", "raw": body.data] }
        return request
    }

    private static func header(_ fields: [HeaderField]) -> [[String: String]] {
        fields.map { ["key": $0.name, "value": $0.value] }
    }

    private static func milliseconds(_ microseconds: Int) -> Double { Double(microseconds) / 1000 }

    /// Milliseconds since 1970 of an ISO 8601 time with milliseconds (the record's), or 0 when unreadable.
    private static func epochMilliseconds(_ text: String) -> Int {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text).map { Int(($0.timeIntervalSince1970 * 1000).rounded()) } ?? 0
    }

    private static func json(_ object: Any) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
