import Foundation
import Testing
import ReqRunKit
import TestSupport

/// Bodies in a charset other than UTF-8 (declared by Content-Type, an HTML <meta>, an XML declaration) from
/// the hostile server's `/charset/NAME`: checked as decoded text and recorded with that text beside the
/// bytes; object forms and `all` printed in the check grammar by the console and `show`.
@Suite struct CharsetEndToEndTests {
    private func lastRecord(_ dir: TemporaryDirectory) throws -> RunRecord {
        let runs = dir.url.appendingPathComponent(".reqrun/runs")
        let last = try #require(try FileManager.default.contentsOfDirectory(atPath: runs.path).sorted().last)
        return try RecordFiles.decode(runs.appendingPathComponent(last))
    }

    @Test func bodiesAreCheckedAndRecordedInTheirCharset() throws {
        let dir = try TemporaryDirectory()
        try dir.write("collections/c.json", #"""
            {"name": "C", "variables": {"base": "\#(try TestServers.hostile())/charset"}, "groups": [{"name": "g", "requests": [
            {"name": "latin1", "url": "{{base}}/latin1", "expect": ["body == 'café crème'", "body split ' ' all contains 'c'"]},
            {"name": "cp1252", "url": "{{base}}/windows-1252", "expect": ["body contains '€5 – “ok”'"]},
            {"name": "sjis", "url": "{{base}}/shift_jis", "expect": ["body contains 'テスト'", "xpath 'string(//p)' == 'テスト'"]},
            {"name": "meta", "url": "{{base}}/meta", "expect": ["body contains 'naïve €'", "xpath 'string(//title)' == 'Café'"]},
            {"name": "equiv", "url": "{{base}}/http-equiv", "expect": ["body regex '<body>(.*)</body>' == '日本語'"]},
            {"name": "xml", "url": "{{base}}/xml", "expect": ["body contains 'Zoë'", "xpath 'string(//name)' == 'Zoë'"]}
            ]}]}
            """#)
        let run = try ReqRunBinary.run(["run", "--all", "--report", "html=r.html"], in: dir.url)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(try dir.read("r.html").contains("<pre class=\"body\">café crème</pre>"))
        let record = try lastRecord(dir)
        #expect(record.results.map { $0.response?.body.text } == [
            "café crème", "price: €5 – “ok”", "<html><body><p>テスト</p></body></html>",
            #"<!DOCTYPE html><html><head><meta charset="windows-1252"><title>Café</title></head><body><p>naïve €</p></body></html>"#,
            #"<html><head><meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS"></head><body>日本語</body></html>"#,
            #"<?xml version="1.0" encoding="ISO-8859-1"?><r><name>Zoë</name></r>"#,
        ])
        // The bytes stay as they came (not UTF-8: base64).
        #expect(record.results[0].response?.body.encoding == "base64")
        #expect(record.results[0].response?.body.data == Data("café crème".data(using: .isoLatin1)!).base64EncodedString())
        let show = try ReqRunBinary.run(["show"], in: dir.url)
        #expect(show.stdout.contains("  | café crème\n"), "\(show.stdout)")
        #expect(show.stdout.contains("  | price: €5 – “ok”\n"))
    }

    @Test func objectFormsAndQuantifiersPrintAsChecks() throws {
        let dir = try TemporaryDirectory()
        try dir.write("collections/c.json", #"""
            {"name": "C", "groups": [{"name": "g", "requests": [
            {"name": "latin1", "url": "\#(try TestServers.hostile())/charset/latin1",
             "expect": [{"status": "4xx"}, {"header": "Content-Type", "contains": "json"}, "body split ' ' all endsWith 'e'"],
             "capture": [{"var": "tag", "header": "ETag"}]}
            ]}]}
            """#)
        let run = try ReqRunBinary.run(["run", "--all"], in: dir.url)
        #expect(run.status == 1)
        for text in [#"✗ status toString matches "^4\\d\\d$""#, #"✗ header "Content-Type" contains "json""#,
                     #"✗ body split " " all endsWith "e""#, #"actual:   ["café","crème"] (item 0 fails: "café")"#,
                     #"✗ capture 'tag' found nothing: header "ETag" is absent"#] {
            #expect(run.stdout.contains(text), "\(text)\n\(run.stdout)")
        }
        let show = try ReqRunBinary.run(["show"], in: dir.url)
        #expect(show.stdout.contains(#"✗ status toString matches "^4\\d\\d$""#), "\(show.stdout)")
        #expect(try lastRecord(dir).results[0].expectations.map(\.description) == [
            #"status toString matches "^4\\d\\d$""#, #"header "Content-Type" contains "json""#, #"body split " " all endsWith "e""#])
    }

    @Test func aMisplacedQuantifierIsALoadErrorAtItsColumn() throws {
        let dir = try TemporaryDirectory()
        try dir.write("collections/c.json", """
            {"name": "C", "groups": [{"name": "g", "requests": [
            {"url": "http://127.0.0.1:9/x", "expect": ["$.items[*].price not all > 0"]}
            ]}]}
            """)
        let run = try ReqRunBinary.run(["run", "--all"], in: dir.url)
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("""
            error: collections/c.json:2:66: groups[0].requests[0].expect[0]: 'all' comes before 'not': write 'all not …' (each item fails) or use the other quantifier
                $.items[*].price not all > 0
                                     ^
            """), "\(run.stderr)")
    }
}
