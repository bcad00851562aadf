import Foundation
import Testing
import ReqRunKit
import TestSupport

/// The sandbox's request and response surface beyond `pm.request`/`pm.response`: `pm.sendRequest`, test
/// scripts after a transport error, `pm.cookies`, `protocolProfileBehavior`, script-set secrets. The built
/// binary against the local httpbin, with collections of our own.
@Suite struct PostmanSandboxAPIEndToEndTests {
    /// A refused connection: nothing listens on port 1 of the loopback address.
    static let refused = "http://127.0.0.1:1/"

    private func run(_ collection: String, _ arguments: [String] = [], files: [String: String] = [:]) throws
        -> (ReqRunBinary.Output, RunRecord, String) {
        let dir = try TemporaryDirectory()
        try dir.write("collections/scripts.json", collection)
        for (path, text) in files { try dir.write(path, text) }
        let output = try ReqRunBinary.run(["run", "--all"] + arguments, in: dir.url)
        let runs = try FileManager.default.contentsOfDirectory(atPath: dir.url.appendingPathComponent(".reqrun/runs").path)
        let data = try Data(contentsOf: dir.url.appendingPathComponent(".reqrun/runs/\(try #require(runs.first))"))
        return (output, try RecordFiles.decode(dir.url.appendingPathComponent(".reqrun/runs/\(try #require(runs.first))")), String(decoding: data, as: UTF8.self))
    }

    /// `✓ name` or `✗ name: error` for each of a result's script assertions (also `PostmanTimersEndToEndTests`).
    static func checks(_ result: RequestResult) -> [String] {
        result.expectations.filter { $0.kind != nil }.map { "\($0.passed ? "✓" : "✗") \($0.description)\($0.actual.isEmpty ? "" : ": \($0.actual)")" }
    }

    /// `pm.sendRequest` with a callback (pre-request: what it sets is used by the request) and as a promise
    /// awaited at the top level of a test script (a request object: method, header object, raw JSON body,
    /// urlencoded body); values are sent as written (`{{…}}` not resolved); each exchange is recorded under
    /// the request and shown by `-v`.
    @Test func sendRequestWithACallbackAndAsAPromise() throws {
        let base = try TestServers.httpbin()
        let (output, record, _) = try run(PostmanScriptsEndToEndTests.collection([
            ("uses it", "\(base)/anything/{{via}}", [
                "pm.sendRequest('\(base)/get?via=callback', function (err, response) {",
                "  pm.variables.set('via', response.json().args.via);",
                "  pm.variables.set('code', response.code + ' ' + response.status);",
                "});",
            ], [
                "pm.test('the callback ran before the request', () => pm.expect(pm.response.json().url).to.match(/\\/anything\\/callback$/));",
                "pm.test('its response', () => pm.expect(pm.variables.get('code')).to.equal('200 OK'));",
                "const posted = await pm.sendRequest({url: '\(base)/post', method: 'post', header: {'X-From': 'script'},",
                "  body: {mode: 'raw', raw: JSON.stringify({a: 1, t: '{{nope}}'}), options: {raw: {language: 'json'}}}});",
                "pm.test('promise', () => { pm.expect(posted.code).to.equal(200); pm.expect(posted.json().json).to.eql({a: 1, t: '{{nope}}'});",
                "  pm.expect(posted.json().headers['X-From']).to.equal('script'); pm.expect(posted.json().headers['Content-Type']).to.equal('application/json');",
                "  pm.expect(posted.headers.get('content-type')).to.include('json'); pm.expect(posted.responseTime).to.be.a('number'); });",
                "const form = await pm.sendRequest({url: '\(base)/post', method: 'POST', body: {mode: 'urlencoded',",
                "  urlencoded: [{key: 'k', value: 'v w'}, {key: 'off', value: 'x', disabled: true}]}});",
                "pm.test('urlencoded', () => pm.expect(form.json().form).to.eql({k: 'v w'}));",
                "pm.sendRequest({url: '\(base)/headers', header: [{key: 'X-List', value: 'one'}]}, (err, res) => {",
                "  pm.test('a header list, in a callback of a test script', () => pm.expect(res.json().headers['X-List']).to.equal('one'));",
                "});",
            ]),
        ]), ["-v"])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        let result = try #require(record.results.first)
        #expect(Self.checks(result) == ["✓ the callback ran before the request", "✓ its response", "✓ promise", "✓ urlencoded",
                                        "✓ a header list, in a callback of a test script"])
        let exchanges = try #require(result.scriptRequests)
        #expect(exchanges.map { "\($0.method) \($0.url) \($0.status.map(String.init) ?? "-")" } == [
            "GET \(base)/get?via=callback 200", "POST \(base)/post 200", "POST \(base)/post 200", "GET \(base)/headers 200",
        ])
        #expect(exchanges[0].place.hasSuffix("item[0].event[0] (prerequest)"))
        #expect(exchanges[1].place.hasSuffix("item[0].event[1] (test)"))
        #expect(exchanges.allSatisfy { $0.total > 0 && $0.error == nil })
        #expect(output.stdout.contains("* pm.sendRequest GET \(base)/get?via=callback → 200"), "\(output.stdout)")
    }

    /// A transport error gives the callback an `err` (Node's code), not a crash; the promise form rejects;
    /// the exchange is recorded with the error.
    @Test func aTransportErrorIsTheCallbacksErr() throws {
        let base = try TestServers.httpbin()
        let (output, record, _) = try run(PostmanScriptsEndToEndTests.collection([
            ("one", "\(base)/get", [], [
                "pm.sendRequest('\(Self.refused)', function (err, response) {",
                "  pm.test('err', () => { pm.expect(err).to.be.an('error'); pm.expect(err.code).to.equal('ECONNREFUSED');",
                "    pm.expect(response).to.be.undefined; });",
                "});",
                "try { await pm.sendRequest('\(Self.refused)'); pm.test('not reached', () => {}); }",
                "catch (e) { pm.test('rejected', () => pm.expect(e.code).to.equal('ECONNREFUSED')); }",
            ]),
        ]))
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        let result = try #require(record.results.first)
        #expect(Self.checks(result) == ["✓ err", "✓ rejected"])
        #expect(result.scriptRequests?.map(\.status) == [nil, nil])
        #expect(result.scriptRequests?.first?.error?.isEmpty == false)
    }

    /// Credentials a script request sends are secrets for the run: its URL, the echoed header and the
    /// console are masked in the record.
    @Test func sendRequestCredentialsAreMasked() throws {
        let base = try TestServers.httpbin()
        let (output, record, json) = try run(PostmanScriptsEndToEndTests.collection([
            ("one", "\(base)/get", [
                "pm.sendRequest({url: '\(base)/basic-auth/user/pa55word', auth: {type: 'basic', basic: [",
                "  {key: 'username', value: 'user'}, {key: 'password', value: 'pa55word'}]}}, (err, res) => {",
                "  console.log('status', res.code, res.json().user);",
                "});",
            ], []),
        ]))
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        let result = try #require(record.results.first)
        #expect(result.scriptRequests?.first?.status == 200)
        #expect(result.scriptRequests?.first?.url == "\(base)/basic-auth/user/****")
        #expect(result.console == ["status 200 user"])
        #expect(!json.contains("pa55word"))
    }

    /// A method or header field name a script makes (pm.sendRequest, or pm.request changed by a pre-request
    /// script) is a token, as one a collection writes: a CR LF in it would split the request line or a field
    /// into lines of the script's choosing.
    @Test func scriptMethodsAndFieldNamesAreTokens() throws {
        let base = try TestServers.httpbin()
        let (output, record, _) = try run(PostmanScriptsEndToEndTests.collection([
            ("send", "\(base)/get", [
                "pm.sendRequest({url: '\(base)/anything', method: 'GET /x HTTP/1.1\\r\\nX-Injected: 1\\r\\nY:'}, (e, r) => console.log('method', e ? e.message : r.code));",
                "pm.sendRequest({url: '\(base)/anything', header: [{key: 'X\\r\\nInjected', value: 'v'}]}, (e, r) => console.log('name', e ? e.message : r.code));",
            ], []),
            ("changed", "\(base)/get", ["pm.request.headers.add({key: 'X\\r\\nInjected', value: 'v'});"], []),
        ]))
        #expect(output.status == 3, "\(output.stdout)\(output.stderr)")
        #expect(record.results[0].console == ["method method 'GET /X HTTP/1.1\\r\\nX-INJECTED: 1\\r\\nY:' is not a valid method (a token, RFC 9110 §9.1)",
                                              "name headers[0].name 'X\\r\\nInjected' is not a valid field name (a token, RFC 9110 §5.1)"])
        #expect(record.results[1].outcome == .invalid, "\(record.results[1])")
        #expect(record.results[1].error?.message == "headers[0].name 'X\\r\\nInjected' is not a valid field name (a token, RFC 9110 §5.1)")
    }

    /// Waiting for a script request counts toward --script-timeout: the transfer is cut at what is left.
    @Test func sendRequestWaitsWithinTheScriptTimeLimit() throws {
        let base = try TestServers.httpbin()
        let started = ContinuousClock.now
        let (output, record, _) = try run(PostmanScriptsEndToEndTests.collection([
            ("slow", "\(base)/get", ["pm.sendRequest('\(base)/delay/5', () => { console.log('answered'); });"], []),
        ]), ["--script-timeout", "1"])
        #expect(ContinuousClock.now - started < .seconds(4))
        #expect(output.status == 3, "\(output.stdout)\(output.stderr)")
        let result = try #require(record.results.first)
        #expect(result.outcome == .scriptError)
        #expect(result.error?.message.contains("ran for more than 1 s") == true, "\(String(describing: result.error))")
    }

    /// Newman runs a request's test scripts after a transport error too, without a response: a test that
    /// does not need one passes, one on `pm.response` fails; the request stays a transport error (exit 3).
    @Test func testScriptsRunAfterATransportError() throws {
        let (output, record, _) = try run(PostmanScriptsEndToEndTests.collection([
            ("refused", Self.refused, [], [
                "pm.test('runs', () => pm.expect(pm.info.eventName).to.equal('test'));",
                "pm.test('status', () => pm.response.to.have.status(200));",
            ]),
        ]))
        #expect(output.status == 3, "\(output.stdout)\(output.stderr)")
        let result = try #require(record.results.first)
        #expect(result.outcome == .transportError)
        let checks = Self.checks(result)
        #expect(checks.count == 2)
        #expect(checks.first == "✓ runs")
        #expect(checks.last?.hasPrefix("✗ status: TypeError") == true, "\(checks)")
        #expect(output.stdout.contains("✓ runs"))
    }

    /// With --bail the run stops at the failed request, and its test scripts do not run (Newman's --bail).
    @Test func bailSkipsTestScriptsAfterATransportError() throws {
        let (_, record, _) = try run(PostmanScriptsEndToEndTests.collection([
            ("refused", Self.refused, [], ["pm.test('runs', () => {});"]),
        ]), ["--bail"])
        #expect(Self.checks(try #require(record.results.first)).isEmpty)
    }

    /// A value a script sets on a secret environment variable, or a value equal to a known secret set on any
    /// variable, is a secret: masked in the console as printed (the request that set it included), in the
    /// record and the reports; `--export-environment` writes such a variable with `type` `secret`.
    @Test func valuesScriptsSetOnSecretsAreMasked() throws {
        let base = try TestServers.httpbin()
        let dir = try TemporaryDirectory()
        try dir.write("collections/scripts.json", PostmanScriptsEndToEndTests.collection([
            ("login", "\(base)/get?issued=T0k3n-from-server", [], [
                "pm.environment.set('token', pm.response.json().args.issued);",
                "console.log('token', pm.environment.get('token'));",
                "pm.environment.set('copy', pm.environment.get('password'));",
            ]),
            ("use", "\(base)/anything/{{token}}", ["console.log('using', pm.environment.get('token'), pm.environment.get('copy'));"], []),
        ]))
        try dir.write("env.json", """
            {"name": "e", "values": [{"key": "token", "value": "", "type": "secret"}, {"key": "password", "value": "Pa55-w0rd", "type": "secret"}]}
            """)
        let output = try ReqRunBinary.run(["run", "--all", "--env", "env.json", "--export-environment", "out.json", "--report", "junit=r.xml"],
                                          in: dir.url)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("│ token ****"), "\(output.stdout)")
        #expect(output.stdout.contains("│ using **** ****"), "\(output.stdout)")
        #expect(!output.stdout.contains("T0k3n-from-server"))
        let runs = try FileManager.default.contentsOfDirectory(atPath: dir.url.appendingPathComponent(".reqrun/runs").path)
        let record = try dir.read(".reqrun/runs/\(try #require(runs.first))")
        #expect(!record.contains("T0k3n-from-server") && !record.contains("Pa55-w0rd"))
        #expect(!(try dir.read("r.xml")).contains("T0k3n-from-server"))
        let export = try dir.read("out.json")
        #expect(export.contains("\"copy\""), "\(export)")
        let copy = try #require(export.range(of: "copy"))
        #expect(export[copy.upperBound...].prefix(80).contains("secret"), "\(export)")
    }

    /// `protocolProfileBehavior` on the collection, a folder and a request, merged key by key (the innermost
    /// wins): redirects off and on with a maximum, the original method kept, the Authorization field sent on
    /// to another origin, strictSSL off, body pruning of GET under --compat newman as postman-runtime does unless disabled; a key
    /// reqrun does not honour warns once; `import` writes the native fields.
    @Test func protocolProfileBehaviorIsHonouredAndImported() throws {
        let base = try TestServers.httpbin(), https = try TestServers.nginxHTTPS()
        let port = try #require(URLComponents(string: base)?.port)
        let other = "http://localhost:\(port)"
        let collection = """
            {"info": {"name": "profile", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             "protocolProfileBehavior": {"followRedirects": false, "disableUrlEncoding": true},
             "item": [
              {"name": "not followed", "request": {"method": "GET", "url": "\(base)/redirect-to?url=/get"}},
              {"name": "folder", "protocolProfileBehavior": {"followRedirects": true, "maxRedirects": 1}, "item": [
                {"name": "too many", "request": {"method": "GET", "url": "\(base)/redirect/2"}},
                {"name": "keeps POST", "protocolProfileBehavior": {"followOriginalHttpMethod": true},
                 "request": {"method": "POST", "url": "\(base)/redirect-to?url=/anything&status_code=302",
                             "body": {"mode": "raw", "raw": "kept"}}},
                {"name": "POST becomes GET", "request": {"method": "POST", "url": "\(base)/redirect-to?url=/anything&status_code=302",
                             "body": {"mode": "raw", "raw": "dropped"}}},
                {"name": "authorization on", "protocolProfileBehavior": {"followAuthorizationHeader": true, "disableUrlEncoding": false},
                 "request": {"method": "GET", "url": "\(base)/redirect-to?url=\(other)/headers",
                             "auth": {"type": "bearer", "bearer": [{"key": "token", "value": "tok"}]}}},
                {"name": "authorization kept back", "request": {"method": "GET", "url": "\(base)/redirect-to?url=\(other)/headers",
                             "auth": {"type": "bearer", "bearer": [{"key": "token", "value": "tok"}]}}}
              ]},
              {"name": "pruned", "request": {"method": "GET", "url": "\(base)/anything",
                "body": {"mode": "raw", "raw": "gone", "options": {"raw": {"language": "json"}}}}},
              {"name": "not pruned", "protocolProfileBehavior": {"disableBodyPruning": true},
               "request": {"method": "GET", "url": "\(base)/anything", "body": {"mode": "raw", "raw": "sent"}}},
              {"name": "strictSSL off", "protocolProfileBehavior": {"strictSSL": false}, "request": "\(https)/"},
              {"name": "strictSSL on", "request": "\(https)/"}
             ]}
            """
        let (output, record, _) = try run(collection)
        let results = Dictionary(record.results.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        #expect(results["not followed"]?.response?.status == 302)
        #expect(results["too many"]?.error?.message.contains("maximum of 1 redirects") == true)
        func echoed(_ name: String) throws -> [String: Any] {
            let body = try #require(results[name]?.response?.body.data, "\(name)")
            return try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any], "\(name)")
        }
        #expect(try echoed("keeps POST")["method"] as? String == "POST")
        #expect(try echoed("keeps POST")["data"] as? String == "kept")
        #expect(try echoed("POST becomes GET")["method"] as? String == "GET")
        #expect((try echoed("authorization on")["headers"] as? [String: String])?["Authorization"] != nil)
        #expect((try echoed("authorization kept back")["headers"] as? [String: String])?["Authorization"] == nil)
        // reqrun's rules send a GET's body; Newman's (--compat newman) prune it unless disableBodyPruning.
        #expect(try echoed("pruned")["data"] as? String == "gone")
        #expect(try echoed("not pruned")["data"] as? String == "sent")
        let (_, newman, _) = try run(collection, ["--compat", "newman"])
        let pruned = Dictionary(newman.results.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        func echoedByNewman(_ name: String) throws -> [String: Any] {
            let body = try #require(pruned[name]?.response?.body.data, "\(name)")
            return try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any], "\(name)")
        }
        #expect(try echoedByNewman("pruned")["data"] as? String == "")
        #expect(try echoedByNewman("not pruned")["data"] as? String == "sent")
        #expect(results["strictSSL off"]?.outcome == .response)
        #expect(results["strictSSL on"]?.outcome == .transportError)
        let warnings = output.stderr.components(separatedBy: "protocolProfileBehavior.disableUrlEncoding is not honoured")
        #expect(warnings.count == 2, "one warning: \(output.stderr)")

        let dir = try TemporaryDirectory()
        try dir.write("profile.postman_collection.json", collection)
        let imported = try ReqRunBinary.run(["import", "profile.postman_collection.json", "--to", "collections/profile.json"], in: dir.url)
        #expect(imported.status == 0, "\(imported.stderr)")
        let native = try dir.read("collections/profile.json")
        for field in [#""followOriginalMethod": true"#, #""followAuthorization": true"#, #""insecure": true"#,
                      #""followRedirects": false"#, #""maxRedirects": 1"#, #""disableBodyPruning": true"#] {
            #expect(native.contains(field), "\(field) in \(native)")
        }
        let again = try ReqRunBinary.run(["run", "--all"], in: dir.url)
        #expect(again.stdout.contains("302"), "\(again.stdout)")
    }

    /// `pm.cookies` is the jar's cookies for the request's URL (in test scripts); `pm.cookies.jar()` reads and
    /// changes the run's own cookie store, which later requests send, for the request's host only.
    @Test func cookiesAndTheRunsCookieJar() throws {
        let base = try TestServers.httpbin()
        let (output, record, _) = try run(PostmanScriptsEndToEndTests.collection([
            ("set", "\(base)/cookies/set?session=abc", [], [
                "pm.test('pm.cookies', () => { pm.expect(pm.cookies.get('session')).to.equal('abc'); pm.expect(pm.cookies.has('nope')).to.be.false;",
                "  pm.expect(pm.cookies.toObject()).to.eql({session: 'abc'}); pm.expect(pm.cookies.one('session').path).to.equal('/'); });",
                "const jar = pm.cookies.jar();",
                "jar.set('\(base)', 'added', 'v1', (err, cookie) => {",
                "  pm.test('set', () => { pm.expect(err).to.be.null; pm.expect(cookie.name).to.equal('added'); });",
                "  jar.get('\(base)/anything', 'added', (err, value) => {",
                "    pm.test('get', () => pm.expect(value).to.equal('v1'));",
                "    jar.getAll('\(base)/', (err, cookies) => {",
                "      pm.test('getAll', () => pm.expect(cookies.map(c => c.name).sort()).to.eql(['added', 'session']));",
                "      jar.unset('\(base)/', 'session', (err) => pm.test('unset', () => pm.expect(err).to.be.null));",
                "    });",
                "  });",
                "});",
                "jar.get('http://example.com/', 'x', (err) => pm.test('another host is denied',",
                "  () => pm.expect(err.message).to.include('programmatic access to \"example.com\" is denied')));",
            ]),
            ("sent", "\(base)/cookies", ["pm.test('none before the response', () => pm.expect(pm.cookies.count()).to.equal(0));"], [
                "pm.test('the run sends the jar', () => pm.expect(pm.response.json().cookies).to.eql({added: 'v1'}));",
                "const all = await pm.cookies.jar().getAll('\(base)');",
                "pm.test('promise form', () => pm.expect(all.length).to.equal(1));",
                "await pm.cookies.jar().clear('\(base)');",
                "pm.test('cleared', async () => pm.expect(await pm.cookies.jar().getAll('\(base)')).to.eql([]));",
            ]),
        ]))
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(Self.checks(record.results[0]) == ["✓ pm.cookies", "✓ set", "✓ another host is denied", "✓ get", "✓ getAll", "✓ unset"])
        #expect(Self.checks(record.results[1]) == ["✓ none before the response", "✓ the run sends the jar", "✓ promise form", "✓ cleared"])
    }

    /// `--dry-run` sends nothing, pm.sendRequest included: its callback gets an `err`, and the script goes on.
    @Test func dryRunSendsNoScriptRequest() throws {
        let base = try TestServers.httpbin()
        let dir = try TemporaryDirectory()
        try dir.write("collections/scripts.json", PostmanScriptsEndToEndTests.collection([
            ("one", "\(base)/get", ["pm.sendRequest('\(base)/get', (err, res) => console.log('err:', err.message, res === undefined));"], []),
        ]))
        let output = try ReqRunBinary.run(["run", "--all", "--dry-run"], in: dir.url)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("err: pm.sendRequest sends nothing here (--dry-run sends no request) true"), "\(output.stdout)")
    }
}
