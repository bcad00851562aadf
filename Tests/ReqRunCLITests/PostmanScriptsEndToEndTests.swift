import Foundation
import Testing
import ReqRunKit
import TestSupport

/// Postman pre-request and test scripts run by the built binary on JavaScriptCore, against the local httpbin,
/// with collections of our own.
@Suite struct PostmanScriptsEndToEndTests {
    /// A v2.1 collection: `items` are (name, url, pre-request lines, test lines); `events` are the
    /// collection's own scripts as (listen, lines).
    static func collection(_ items: [(name: String, url: String, pre: [String], test: [String])],
                           events: [(String, [String])] = [], variables: [String: String] = [:]) -> String {
        func quoted(_ text: String) -> String {
            String(decoding: try! JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes]), as: UTF8.self)
                .dropFirst().dropLast().description
        }
        func eventList(_ events: [(String, [String])]) -> String {
            "[" + events.filter { !$0.1.isEmpty }.map { listen, lines in
                "{\"listen\": \"\(listen)\", \"script\": {\"exec\": [\(lines.map(quoted).joined(separator: ", "))]}}"
            }.joined(separator: ", ") + "]"
        }
        let itemText = items.map { item in
            "{\"name\": \(quoted(item.name)), \"event\": \(eventList([("prerequest", item.pre), ("test", item.test)])), "
                + "\"request\": {\"method\": \"GET\", \"url\": \(quoted(item.url))}}"
        }.joined(separator: ",\n")
        let variableText = variables.sorted { $0.key < $1.key }.map { "{\"key\": \(quoted($0.key)), \"value\": \(quoted($0.value))}" }
        return """
            {"info": {"name": "scripts", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             "event": \(eventList(events)), "variable": [\(variableText.joined(separator: ", "))],
             "item": [\(itemText)]}
            """
    }

    private func run(_ collection: String, _ arguments: [String] = [], environment: String? = nil) throws -> (ReqRunBinary.Output, RunRecord) {
        let dir = try TemporaryDirectory()
        try dir.write("collections/scripts.json", collection)
        var extra: [String] = []
        if let environment {
            try dir.write("env.json", environment)
            extra = ["--env", "env.json"]
        }
        let output = try ReqRunBinary.run(["run", "--all"] + extra + arguments, in: dir.url)
        return (output, try RecordFiles.newest(in: dir.url))
    }

    private static func scriptChecks(_ result: RequestResult) -> [String] {
        result.expectations.filter { $0.kind != nil }.map { "\($0.passed ? "✓" : "✗") \($0.description)\($0.actual.isEmpty ? "" : ": \($0.actual)")" }
    }

    /// Collections of one run do not share a JavaScript context: a collection from elsewhere that changes the
    /// built-ins (`Object.prototype`, `JSON.parse`, chai's assertions, which the globals reset leaves alone)
    /// cannot read another collection's data through them or make its tests pass.
    @Test func collectionsOfOneRunDoNotShareBuiltIns() throws {
        let base = try TestServers.httpbin()
        let dir = try TemporaryDirectory()
        try dir.write("collections/a.json", Self.collection([("a", "\(base)/get", [], [
            "Object.prototype.fromA = 'yes';",
            "var parse = JSON.parse; JSON.parse = function (t) { JSON.seen = (JSON.seen || '') + t; return parse(t); };",
            "Object.getPrototypeOf(pm.expect(1)).assert = function () {};",
        ])]))
        try dir.write("collections/b.json", Self.collection([("b", "\(base)/get", [], [
            "pm.test('untouched', () => { if (({}).fromA !== undefined || JSON.seen !== undefined) throw new Error('collection a reached b'); });",
            "pm.test('b fails', () => pm.expect(1).to.equal(2));",
        ])], variables: ["bSecret": "b-collection-secret"]))
        let output = try ReqRunBinary.run(["run", "--all", "--report", "json=-"], in: dir.url)
        #expect(output.status == 1, "\(output.stdout)\(output.stderr)")
        let record = try JSONDecoder().decode(RunRecord.self, from: Data(output.stdout.utf8))
        #expect(record.results.count == 2)
        #expect(Self.scriptChecks(record.results[1]) == ["✓ untouched", "✗ b fails: AssertionError: expected 1 to equal 2"])
    }

    /// `reqrun send` runs the request's scripts as `run` does: a pre-request script's header is sent, a test
    /// script's assertions are recorded and decide the exit code.
    @Test func sendRunsTheRequestsScripts() throws {
        let base = try TestServers.httpbin()
        let dir = try TemporaryDirectory()
        try dir.write("collections/scripts.json", Self.collection([
            ("one", "\(base)/headers", ["pm.request.headers.add({key: 'X-From-Script', value: 'pre'});"],
             ["pm.test('header echoed', () => pm.expect(pm.response.json().headers['X-From-Script']).to.eql('pre'));",
              "pm.test('fails', () => pm.expect(1).to.eql(2));"]),
        ]))
        let output = try ReqRunBinary.run(["send", "one"], in: dir.url)
        #expect(output.status == 1, "\(output.stdout)\(output.stderr)")
        let record = try RecordFiles.newest(in: dir.url)
        #expect(Self.scriptChecks(record.results[0]).map { $0.prefix(16) } == ["✓ header echoed", "✗ fails: Asserti"])
    }

    @Test func testsAssertOnTheResponseWithChaiAndChaiPostman() throws {
        let base = try TestServers.httpbin()
        let (output, record) = try run(Self.collection([
            ("json", "\(base)/json", [], [
                "pm.test('status', function () { pm.response.to.have.status(200); });",
                "pm.test('ok', () => { pm.response.to.be.ok; pm.response.to.be.success; pm.response.to.not.be.clientError; });",
                "pm.test('header', () => { pm.response.to.have.header('Content-Type'); pm.response.to.have.header('content-type', 'application/json'); });",
                "pm.test('jsonBody', () => { pm.response.to.have.jsonBody; pm.response.to.be.json; });",
                "pm.test('json()', () => pm.expect(pm.response.json().slideshow.author).to.eql('Yours Truly'));",
                "pm.test('fields', () => { pm.expect(pm.response.code).to.equal(200); pm.expect(pm.response.status).to.equal('OK');",
                "  pm.expect(pm.response.headers.get('CONTENT-TYPE')).to.include('json'); pm.expect(pm.response.headers.has('content-length')).to.be.true;",
                "  pm.expect(pm.response.headers.toObject()).to.be.an('object'); pm.expect(pm.response.text()).to.include('slideshow');",
                "  pm.expect(pm.response.responseTime).to.be.a('number').and.at.least(0); pm.expect(pm.response.responseSize).to.be.above(100); });",
                "pm.test('legacy globals', () => { pm.expect(responseCode.code).to.equal(200); pm.expect(JSON.parse(responseBody)).to.have.property('slideshow');",
                "  pm.expect(responseTime).to.be.a('number'); pm.expect(responseHeaders['Content-Type']).to.equal('application/json'); });",
                "tests['legacy tests'] = responseCode.code === 200;",
                "pm.test('wrong status', () => pm.response.to.have.status(404));",
                "pm.test.skip('not yet', () => { throw new Error('never runs'); });",
                "pm.test('async', async () => { await null; pm.expect(1).to.equal(1); });",
                "pm.test('async failure', async () => { await null; pm.expect('a').to.equal('b'); });",
            ]),
        ]))
        #expect(output.status == 1, "a failed assertion is exit 1: \(output.stderr)")
        let result = try #require(record.results.first)
        #expect(result.outcome == .response)
        #expect(Self.scriptChecks(result) == [
            "✓ status", "✓ ok", "✓ header", "✓ jsonBody", "✓ json()", "✓ fields", "✓ legacy globals",
            "✗ wrong status: AssertionError: expected response to have status code 404 but got 200",
            "✓ not yet", "✓ async", "✗ async failure: AssertionError: expected 'a' to equal 'b'", "✓ legacy tests",
        ])
        #expect(result.expectations.first { $0.description == "not yet" }?.kind == "script-skipped")
        #expect(output.stdout.contains("    ✓ status\n"))
        #expect(output.stdout.contains("      ✗ wrong status\n          AssertionError: expected response to have status code 404 but got 200"))
        #expect(output.stdout.contains("    - not yet (skipped)"))
    }

    @Test func cookiesBodyResponseTimeBase64AndIterationData() throws {
        let base = try TestServers.httpbin()
        let (output, record) = try run(Self.collection([
            ("cookies", "\(base)/response-headers?Set-Cookie=session%3Dabc%3B%20Path%3D%2F%3B%20HttpOnly", [], [
                "pm.test('pm.response.cookies', () => { pm.expect(pm.response.cookies.get('session')).to.equal('abc');",
                "  pm.expect(pm.response.cookies.has('other')).to.be.false; pm.expect(pm.response.cookies.toObject()).to.eql({session: 'abc'}); });",
                "pm.test('legacy cookies', () => { pm.expect(postman.getResponseCookie('session')).to.include({value: 'abc', path: '/', httpOnly: true});",
                "  pm.expect(responseCookies).to.have.lengthOf(1); pm.expect(postman.getResponseHeader('set-cookie')).to.include('session=abc'); });",
                "pm.test('body', () => { pm.response.to.have.body(); pm.response.to.have.body(/session/); pm.response.to.not.have.body('x'); });",
                "pm.test('responseTime', () => pm.response.to.have.responseTime.below(5000));",
                "pm.test('base64', () => { pm.expect(btoa('user:pä')).to.equal('dXNlcjpw5A=='); pm.expect(atob('dXNlcjpw5A==')).to.equal('user:pä'); });",
                "pm.test('one iteration, no data', () => { pm.expect(pm.iterationData.toObject()).to.eql({}); pm.expect(iteration).to.equal(0);",
                "  pm.expect(data).to.eql({}); pm.expect(pm.info.iterationCount).to.equal(1); pm.expect(pm.info.eventName).to.equal('test'); });",
            ]),
        ]))
        #expect(output.status == 0, "\(output.stdout)\n\(output.stderr)")
        #expect(Self.scriptChecks(record.results[0]) == ["✓ pm.response.cookies", "✓ legacy cookies", "✓ body", "✓ responseTime",
                                                         "✓ base64", "✓ one iteration, no data"])
    }

    @Test func scriptVariablesResolveInLaterRequestsAsDataWithNewmansPrecedence() throws {
        let base = try TestServers.httpbin()
        let (output, record) = try run(Self.collection([
            ("set", "\(base)/get?c={{fromCollection}}", [
                "pm.collectionVariables.set('fromCollection', 'c1');",
            ], [
                "pm.environment.set('token', pm.response.json().args.c + '-{{literal}}');",
                "pm.globals.set('g', 'G');",
                "postman.setEnvironmentVariable('legacy', 'L');",
                "pm.variables.set('local', 'over-everything');",
                "pm.environment.set('shadowed', 'env-from-script');",
                "pm.environment.set('gone', 'x'); pm.environment.unset('gone');",
                "console.log('set', pm.environment.get('token'), {n: 1}); console.warn('careful');",
            ]),
            ("use", "\(base)/get?t={{token}}&g={{g}}&l={{legacy}}&local={{local}}&s={{shadowed}}", [], [
                "pm.test('scopes', () => {",
                "  pm.expect(pm.environment.get('token')).to.equal('c1-{{literal}}');",
                "  pm.expect(pm.environment.has('token')).to.be.true; pm.expect(pm.environment.has('gone')).to.be.false;",
                "  pm.expect(pm.environment.get('fromFile')).to.equal('F');",
                "  pm.expect(pm.globals.get('g')).to.equal('G'); pm.expect(postman.getGlobalVariable('g')).to.equal('G');",
                "  pm.expect(postman.getEnvironmentVariable('legacy')).to.equal('L');",
                "  pm.expect(pm.collectionVariables.get('fromCollection')).to.equal('c1');",
                "  pm.expect(pm.collectionVariables.get('fileVar')).to.equal('fv');",
                "  pm.expect(pm.variables.get('shadowed')).to.equal('local wins'); pm.expect(pm.variables.get('fileVar')).to.equal('fv');",
                "  pm.expect(pm.variables.replaceIn('{{g}}/{{legacy}}/{{missing}}')).to.equal('G/L/{{missing}}');",
                "  pm.expect(pm.environment.toObject()).to.include({token: 'c1-{{literal}}', fromFile: 'F'});",
                "  pm.expect(pm.response.json().args).to.eql({t: 'c1-{{literal}}', g: 'G', l: 'L', local: 'over-everything', s: 'local wins'});",
                "});",
            ]),
        ], events: [("prerequest", ["pm.variables.set('shadowed', 'local wins');"])], variables: ["fileVar": "fv"]),
        ["--var", "literal=NOT-EXPANDED"], environment: """
            {"name": "e", "values": [{"key": "fromFile", "value": "F"}, {"key": "shadowed", "value": "env-file"}]}
            """)
        #expect(output.status == 0, "\(output.stdout)\n\(output.stderr)")
        #expect(record.results[0].url == "\(base)/get?c=c1")
        #expect(record.results[0].console == ["set c1-{{literal}} {\"n\":1}", "warn: careful"])
        #expect(Self.scriptChecks(record.results[1]) == ["✓ scopes"])
        #expect(output.stdout.contains("      │ set c1-{{literal}} {\"n\":1}\n      │ warn: careful"))
    }

    @Test func preRequestScriptsChangeTheRequestAndRunCollectionFolderRequestInOrder() throws {
        let base = try TestServers.httpbin()
        let collection = """
            {"info": {"name": "order", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             "event": [{"listen": "prerequest", "script": {"exec": ["pm.variables.set('order', 'collection');"]}},
                       {"listen": "test", "script": {"exec": ["console.log('test: collection');"]}}],
             "item": [{"name": "folder",
               "event": [{"listen": "prerequest", "script": {"exec": ["pm.variables.set('order', pm.variables.get('order') + ',folder');"]}},
                         {"listen": "test", "script": {"exec": ["console.log('test: folder');"]}}],
               "item": [{"name": "request",
                 "event": [{"listen": "prerequest", "script": {"exec": [
                     "pm.variables.set('order', pm.variables.get('order') + ',request');",
                     "pm.request.headers.add({key: 'X-Order', value: '{{order}}'});",
                     "pm.request.headers.upsert({key: 'X-Replaced', value: 'new'});",
                     "pm.request.headers.remove('X-Removed');",
                     "pm.request.url = pm.request.url.toString().replace('/get', '/anything') + '?from=script';",
                     "pm.request.method = 'post';"]}},
                   {"listen": "test", "script": {"exec": [
                     "console.log('test: request');",
                     "pm.test('sent as changed', () => { const j = pm.response.json();",
                     "  pm.expect(j.method).to.equal('POST'); pm.expect(j.args).to.eql({from: 'script'});",
                     "  pm.expect(j.headers['X-Order']).to.equal('collection,folder,request');",
                     "  pm.expect(j.headers['X-Replaced']).to.equal('new'); pm.expect(j.headers).to.not.have.property('X-Removed'); });"]}}],
                 "request": {"method": "GET", "url": "\(base)/get",
                   "header": [{"key": "X-Replaced", "value": "old"}, {"key": "X-Removed", "value": "1"}]}}]}]}
            """
        let (output, record) = try run(collection)
        #expect(output.status == 0, "\(output.stdout)\n\(output.stderr)")
        #expect(record.results[0].method == "POST")
        #expect(record.results[0].console == ["test: collection", "test: folder", "test: request"])
        #expect(Self.scriptChecks(record.results[0]) == ["✓ sent as changed"])
    }

    @Test func preRequestScriptsChangeQueryAndBodyAndSkipRequests() throws {
        let base = try TestServers.httpbin()
        let collection = """
            {"info": {"name": "q", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             "item": [
              {"name": "query and body", "event": [{"listen": "prerequest", "script": {"exec": [
                 "pm.request.url.query.add({key: 'added', value: 'a b'}); pm.request.url.query.upsert({key: 'keep', value: '2'});",
                 "pm.request.url.query.remove('drop'); pm.request.addQueryParams('x=1&y');",
                 "console.log(pm.request.url.query.get('keep'), pm.request.url.query.has('drop'), pm.request.body.mode);",
                 "const body = JSON.parse(pm.request.body.raw); body.signed = true; pm.request.body.raw = JSON.stringify(body);"]}},
                {"listen": "test", "script": {"exec": [
                 "pm.test('sent as changed', () => { const j = pm.response.json();",
                 "  pm.expect(j.args).to.eql({keep: '2', added: 'a b', x: '1', y: ''}); pm.expect(j.json).to.eql({n: 1, signed: true}); });"]}}],
               "request": {"method": "POST", "url": "\(base)/anything?keep=1&drop=x",
                 "body": {"mode": "raw", "raw": "{\\"n\\": 1}", "options": {"raw": {"language": "json"}}}}},
              {"name": "skipped", "event": [{"listen": "prerequest", "script": {"exec": ["pm.execution.skipRequest();"]}},
                                            {"listen": "test", "script": {"exec": ["throw new Error('no test runs');"]}}],
               "request": {"method": "GET", "url": "http://127.0.0.1:9/never"}},
              {"name": "undefined", "event": [{"listen": "prerequest", "script": {"exec": ["console.log('before the undefined variable');"]}}],
               "request": {"method": "GET", "url": "http://127.0.0.1:9/{{nowhere}}"}}]}
            """
        let (output, record) = try run(collection)
        #expect(output.status == 3, "the undefined variable: \(output.stdout)\n\(output.stderr)")
        #expect(record.results[0].console == ["2 false raw"])
        #expect(Self.scriptChecks(record.results[0]) == ["✓ sent as changed"])
        #expect(record.results[1].outcome == .skipped)
        #expect(record.results[2].outcome == .invalid)
        #expect(record.results[2].console == ["before the undefined variable"], "a request not prepared keeps its scripts' console")
        #expect(record.results[1].error?.message == "a pre-request script called pm.execution.skipRequest()")
    }

    @Test func scriptErrorsFailTheirRequestWithPlaceAndPositionAndExit3() throws {
        let base = try TestServers.httpbin()
        let (output, record) = try run(Self.collection([
            ("syntax", "\(base)/get", [], ["var a = 1;", "var b = ;"]),
            ("throws", "\(base)/get", [], ["pm.test('before', () => {});", "", "   null.x;"]),
            ("pre", "\(base)/get", ["throw new Error('no token');"], []),
            ("fine", "\(base)/get", [], ["pm.test('still runs', () => pm.response.to.be.ok);"]),
        ]))
        #expect(output.status == 3, "\(output.stdout)\n\(output.stderr)")
        #expect(record.results.map(\.outcome) == [.scriptError, .scriptError, .scriptError, .response])
        #expect(record.results[0].error?.message == "collections/scripts.json: item[0].event[0] (test) 2: SyntaxError: Unexpected token ';'")
        #expect(record.results[1].error?.message
                == "collections/scripts.json: item[1].event[0] (test) 3:8: TypeError: null is not an object (evaluating 'null.x')")
        #expect(Self.scriptChecks(record.results[1]) == ["✓ before"])
        #expect(record.results[2].error?.message == "collections/scripts.json: item[2].event[0] (prerequest) 1:16: Error: no token")
        #expect(record.results[2].response == nil, "a failed pre-request script: nothing sent")
        #expect(Self.scriptChecks(record.results[3]) == ["✓ still runs"])
        #expect(record.summary.errors == 3)
    }

    /// A test script that throws after the response came keeps the response's status, time and size on the
    /// console's line and `show`'s, its error after the URL; `---` stays for requests that got no response (a
    /// failed pre-request script). Before, both showed `---` and hid the 201 the server sent.
    @Test func aTestScriptErrorAfterAResponseShowsItsStatus() throws {
        let base = try TestServers.httpbin()
        let dir = try TemporaryDirectory()
        try dir.write("collections/scripts.json", Self.collection([
            ("created", "\(base)/status/201", [], ["pm.test('before', () => {});", "null.x;"]),
            ("pre", "\(base)/get", ["throw new Error('no token');"], []),
        ]))
        let output = try ReqRunBinary.run(["run", "--all"], in: dir.url)
        #expect(output.status == 3, "\(output.stdout)\n\(output.stderr)")
        let error = "collections/scripts.json: item[0].event[0] (test) 2:5: TypeError: null is not an object (evaluating 'null.x')"
        let lines = output.stdout.split(separator: "\n").map(String.init)
        let created = try #require(lines.first { $0.contains("created") }, "\(output.stdout)")
        #expect(created.hasPrefix("  ✗ created  GET      201  "), "\(created)")
        #expect(created.hasSuffix("      0 B  \(base)/status/201  \(error)"), "\(created)")
        let pre = try #require(lines.first { $0.contains(" pre ") }, "\(output.stdout)")
        #expect(pre == "  ✗ pre      GET      ---                      \(base)/get  collections/scripts.json: item[1].event[0] (prerequest) 1:16: Error: no token")
        let show = try ReqRunBinary.run(["show"], in: dir.url)
        let shown = show.stdout.split(separator: "\n").map(String.init)
        #expect(shown.contains { $0.hasPrefix("✗ GET  \(base)/status/201  201  ") && $0.hasSuffix(" 0 B  \(error)") }, "\(show.stdout)")
        #expect(shown.contains("✗ GET  \(base)/get  collections/scripts.json: item[1].event[0] (prerequest) 1:16: Error: no token"), "\(show.stdout)")
    }

    @Test func aScriptThatLoopsForeverIsStoppedByTheTimeLimit() throws {
        let base = try TestServers.httpbin()
        let started = Date()
        let (output, record) = try run(Self.collection([
            ("loop", "\(base)/get", [], ["while (true) {}"]),
            ("after", "\(base)/get", [], ["pm.test('the context still works', () => pm.response.to.be.ok);"]),
        ]), ["--script-timeout", "0.3"])
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(output.status == 3)
        #expect(record.results[0].error?.message
                == "collections/scripts.json: item[0].event[0] (test): the script ran for more than 0.3 s and was stopped (--script-timeout)")
        #expect(Self.scriptChecks(record.results[1]) == ["✓ the context still works"])
    }

    /// A loop logging one large string costs the script almost nothing (each line shares the string), so no
    /// bound saw it; the JSON of its lines, their copy in Swift, the console and the record did: 1,000 lines of
    /// 1 MB ended the process ("a script grew reqrun by more than twice --script-memory's 256 MiB (its promise
    /// jobs) and could not be stopped", exit 3, the next request never sent), and 200 lines of 1 MB passed with
    /// a 200 MB console and record and 1 GB resident. An event keeps at most 16 Mi characters of console text;
    /// the lines past it are counted in one `warn:` line and the run goes on.
    @Test func anEventsConsoleTextIsBoundedAndTheRunGoesOn() throws {
        let base = try TestServers.httpbin()
        let (output, record) = try run(Self.collection([
            ("loud", "\(base)/get", [], ["const s = 'x'.repeat(1000000);", "console.log('first');",
                                         "for (let i = 0; i < 1000; i++) console.log(s);", "pm.test('ran', () => {});"]),
            ("after", "\(base)/get", [], ["console.log('quiet');"]),
        ]), ["-q"])
        #expect(output.status == 0, "\(output.stderr)")
        let console = try #require(record.results[0].console)
        #expect(console.count == 18)
        #expect(console.first == "first")
        #expect(console.dropFirst().dropLast().allSatisfy { $0.utf8.count == 1_000_000 })
        #expect(console.last == "warn: 984 more console lines left out: more than 16 Mi characters of console text in one event (pre-request or test)")
        #expect(Self.scriptChecks(record.results[0]) == ["✓ ran"])
        #expect(record.results[1].console == ["quiet"])
        #expect(output.stdout.utf8.count < 20_000_000)
    }

    /// Test names and errors are bounded per event as console text is: a thousand tests named after one 1 MB
    /// string (which cost the script almost nothing) grew reqrun past 1.5 GB until the process was ended; now
    /// the first 16 Mi characters are kept and later names and errors are cut to 256, and the run goes on.
    @Test func anEventsTestNamesAreBoundedAndTheRunGoesOn() throws {
        let base = try TestServers.httpbin()
        let (output, record) = try run(Self.collection([
            ("named", "\(base)/get", [], ["const s = 'y'.repeat(1000000);",
                                          "for (let i = 0; i < 1000; i++) pm.test(s + i, () => {});",
                                          "pm.test('last', () => { throw new Error(s); });"]),
            ("after", "\(base)/get", [], ["pm.test('next', () => {});"]),
        ]), ["-q"])
        #expect(output.status == 1, "\(output.stderr)")
        let checks = record.results[0].expectations.filter { $0.kind != nil }
        try #require(checks.count == 1001)
        #expect(checks.prefix(16).allSatisfy { $0.description.utf8.count > 1_000_000 && $0.passed })
        let cut = String(repeating: "y", count: 256) + "… (999746 more characters left out: more than 16 Mi characters of test names and errors in one event)"
        #expect(checks[16].description == cut)
        #expect(checks.dropFirst(16).prefix(1000 - 16).allSatisfy { $0.description.utf8.count < 400 })
        #expect(checks[1000].description == "last" && !checks[1000].passed)
        #expect(checks[1000].actual.hasPrefix("Error: yyy") && checks[1000].actual.contains("more characters left out") && checks[1000].actual.utf8.count < 400,
                "\(checks[1000].actual.prefix(300))")
        #expect(Self.scriptChecks(record.results[1]) == ["✓ next"])
    }

    /// The variables a script sets are bounded when they are turned to text after it (64 Mi characters in one
    /// event): a thousand variables holding one 1 MB string, or an array of it, ended the process through the
    /// memory backstop (1.4 GB), and later requests were never sent. Now that request fails naming the bound,
    /// its changes are not kept, and the run goes on with the run's values; a 5 MB variable is kept as before.
    @Test func theVariablesAScriptSetsAreBoundedAndTheRunGoesOn() throws {
        let base = try TestServers.httpbin()
        let message = "the variables the scripts set hold more than 64 Mi characters of text: their changes in this event are not kept"
        let (output, record) = try run(Self.collection([
            ("large", "\(base)/get", [], ["pm.environment.set('large', 'w'.repeat(5000000));"]),
            ("many", "\(base)/get", [], ["const s = 'z'.repeat(1000000);", "for (let i = 0; i < 1000; i++) pm.environment.set('v' + i, s);"]),
            ("array", "\(base)/get", [], ["pm.globals.set('big', Array(1000).fill('z'.repeat(1000000))); pm.environment.set('small', 'ok');"]),
            ("after", "\(base)/get", [], [
                "pm.test('clean', () => { pm.expect(pm.environment.get('v1')).to.equal(undefined); pm.expect(pm.globals.get('big')).to.equal(undefined);",
                "  pm.expect(pm.environment.get('small')).to.equal(undefined); pm.expect(pm.environment.get('large').length).to.equal(5000000); });",
                "pm.globals.set('object', {a: [1]});",
            ]),
            ("later", "\(base)/get", [], ["pm.test('kept', () => pm.expect(pm.globals.get('object')).to.eql({a: [1]}));"]),
        ]), ["-q"])
        #expect(output.status == 3, "\(output.stderr)")
        try #require(record.results.count == 5)
        #expect(record.results.map(\.outcome) == [.response, .scriptError, .scriptError, .response, .response])
        #expect(record.results[1].error?.message.hasSuffix("item[1].event[0] (test): " + message) == true, "\(record.results[1].error?.message ?? "")")
        #expect(record.results[2].error?.message.hasSuffix("item[2].event[0] (test): " + message) == true)
        #expect(Self.scriptChecks(record.results[3]) == ["✓ clean"])
        #expect(Self.scriptChecks(record.results[4]) == ["✓ kept"])
    }

    /// A chain of short promise jobs that never ends escapes JavaScriptCore's time limit (it starts again at
    /// each job): the process then ends, with an `error:` line and exit code 3, at twice `--script-timeout`
    /// (at least a second past it), rather than running until CI kills it. Before, it ran on for good.
    @Test func anEndlessChainOfPromiseJobsEndsTheProcess() throws {
        let dir = try TemporaryDirectory()
        try dir.write("collections/scripts.json", Self.collection([
            ("chain", "http://127.0.0.1:9/", ["(async () => { for (;;) await null; })();"], []),
        ]))
        let started = Date()
        let running = try ReqRunBinary.start(["run", "--all", "--script-timeout", "0.5"], in: dir.url)
        let output = running.finish()
        let seconds = Date().timeIntervalSince(started)
        #expect(output.status == 3, "\(output.stdout)\n\(output.stderr)")
        #expect(seconds > 1.4 && seconds < 6, "\(seconds) s")
        #expect(output.stderr.contains("error: a script ran for more than 1.5 s (its promise jobs, past --script-timeout's 0.5 s) "
                                       + "and could not be stopped; reqrun exits"), "\(output.stderr)")
    }

    /// SIGTERM (or Ctrl-C) stops a looping script at once, not at the end of its time limit, and the run ends as
    /// interrupted with its record; a script that still runs a second after it (the chain above, without a time
    /// limit) ends the process with 143.
    @Test func aSignalStopsAScriptAndAnUnstoppableOneEndsTheProcess() throws {
        let dir = try TemporaryDirectory()
        try dir.write("collections/scripts.json", Self.collection([
            ("loop", "http://127.0.0.1:9/", ["for (;;) {}"], []),
        ]))
        var running = try ReqRunBinary.start(["run", "--all", "--script-timeout", "60"], in: dir.url)
        Thread.sleep(forTimeInterval: 1.0)
        var signalled = Date()
        running.send(signal: SIGTERM)
        var output = running.finish()
        #expect(output.status == 143, "\(output.stdout)\n\(output.stderr)")
        #expect(Date().timeIntervalSince(signalled) < 1.0)
        let record = try RecordFiles.newest(in: dir.url)
        #expect(record.results.first?.error?.message
                == "collections/scripts.json: item[0].event[0] (prerequest): the script was stopped: the run was stopped by SIGTERM")
        try dir.write("collections/scripts.json", Self.collection([
            ("chain", "http://127.0.0.1:9/", ["(async () => { for (;;) await null; })();"], []),
        ]))
        running = try ReqRunBinary.start(["run", "--all", "--script-timeout", "0"], in: dir.url)
        Thread.sleep(forTimeInterval: 1.0)
        signalled = Date()
        running.send(signal: SIGTERM)
        output = running.finish()
        let seconds = Date().timeIntervalSince(signalled)
        #expect(output.status == 143, "\(output.stdout)\n\(output.stderr)")
        #expect(seconds > 0.9 && seconds < 4, "\(seconds) s")
        #expect(output.stderr.contains("error: a script was still running a second after the run was stopped by SIGTERM"), "\(output.stderr)")
    }

    @Test func oneContextPerRunWithGlobalsResetBetweenRequests() throws {
        let base = try TestServers.httpbin()
        let (output, record) = try run(Self.collection([
            ("first", "\(base)/get", [], ["leaked = 5; Array.prototype.sameContext = true;",
                                          "pm.test('sees its own global', () => pm.expect(leaked).to.equal(5));"]),
            ("second", "\(base)/get", [], [
                "pm.test('globals reset', () => pm.expect(typeof leaked).to.equal('undefined'));",
                "pm.test('same context', () => pm.expect([].sameContext).to.equal(true));",
                "pm.test('nothing outside ECMAScript', () => { pm.expect(() => require('fs')).to.throw(/Cannot find module 'fs'/);",
                "  pm.expect(() => require('child_process')).to.throw(/Cannot find module/);",
                "  pm.expect(typeof process).to.equal('undefined'); pm.expect(typeof fetch).to.equal('undefined');",
                "  pm.expect(typeof XMLHttpRequest).to.equal('undefined'); pm.expect(typeof print).to.equal('undefined'); });",
            ]),
        ]))
        #expect(output.status == 0, "\(output.stdout)\n\(output.stderr)")
        #expect(Self.scriptChecks(record.results[0]) == ["✓ sees its own global"])
        #expect(Self.scriptChecks(record.results[1]) == ["✓ globals reset", "✓ same context", "✓ nothing outside ECMAScript"])
    }

    @Test func javaScriptCoreIsLoadedOnlyWhenASelectedRequestHasAScript() throws {
        let base = try TestServers.httpbin()
        let dir = try TemporaryDirectory()
        try dir.write("collections/plain.json", Self.collection([("plain", "\(base)/get", [], [])]))
        try dir.write("collections/scripted.json", Self.collection([("scripted", "\(base)/get", [], ["pm.test('t', () => {});"])])
            .replacingOccurrences(of: "\"name\": \"scripts\"", with: "\"name\": \"scripted\""))
        // The dynamic loader names every library it loads (ld.so(8), LD_DEBUG=files).
        let debug = ["LD_DEBUG": "files"]
        for arguments in [["--version"], ["list", "--all"], ["run", "scripts"]] {
            let output = try ReqRunBinary.run(arguments, in: dir.url, environment: debug)
            #expect(output.status == 0, "\(arguments): \(output.stderr.suffix(500))")
            #expect(!output.stderr.contains("libjavascriptcoregtk"), "\(arguments) loaded JavaScriptCore")
        }
        let scripted = try ReqRunBinary.run(["run", "scripted"], in: dir.url, environment: debug)
        #expect(scripted.status == 0)
        #expect(scripted.stderr.contains("file=libjavascriptcoregtk-4.1.so.0 [0];  dynamically loaded by"))
    }

    @Test func dryRunRunsPreRequestScriptsAndSendsNothing() throws {
        let dir = try TemporaryDirectory()
        try dir.write("collections/scripts.json", Self.collection([
            ("first", "http://127.0.0.1:9/a?t={{token}}", ["pm.environment.set('token', 'T1'); pm.request.headers.add({key: 'X-Pre', value: 'yes'});",
                                                         "console.log('pre ran');"], ["throw new Error('test scripts do not run');"]),
            ("second", "http://127.0.0.1:9/b?t={{token}}", [], []),
            ("broken", "http://127.0.0.1:9/c", ["null.x;"], []),
        ]))
        let output = try ReqRunBinary.run(["run", "--all", "--dry-run"], in: dir.url)
        #expect(output.status == 3, "the broken pre-request script: \(output.stdout)")
        #expect(output.stdout.contains("# scripts / scripts / first\n│ pre ran\nGET http://127.0.0.1:9/a?t=T1\nX-Pre: yes\n"))
        #expect(output.stdout.contains("GET http://127.0.0.1:9/b?t=T1\n"))
        #expect(output.stdout.contains("not sent: collections/scripts.json: item[2].event[0] (prerequest) 1:5: TypeError: null is not an object"))
        #expect(!dir.exists(".reqrun/runs"))
    }

    @Test func exportEnvironmentAndGlobalsWriteWhatScriptsSetAndLeaveTheEnvironmentFileAlone() throws {
        let base = try TestServers.httpbin()
        let dir = try TemporaryDirectory()
        try dir.write("collections/scripts.json", Self.collection([
            ("set", "\(base)/get", [], ["pm.environment.set('token', 'new'); pm.environment.set('added', 'A'); pm.globals.set('g', 1);"]),
        ]))
        let environment = #"{"name": "stage", "values": [{"key": "token", "value": "old", "type": "secret"}, {"key": "base", "value": "b"}]}"#
        try dir.write("stage.json", environment)
        let output = try ReqRunBinary.run(["run", "--all", "--env", "stage.json", "--export-environment", "out/env.json",
                                           "--export-globals", "globals.json"], in: dir.url)
        #expect(output.status == 74, "a missing folder: \(output.stderr)")
        #expect(output.stderr.contains("error: ") && output.stderr.contains("/out: No such file or directory"), "\(output.stderr)")
        #expect(dir.exists("globals.json"), "each export is tried")
        try FileManager.default.createDirectory(at: dir.url.appendingPathComponent("out"), withIntermediateDirectories: true)
        let again = try ReqRunBinary.run(["run", "--all", "--env", "stage.json", "--export-environment", "out/env.json",
                                          "--export-globals", "globals.json"], in: dir.url)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("environment written to out/env.json"))
        struct Export: Decodable {
            struct Value: Decodable, Equatable { var key: String; var value: String; var type: String; var enabled: Bool }
            var name: String
            var values: [Value]
            var _postman_variable_scope: String
        }
        let env = try JSONDecoder().decode(Export.self, from: Data(try dir.read("out/env.json").utf8))
        #expect(env.name == "stage" && env._postman_variable_scope == "environment")
        #expect(env.values == [.init(key: "token", value: "new", type: "secret", enabled: true), .init(key: "base", value: "b", type: "default", enabled: true),
                               .init(key: "added", value: "A", type: "default", enabled: true)])
        let globals = try JSONDecoder().decode(Export.self, from: Data(try dir.read("globals.json").utf8))
        #expect(globals.values == [.init(key: "g", value: "1", type: "default", enabled: true)])
        #expect(try dir.read("stage.json") == environment)
    }

    /// Newman writes back the environment and globals it loaded: their own `id` and `name`, not the file's name.
    @Test func exportsKeepThePostmanFilesIdAndName() throws {
        let base = try TestServers.httpbin()
        let dir = try TemporaryDirectory()
        try dir.write("collections/scripts.json", Self.collection([
            ("set", "\(base)/get", [], ["pm.environment.set('token', 'new'); pm.globals.set('g', 'G');"]),
        ]))
        try dir.write("local.postman_environment.json",
                      #"{"id": "0f8fad5b-d9cb-469f-a165-70867728950e", "name": "Local", "values": [{"key": "token", "value": "old"}]}"#)
        try dir.write("workspace.postman_globals.json",
                      #"{"id": "7c9e6679-7425-40de-944b-e07fc1f90ae7", "name": "My Workspace Globals", "values": [], "_postman_variable_scope": "globals"}"#)
        let output = try ReqRunBinary.run(["run", "--all", "--env", "local.postman_environment.json", "--export-environment", "env.json",
                                           "--globals", "workspace.postman_globals.json", "--export-globals", "globals.json"], in: dir.url)
        #expect(output.status == 0, "\(output.stderr)")
        struct Export: Decodable { var id: String; var name: String }
        let env = try JSONDecoder().decode(Export.self, from: Data(try dir.read("env.json").utf8))
        #expect(env.id == "0f8fad5b-d9cb-469f-a165-70867728950e" && env.name == "Local")
        let globals = try JSONDecoder().decode(Export.self, from: Data(try dir.read("globals.json").utf8))
        #expect(globals.id == "7c9e6679-7425-40de-944b-e07fc1f90ae7" && globals.name == "My Workspace Globals")
    }

    /// Newman's `unset` and `clear` remove a variable from its scope for the rest of the run, a value from the
    /// environment file, the globals file or the collection included: later scripts do not see it, `{{name}}`
    /// resolves from the scopes below (here the collection's `e` once the environment's is gone), and the
    /// exports leave it out. A later `set` brings it back.
    @Test func unsetAndClearRemoveTheFilesValuesForTheRestOfTheRun() throws {
        let base = try TestServers.httpbin()
        let dir = try TemporaryDirectory()
        try dir.write("collections/scripts.json", Self.collection([
            ("unset", "\(base)/get?e={{e}}", [], [
                "pm.environment.unset('e'); pm.globals.unset('g'); pm.collectionVariables.unset('c');",
                "postman.clearEnvironmentVariable('legacy'); pm.environment.unset('back'); pm.environment.set('back', 'again');",
            ]),
            ("after", "\(base)/get?e={{e}}", [], [
                "pm.test('gone', () => {",
                "  pm.expect([pm.environment.has('e'), pm.globals.has('g'), pm.collectionVariables.has('c'), pm.environment.has('legacy')])",
                "    .to.eql([false, false, false, false]);",
                "  pm.expect(pm.environment.get('back')).to.equal('again'); pm.expect(pm.variables.get('e')).to.equal('from-collection');",
                "  pm.expect([pm.variables.get('g'), pm.variables.get('c')]).to.eql([undefined, undefined]);",
                "  pm.expect(pm.response.json().args).to.eql({e: 'from-collection'});",
                "});",
                "pm.globals.clear(); pm.globals.set('h', 'H');",
            ]),
            ("cleared", "\(base)/get", [], [
                "pm.test('cleared', () => pm.expect(pm.globals.toObject()).to.eql({h: 'H'}));",
            ]),
        ], variables: ["e": "from-collection", "c": "C"]))
        try dir.write("env.json", #"{"name": "stage", "values": [{"key": "e", "value": "E"}, {"key": "legacy", "value": "L"}, {"key": "back", "value": "B"}, {"key": "kept", "value": "K"}]}"#)
        try dir.write("globals.json", #"{"name": "g", "values": [{"key": "g", "value": "G"}, {"key": "other", "value": "O"}], "_postman_variable_scope": "globals"}"#)
        let output = try ReqRunBinary.run(["run", "--all", "--env", "env.json", "--globals", "globals.json",
                                           "--export-environment", "out-env.json", "--export-globals", "out-globals.json"], in: dir.url)
        #expect(output.status == 0, "\(output.stdout)\n\(output.stderr)")
        let record = try RecordFiles.newest(in: dir.url)
        #expect(record.results[0].url == "\(base)/get?e=E")
        #expect(Self.scriptChecks(record.results[1]) == ["✓ gone"])
        #expect(Self.scriptChecks(record.results[2]) == ["✓ cleared"])
        struct Export: Decodable { struct Value: Decodable { var key: String; var value: String }; var values: [Value] }
        let env = try JSONDecoder().decode(Export.self, from: Data(try dir.read("out-env.json").utf8))
        #expect(env.values.map { "\($0.key)=\($0.value)" } == ["back=again", "kept=K"])
        let globals = try JSONDecoder().decode(Export.self, from: Data(try dir.read("out-globals.json").utf8))
        #expect(globals.values.map { "\($0.key)=\($0.value)" } == ["h=H"])
    }

    @Test func aBadScriptTimeoutIsAUsageError() throws {
        let dir = try TemporaryDirectory()
        try dir.write("collections/scripts.json", Self.collection([("x", "http://127.0.0.1:9/", [], ["1;"])]))
        let output = try ReqRunBinary.run(["run", "--all", "--script-timeout", "soon"], in: dir.url)
        #expect(output.status == 64)
        #expect(output.stderr.hasPrefix("error: --script-timeout expects a number of seconds, got 'soon'\n"), "\(output.stderr)")
    }

    @Test func consoleLinesAreMasked() throws {
        let base = try TestServers.httpbin()
        let (output, record) = try run(Self.collection([
            ("log", "\(base)/get", [], ["console.log('token is ' + pm.environment.get('token'));"]),
        ]), environment: """
            {"name": "e", "values": [{"key": "token", "value": "s3cr3t-value", "type": "secret"}]}
            """)
        #expect(output.status == 0, "\(output.stdout)\n\(output.stderr)")
        #expect(record.results[0].console == ["token is ****"])
        #expect(!output.stdout.contains("s3cr3t-value"))
    }

    @Test func scriptAssertionsAreJUnitTestcases() throws {
        let base = try TestServers.httpbin()
        let dir = try TemporaryDirectory()
        try dir.write("collections/scripts.json", Self.collection([
            ("checked", "\(base)/get", [], ["pm.test('passes', () => {});", "pm.test('fails', () => pm.expect(1).to.equal(2));",
                                             "pm.test('throws', () => { throw new TypeError('not a thing'); });"]),
        ]))
        let output = try ReqRunBinary.run(["run", "--all", "--report", "junit=junit.xml", "--report", "html=report.html"], in: dir.url)
        // The HTML report's expectations table: check, expected, actual.
        let html = try dir.read("report.html")
        #expect(html.contains("<tr class=\"bad\"><td>✗</td><td>fails</td>") && html.contains("AssertionError: expected 1 to equal 2</code></td></tr>"))
        #expect(output.status == 1)
        let xml = try dir.read("junit.xml")
        #expect(xml.contains("<testcase name=\"passes\" classname=\"scripts.scripts.checked\""))
        #expect(xml.contains("<testcase name=\"fails\" classname=\"scripts.scripts.checked\""))
        // As Newman's JUnit reporter writes a failed assertion: `type="AssertionFailure"`, the error's message
        // without its name (`error.message`).
        #expect(xml.contains("<failure message=\"expected 1 to equal 2\" type=\"AssertionFailure\">"), "\(xml)")
        #expect(xml.contains("<failure message=\"not a thing\" type=\"AssertionFailure\">"), "\(xml)")
    }
}
