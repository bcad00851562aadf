import Foundation
import Testing
@testable import ReqRunKit

/// The check grammar: parsing, canonical text, errors with their offsets and hints.
@Suite struct CheckGrammarTests {
    @Test(arguments: [
        ("$.items[*].id count == 3", "$.items[*].id count == 3"),
        ("  status   ==   200 ", "status == 200"),
        ("header 'Content-Type' startsWith 'application/json'", #"header "Content-Type" startsWith "application/json""#),
        ("cookie 'session[httponly]' exists", #"cookie "session[HttpOnly]" exists"#),
        ("cookie \"s[max-age]\" > 0", #"cookie "s[Max-Age]" > 0"#),
        (#"body regex 'id=(\d+)' toInt > 0"#, #"body regex "id=(\\d+)" toInt > 0"#),
        ("jsonpath \"$['a b']\" equals [1, 2]", "$['a b'] == [1,2]"), ("jsonpath '$.a' == 1", "$.a == 1"),
        ("$[?@.price < 10 && @.tag == 'x'] count >= 1", "$[?@.price < 10 && @.tag == 'x'] count >= 1"),
        ("$.a not contains 'x'", #"$.a not contains "x""#),
        ("$.a notEquals null", "$.a != null"),
        ("timings.connect < 100", "timings.connect < 100"),
        ("$.d toDate '%Y-%m-%d' daysBeforeNow > 3", #"$.d toDate "%Y-%m-%d" daysBeforeNow > 3"#),
        ("$.s replace 'a' 'b' split ',' nth -1 == 'x'", #"$.s replace "a" "b" split "," nth -1 == "x""#),
        ("variable 'id' isInteger", #"variable "id" isInteger"#),
        ("redirects nth 0 jsonpath '$.status' == 302", #"redirects nth 0 jsonpath "$.status" == 302"#),
        ("$.o == {\"a\": 1}", #"$.o == {"a":1}"#),
        ("$.items[*].price  all >0", "$.items[*].price all > 0"), ("$.a any not contains 'x'", #"$.a any not contains "x""#),
        ("$.a all isUuid", "$.a all isUuid"),
        (#"$.s replaceRegex '(\d+)-(\d+)' '$2/$1' == '2/1'"#, #"$.s replaceRegex "(\\d+)-(\\d+)" "$2/$1" == "2/1""#),
    ])
    func parsesAndPrintsCanonically(_ text: String, _ canonical: String) throws {
        let check = try CheckParser.parse(text)
        #expect(check.description == canonical)
        #expect(try CheckParser.parse(check.description) == check)
    }

    @Test(arguments: [
        ("stauts == 200", 0, "unknown subject 'stauts' (did you mean 'status'?)"),
        ("status conatins 'x'", 7, "unknown filter or predicate 'conatins' (did you mean 'contains'?)"),
        ("status", 6, "a check ends with a predicate"),
        ("status == ", 10, "expected a value"),
        ("status == 200 200", 14, "unexpected text after the predicate"),
        ("$.a[ == 1", 5, "invalid JSONPath"),
        ("header Content-Type == 'x'", 7, "expected a header field name in quotes"),
        ("cookie 'a[Pth]' exists", 7, "unknown cookie attribute 'Pth' (did you mean 'Path'?)"),
        ("body matches '('", 13, "invalid regular expression"),
        ("$.a nth x == 1", 8, "nth takes a whole number"),
        ("$.a not", 7, "expected a predicate after 'not'"),
        ("$.a == 'x", 7, "unterminated string"),
        ("$.a isStrin", 4, "(did you mean 'isString'?)"),
        ("$.a all", 7, "expected a predicate after 'all', which checks each item of a list"),
        ("$.a not all > 0", 8, "'all' comes before 'not': write 'all not …'"),
        ("$.a all any > 0", 8, "one 'all' or 'any' per check"),
        ("$.a alll > 0", 4, "(did you mean 'all'?)"),
        ("$.a all foo", 8, "unknown predicate 'foo'"),
        ("$.a replaceRegex '(' 'x' == 1", 17, "invalid regular expression"),
        ("$.a replaceRegex 'x' == 1", 21, "expected its replacement"),
    ])
    func rejectsWithOffsetAndHint(_ text: String, _ offset: Int, _ reason: String) {
        do {
            _ = try CheckParser.parse(text)
            Issue.record("parsed: \(text)")
        } catch {
            #expect(error.offset == offset, "\(text)")
            #expect(error.reason.contains(reason), "\(error.reason)")
        }
    }

    @Test func capturesTakeNoPredicate() throws {
        #expect(try CheckParser.parse("cookie 'id' urlDecode", capture: true).predicate == nil)
        #expect(throws: CheckSyntaxError.self) { try CheckParser.parse("$.id == 1", capture: true) }
    }

    @Test func decoderPointsAtTheColumnInTheFile() throws {
        let text = """
            {"name": "c", "groups": [{"name": "g", "requests": [
            {"url": "u", "expect": ["status == 200", "$.a conatins 'x'"]}
            ]}]}
            """
        let error = try #require(throws: InputError.self) { try CollectionDecoder.decode(Array(text.utf8), file: "c.json", fileName: "c.json") }
        #expect(error.description.hasPrefix("c.json:2:47: groups[0].requests[0].expect[1]: unknown filter or predicate 'conatins' (did you mean 'contains'?)"))
        #expect(error.description.hasSuffix("\n    $.a conatins 'x'\n        ^"))
        let collection = try CollectionDecoder.decode(Array(text.replacingOccurrences(of: "conatins", with: "contains").utf8), file: "c.json", fileName: "c.json")
        #expect(collection.groups[0].requests[0].expectations[1].expectation == .check(try CheckParser.parse("$.a contains 'x'")))
        #expect(CollectionEncoder.encode(collection).contains(#""$.a contains \"x\"""#))
    }
}

/// Each filter and predicate on values built here (no server: the evaluator is pure).
@Suite struct CheckEvaluationTests {
    private func response(_ body: String, headers: [HeaderField] = [], status: Int = 200) -> ResponseView {
        let bytes = Array(body.utf8)
        return ResponseView(status: status, headers: headers, body: bytes, bodySize: bytes.count, totalMicroseconds: 12_345)
    }

    private let now = Date(timeIntervalSince1970: 1_800_000_000) // 2027-01-15T08:00:00Z

    private func holds(_ check: String, _ body: String = "{}", headers: [HeaderField] = []) throws -> Bool {
        try CheckEvaluator.evaluate(CheckParser.parse(check), response(body, headers: headers), scope: VariableScope(layers: []), now: now).passed
    }

    private func value(_ check: String, _ body: String) throws -> String? {
        let result = CheckEvaluator.value(try CheckParser.parse(check, capture: true), response(body), scope: VariableScope(layers: []), now: now)
        switch result {
        case .success(let v): return v?.text
        case .failure(let f): return "failure: \(f)"
        }
    }

    static let doc = #"{"items": [{"id": 1, "p": 1.50}, {"id": 2, "p": 10}, {"id": 3}], "s": "a,b,c", "n": "42", "f": "2.5", "e": "", "u": "a%20b%2Fc", "b": "aGVsbG8=", "j": "{\"k\": [7]}", "d": "2027-01-10", "big": 9007199254740993, "t": "2027-01-20T08:00:00Z"}"#

    @Test(arguments: [
        ("$.items count", "3"), ("$.items[*].id first", "1"), ("$.items[*].id last", "3"), ("$.items[*].id nth 1", "2"),
        ("$.items[*].id nth -1", "3"), ("$.n toInt", "42"), ("$.items[0].p toInt", "1"), ("$.f toFloat", "2.5"), ("$.n toFloat", "42.0"),
        ("$.items[0] toString", #"{"id":1,"p":1.50}"#), ("$.s regex 'b,(c)'", "c"), ("$.s split ','", #"["a","b","c"]"#),
        ("$.s replace ',' ';'", "a;b;c"), ("$.u urlDecode", "a b/c"), ("$.u urlDecode urlEncode", "a%20b%2Fc"), ("$.b base64Decode", "hello"),
        ("$.s base64Encode", "YSxiLGM="), ("$.j jsonpath '$.k[0]'", "7"), ("$.d toDate '%Y-%m-%d'", "2027-01-10T00:00:00.000Z"),
        ("$.d toDate '%Y-%m-%d' daysBeforeNow", "5"), ("$.t daysAfterNow", "5"), ("$.items[*].id nth 5", "failure: nth 5: the list has 3 items"),
        ("$.s count", "failure: count: expected a list, an object or bytes, found a string (\"a,b,c\")"),
        ("$.s toInt", "failure: toInt: expected an integer in text, found a string (\"a,b,c\")"), ("$.missing count", nil),
        ("$.d toDate '%d/%m/%Y'", #"failure: toDate "%d/%m/%Y": "2027-01-10" does not have the format "%d/%m/%Y""#),
        ("$.items[*].id", "[1,2,3]"), ("$.big", "9007199254740993"),
    ] as [(String, String?)])
    func filters(_ check: String, _ expected: String?) throws {
        #expect(try value(check, Self.doc) == expected, "\(check)")
    }

    @Test(arguments: [
        ("$.items[*].id count == 3", true), ("$.items[0].p == 1.5", true), ("$.items[0].p == 1.50", true), ("$.items[0].p != 1.5", false),
        ("$.items[1].p < 10.5", true), ("$.items[1].p <= 10", true), ("$.items[1].p > 9.99", true), ("$.items[1].p >= 11", false),
        ("$.big == 9007199254740993", true), ("$.big == 9007199254740992", false), ("$.big > 9007199254740992", true),
        ("$.items[0].p == 1.50000000000000000001", true), ("$.s contains 'b,'", true), ("$.s not contains 'z'", true),
        ("$.s startsWith 'a,'", true), ("$.s endsWith ',c'", true), ("$.s matches '^a,.,c$'", true), ("$.items[*].id includes 2", true),
        ("$.items[*].id includes 4", false), ("$.s exists", true), ("$.zz exists", false), ("$.zz not exists", true), ("$.e isEmpty", true),
        ("$.items isEmpty", false), ("$.s isString", true), ("$.big isInteger", true), ("$.items[0].p isFloat", true),
        ("$.items[0].p isInteger", false), ("$.items isList", true), ("$ isObject", true), ("$.items[2].p isNull", false),
        ("$.t isIsoDate", true), ("$.d isIsoDate", false), ("$.s isBoolean", false), ("$.items[*].id == [1, 2, 3]", true),
        ("$.d toDate '%Y-%m-%d' < '2027-01-11T00:00:00Z'", true), ("$.d toDate '%Y-%m-%d' > '2027-01-11'", false),
        ("$.s < 'b'", true), ("$.n == 42", false), ("$.n toInt == 42", true), ("$.b base64Decode == 'hello'", true),
        ("$.b base64Decode startsWith 'he'", true), ("$.items not isEmpty", true),
    ])
    func predicates(_ check: String, _ expected: Bool) throws {
        #expect(try holds(check, Self.doc) == expected, "\(check)")
    }

    @Test func typeChecksOnStrings() throws {
        let doc = #"{"u": "3f1b6c52-8e0a-4c1d-9f57-2b6e4a9d7c10", "v4": "192.168.0.1", "v6": "::1", "x": "1.2.3", "t": true, "z": null}"#
        for (check, expected) in [("$.u isUuid", true), ("$.x isUuid", false), ("$.v4 isIpv4", true), ("$.v6 isIpv4", false),
                                  ("$.v6 isIpv6", true), ("$.x isIpv6", false), ("$.t isBoolean", true), ("$.z isNull", true),
                                  ("$.t == true", true), ("$.z == null", true)] {
            #expect(try holds(check, doc) == expected, "\(check)")
        }
    }

    @Test func headersCookiesAndBody() throws {
        let headers = [HeaderField(name: "Set-Cookie", value: "sid=abc; Path=/; HttpOnly; Max-Age=60; SameSite=Lax"),
                       HeaderField(name: "Set-Cookie", value: "theme=dark"), HeaderField(name: "X-One", value: "1")]
        #expect(try holds(#"header "set-cookie" contains "theme""#, "x", headers: headers))
        #expect(try holds(#"header "set-cookie" count == 2"#, "x", headers: headers))
        #expect(try holds(#"header "x-one" == "1""#, "x", headers: headers))
        #expect(try holds(#"header "x-two" not exists"#, "x", headers: headers))
        #expect(try holds(#"cookie "sid" == "abc""#, "x", headers: headers))
        #expect(try holds(#"cookie "sid[Path]" == "/""#, "x", headers: headers))
        #expect(try holds(#"cookie "sid[HttpOnly]" exists"#, "x", headers: headers))
        #expect(try holds(#"cookie "sid[Secure]" not exists"#, "x", headers: headers))
        #expect(try holds(#"cookie "sid[Max-Age]" == 60"#, "x", headers: headers))
        #expect(try holds(#"cookie "sid[SameSite]" == "Lax""#, "x", headers: headers))
        #expect(try holds(#"cookie "none" not exists"#, "x", headers: headers))
        #expect(try holds("body == 'hello'", "hello"))
        #expect(try holds("body exists", "hello"))
        #expect(try holds("body not exists", ""))
        #expect(try holds("bytes count == 5", "hello"))
        #expect(try holds("md5 == '5d41402abc4b2a76b9719d911017c592'", "hello"))
        #expect(try holds("sha256 == '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824'", "hello"))
        #expect(try holds(#"regex "h(e)l" == "e""#, "hello"))
        #expect(try holds("duration == 12.345", "x"))
        #expect(try holds("duration < 13", "x"))
        #expect(try holds("bodySize == 5", "hello"))
        #expect(try holds("status == 200", "x"))
    }

    @Test func templatesAndFailures() throws {
        let scope = VariableScope(layers: [VariableLayer(source: "test", values: ["name": "Ada", "n": "7"])])
        let view = response(#"{"name": "Ada"}"#)
        #expect(CheckEvaluator.evaluate(try CheckParser.parse("$.name == '{{name}}'"), view, scope: scope).passed)
        #expect(CheckEvaluator.evaluate(try CheckParser.parse("variable 'n' toInt == 7"), view, scope: scope).passed)
        let undefined = CheckEvaluator.evaluate(try CheckParser.parse("$.name == '{{nope}}'"), view, scope: scope)
        #expect(!undefined.passed && undefined.actual.contains("nope"))
        let notJSON = CheckEvaluator.evaluate(try CheckParser.parse("$.a == 1"), response("<html>"), scope: scope)
        #expect(!notJSON.passed && notJSON.actual.hasPrefix("the body is not JSON"))
        // `not` inverts a predicate, never a failure.
        #expect(!CheckEvaluator.evaluate(try CheckParser.parse("$.a not exists"), response("<html>"), scope: scope).passed)
    }
}

/// Bodies in the charset their Content-Type names (iconv), and the `decode` filter.
@Suite struct CharsetTests {
    private func view(_ bytes: [UInt8], _ contentType: String) -> ResponseView {
        ResponseView(status: 200, headers: [HeaderField(name: "Content-Type", value: contentType)], body: bytes, bodySize: bytes.count, totalMicroseconds: 0)
    }

    private func holds(_ check: String, _ view: ResponseView) throws -> CheckEvaluator.Outcome {
        CheckEvaluator.evaluate(try CheckParser.parse(check), view, scope: VariableScope(layers: []))
    }

    @Test func bodiesAreReadInTheirCharset() throws {
        #expect(try holds("body == 'café'", view([0x63, 0x61, 0x66, 0xE9], "text/plain; charset=ISO-8859-1")).passed)
        #expect(try holds("body == '€1'", view([0x80, 0x31], "text/plain; charset=\"windows-1252\"")).passed)
        #expect(try holds("body == 'テスト'", view([0x83, 0x65, 0x83, 0x58, 0x83, 0x67], "text/html;charset=Shift_JIS")).passed)
        #expect(try holds("body == '中文'", view([0xD6, 0xD0, 0xCE, 0xC4], "text/plain; charset=GB2312")).passed)
        #expect(try holds("body regex 'caf(.)' == 'é'", view([0x63, 0x61, 0x66, 0xE9], "text/plain; charset=latin1")).passed)
        // The hash covers the raw bytes, not the decoded text.
        #expect(try holds("md5 == '\(Digest.hex(Digest.md5([0x63, 0x61, 0x66, 0xE9])))'", view([0x63, 0x61, 0x66, 0xE9], "text/plain; charset=latin1")).passed)
        let unknown = try holds("body contains 'x'", view([0x78], "text/plain; charset=x-nope"))
        #expect(!unknown.passed && unknown.actual == "unknown charset 'x-nope'")
        #expect(try holds("bytes decode 'latin1' == 'café'", view([0x63, 0x61, 0x66, 0xE9], "application/octet-stream")).passed)
        #expect(try holds("$.s base64Decode decode 'windows-1252' == '€'", view(Array(#"{"s": "gA=="}"#.utf8), "application/json")).passed)
    }

    @Test(arguments: [
        ("text/plain; charset=\"latin1\"", "x", "latin1"),
        ("text/html", #"<html><head><META Charset='Shift_JIS'></head>"#, "Shift_JIS"),
        ("text/html", #"<meta name="x" content="y"><meta http-equiv="content-type" content="text/html; charset=windows-1252">"#, "windows-1252"),
        ("text/html", "<meta charset=iso-8859-2>", "iso-8859-2"),
        ("text/html", #"<meta data-charset="x"><p>"#, nil),
        ("application/atom+xml", #"<?xml version="1.0" encoding='ISO-8859-1'?><feed/>"#, "ISO-8859-1"),
        ("application/xml", #"<?xml version="1.0"?><r encoding="x"/>"#, nil),
        (nil, #"<!DOCTYPE html><meta charset="koi8-r">"#, "koi8-r"),
        ("application/json", #"<meta charset="latin1">"#, nil),
        // The byte-level fast path (`declaresNothing`) leaves these to the general one.
        ("TEXT/HTML", "<meta charset=iso-8859-2>", "iso-8859-2"),
        ("application/XHTML+XML", #"<?xml version="1.0" encoding="ISO-8859-1"?><html/>"#, nil),
        ("Text/Xml", #"<?xml version="1.0" encoding="ISO-8859-1"?><r/>"#, "ISO-8859-1"),
        ("", #"<!DOCTYPE html><meta charset="koi8-r">"#, "koi8-r"),
        ("application/octet-stream", #"<!DOCTYPE html><meta charset="koi8-r">"#, nil),
        ("text/plain;charset=latin1", "x", "latin1"),
    ] as [(String?, String, String?)])
    func declaredCharsets(_ contentType: String?, _ body: String, _ charset: String?) {
        #expect(CharsetDecoder.declared(contentType: contentType, body: Array(body.utf8)) == charset, "\(body)")
    }

    @Test func contentTypesThatDeclareNoCharsetAreToldByTheirBytes() {
        for type in ["application/json", "application/octet-stream", "image/png", "text/plain", "a", "application/htm", "text/xm"] {
            #expect(CharsetDecoder.declaresNothing(type), "\(type)")
        }
        for type in ["", "text/html", "TEXT/HTML", "application/xml", "application/atom+XML", "text/plain; charset=latin1",
                     "text/plain;", "application/vnd.xmlish", "téxt/plain", "xhtml"] {
            #expect(!CharsetDecoder.declaresNothing(type), "\(type)")
        }
    }

    @Test func theRecordKeepsTheDecodedTextMasked() {
        let bytes: [UInt8] = Array("s3cr3t caf".utf8) + [0xE9]
        var body = RecordedBody(prefix: bytes, truncated: false)
        body.text = CharsetDecoder.recordedText(bytes, truncated: false, contentType: "text/plain; charset=latin1", body: bytes)
        #expect(body.encoding == "base64" && body.text == "s3cr3t café")
        #expect(SecretMasker(values: ["s3cr3t"]).mask(body).text == "**** café")
        // A Shift_JIS character cut by the record's limit is dropped; ASCII text is not kept twice.
        let sjis: [UInt8] = [0x83, 0x65, 0x83, 0x58, 0x83]
        #expect(CharsetDecoder.recordedText(sjis, truncated: true, contentType: "text/plain; charset=Shift_JIS", body: sjis) == "テス")
        #expect(CharsetDecoder.recordedText(Array("abc".utf8), truncated: false, contentType: "text/plain; charset=latin1", body: Array("abc".utf8)) == nil)
    }
}

/// XPath 1.0 by libxml2 on XML and HTML bodies, and on strings.
@Suite struct XPathCheckTests {
    private func holds(_ check: String, _ body: String, _ contentType: String) throws -> Bool {
        let bytes = Array(body.utf8)
        let view = ResponseView(status: 200, headers: [HeaderField(name: "Content-Type", value: contentType)], body: bytes, bodySize: bytes.count, totalMicroseconds: 0)
        return CheckEvaluator.evaluate(try CheckParser.parse(check), view, scope: VariableScope(layers: [])).passed
    }

    static let xml = #"<?xml version="1.0"?><shop name="S"><book id="1"><t>A</t></book><book id="2"><t>B</t></book></shop>"#

    @Test func resultsOfEachType() throws {
        #expect(try holds("xpath '//book' count == 2", Self.xml, "application/xml"))
        #expect(try holds("xpath '//book/t' includes 'B'", Self.xml, "application/xml"))
        #expect(try holds("xpath 'string(/shop/@name)' == 'S'", Self.xml, "application/xml"))
        #expect(try holds("xpath 'count(//book)' == 2", Self.xml, "application/xml"))
        #expect(try holds("xpath 'sum(//book/@id) div 2' == 1.5", Self.xml, "application/xml"))
        #expect(try holds("xpath 'boolean(//book[@id=2])' == true", Self.xml, "application/xml"))
        #expect(try holds("xpath '//title' first == 'Hi'", "<!DOCTYPE html><html><head><title>Hi</title></head><body><p>unclosed</body></html>", "text/html; charset=utf-8"))
        #expect(try holds("$.x xpath '//b' first == 'q'", #"{"x": "<a><b>q</b></a>"}"#, "application/json"))
        #expect(try !holds("xpath '//a' count == 1", "<a>not closed", "application/xml"))
    }

    /// External entities are not loaded (no XML_PARSE_NOENT, no DTD loading, no network).
    @Test func externalEntitiesAreNotRead() throws {
        let body = #"<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/hostname">]><r>&x;</r>"#
        #expect(try holds("xpath 'string(/r)' == ''", body, "application/xml"))
    }

    @Test func badExpressionsAreSyntaxErrors() {
        #expect(throws: CheckSyntaxError.self) { try CheckParser.parse("xpath '//a[' exists") }
        #expect(throws: CheckSyntaxError.self) { try CheckParser.parse("body xpath '//a)' exists") }
    }
}
