import Foundation
import Testing
import ReqRunKit
import TestSupport

/// The rest of postman-sandbox's `pm` surface (`SandboxRequestAPI`): `pm.request.to.*`, the URL's parts,
/// `getHeaders`, chai-postman's remaining response assertions, `pm.visualizer`, and the clear errors of
/// `pm.vault` and `pm.require`. The built binary against the local httpbin, with collections of our own.
@Suite struct PostmanRequestAPIEndToEndTests {
    private func run(_ collection: String) throws -> (ReqRunBinary.Output, RunRecord) {
        let dir = try TemporaryDirectory()
        try dir.write("collections/scripts.json", collection)
        let output = try ReqRunBinary.run(["run", "--all"], in: dir.url)
        let runs = try FileManager.default.contentsOfDirectory(atPath: dir.url.appendingPathComponent(".reqrun/runs").path)
        return (output, try RecordFiles.decode(dir.url.appendingPathComponent(".reqrun/runs/\(try #require(runs.first))")))
    }

    private static func checks(_ result: RequestResult) -> [String] {
        result.expectations.filter { $0.kind != nil }.map { "\($0.passed ? "✓" : "✗") \($0.description)\($0.actual.isEmpty ? "" : ": \($0.actual)")" }
    }

    /// chai-postman's request assertions (`pm.request.to.have.header`, `.be.postmanRequest`), with its
    /// messages naming the request; the URL's parts as postman-collection's `Url` gives them, also for a URL
    /// that starts with a `{{…}}` template, and changed through them.
    @Test func requestAssertionsAndURLParts() throws {
        let base = try TestServers.httpbin()
        let (output, record) = try run(PostmanScriptsEndToEndTests.collection([
            ("parts", "{{base}}/anything/a/b?x=1&y=2#top", [
                "pm.request.headers.add({key: 'X-One', value: '1'});",
                "pm.test('header', () => pm.request.to.have.header('X-One', '1'));",
                "pm.test('not header', () => pm.request.to.not.have.header('X-Two'));",
                "pm.test('a request', () => { pm.request.to.be.a.postmanRequest; pm.request.to.be.postmanRequestOrResponse; });",
                "pm.test('wrong value', () => pm.request.to.have.header('X-One', '2'));",
                "pm.test('missing', () => pm.request.to.have.header('X-Two'));",
                "const u = pm.request.url;",
                "pm.test('template parts', () => { pm.expect(u.host).to.eql(['{{base}}']); pm.expect(u.path).to.eql(['anything', 'a', 'b']);",
                "  pm.expect(u.protocol).to.be.undefined; pm.expect(u.hash).to.equal('top'); pm.expect(u.getPath()).to.equal('/anything/a/b');",
                "  pm.expect(u.getPathWithQuery()).to.equal('/anything/a/b?x=1&y=2'); pm.expect(u.getRemote()).to.equal('{{base}}'); });",
                "pm.test('getHeaders', () => pm.expect(pm.request.getHeaders()).to.eql({'X-One': '1'}));",
                "u.path = ['anything', 'changed'];",
                "u.hash = '';",
            ], [
                "pm.test('the changed path was sent', () => pm.expect(pm.response.json().url).to.match(/\\/anything\\/changed\\?x=1&y=2$/));",
                "pm.test('response is not a request', () => { pm.response.to.be.a.postmanResponse; pm.response.to.not.be.a.postmanRequest; });",
            ]),
            ("literal", "\(base)/anything/p", [
                "const u = pm.request.url;",
                "pm.test('literal parts', () => { pm.expect(u.protocol).to.equal('http'); pm.expect(u.host).to.eql(['127', '0', '0', '1']);",
                "  pm.expect(u.port).to.match(/^[0-9]+$/); pm.expect(u.getRemote()).to.equal(u.getHost() + ':' + u.port); });",
                "u.port = '1'; u.protocol = 'https'; u.auth = 'me:pw';",
                "pm.test('rewritten', () => pm.expect(u.toString()).to.equal('https://me:pw@127.0.0.1:1/anything/p'));",
                "pm.execution.skipRequest();",
            ], []),
        ], variables: ["base": base]))
        #expect(output.status == 1, "\(output.stdout)\(output.stderr)")
        let result = try #require(record.results.first)
        #expect(record.results.count == 2)
        #expect(Self.checks(result) == [
            "✓ header", "✓ not header", "✓ a request",
            "✗ wrong value: AssertionError: expected 'X-One' request header to be '2' but got '1'",
            "✗ missing: AssertionError: expected request to have header with key 'X-Two'",
            "✓ template parts", "✓ getHeaders", "✓ the changed path was sent", "✓ response is not a request",
        ])
        #expect(Self.checks(try #require(record.results.last)) == ["✓ literal parts", "✓ rewritten"])
    }

    /// chai-postman's response assertions that were missing: `statusCode`, `statusReason`, `statusCodeClass`,
    /// `withoutContent`, `unauthorised`, `notAcceptable`, `withBody`, `responseSize`; `pm.visualizer.set`
    /// and `clear` are accepted (Newman renders nothing); `pm.vault` and `pm.require` fail with a reason.
    @Test func responseAssertionsVisualizerVaultAndRequire() throws {
        let base = try TestServers.httpbin()
        let (output, record) = try run(PostmanScriptsEndToEndTests.collection([
            ("no content", "\(base)/status/204", [], [
                "pm.test('codes', () => { pm.response.to.have.statusCode(204); pm.response.to.have.statusReason('No Content');",
                "  pm.response.to.have.statusCodeClass(2); pm.response.to.be.withoutContent; pm.response.to.not.be.withBody; });",
                "pm.test('size', () => pm.response.to.have.responseSize(0));",
                "pm.test('wrong class', () => pm.response.to.have.statusCodeClass(4));",
                "pm.visualizer.set('<b>{{x}}</b>', {x: 1}); pm.visualizer.clear();",
                "pm.test('vault', async () => { let e; try { await pm.vault.get('k'); } catch (x) { e = x; } pm.expect(String(e)).to.include('Postman Vault'); });",
                "pm.test('require', () => pm.expect(() => pm.require('@team/lib')).to.throw(/package library/));",
            ]),
            ("401", "\(base)/status/401", [], ["pm.test('unauthorised', () => { pm.response.to.be.unauthorised; pm.response.to.be.unauthorized; });"]),
            ("406", "\(base)/status/406", [], ["pm.test('notAcceptable', () => pm.response.to.be.notAcceptable);"]),
            ("body", "\(base)/bytes/10", [], ["pm.test('withBody', () => { pm.response.to.be.withBody; pm.response.to.have.responseSize(10); });"]),
        ]))
        #expect(output.status == 1, "\(output.stdout)\(output.stderr)")
        #expect(record.results.flatMap(Self.checks) == [
            "✓ codes", "✓ size", "✗ wrong class: AssertionError: expected response code to be 4XX but found 204", "✓ vault", "✓ require",
            "✓ unauthorised", "✓ notAcceptable", "✓ withBody",
        ])
    }
}
