import Foundation
import Testing
@testable import ReqRunKit

/// `all` and `any` before a predicate (each item of a list), `replaceRegex`, and XPath on documents with
/// namespaces.
@Suite struct CheckQuantifierTests {
    private func outcome(_ check: String, _ body: String, contentType: String = "application/json") throws -> CheckEvaluator.Outcome {
        let bytes = Array(body.utf8)
        let view = ResponseView(status: 200, headers: [HeaderField(name: "Content-Type", value: contentType)], body: bytes,
                                bodySize: bytes.count, totalMicroseconds: 0)
        return CheckEvaluator.evaluate(try CheckParser.parse(check), view, scope: VariableScope(layers: []))
    }

    static let doc = #"{"items": [{"price": 3, "tag": "a"}, {"price": 0.5, "tag": "b"}, {"price": -1}], "none": [], "s": "x"}"#

    @Test(arguments: [
        ("$.items[*].price all > -2", true), ("$.items[*].price all > 0", false), ("$.items[*].price any < 0", true),
        ("$.items[*].price any > 10", false), ("$.items[*].tag all isString", true), ("$.items[*].tag any == 'b'", true),
        ("$.items[*] all not isEmpty", true), ("$.items[*].price all not isInteger", false), ("$.items[*].price any not isInteger", true),
        ("$.none all > 0", true), ("$.none any > 0", false), ("$.items[*].tag all startsWith 'a'", false),
        ("$.items[*].tag count == 2", true), ("header 'Content-Type' all contains 'json'", true),
    ])
    func quantifiers(_ check: String, _ expected: Bool) throws {
        #expect(try outcome(check, Self.doc).passed == expected, "\(check)")
    }

    @Test func aFailedAllNamesTheFirstItemThatFails() throws {
        let failed = try outcome("$.items[*].price all > 0", Self.doc)
        #expect(failed.expected == "all > 0")
        #expect(failed.actual == "[3,0.5,-1] (item 2 fails: -1)")
        // A value that is not a list is a list of one; an absent one fails, with or without `not`.
        #expect(try outcome("$.s any == 'x'", Self.doc).passed)
        #expect(try !outcome("$.s all != 'x'", Self.doc).passed)
        let absent = try outcome("$.missing all exists", Self.doc)
        #expect(!absent.passed && absent.actual == "(absent)")
        #expect(try !outcome("$.missing all not exists", Self.doc).passed)
    }

    @Test func aCaptureTakesNoQuantifier() {
        #expect(throws: CheckSyntaxError(offset: 11, reason: "a capture takes a subject and filters, no predicate")) {
            try CheckParser.parse("$.items[*] all", capture: true)
        }
    }

    @Test func replaceRegexReplacesEveryMatch() throws {
        let body = #"{"s": "2026-12-01", "p": "a1b22c333"}"#
        #expect(try outcome(#"$.s replaceRegex '(\d+)-(\d+)-(\d+)' '$3.$2.$1' == '01.12.2026'"#, body).passed)
        #expect(try outcome(#"$.p replaceRegex '\d+' '#' == 'a#b#c#'"#, body).passed)
        // The literal form stays literal: a '.' is a dot.
        #expect(try outcome("$.s replace '-' '.' == '2026.12.01'", body).passed)
        #expect(try outcome("$.p replace '\\\\d' '#' == 'a1b22c333'", body).passed)
    }
}

/// XPath on documents with namespaces: the document's own prefixes, and `_` for its default namespace (as
/// Hurl does).
@Suite struct XPathNamespaceTests {
    private func outcome(_ check: String, _ body: String) throws -> CheckEvaluator.Outcome {
        let bytes = Array(body.utf8)
        let view = ResponseView(status: 200, headers: [HeaderField(name: "Content-Type", value: "text/xml")], body: bytes,
                                bodySize: bytes.count, totalMicroseconds: 0)
        return CheckEvaluator.evaluate(try CheckParser.parse(check), view, scope: VariableScope(layers: []))
    }

    static let soap = """
        <?xml version="1.0"?>
        <soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">
          <soap:Body><m:GetPriceResponse xmlns:m="https://example.com/prices"><m:Price>1.90</m:Price></m:GetPriceResponse></soap:Body>
        </soap:Envelope>
        """
    static let atom = """
        <feed xmlns="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">
          <title>News</title><entry><title>One</title><dc:creator>Ada</dc:creator></entry><entry><title>Two</title></entry>
        </feed>
        """

    @Test func theDocumentsPrefixesAreRegistered() throws {
        #expect(try outcome("xpath 'string(//soap:Body/m:GetPriceResponse/m:Price)' == '1.90'", Self.soap).passed)
        #expect(try outcome("xpath '//m:Price' toString contains '1.90'", Self.soap).passed)
    }

    @Test func theDefaultNamespaceIsUnderscore() throws {
        #expect(try outcome("xpath '//_:entry' count == 2", Self.atom).passed)
        #expect(try outcome("xpath 'string(/_:feed/_:title)' == 'News'", Self.atom).passed)
        #expect(try outcome("xpath 'string(//_:entry/dc:creator)' == 'Ada'", Self.atom).passed)
        // Without a prefix a name is in no namespace (XPath 1.0): nothing matches.
        #expect(try outcome("xpath '//entry' count == 0", Self.atom).passed)
    }

    @Test func anUndeclaredPrefixSaysWhichOnesExist() throws {
        let failed = try outcome("xpath '//atom:entry' count == 2", Self.atom)
        #expect(!failed.passed)
        #expect(failed.actual == "undefined namespace prefix 'atom' in the XPath expression; the document declares _ (http://www.w3.org/2005/Atom), dc (http://purl.org/dc/elements/1.1/)")
    }
}
