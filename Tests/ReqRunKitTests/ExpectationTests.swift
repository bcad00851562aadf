import Foundation
import Testing
@testable import ReqRunKit

@Suite struct JSONPathTests {
    let doc = try! JSONParser.parse(Array(#"{"a": {"b c": [10, {"d": "x"}], "it's": 1}, "list": [1, 2, 3], "k": 1, "k": 2}"#.utf8))

    @Test func selectsKeysIndexesAndQuotedKeys() throws {
        #expect(try JSONPath("$").select(in: doc) == doc)
        #expect(try JSONPath("$.a['b c'][0]").select(in: doc)?.compactText == "10")
        #expect(try JSONPath(#"$.a["b c"][1].d"#).select(in: doc)?.value == .string("x"))
        #expect(try JSONPath(#"$.a['it\'s']"#).select(in: doc)?.compactText == "1")
        #expect(try JSONPath("$.list[-1]").select(in: doc)?.compactText == "3")
        #expect(try JSONPath("$.k").select(in: doc)?.compactText == "2")
        #expect(try JSONPath("$.list[3]").select(in: doc) == nil)
        #expect(try JSONPath("$.a.b").select(in: doc) == nil)
        #expect(try JSONPath("$.list.x").select(in: doc) == nil)
    }

    @Test(arguments: [("a.b", 0), ("$.", 2), ("$[", 2), ("$[x]", 2), ("$['a'", 5), ("$[1", 3), ("$x", 1)])
    func rejectsMalformedPaths(_ path: String, _ offset: Int) {
        #expect(throws: JSONPathError.self) { try JSONPath(path) }
        #expect((try? JSONPath(path)) == nil)
        do { _ = try JSONPath(path) } catch { #expect(error.offset == offset) }
    }
}

@Suite struct ExpectationDecodingTests {
    private func decode(_ expect: String, capture: String = "[]") throws(InputError) -> Request {
        let text = """
            {"name": "c", "groups": [{"name": "g", "requests": [
            {"url": "u", "expect": \(expect), "capture": \(capture)}
            ]}]}
            """
        return try CollectionDecoder.decode(Array(text.utf8), file: "c.json", fileName: "c.json").groups[0].requests[0]
    }

    @Test func decodesEveryKind() throws {
        let request = try decode("""
            [{"status": 200}, {"status": [200, "3xx"]}, {"header": "Content-Type", "contains": "json"},
             {"header": "ETag", "exists": false}, {"body": {"matches": "^ok$"}}, {"json": "$.a", "equals": {"x": [1]}},
             {"json": "$.n", "equals": null}, {"json": "$.b", "type": "integer"}, {"timeBelow": 500}, {"bodySizeBelow": 10}, {"bodySize": 0}]
            """, capture: #"[{"var": "t", "json": "$.token"}, {"var": "e", "header": "ETag"}, {"var": "id", "regex": "id=(\\d+)"}, {"var": "s", "cookie": "session"}]"#)
        let kinds = request.expectations.map(\.expectation)
        #expect(kinds[0] == .status(codes: [200], classes: []))
        #expect(kinds[1] == .status(codes: [200], classes: [3]))
        #expect(kinds[2] == .header(name: "Content-Type", .contains("json")))
        #expect(kinds[3] == .header(name: "ETag", .exists(false)))
        #expect(kinds[4] == .body(.matches("^ok$")))
        guard case .json(let path, .equals(let node)) = kinds[5] else { Issue.record("not json equals"); return }
        #expect(path.text == "$.a" && node.compactText == #"{"x":[1]}"#)
        guard case .json(_, .equals(let null)) = kinds[6] else { Issue.record("not json equals null"); return }
        #expect(null.value == .null)
        #expect(kinds[7] == .json(path: try JSONPath("$.b"), .type("integer")))
        #expect(kinds[8] == .timeBelow(milliseconds: 500))
        #expect(kinds[9] == .bodySize(bytes: 10, below: true))
        #expect(kinds[10] == .bodySize(bytes: 0, below: false))
        #expect(request.expectations[2].fieldPath == "groups[0].requests[0].expect[2]")
        #expect(request.captures.map(\.source) == [.json(try JSONPath("$.token")), .header("ETag"), .regex(#"id=(\d+)"#), .cookie("session")])
    }

    @Test func badRegexAndPathAreLoadErrorsWithLocation() throws {
        let regex = try #require(throws: InputError.self) { try decode(#"[{"body": {"matches": "a(b"}}]"#) }
        #expect(regex.description == #"c.json:2:46: groups[0].requests[0].expect[0].body.matches: invalid regular expression 'a(b'"#)
        let path = try #require(throws: InputError.self) { try decode(#"[{"json": "$.a[", "exists": true}]"#) }
        #expect(path.description == "c.json:2:34: groups[0].requests[0].expect[0].json: invalid JSONPath '$.a[' at character 5: expected a selector: a quoted name, '*', an index, a slice or '?'")
        let capture = try #require(throws: InputError.self) { try decode("[]", capture: #"[{"var": "x", "json": "x"}]"#) }
        #expect(capture.fieldPath == "groups[0].requests[0].capture[0].json")
    }

    @Test func malformedExpectationsAreExplained() throws {
        #expect(try #require(throws: InputError.self) { try decode(#"[{"status": 200, "header": "X"}]"#) }.reason
                == "an expectation has one subject, found 'status' and 'header'")
        #expect(try #require(throws: InputError.self) { try decode(#"[{"stauts": 200}]"#) }.reason.hasPrefix("an expectation needs one of"))
        #expect(try #require(throws: InputError.self) { try decode(#"[{"status": "6xx"}]"#) }.reason
                == #"expected a status class such as "2xx", found "6xx""#)
        #expect(try #require(throws: InputError.self) { try decode(#"[{"json": "$", "type": "text"}]"#) }.reason
                .hasPrefix("unknown JSON type 'text'"))
        #expect(try #require(throws: InputError.self) { try decode(#"[{"header": "X", "contains": "a", "equals": "b"}]"#) }.reason
                == "expected exactly one of 'equals', 'contains', 'matches', 'exists'")
        #expect(try #require(throws: InputError.self) { try decode(#"[{"header": "X", "contanis": "a"}]"#) }.reason
                == "unknown field 'contanis' (did you mean 'contains'?)")
    }

    /// `contains` and `matches`, which a header check takes, are not fields of a json check: the error said
    /// only "unknown field 'contains'"; it names the fields it takes and the check grammar's string form,
    /// with the expectation's own path and value.
    @Test func aJSONExpectationWithContainsOrMatchesSaysWhatToWrite() throws {
        let contains = try #require(throws: InputError.self) { try decode(#"[{"json": "$.args.q", "contains": "zz"}]"#) }
        #expect(contains.fieldPath == "groups[0].requests[0].expect[0].contains")
        #expect(contains.reason == #"a json expectation takes 'equals', 'exists' or 'type', not 'contains'; write it as a check instead: "$.args.q contains 'zz'""#)
        let matches = try #require(throws: InputError.self) { try decode(#"[{"json": "$.id", "matches": "^it's"}]"#) }
        #expect(matches.reason == #"a json expectation takes 'equals', 'exists' or 'type', not 'matches'; write it as a check instead: "$.id matches '…'""#)
    }
}

@Suite struct ExpectationCheckTests {
    static let body = Array(#"{"id": 12345678901234567890, "price": 1.50, "name": "Ada", "tags": ["a"], "none": null, "token": "T-9"}"#.utf8)
    let response = ResponseView(
        status: 404, headers: [HeaderField(name: "Content-Type", value: "application/json"), HeaderField(name: "X-Id", value: "1"),
                               HeaderField(name: "x-id", value: "22"), HeaderField(name: "Set-Cookie", value: "session=abc; Path=/"),
                               HeaderField(name: "Set-Cookie", value: "theme=dark")],
        body: body, bodySize: body.count, totalMicroseconds: 12_345)

    private func check(_ expectation: ReqRunKit.Expectation, scope: VariableScope = VariableScope(layers: [])) -> ExpectationResult {
        ExpectationCheck.check(ExpectationSpec(expectation: expectation, fieldPath: "e", location: SourceLocation(line: 1, column: 1)),
                               response, scope: scope)
    }

    @Test func status() {
        let failed = check(.status(codes: [200, 201], classes: [3]))
        #expect(!failed.passed && failed.description == #"status toString matches "^(200|201|3\\d\\d)$""# && failed.expected == "200 or 201 or 3xx" && failed.actual == "404")
        #expect(check(.status(codes: [], classes: [4])).passed)
        #expect(check(.status(codes: [404], classes: [])).passed)
    }

    /// Each object form prints as the check of the grammar that says the same, which parses back to it and
    /// gives the same verdict on the same response.
    @Test func objectFormsPrintAsChecks() throws {
        let cases: [(ReqRunKit.Expectation, String)] = [
            (.status(codes: [404], classes: []), "status == 404"),
            (.status(codes: [], classes: [2]), #"status toString matches "^2\\d\\d$""#),
            (.status(codes: [200, 404], classes: []), #"status toString matches "^(200|404)$""#),
            (.header(name: "X-Id", .equals("22")), #"header "X-Id" == "22""#),
            (.header(name: "Content-Type", .contains("json")), #"header "Content-Type" contains "json""#),
            (.header(name: "X-Id", .matches("^[0-9]{2}$")), #"header "X-Id" matches "^[0-9]{2}$""#),
            (.header(name: "ETag", .exists(true)), #"header "ETag" exists"#),
            (.header(name: "ETag", .exists(false)), #"header "ETag" not exists"#),
            (.body(.contains("Ada")), #"body contains "Ada""#),
            (.body(.matches("^\\[")), #"body matches "^\\[""#),
            (.json(path: try JSONPath("$.name"), .equals(try JSONParser.parse(Array(#""Ada""#.utf8)))), #"$.name == "Ada""#),
            (.json(path: try JSONPath("$.tags"), .equals(try JSONParser.parse(Array(#"["a"]"#.utf8)))), #"$.tags == ["a"]"#),
            (.json(path: try JSONPath("$.nope"), .exists(false)), "$.nope not exists"),
            (.json(path: try JSONPath("$.tags"), .type("array")), "$.tags isList"),
            (.json(path: try JSONPath("$.id"), .type("number")), "$.id isNumber"),
            (.json(path: try JSONPath("$['a b']"), .exists(true)), "$['a b'] exists"),
            (.timeBelow(milliseconds: 10), "duration < 10"),
            (.bodySize(bytes: Self.body.count, below: false), "bodySize == \(Self.body.count)"),
            (.bodySize(bytes: 10, below: true), "bodySize < 10"),
        ]
        for (expectation, text) in cases {
            let result = check(expectation)
            #expect(result.description == text)
            let parsed = try CheckParser.parse(result.description)
            #expect(parsed == expectation.canonicalCheck, "\(text)")
            #expect(CheckEvaluator.evaluate(parsed, response, scope: VariableScope(layers: [])).passed == result.passed, "\(text)")
        }
    }

    @Test func headers() {
        #expect(check(.header(name: "content-type", .contains("json"))).passed)
        #expect(check(.header(name: "X-ID", .equals("22"))).passed)  // any field with the name may satisfy it
        let missing = check(.header(name: "ETag", .exists(true)))
        #expect(!missing.passed && missing.actual == "(absent)")
        #expect(check(.header(name: "ETag", .exists(false))).passed)
        #expect(check(.header(name: "X-Id", .matches("^[0-9]{2}$"))).passed)
        let wrong = check(.header(name: "X-Id", .equals("3")))
        #expect(!wrong.passed && wrong.actual == "1, 22")
    }

    @Test func bodyAndJSON() throws {
        #expect(check(.body(.contains("\"Ada\""))).passed)
        #expect(!check(.body(.matches("^\\["))).passed)
        #expect(check(.json(path: try JSONPath("$.id"), .equals(try JSONParser.parse(Array("12345678901234567890".utf8))))).passed)
        #expect(!check(.json(path: try JSONPath("$.id"), .equals(try JSONParser.parse(Array("12345678901234567891".utf8))))).passed)
        #expect(check(.json(path: try JSONPath("$.price"), .equals(try JSONParser.parse(Array("1.5".utf8))))).passed)
        #expect(check(.json(path: try JSONPath("$.none"), .equals(try JSONParser.parse(Array("null".utf8))))).passed)
        #expect(check(.json(path: try JSONPath("$.tags"), .type("array"))).passed)
        #expect(check(.json(path: try JSONPath("$.id"), .type("number"))).passed)
        #expect(!check(.json(path: try JSONPath("$.price"), .type("integer"))).passed)
        let absent = check(.json(path: try JSONPath("$.nope"), .exists(true)))
        #expect(!absent.passed && absent.description == "$.nope exists" && absent.actual == "(absent)")
        let wrong = check(.json(path: try JSONPath("$.name"), .equals(try JSONParser.parse(Array(#""Bob""#.utf8)))))
        #expect(!wrong.passed && wrong.expected == #""Bob""# && wrong.actual == #""Ada""#)
    }

    @Test func stringsInExpectationsUseVariables() {
        let scope = VariableScope(layers: [VariableLayer(source: "t", values: ["name": "Ada"])])
        #expect(check(.body(.contains("{{name}}")), scope: scope).passed)
        let undefined = check(.body(.contains("{{other}}")), scope: scope)
        #expect(!undefined.passed && undefined.actual == "undefined variable 'other' in expectation")
    }

    @Test func timeAndSize() {
        let slow = check(.timeBelow(milliseconds: 10))
        #expect(!slow.passed && slow.actual == "12.3 ms")
        #expect(check(.timeBelow(milliseconds: 13)).passed)
        #expect(check(.bodySize(bytes: Self.body.count, below: false)).passed)
        #expect(!check(.bodySize(bytes: Self.body.count, below: true)).passed)
    }

    @Test func bodyChecksRefuseATruncatedBody() throws {
        let partial = ResponseView(status: 200, headers: [], body: Array("{\"a\":".utf8), bodySize: 1_000_000, totalMicroseconds: 1)
        let result = ExpectationCheck.check(ExpectationSpec(expectation: .json(path: try JSONPath("$.a"), .exists(true)), fieldPath: "e",
                                                            location: SourceLocation(line: 1, column: 1)), partial, scope: VariableScope(layers: []))
        #expect(!result.passed && result.actual == "the body is larger than the 5 bytes that checks read")
    }

    @Test func captures() throws {
        func capture(_ source: Capture.Source) -> CaptureResult {
            CaptureCheck.evaluate(Capture(variable: "v", source: source, fieldPath: "c"), response)
        }
        #expect(capture(.json(try JSONPath("$.token"))).value == "T-9")
        #expect(capture(.json(try JSONPath("$.tags"))).value == #"["a"]"#)
        #expect(capture(.header("x-id")).value == "1")
        #expect(capture(.regex(#""token": "T-(\d+)""#)).value == "9")
        #expect(capture(.regex("Ad.")).value == "Ada")
        #expect(capture(.cookie("session")).value == "abc")
        #expect(capture(.cookie("theme")).value == "dark")
        let miss = capture(.json(try JSONPath("$.missing")))
        #expect(miss.value == nil && miss.error == "capture 'v' found nothing: $.missing is absent")
        #expect(capture(.header("ETag")).error == #"capture 'v' found nothing: header "ETag" is absent"#)
        #expect(capture(.regex("zz(z)")).error == #"capture 'v' found nothing: regex "zz(z)" is absent"#)
        #expect(capture(.cookie("nope")).error == #"capture 'v' found nothing: cookie "nope" is absent"#)
    }
}

@Suite struct SecretMaskerTests {
    @Test func masksValuesEverywhereAndSensitiveHeadersWhole() {
        let masker = SecretMasker(values: ["s3cret", "s3cret-long", ""])
        #expect(masker.mask("a s3cret-long b s3cret") == "a **** b ****")
        #expect(masker.mask([HeaderField(name: "authorization", value: "Basic xyz"), HeaderField(name: "X-Key", value: "k=s3cret"),
                             HeaderField(name: "Cookie", value: "a=b")])
                == [HeaderField(name: "authorization", value: "****"), HeaderField(name: "X-Key", value: "k=****"),
                    HeaderField(name: "Cookie", value: "a=****")])
        // Cookie names and Set-Cookie attributes stay (HAR and HTML list them); values never do.
        #expect(masker.mask([HeaderField(name: "Cookie", value: "a=1; sid=s3cret; junk"), HeaderField(name: "Set-Cookie", value: "sid=s3cret; Path=/; HttpOnly")])
                == [HeaderField(name: "Cookie", value: "a=****; sid=****; ****"), HeaderField(name: "Set-Cookie", value: "sid=****; Path=/; HttpOnly")])
        #expect(SecretMasker(values: ["s3cret"], enabled: false).mask("s3cret") == "s3cret")
        // A secret in a URL's path is sent with only spaces, non-ASCII and a few others percent-encoded.
        let spaced = SecretMasker(values: ["tok en/1", "p@ss w0rd&=/é"])
        #expect(spaced.mask("http://h/anything/tok%20en/1?q=tok+en%2F1") == "http://h/anything/****?q=****")
        #expect(spaced.mask("http://h/p@ss%20w0rd&=/%C3%A9/x") == "http://h/****/x")
    }
}

@Suite struct EnvironmentTests {
    @Test func decodesPlainAndSecretValues() throws {
        let env = try Environment.decode(Array(#"{"base": "http://x", "token": {"value": "t", "secret": true}, "open": {"value": "o"}}"#.utf8),
                                         name: "staging", file: "environments/staging.json")
        #expect(env.variables == [Variable(name: "base", value: "http://x"), Variable(name: "token", value: "t"), Variable(name: "open", value: "o")])
        #expect(env.secretNames == ["token"])
        #expect(env.layer.source == "environment 'staging'")
    }

    @Test func badValuesAreLocated() {
        #expect(throws: InputError(file: "e.json", location: SourceLocation(line: 1, column: 16), fieldPath: "n",
                                   reason: "expected a string or {\"value\": …, \"secret\": true}, found a number")) {
            try Environment.decode(Array(#"{"a": "", "n": 1}"#.utf8), name: "e", file: "e.json")
        }
    }
}
