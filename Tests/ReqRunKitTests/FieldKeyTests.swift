import Foundation
import Testing
@testable import ReqRunKit

/// Field lookups compare `KeyCode`s where they can; these check that the answers stay those of `String ==`.
@Suite struct FieldKeyTests {
    private func decode(_ text: String) throws(InputError) -> RequestCollection {
        try CollectionDecoder.decode(Array(text.utf8), file: "collections/x.json", fileName: "x.json")
    }

    private func reason(_ text: String) -> String? {
        do {
            _ = try decode(text)
            return nil
        } catch {
            return error.reason
        }
    }

    private func request(_ members: String) throws -> Request {
        try decode(#"{"name": "a", "groups": [{"name": "g", "requests": [{"# + members + "}]}]}").groups[0].requests[0]
    }

    @Test func codesDecideOnlyForASCII() {
        #expect(KeyCode("url").equals(KeyCode("url")) == true)
        #expect(KeyCode("url").equals(KeyCode("urls")) == false)
        #expect(KeyCode("name").equals(KeyCode("body")) == false)
        // Eight bytes fit in a code; longer ASCII names only say they differ from short ones.
        #expect(KeyCode("requests").equals(KeyCode("requests")) == true)
        #expect(KeyCode("description").equals(KeyCode("description")) == nil)
        #expect(KeyCode("description").equals(KeyCode("url")) == false)
        // A NUL byte still counts: "a" and "a\0" differ.
        #expect(KeyCode("a").equals(KeyCode("a\u{0}")) == false)
        // U+212A KELVIN SIGN equals "K" for String ==, so non-ASCII never decides by code.
        #expect(KeyCode("\u{212A}").equals(KeyCode("K")) == nil)
        #expect(KeyCode("K").equals(KeyCode("K")) == true)
        #expect(KeyCode(StaticString("method")) == KeyCode("method"))
        #expect(KeyCode(StaticString("multipart")) == KeyCode.longASCII)
    }

    @Test func keysWrittenWithEscapesMatch() throws {
        let r = try request(#""\u0075rl": "u", "m\u0065thod": "POST", "n\u0061me": "N""#)
        #expect(r.url == "u")
        #expect(r.method == "POST")
        #expect(r.name == "N")
    }

    @Test func keysDifferingOnlyInLengthAreUnknown() {
        #expect(reason(#"{"name": "a", "groups": [{"name": "g", "requests": [{"urlx": "u"}]}]}"#)
            == "unknown field 'urlx' (did you mean 'url'?)")
        #expect(reason(#"{"name": "a", "groups": [{"name": "g", "requests": [{"url": "u", "ur": "v"}]}]}"#)
            == "unknown field 'ur' (did you mean 'url'?)")
        #expect(reason(#"{"name": "a", "groups": [{"name": "g", "requests": [{"url": "u", "url\u0000": "v"}]}]}"#)
            == "unknown field 'url\u{0}' (did you mean 'url'?)")
        #expect(reason(#"{"name": "a", "groups": [{"name": "g", "requests": [{"url": "u", "followRedirectsX": true}]}]}"#)
            == "unknown field 'followRedirectsX' (did you mean 'followRedirects'?)")
    }

    @Test func longKeysMatch() throws {
        let r = try request(#""url": "u", "followRedirects": false, "maxRedirects": 3, "description": "d""#)
        #expect(r.followRedirects == false)
        #expect(r.maxRedirects == 3)
    }

    @Test func duplicateKeysAreReported() {
        #expect(reason(#"{"name": "a", "groups": [{"name": "g", "requests": [{"url": "u", "url": "v"}]}]}"#)
            == "the field 'url' appears twice")
        #expect(reason(#"{"name": "a", "groups": [{"name": "g", "requests": [{"url": "u", "\u0075rl": "v"}]}]}"#)
            == "the field 'url' appears twice")
        #expect(reason(#"{"name": "a", "groups": [{"name": "g", "requests": [{"url": "u", "description": "1", "description": "2"}]}]}"#)
            == "the field 'description' appears twice")
    }

    /// `accessKey` spelled with U+212A KELVIN SIGN is the same key for `String ==`, as it was before codes.
    @Test func kelvinSignStillEqualsK() throws {
        let kelvin = "access\u{212A}ey"
        let r = try request(#""url": "u", "auth": {"type": "awsv4", "\#(kelvin)": "AK", "secretKey": "S", "region": "r", "service": "s"}"#)
        guard case .awsSigV4(let accessKey, _, _, _, _)? = r.auth else {
            Issue.record("expected awsv4 auth, got \(String(describing: r.auth))")
            return
        }
        #expect(accessKey == "AK")
        #expect(reason(#"{"name": "a", "groups": [{"name": "g", "requests": [{"url": "u", "auth": {"type": "awsv4", "accessKey": "A", "\#(kelvin)": "B", "secretKey": "S", "region": "r", "service": "s"}}]}]}"#)
            == "the field '\(kelvin)' appears twice")
        // And in the other direction: a key that is not ASCII against a literal that is.
        let reader = try FieldReader(file: "f", node: JSONParser.parse(Array(#"{"\#(kelvin)": 1}"#.utf8)), path: "")
        #expect(reader.optional("accessKey")?.value == .number("1"))
        #expect(reader.optional(.named("accessKey"))?.value == .number("1"))
        #expect(reader.optional("accessKeys") == nil)
    }

    /// Lookups first ask the reader's presence bits (`FieldReader.presentKeys`), which may only rule a key out
    /// when no member can equal it: every member is still found among many (bits shared by two keys
    /// included), absent keys are not, and a name that is not ASCII still finds its ASCII equal.
    @Test func presenceBitsNeverHideAKey() throws {
        let keys = ["id", "name", "description", "method", "url", "query", "headers", "body", "form", "multipart", "bodyFile",
                    "graphql", "auth", "expect", "capture", "scripts", "timeout", "followRedirects", "maxRedirects", "a", "b", "c",
                    "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "é", "requests", "groups", "K"]
        let object = "{" + keys.enumerated().map { #""\#($1)": \#($0)"# }.joined(separator: ", ") + "}"
        let reader = try FieldReader(file: "f", node: JSONParser.parse(Array(object.utf8)), path: "")
        for (i, key) in keys.enumerated() {
            #expect(reader.optional(.named(key))?.value == .number("\(i)"), "\(key)")
            #expect(reader.optional(FieldName(key))?.value == .number("\(i)"), "\(key)")
        }
        #expect(reader.optional("insecure") == nil && reader.optional("x10") == nil && reader.optional(FieldName("ids")) == nil)
        let few = try FieldReader(file: "f", node: JSONParser.parse(Array(#"{"url": 1, "accessKey": 2, "K": 3}"#.utf8)), path: "")
        #expect(few.optional("method") == nil && few.optional("followRedirects") == nil)
        #expect(few.optional(.named("access\u{212A}ey"))?.value == .number("2"))
        #expect(few.optional(.named("\u{212A}"))?.value == .number("3"))
    }
}
