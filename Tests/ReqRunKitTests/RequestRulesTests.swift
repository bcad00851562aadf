import Foundation
import Testing
@testable import ReqRunKit

@Suite struct RedirectRuleTests {
    let post = PreparedRequest(method: "POST", url: "http://a.test/p", headers: [
        HeaderField(name: "Content-Type", value: "application/json"), HeaderField(name: "Authorization", value: "Bearer t"),
        HeaderField(name: "X-Api-Key", value: "k"), HeaderField(name: "X-Other", value: "1"),
    ], body: .bytes(Array("{}".utf8)), transferAuth: .digest(username: "u", password: "p"))

    @Test func methodChangesFollowRFC9110() {
        for (status, method) in [(301, "GET"), (302, "GET"), (303, "GET"), (307, "POST"), (308, "POST")] {
            let next = RedirectFollower.next(after: post, status: status, to: "http://a.test/q", trustLocation: false)
            #expect(next.method == method, "status \(status)")
            #expect((next.body != nil) == (method == "POST"))
            #expect(next.headers.contains { $0.name == "Content-Type" } == (method == "POST"))
        }
        var put = post
        put.method = "PUT"
        #expect(RedirectFollower.next(after: put, status: 302, to: "http://a.test/q", trustLocation: false).method == "PUT")
        #expect(RedirectFollower.next(after: put, status: 303, to: "http://a.test/q", trustLocation: false).method == "GET")
        var head = post
        head.method = "HEAD"
        #expect(RedirectFollower.next(after: head, status: 303, to: "http://a.test/q", trustLocation: false).method == "HEAD")
    }

    @Test func credentialsStayWithTheirOrigin() {
        var withKey = post
        withKey.credentialHeaderNames.insert("x-api-key")
        let same = RedirectFollower.next(after: withKey, status: 307, to: "http://A.test:80/other", trustLocation: false)
        #expect(same.headers.count == 4 && same.transferAuth != nil)
        for target in ["http://b.test/p", "https://a.test/p", "http://a.test:8080/p"] {
            let other = RedirectFollower.next(after: withKey, status: 307, to: target, trustLocation: false)
            #expect(other.headers.map(\.name) == ["Content-Type", "X-Other"], "\(target)")
            #expect(other.transferAuth == nil)
        }
        #expect(RedirectFollower.next(after: withKey, status: 307, to: "http://b.test/p", trustLocation: true).headers.count == 4)
    }

    @Test func credentialsComeBackOnAHopToTheOriginalOrigin() {
        let away = RedirectFollower.next(after: post, status: 307, to: "http://b.test/x", trustLocation: false)
        #expect(!away.headers.contains(named: "authorization") && away.transferAuth == nil)
        let back = RedirectFollower.next(after: away, original: post, status: 307, to: "http://a.test/y", trustLocation: false)
        #expect(back.headers.contains(named: "authorization") && back.transferAuth == post.transferAuth)
        let further = RedirectFollower.next(after: away, original: post, status: 307, to: "http://c.test/y", trustLocation: false)
        #expect(!further.headers.contains(named: "authorization"))
    }

    @Test func awsSessionTokenStaysWithItsOrigin() throws {
        let prepared = try RequestPreparation.prepare(Request(url: "http://a.test/p"), scope: VariableScope(layers: []),
            auth: .awsSigV4(accessKey: "AK", secretKey: "SK", region: "r", service: "s", sessionToken: "TOKEN")).get()
        #expect(prepared.headers.contains(named: "X-Amz-Security-Token"))
        let next = RedirectFollower.next(after: prepared, status: 302, to: "http://b.test/p", trustLocation: false)
        #expect(!next.headers.contains(named: "X-Amz-Security-Token") && next.transferAuth == nil)
    }

    @Test func locationsResolveAgainstTheRequest() {
        #expect(RedirectFollower.resolve("/x y?q=ü", against: "http://h:1/a/b")?.url == "http://h:1/x%20y?q=%C3%BC")
        #expect(RedirectFollower.resolve("c", against: "http://h/a/b")?.url == "http://h/a/c")
        #expect(RedirectFollower.resolve("//other/p", against: "https://h/a")?.url == "https://other/p")
        #expect(RedirectFollower.resolve("file:///etc/passwd", against: "http://h/")?.scheme == "file")
    }

    /// Foundation on Linux percent-encodes a whole URL again, `%` included, when its path holds a character
    /// it does not allow (`[`, `]`, a `%` without two hex digits): an escape in a `Location` must survive.
    @Test func escapesInALocationAreKeptBesideBrackets() {
        #expect(RedirectFollower.resolve("/a%20b[1]", against: "http://h/x")?.url == "http://h/a%20b%5B1%5D")
        #expect(RedirectFollower.resolve("http://[::1]:8/a%20b]?q=%20[1]", against: "http://h/x")?.url == "http://[::1]:8/a%20b%5D?q=%20%5B1%5D")
        #expect(RedirectFollower.resolve("/p?q=%20[1]%", against: "http://h/x")?.url == "http://h/p?q=%20%5B1%5D%25")
        #expect(RedirectFollower.resolve("/100%/a%2F", against: "http://h/x")?.url == "http://h/100%25/a%2F")
    }

    @Test func retryWaitsDoubleOrFollowRetryAfter() {
        let none = TransferResult(sentHeaders: [], response: nil, body: [], error: ResultError(message: "x"),
                                  timings: Timings(namelookup: 0, connect: 0, appconnect: 0, pretransfer: 0, starttransfer: 0, total: 0))
        #expect(RetryPolicy.shouldRetry(none))
        #expect([1, 2, 3, 10].map { RetryPolicy.delay(attempt: $0, after: none) } == [0.5, 1, 2, 10])
        var busy = none
        busy.response = ResponseRecord(status: 503, httpVersion: "1.1", headers: [HeaderField(name: "Retry-After", value: "3")], bodySize: 0,
                                       bodySHA256: "", body: RecordedBody(prefix: [], truncated: false), remoteAddress: nil, remotePort: nil)
        #expect(RetryPolicy.shouldRetry(busy) && RetryPolicy.delay(attempt: 1, after: busy) == 3)
        busy.response?.status = 500
        #expect(!RetryPolicy.shouldRetry(busy))
    }
}

@Suite struct URLRuleTests {
    @Test func pathKeepsEscapesAndEncodesTheRest() throws {
        #expect(try URLNormalizer.normalize("http://h/a%2Fb/ä b?q=x y&r=%zz#f g") == "http://h/a%2Fb/%C3%A4%20b?q=x%20y&r=%zz#f%20g")
        #expect(try URLNormalizer.normalize("http://h/{x}|\"<>\\^`") == "http://h/%7Bx%7D%7C%22%3C%3E%5C%5E%60")
        #expect(try URLNormalizer.normalize("https://bücher.example:8443/p") == "https://xn--bcher-kva.example:8443/p")
        #expect(try URLNormalizer.normalize("http://user@例え.テスト/") == "http://user@xn--r8jz45g.xn--zckzah/")
        #expect(try URLNormalizer.normalize("http://[::1]:80/x") == "http://[::1]:80/x")
    }

    @Test func hostsWithImpossibleCharactersAreInvalid() {
        #expect(throws: PreparationFailure.invalidURL("the host in 'http://exa mple.com/' contains a space")) {
            try URLNormalizer.validate("http://exa mple.com/")
        }
        #expect(throws: PreparationFailure.invalidURL("port 99999 is out of range (1-65535)")) { try URLNormalizer.validate("http://h:99999/") }
        #expect(throws: PreparationFailure.invalidURL("'http:///p' has no host")) { try URLNormalizer.validate("http:///p") }
        #expect(throws: Never.self) { try URLNormalizer.validate("http://user:pw@[::1]:8080/x") }
    }

    @Test func formAndQueryEncoding() {
        #expect(URLQuery.formEncode("a b&c=d+e%ü~") == "a+b%26c%3Dd%2Be%25%C3%BC%7E")
        #expect(URLQuery.encode("a b") == "a%20b")
    }

    @Test func queryParametersAppendInOrder() throws {
        let request = Request(url: "http://h/p?x=1", query: [Parameter(name: "b", value: "2"), Parameter(name: "a", value: "{{v}}"),
                                                             Parameter(name: "b", value: "3 4")])
        let prepared = try RequestPreparation.prepare(request, scope: VariableScope(layers: [VariableLayer(source: "t", values: ["v": "&"])])).get()
        #expect(prepared.url == "http://h/p?x=1&b=2&a=%26&b=3%204")
    }

    @Test func bodyKindsPrepare() throws {
        let scope = VariableScope(layers: [VariableLayer(source: "t", values: ["n": "Ada Lovelace", "id": "7"])])
        let form = try RequestPreparation.prepare(Request(method: "POST", url: "http://h", body: .form([Parameter(name: "name", value: "{{n}}"),
                                                                                                        Parameter(name: "k&", value: "ü")])), scope: scope).get()
        #expect(form.body == .bytes(Array("name=Ada+Lovelace&k%26=%C3%BC".utf8)))
        #expect(form.headers == [HeaderField(name: "Content-Type", value: "application/x-www-form-urlencoded")])
        let graphql = try RequestPreparation.prepare(Request(method: "POST", url: "http://h", body: .graphQL(
            query: "query Q($id: ID!) { user(id: $id) { name } }", variables: #"{"id":"{{id}}"}"#, operationName: "Q")), scope: scope).get()
        #expect(graphql.body == .bytes(Array(#"{"query":"query Q($id: ID!) { user(id: $id) { name } }","variables":{"id":"7"},"operationName":"Q"}"#.utf8)))
    }
}

@Suite struct BodyDecodingTests {
    private func decode(_ request: String, base: String = "/") throws(InputError) -> Request {
        try CollectionDecoder.decode(Array(#"{"name": "c", "groups": [{"name": "g", "requests": [\#(request)]}]}"#.utf8),
                                     file: "c.json", fileName: "c.json", files: FileScope(base: base, roots: FileRoots([base]))).groups[0].requests[0]
    }

    @Test func oneBodyAtMostAndFilesMustExist() throws {
        #expect(try #require(throws: InputError.self) { try decode(#"{"url": "u", "body": "a", "form": []}"#) }.reason
                == "a request has one body; found 'body' and 'form'")
        #expect(try #require(throws: InputError.self) { try decode(#"{"url": "u", "bodyFile": "nope.bin"}"#, base: "/tmp") }.reason
                == "no such file: /tmp/nope.bin")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reqrun-body-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("x".utf8).write(to: dir.appendingPathComponent("up.bin"))
        #expect(try decode(#"{"url": "u", "bodyFile": "up.bin"}"#, base: dir.path).body == .file(path: dir.appendingPathComponent("up.bin").path))
        let multipart = try decode(#"{"url": "u", "multipart": [{"name": "a", "value": "1"}, {"name": "f", "file": "up.bin", "contentType": "text/x", "fileName": "n.txt"}]}"#,
                                   base: dir.path)
        #expect(multipart.body == .multipart([MultipartPart(name: "a", content: .text("1")),
                                              MultipartPart(name: "f", content: .file(path: dir.appendingPathComponent("up.bin").path),
                                                            contentType: "text/x", fileName: "n.txt")]))
        #expect(try #require(throws: InputError.self) { try decode(#"{"url": "u", "multipart": [{"name": "a"}]}"#) }.reason
                == "a part needs exactly one of 'value' and 'file'")
        let timed = try decode(#"{"url": "u", "timeout": 1.5, "followRedirects": false, "maxRedirects": 3, "query": {"a": "1"}}"#)
        #expect(timed.timeoutMilliseconds == 1500 && timed.followRedirects == false && timed.maxRedirects == 3)
        #expect(timed.query == [Parameter(name: "a", value: "1")])
    }
}

@Suite struct HeaderNameTests {
    @Test func namesCompareWithoutCase() {
        let field = HeaderField(name: "Content-Type", value: "x")
        #expect(field.hasName("content-type") && field.hasName("CONTENT-TYPE") && !field.hasName("content-typ") && !field.hasName("content-types"))
        #expect(field.hasName(in: ["location", "content-type"]) && !field.hasName(in: ["location"]))
        #expect(HeaderField(name: "cookie", value: "").hasName(in: ["cookie"]) && HeaderField(name: "COOKIE", value: "").hasName(in: ["cookie"]))
        #expect(!HeaderField(name: "cookies", value: "").hasName(in: ["cookie"]) && HeaderField(name: "Ünï", value: "").hasName(in: ["Ünï"]))
        let fields = [HeaderField(name: "Set-Cookie", value: "a=1"), HeaderField(name: "x", value: "y"), HeaderField(name: "set-cookie", value: "b=2")]
        #expect(fields.values(named: "SET-COOKIE") == ["a=1", "b=2"] && fields.last(named: "set-cookie") == "b=2")
        #expect(fields.contains(named: "X") && !fields.contains(named: "z"))
    }
}
