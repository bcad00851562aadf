import Foundation
import Testing
@testable import ReqRunKit

/// Every spelling of a secret reqrun or a server can produce is masked; values that reach a credential
/// are secrets.
@Suite struct SecretMaskingTests {
    @Test func jsonEscapedSpellingsAreMasked() {
        let secret = "p\"a\\ss/wörd✓"
        let masker = SecretMasker(values: [secret])
        // As reqrun writes it in a JSON body, as Python (httpbin) echoes it, upper-case hex, PHP's "\/".
        for spelling in [#"p\"a\\ss/wörd✓"#, #"p\"a\\ss/w\u00f6rd\u2713"#, #"p\"a\\ss/w\u00F6rd\u2713"#, #"p\"a\\ss\/wörd✓"#,
                         // Escaped twice: a JSON body echoed inside httpbin's "data" string.
                         #"p\\\"a\\\\ss/w\\u00f6rd\\u2713"#, #"p\\\"a\\\\ss/wörd✓"#] {
            #expect(masker.mask("{\"data\": \"x\(spelling)y\"}") == "{\"data\": \"x****y\"}", "\(spelling)")
        }
        // A character outside the BMP is a surrogate pair in JSON's \u escapes.
        #expect(SecretMasker(values: ["k😀ey"]).mask(#"k\ud83d\ude00ey"#) == "****")
    }

    /// A value substituted into a URL is spelled as its part encodes it (`URLSubstitution`), then as
    /// `URLNormalizer` finishes it: both steps, for every part, are masked.
    /// Found by a new user: a secret with a non-ASCII character sent in a query came back in httpbin's `url`
    /// (werkzeug decodes the percent-encoded UTF-8 to an IRI, keeps the other escapes, and Python's `json`
    /// writes `é` as `\u00e9`), a spelling that was not masked: the record, HAR and HTML held it.
    @Test func aURLEchoedAsAnIRIInJSONIsMasked() {
        let masker = SecretMasker(values: ["Zp@ss w0rd/+é&x=1"])
        let echoed = #""url": "http://127.0.0.1:8080/anything?t=Zp@ss%20w0rd/%2B\u00e9%26x=1""#
        #expect(masker.mask(echoed) == #""url": "http://127.0.0.1:8080/anything?t=****""#)
        #expect(masker.mask("t=Zp@ss%20w0rd/%2Bé%26x=1") == "t=****")
    }

    @Test func secretsSubstitutedIntoAURLAreMaskedAsSent() throws {
        let secret = "a+b&c#d?e f\"g"
        let masker = SecretMasker(values: [secret])
        for component in [URLSubstitution.Component.path, .query, .queryValue] {
            let sent = try URLNormalizer.normalize("http://h/p/" + URLSubstitution.encode(secret, for: component))
            #expect(masker.mask(sent) == "http://h/p/****", "\(component): \(sent)")
        }
    }

    @Test func base64BodiesAreMaskedInTheirBytes() throws {
        let secret = "t0ken-s3cret"
        let bytes: [UInt8] = [0xFF, 0xFE] + Array("a=\(secret);".utf8) + [0x80]
        let body = RecordedBody(prefix: bytes, truncated: false)
        #expect(body.encoding == "base64")
        let masked = SecretMasker(values: [secret]).mask(body)
        #expect(masked.encoding == "base64")
        let decoded = try #require(Data(base64Encoded: masked.data))
        #expect(Array(decoded) == [0xFF, 0xFE] + Array("a=****;".utf8) + [0x80])
    }

    /// A server may answer in UTF-16 (`charset=utf-16le`, a BOM): the record's `text` is decoded and masked,
    /// and the bytes kept beside it (`data`: UTF-8 when they happen to be, ASCII in UTF-16LE is, else base64)
    /// are masked in both byte orders too.
    @Test func utf16BodiesAreMaskedInTheirBytes() throws {
        func utf16(_ text: String, bigEndian: Bool) -> [UInt8] {
            var bytes: [UInt8] = []
            for unit in text.utf16 {
                let pair = [UInt8(unit & 0xFF), UInt8(unit >> 8)]
                bytes += bigEndian ? pair.reversed() : pair
            }
            return bytes
        }
        func contains(_ bytes: [UInt8], _ part: [UInt8]) -> Bool { bytes.indices.contains { bytes[$0...].starts(with: part) } }
        let secret = "t0ken-s3cret"
        let masker = SecretMasker(values: [secret])
        for bigEndian in [false, true] {
            let bytes = (bigEndian ? [0xFE, 0xFF] : []) + utf16("you sent: ä \(secret)!", bigEndian: bigEndian)
            let masked = masker.mask(RecordedBody(prefix: bytes, truncated: false))
            let kept: [UInt8] = masked.encoding == "utf8" ? Array(masked.data.utf8) : Array(try #require(Data(base64Encoded: masked.data)))
            #expect(!contains(kept, utf16(secret, bigEndian: bigEndian)), "\(masked.encoding) \(masked.data)")
            #expect(contains(kept, utf16("you sent: ä ****!", bigEndian: bigEndian)))
        }
    }

    /// A header value that is not UTF-8 keeps its bytes (`valueBase64`) when the run masks: the secret is
    /// masked in them, and a credential field masked whole has no bytes left to show.
    @Test func headerBytesSurviveMaskingWithTheSecretMasked() throws {
        let masker = SecretMasker(values: ["t0ken-s3cret"])
        let bytes: [UInt8] = Array("caf".utf8) + [0xE9] + Array(" t0ken-s3cret".utf8)
        let fields = [HeaderField(name: "X-Bytes", value: #"caf\xE9 t0ken-s3cret"#, valueBase64: Data(bytes).base64EncodedString()),
                      HeaderField(name: "Set-Cookie", value: #"s=\xFF"#, valueBase64: "/w==")]
        let masked = masker.mask(fields)
        #expect(masked[0].value == #"caf\xE9 ****"#)
        let decoded = try #require(masked[0].valueBase64.flatMap { Data(base64Encoded: $0) })
        #expect(Array(decoded) == Array("caf".utf8) + [0xE9] + Array(" ****".utf8))
        #expect(masked[1].value == "****" && masked[1].valueBase64 == nil)
    }

    @Test func aSecretCutByTheBodyLimitIsMasked() {
        let secret = "abcdef-123456"
        let masker = SecretMasker(values: [secret])
        let text = RecordedBody(prefix: Array("token=abcdef-12".utf8), truncated: true)
        #expect(masker.mask(text).data == "token=****")
        // Not cut: the same text is left alone (it ends the content, it is no secret).
        #expect(masker.mask(RecordedBody(prefix: Array("token=abcdef-12".utf8), truncated: false)).data == "token=abcdef-12")
        let binary = RecordedBody(prefix: [0xFF] + Array("abcdef".utf8), truncated: true)
        #expect(Data(base64Encoded: masker.mask(binary).data).map(Array.init) == [0xFF] + Array("****".utf8))
    }

    @Test func theDefaultNameIsMasked() {
        var result = RequestResult(index: 1, collection: "c", groupPath: ["g"], groupID: "x", name: "http://ada:pa55word@h/",
                                   method: "GET", url: "http://ada:pa55word@h/", outcome: .response, error: nil)
        result = SecretMasker(values: CredentialSecrets.inURL(result.url)).mask(result)
        #expect(result.name == "http://ada:****@h/" && result.url == "http://ada:****@h/")
    }

    @Test func credentialsInURLsAndHeaderFieldsAreSecrets() {
        let url = CredentialSecrets.inURL("http://ada:p%40ss@127.0.0.1:80/x?y=1")
        #expect(url.contains("p%40ss") && url.contains("p@ss") && url.contains(Data("ada:p@ss".utf8).base64EncodedString()))
        #expect(CredentialSecrets.inURL("https://ghp_TOKEN@example.com/").contains("ghp_TOKEN"))
        #expect(CredentialSecrets.inURL("http://example.com/a@b").isEmpty)
        #expect(Request(url: "http://ada:p%40ss@h/x").name == "http://ada:****@h/x")
        #expect(Request(url: "https://TOKEN@h/x").name == "https://****@h/x")
        #expect(Request(url: "{{base}}/x@y").name == "{{base}}/x@y")
        let basic = "Basic " + Data("ada:s3cret-pw".utf8).base64EncodedString()
        let headers = [HeaderField(name: "Authorization", value: basic), HeaderField(name: "Cookie", value: "a=1; session=c00kie-v"),
                       HeaderField(name: "X-Other", value: "public")]
        let found = CredentialSecrets.inHeaders(headers, names: ["authorization", "cookie"])
        #expect(Set(found) == [String(basic.dropFirst(6)), "s3cret-pw", "c00kie-v"])
    }

    @Test func aSecretLearnedLateIsMaskedInEarlierResultsEvenAroundAnEarlierOne() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reqrun-late-\(UUID().lowercasedText)/.reqrun/runs")
        try FileManager.default.createDirectory(at: dir.deletingLastPathComponent().deletingLastPathComponent(), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir.deletingLastPathComponent().deletingLastPathComponent()) }
        let writer = try RecordWriter(store: RunStore(directory: dir), header: RunRecord(
            id: "20261201-120000-000-0001", startedAt: "s", endedAt: "", reqrunVersion: "r", libcurlVersion: "", workspace: "/w",
            selection: RunSelection(mode: "all"), results: []))
        let pipeline = ResultPipeline(expectedCount: 2, showSecrets: false, inBackground: false, writer: writer, keep: true, onResult: { _ in })
        for url in ["http://h/?t=abcdef-gh", "http://h/?t=zzzzzzzz"] {
            pipeline.submit(RequestResult(index: 1, collection: "c", groupPath: ["g"], groupID: "x", name: "n", method: "GET",
                                          url: url, outcome: .response, error: nil), secrets: ["abcdef"])
        }
        let results = pipeline.finish(lateSecrets: ["abcdef-gh", "zzzzzzzz"])
        #expect(results.map(\.url) == ["http://h/?t=****", "http://h/?t=****"])
        try writer.finish(endedAt: "e", libcurlVersion: "", lateSecrets: ["abcdef-gh", "zzzzzzzz"], showSecrets: false)
        let text = try String(contentsOf: writer.file, encoding: .utf8)
        #expect(!text.contains("gh") && !text.contains("zzzz"))
    }

    @Test func handWrittenCredentialFieldsBecomeSecretsOfThePreparedRequest() throws {
        let request = Request(url: "http://h/headers", headers: [HeaderField(name: "Authorization", value: "Bearer {{t}}")])
        let prepared = try RequestPreparation.prepare(request, scope: VariableScope(layers: [VariableLayer(source: "t", values: ["t": "hand-t0ken"])])).get()
        #expect(prepared.secrets.contains("hand-t0ken"))
    }

    /// A secret is found in text by its UTF-8 bytes, not by characters: followed by a combining mark, a
    /// variation selector or a joiner (which make one character with its last letter) it was not found,
    /// and a body or header field `{{pw}}\u{301}` showed it in the record and `-v`. Its other normal form
    /// (NFD of an NFC secret, NFC of an NFD one, as a server that normalizes echoes it) is masked too.
    @Test func aSecretIsMaskedWhateverFollowsItsLastLetter() {
        let masker = SecretMasker(values: ["hunter2pass", "caf\u{e9}-key"])
        for (text, masked) in [("raw hunter2pass\u{301} text", "raw ****\u{301} text"), ("hunter2pass\u{FE0F}", "****\u{FE0F}"),
                               ("a hunter2pass\u{200D}\u{1F600}", "a ****\u{200D}\u{1F600}"), ("e\u{301}hunter2pass", "e\u{301}****"),
                               ("cafe\u{301}-key", "****"), ("x caf\u{e9}-key\u{301}", "x ****\u{301}")] {
            #expect(masker.mask(text).unicodeScalars.elementsEqual(masked.unicodeScalars), "\(text.debugDescription) -> \(masker.mask(text).debugDescription)")
        }
        let field = masker.mask([HeaderField(name: "X-A", value: "hunter2pass\u{301}")])
        #expect(field.map(\.value) == ["****\u{301}"])
        let body = masker.mask(RecordedBody(prefix: Array("{{x}} hunter2pass\u{301}".utf8), truncated: false))
        #expect(body.data.unicodeScalars.elementsEqual("{{x}} ****\u{301}".unicodeScalars), "\(body.data.debugDescription)")
    }
}

/// Values captured from responses are data, never templates.
@Suite struct LiteralLayerTests {
    @Test func capturedValuesAreNotExpandedAgain() throws {
        var captured = VariableLayer.captures()
        captured.values = ["echo": "{{password}}-{{process.env.HOME}}"]
        let scope = VariableScope(layers: [VariableLayer(source: "env", values: ["password": "hunter22", "a": "<{{echo}}>"]), captured],
                                  processEnvironment: ProcessEnvironment(["HOME": "/root"], allowing: ["HOME"]))
        #expect(try scope.resolve("x={{echo}}", field: "url") == "x={{password}}-{{process.env.HOME}}")
        // Through a variable of a file layer that refers to the capture, too.
        #expect(try scope.resolve("{{a}}", field: "url") == "<{{password}}-{{process.env.HOME}}>")
    }

}
