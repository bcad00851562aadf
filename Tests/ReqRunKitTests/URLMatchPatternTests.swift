import Testing
@testable import ReqRunKit

/// Postman's URL match patterns (postman-collection's `UrlMatchPattern`), as `--ssl-client-cert-list` uses them.
@Suite struct URLMatchPatternTests {
    private func matches(_ pattern: String, _ url: String) throws -> Bool {
        try #require(URLMatchPattern(pattern)).matches(url)
    }

    @Test func schemesHostsPortsAndPathsMatchAsPostmanMatchesThem() throws {
        #expect(try matches("<all_urls>", "https://any.where:9/x?y"))
        #expect(try matches("https://api.example.com/*", "https://api.example.com/v1/users?id=1"))
        #expect(try matches("https://api.example.com/*", "https://API.Example.com/"))
        #expect(try !matches("https://api.example.com/*", "http://api.example.com/"))
        #expect(try matches("http+https://api.example.com/*", "http://api.example.com/"))
        #expect(try matches("*://api.example.com/*", "https://api.example.com/"))
        // *.domain: the domain and every name under it, nothing that merely ends with its text.
        #expect(try matches("https://*.example.com/*", "https://example.com/"))
        #expect(try matches("https://*.example.com/*", "https://a.b.example.com/"))
        #expect(try !matches("https://*.example.com/*", "https://badexample.com/"))
        // Ports: the scheme's default stands for a missing one, on either side.
        #expect(try matches("https://h/*", "https://h:443/x"))
        #expect(try !matches("https://h/*", "https://h:8443/x"))
        #expect(try matches("https://h:8443/*", "https://h:8443/x"))
        #expect(try matches("https://h:443/*", "https://h/x"))
        #expect(try matches("https://h:*/*", "https://h:1/x"))
        // The path is a glob over the path alone (no query), anchored at both ends.
        #expect(try matches("https://h/api/*/items", "https://h/api/v2/items?page=2"))
        #expect(try !matches("https://h/api/*/items", "https://h/api/v2/items/3"))
        #expect(try matches("https://h/v?", "https://h/v1"))
        #expect(try matches("https://h/", "https://h"))
        #expect(try matches("https://h/*", "https://user:pw@h/x"))
    }

    @Test func malformedPatternsAreRefused() {
        for text in ["localhost:8443", "https://h", "wss://h/*", "https://*h/*", "https://a.*.b/*", "https://h:44x/*", "http+*://h/*", "://h/*"] {
            #expect(URLMatchPattern(text) == nil, "\(text)")
            #expect(URLMatchPattern.refusal(text)?.hasPrefix("'\(text)' is not a URL match pattern: SCHEME://HOST[:PORT]/PATH") == true)
        }
        #expect(URLMatchPattern.refusal("https://h/*") == nil)
    }

    /// postman-collection reads `user@h` as the host and never finds it in a URL's host: such a pattern matches
    /// nothing there, so reqrun refuses it with a reason that says to leave the user out.
    @Test func patternsWithUserInformationAreRefusedWithTheirReason() {
        for text in ["https://user@h/*", "https://user:pw@h:8443/*", "*://@h/*"] {
            #expect(URLMatchPattern(text) == nil, "\(text)")
            #expect(URLMatchPattern.refusal(text) == "'\(text)' has user information (user@): a URL match pattern names the host alone "
                    + "(Postman's pattern with it never matches); write SCHEME://HOST[:PORT]/PATH")
        }
        // In the path, `@` is a character like any other.
        #expect(URLMatchPattern("https://h/users/@me") != nil)
    }
}
