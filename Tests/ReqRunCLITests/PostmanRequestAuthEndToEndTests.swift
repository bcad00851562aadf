import Foundation
import Testing
import ReqRunKit
import TestSupport

/// `pm.request.auth` (`SandboxRequestAuth`): what scripts read is the auth that applies, a pre-request
/// script's change is what is sent (the servers check the real header), and credentials a script sets are
/// masked. The built binary against the local httpbin and the auth server, with collections of our own.
@Suite struct PostmanRequestAuthEndToEndTests {
    /// One item of a Postman collection: its own `auth` (nil: inherits) and scripts.
    private struct Item {
        var name: String
        var url: String
        var auth: String?
        var pre: [String] = []
        var test: [String] = []
        var method = "GET"
    }

    private static func quoted(_ text: String) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes]), as: UTF8.self)
            .dropFirst().dropLast().description
    }

    private static func json(_ item: Item) -> String {
        let events = [("prerequest", item.pre), ("test", item.test)].filter { !$0.1.isEmpty }.map { listen, lines in
            "{\"listen\": \"\(listen)\", \"script\": {\"exec\": [\(lines.map(quoted).joined(separator: ", "))]}}"
        }
        return "{\"name\": \(quoted(item.name)), \"event\": [\(events.joined(separator: ", "))], \"request\": {\"method\": \"\(item.method)\", "
            + "\"url\": \(quoted(item.url))\(item.auth.map { ", \"auth\": \($0)" } ?? "")}}"
    }

    /// A collection with `auth` at the top, `items` at the top and one folder (`folderAuth`) of `folder`.
    private static func collection(auth: String?, variables: [String: String], items: [Item], folderAuth: String? = nil,
                                   folder: [Item] = []) -> String {
        let variableText = variables.sorted { $0.key < $1.key }.map { "{\"key\": \(quoted($0.key)), \"value\": \(quoted($0.value))}" }
        var itemTexts = items.map(json)
        if !folder.isEmpty {
            itemTexts.append("{\"name\": \"folder\"\(folderAuth.map { ", \"auth\": \($0)" } ?? ""), \"item\": [\(folder.map(json).joined(separator: ",\n"))]}")
        }
        return """
            {"info": {"name": "auth", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             \(auth.map { "\"auth\": \($0)," } ?? "") "variable": [\(variableText.joined(separator: ", "))],
             "item": [\(itemTexts.joined(separator: ",\n"))]}
            """
    }

    private static func bearer(_ token: String) -> String {
        #"{"type": "bearer", "bearer": [{"key": "token", "value": "\#(token)", "type": "string"}]}"#
    }

    private func run(_ collection: String, _ arguments: [String] = []) throws -> (ReqRunBinary.Output, RunRecord, TemporaryDirectory) {
        let dir = try TemporaryDirectory()
        try dir.write("collections/auth.json", collection)
        let output = try ReqRunBinary.run(["run", "--all"] + arguments, in: dir.url)
        return (output, try RecordFiles.newest(in: dir.url), dir)
    }

    private static func checks(_ result: RequestResult) -> [String] {
        result.expectations.filter { $0.kind != nil }.map { "\($0.passed ? "✓" : "✗") \($0.description)\($0.actual.isEmpty ? "" : ": \($0.actual)")" }
    }

    /// The auth that applies: the request's own, else its folder's, else the collection's; `noauth` as a type
    /// of its own; undefined when nothing sets one. postman-collection's `RequestAuth` and `VariableList`
    /// reading it; `current()` throws as postman-collection v4's does. Test scripts read the auth sent.
    @Test func scriptsReadTheAuthThatApplies() throws {
        let base = try TestServers.httpbin()
        let read = [
            "pm.test('read ' + pm.info.requestName, () => {",
            "  const a = pm.request.auth;",
            "  pm.expect(a === undefined ? 'none' : a.type + ' ' + JSON.stringify(a.parameters().toObject())).to.equal(pm.variables.get('expect_' + pm.info.requestName));",
            "});",
        ]
        let (output, record, _) = try run(Self.collection(
            auth: nil, variables: ["base": base, "tok": "folder-token-1", "pw": "own-pass-1", "expect_top": "none", "expect_own": #"basic {"username":"ada","password":"{{pw}}"}"#,
                                   "expect_inherited": #"bearer {"token":"{{tok}}"}"#, "expect_stopped": "noauth {}"],
            items: [
                Item(name: "top", url: "{{base}}/get", pre: read),
                Item(name: "own", url: "{{base}}/get", auth: #"{"type": "basic", "basic": {"username": "ada", "password": "{{pw}}"}}"#, pre: read),
            ],
            folderAuth: Self.bearer("{{tok}}"),
            folder: [
                Item(name: "inherited", url: "{{base}}/get", pre: read + [
                    "const a = pm.request.auth, p = a.parameters();",
                    "pm.test('list', () => {",
                    "  pm.expect(p.get('token')).to.equal('{{tok}}'); pm.expect(p.has('token')).to.be.true; pm.expect(p.has('token', 'x')).to.be.false;",
                    "  pm.expect(p.count()).to.equal(1); pm.expect(p.one('token').value).to.equal('{{tok}}'); pm.expect(a.bearer).to.equal(p);",
                    "  pm.expect(a.toJSON()).to.eql({type: 'bearer', bearer: [{key: 'token', value: '{{tok}}', type: 'string'}]});",
                    "});",
                    "pm.test('current', () => pm.expect(() => a.current()).to.throw('`Request#current` has been discontinued'));",
                ], test: read),
                Item(name: "stopped", url: "{{base}}/get", auth: #"{"type": "noauth"}"#, pre: read),
            ]))
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(record.results.map(Self.checks) == [
            ["✓ read top"], ["✓ read own"], ["✓ read inherited", "✓ list", "✓ current", "✓ read inherited"], ["✓ read stopped"],
        ])
    }

    /// A pre-request script's change is what httpbin receives: `update` of an inherited bearer token, `use`
    /// of another type, assigning an object (v2.0 parameters too), `noauth`, removing the auth, digest through
    /// `authorizeUsing` (libcurl answers the challenge), AWS Signature Version 4 (libcurl signs), an API key
    /// in the query; `clear` of another type, and a test script's change, send nothing different.
    @Test func aPreRequestChangeIsWhatIsSent() throws {
        let base = try TestServers.httpbin()
        let (output, record, _) = try run(Self.collection(
            auth: Self.bearer("{{tok}}"), variables: ["base": base, "tok": "file-token-0001"],
            items: [
                Item(name: "update", url: "{{base}}/bearer", pre: ["pm.request.auth.update({token: 'script-token-0002'});"],
                     test: ["pm.test('token sent', () => pm.expect(pm.response.json().token).to.equal('script-token-0002'));",
                            "pm.test('test script reads it', () => pm.expect(pm.request.auth.parameters().get('token')).to.equal('script-token-0002'));",
                            "pm.request.auth.update({token: 'ignored'});"]),
                Item(name: "use basic", url: "{{base}}/basic-auth/ada/basic-pass-3",
                     pre: ["pm.request.auth.use('basic', [{key: 'username', value: 'ada'}, {key: 'password', value: 'basic-pass-3'}]);",
                           "pm.request.auth.clear('bearer');",
                           "pm.test('cleared', () => pm.expect(pm.request.auth.bearer).to.be.undefined);"],
                     test: ["pm.test('basic accepted', () => pm.response.to.have.status(200));"]),
                Item(name: "assign header key", url: "{{base}}/headers",
                     pre: ["pm.request.auth = {type: 'apikey', apikey: {key: 'X-Api-Key', value: 'api-key-0004', in: 'header'}};",
                           "pm.test('methods', () => pm.expect(pm.request.auth.parameters().get('in')).to.equal('header'));"],
                     test: ["pm.test('key sent', () => { const h = pm.response.json().headers;",
                            "  pm.expect(h['X-Api-Key']).to.equal('api-key-0004'); pm.expect(h.Authorization).to.be.undefined; });"]),
                Item(name: "query key", url: "{{base}}/anything", auth: #"{"type": "noauth"}"#,
                     pre: ["pm.request.authorizeUsing('apikey', [{key: 'key', value: 'api_key'}, {key: 'value', value: 'query-key-0005'}, {key: 'in', value: 'query'}]);"],
                     test: ["pm.test('query sent', () => pm.expect(pm.response.json().args).to.eql({api_key: 'query-key-0005'}));"]),
                Item(name: "noauth", url: "{{base}}/headers", pre: ["pm.request.auth.use('noauth');"],
                     test: ["pm.test('no authorization', () => pm.expect(pm.response.json().headers.Authorization).to.be.undefined);"]),
                Item(name: "removed", url: "{{base}}/headers", pre: ["delete pm.request.auth;"],
                     test: ["pm.test('no authorization', () => pm.expect(pm.response.json().headers.Authorization).to.be.undefined);"]),
                Item(name: "digest", url: "{{base}}/digest-auth/auth/ada/digest-pass-7",
                     pre: ["pm.request.authorizeUsing({type: 'digest', digest: [{key: 'username', value: 'ada'}, {key: 'password', value: 'digest-pass-7'}]});"],
                     test: ["pm.test('digest accepted', () => pm.expect(pm.response.json()).to.eql({authenticated: true, user: 'ada'}));"]),
                Item(name: "awsv4", url: "{{base}}/headers",
                     pre: ["pm.request.auth.use('awsv4', {accessKey: 'AKIDSCRIPT', secretKey: 'aws-secret-0008', region: 'eu-west-1', service: 's3'});"],
                     test: ["pm.test('signed', () => pm.expect(pm.response.json().headers.Authorization)",
                            "  .to.match(/^AWS4-HMAC-SHA256 Credential=AKIDSCRIPT\\/[0-9]{8}\\/eu-west-1\\/s3\\/aws4_request, SignedHeaders=.*, Signature=[0-9a-f]{64}$/));"]),
                Item(name: "read only", url: "{{base}}/bearer", pre: ["const t = pm.request.auth.parameters().get('token');"],
                     test: ["pm.test('file token sent', () => pm.expect(pm.response.json().token).to.equal('file-token-0001'));"]),
            ]))
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(record.results.map(Self.checks) == [
            ["✓ token sent", "✓ test script reads it"], ["✓ cleared", "✓ basic accepted"], ["✓ methods", "✓ key sent"], ["✓ query sent"],
            ["✓ no authorization"], ["✓ no authorization"], ["✓ digest accepted"], ["✓ signed"], ["✓ file token sent"],
        ])
    }

    /// The auth types reqrun signs itself, set by a script and checked by the auth server's independent
    /// implementations: OAuth 1.0a (oauthlib), Hawk (mohawk), a JWT (PyJWT), OAuth 2.0 client credentials
    /// (its token endpoint and resource), NTLM (its Type 3 check).
    @Test func computedAuthTypesSetByAScript() throws {
        let auth = try TestServers.auth()
        let ok = ["pm.test('accepted', () => pm.response.to.have.status(200));"]
        let (output, record, _) = try run(Self.collection(
            auth: nil, variables: ["auth": auth],
            items: [
                Item(name: "oauth1", url: "{{auth}}/oauth1/resource", pre: [
                    "pm.request.authorizeUsing('oauth1', {consumerKey: 'reqrun-consumer', consumerSecret: 'consumer-secret-1', token: 'reqrun-token',",
                    "  tokenSecret: 'token-secret-1', signatureMethod: 'HMAC-SHA256', addParamsToHeader: true});",
                ], test: ok + ["pm.test('in the header', () => pm.expect(pm.response.json().placement).to.equal('header'));"]),
                Item(name: "hawk", url: "{{auth}}/hawk/resource", pre: [
                    "pm.request.authorizeUsing('hawk', {authId: 'hawk-sha256', authKey: 'hawk-key-0123456789', algorithm: 'sha256', extraData: 'x'});",
                ], test: ok + ["pm.test('ext', () => pm.expect(pm.response.json().ext).to.equal('x'));"]),
                Item(name: "jwt", url: "{{auth}}/jwt", pre: [
                    "pm.request.authorizeUsing('jwt', {algorithm: 'HS256', secret: 'jwt-secret-0123456789', payload: '{\"sub\": \"script\"}', addTokenTo: 'header'});",
                ], test: ok + ["pm.test('claims', () => pm.expect(pm.response.json().claims.sub).to.equal('script'));"]),
                Item(name: "oauth2", url: "{{auth}}/oauth2/resource", pre: [
                    "pm.request.authorizeUsing('oauth2', {grant_type: 'client_credentials', accessTokenUrl: pm.variables.get('auth') + '/oauth2/token',",
                    "  clientId: 'reqrun-client', clientSecret: 'client-secret-1', scope: 'script-scope', client_authentication: 'header'});",
                ], test: ok + ["pm.test('scope', () => pm.expect(pm.response.json().scope).to.equal('script-scope'));"]),
                Item(name: "ntlm", url: "{{auth}}/ntlm", pre: [
                    "pm.request.authorizeUsing('ntlm', {username: 'ada', password: 'ntlm-pass-1', domain: 'LAB'});",
                ], test: ok + ["pm.test('user', () => pm.expect(pm.response.json().user).to.equal('ada'));"]),
            ]))
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(record.results.map(Self.checks) == [
            ["✓ accepted", "✓ in the header"], ["✓ accepted", "✓ ext"], ["✓ accepted", "✓ claims"], ["✓ accepted", "✓ scope"], ["✓ accepted", "✓ user"],
        ])
    }

    /// A credential a script puts into the auth is masked like the files' (in the console lines of both
    /// scripts, the request, the response, the record, `-v` and a JUnit report, in later requests too), and a
    /// variable the script set to it, or that the auth's `{{name}}` uses, becomes secret (`--export-environment`
    /// writes `type` `secret`).
    @Test func credentialsSetByAScriptAreMasked() throws {
        let base = try TestServers.httpbin()
        let secret = "script-secret-token-9171"
        let (output, record, dir) = try run(Self.collection(
            auth: nil, variables: ["base": base],
            items: [
                Item(name: "set", url: "{{base}}/bearer", pre: [
                    "const t = 'script-' + 'secret-token-9171';",
                    "pm.environment.set('token', t);",
                    "pm.request.authorizeUsing('bearer', {token: t});",
                    "console.log('pre', pm.request.auth.parameters().get('token'));",
                ], test: ["console.log('test', pm.request.auth.parameters().get('token'), pm.response.json().token);",
                          "pm.test('sent', () => pm.response.to.have.status(200));"]),
                Item(name: "later", url: "{{base}}/anything/{{token}}", test: ["console.log('later', pm.environment.get('token'));"]),
                Item(name: "template", url: "{{base}}/bearer", auth: Self.bearer("{{template_token}}"),
                     pre: ["pm.environment.set('template_token', 'template-' + 'token-5309');"],
                     test: ["console.log('template', pm.response.json().token);"]),
            ]), ["-v", "--report", "junit=r/j.xml", "--export-environment", "exported.json"])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(record.results.first?.console == ["pre ****", "test **** ****"])
        #expect(record.results.first?.request?.headers.first { $0.name == "Authorization" }?.value == "****")
        #expect(record.results[1].console == ["later ****"])
        #expect(record.results[1].url.hasSuffix("/anything/****") == true)
        #expect(record.results[2].console == ["template ****"])
        let runs = dir.url.appendingPathComponent(".reqrun/runs")
        let recordText = try FileManager.default.contentsOfDirectory(atPath: runs.path).map {
            try String(contentsOf: runs.appendingPathComponent($0), encoding: .utf8)
        }.joined()
        for (place, text) in [("record", recordText), ("stdout", output.stdout), ("stderr", output.stderr), ("junit", try dir.read("r/j.xml"))] {
            #expect(!text.contains(secret) && !text.contains("template-token-5309"), "\(place) shows a secret")
        }
        let exported = try dir.read("exported.json")
        #expect(exported.contains(secret))
        let values = try #require(try JSONSerialization.jsonObject(with: Data(exported.utf8)) as? [String: Any])["values"] as? [[String: Any]]
        #expect(values?.first { $0["key"] as? String == "token" }?["type"] as? String == "secret")
        #expect(values?.first { $0["key"] as? String == "template_token" }?["type"] as? String == "secret")
    }

    /// A type reqrun does not compute fails the request as a script error (exit code 3), with the reason; the
    /// same change in `--dry-run` is reported, and a supported one shows the header it makes (masked).
    @Test func anUnsupportedTypeFailsTheRequest() throws {
        let base = try TestServers.httpbin()
        let collection = Self.collection(auth: nil, variables: ["base": base], items: [
            Item(name: "code grant", url: "{{base}}/get", pre: ["pm.request.authorizeUsing('oauth2', {grant_type: 'authorization_code', authUrl: 'https://example.com/authorize'});"]),
            Item(name: "planned", url: "{{base}}/get", pre: ["pm.request.auth = {type: 'basic', basic: [{key: 'username', value: 'ada'}]};"]),
        ])
        let (output, record, dir) = try run(collection)
        #expect(output.status == 3, "\(output.stdout)\(output.stderr)")
        #expect(record.results.first?.outcome == .scriptError)
        #expect(record.results.first?.error?.message == "pm.request.auth: auth type 'oauth2' is not computed by reqrun")
        let plan = try ReqRunBinary.run(["run", "--all", "--dry-run"], in: dir.url)
        #expect(plan.stdout.contains("pm.request.auth: auth type 'oauth2' is not computed by reqrun"), "\(plan.stdout)\(plan.stderr)")
        #expect(plan.stdout.contains("# auth / auth / planned\nGET \(base)/get\nAuthorization: ****\n"), "\(plan.stdout)")
    }

    /// An auth object that throws when reqrun reads it as the scripts end (a `toJSON` that throws, a cycle, a
    /// Proxy put in place with `defineProperty`) fails its request with the exception, and the scripts' console
    /// lines are kept; the next request runs as usual.
    @Test func anAuthThatThrowsWhenReadFailsItsRequestClearly() throws {
        let base = try TestServers.httpbin()
        let (output, record, _) = try run(Self.collection(auth: nil, variables: ["base": base], items: [
            Item(name: "toJSON", url: "{{base}}/get", pre: [
                "console.log('before');",
                "pm.request.auth = {type: 'bearer', bearer: [{key: 'token', value: {toJSON: function () { throw new Error('boom'); }}}]};"]),
            Item(name: "cycle", url: "{{base}}/get", pre: [
                "var o = {}; o.self = o; pm.request.auth = {type: 'bearer', bearer: [{key: 'token', value: o}]};"]),
            Item(name: "proxy", url: "{{base}}/get", pre: [
                "Object.defineProperty(pm.request, 'auth', {value: new Proxy({}, {get: function () { throw 'trap'; }})});"]),
            Item(name: "after", url: "{{base}}/get", test: ["pm.test('sent', () => pm.response.to.have.status(200));"]),
        ]))
        #expect(output.status == 3, "\(output.stdout)\(output.stderr)")
        let prefix = "pm.request.auth: the auth a pre-request script set could not be read: "
        #expect(record.results[0].error?.message == prefix + "Error: boom")
        #expect(record.results[0].console == ["before"])
        #expect(record.results[1].error?.message.hasPrefix(prefix + "TypeError: ") == true, "\(String(describing: record.results[1].error))")
        #expect(record.results[2].error?.message == prefix + "trap")
        #expect(record.results.map(\.outcome) == [.scriptError, .scriptError, .scriptError, .response])
    }

    /// A token a pre-request script put in the auth is a secret even when the request cannot be prepared and
    /// is not sent (its console lines and error are masked); `--dry-run` masks the passphrase in such a
    /// request's URL as it does in one that is prepared.
    @Test func credentialsOfARequestNotPreparedAreMasked() throws {
        let base = try TestServers.httpbin()
        let (output, record, dir) = try run(Self.collection(auth: nil, variables: ["base": base], items: [
            Item(name: "unsent", url: "{{base}}/get/{{missing}}", pre: [
                "pm.request.auth = {type: 'bearer', bearer: [{key: 'token', value: 'unsent-' + 'token-4417'}]};",
                "console.log('token', 'unsent-' + 'token-4417');"]),
        ]))
        #expect(output.status == 3, "\(output.stdout)\(output.stderr)")
        #expect(record.results.first?.console == ["token ****"])
        #expect(!output.stdout.contains("unsent-token-4417"), "\(output.stdout)")
        try dir.write("collections/auth.json", Self.collection(auth: nil, variables: [:], items: [
            Item(name: "planned", url: "\(base)/p=pass-phrase-8812/{{missing}}")]))
        try dir.write("k.key", "x")
        for format in [[], ["--json"]] {
            let plan = try ReqRunBinary.run(["run", "--all", "--dry-run", "--key", "k.key", "--ssl-client-passphrase", "pass-phrase-8812"] + format,
                                            in: dir.url)
            #expect(plan.stdout.contains("/p=****/") && !plan.stdout.contains("pass-phrase-8812"), "\(plan.stdout)\(plan.stderr)")
        }
    }
}
