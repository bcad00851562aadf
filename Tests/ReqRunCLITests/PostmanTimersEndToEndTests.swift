import Foundation
import Testing
import ReqRunKit
import TestSupport

/// `setTimeout` & co. in the sandbox (`SandboxTimers`), with postman-sandbox's semantics: a script's event
/// waits for its timers in real time, bounded by `--script-timeout`, and none outlives its event. The built
/// binary against the local httpbin, with collections of our own.
@Suite struct PostmanTimersEndToEndTests {
    private func run(_ collection: String, _ arguments: [String] = []) throws -> (ReqRunBinary.Output, RunRecord, seconds: Double) {
        let dir = try TemporaryDirectory()
        try dir.write("collections/timers.json", collection)
        let started = ContinuousClock.now
        let output = try ReqRunBinary.run(["run", "--all"] + arguments, in: dir.url)
        let seconds = (ContinuousClock.now - started) / .seconds(1)
        return (output, try RecordFiles.newest(in: dir.url), seconds)
    }

    private static func checks(_ result: RequestResult) -> [String] { PostmanSandboxAPIEndToEndTests.checks(result) }

    /// A 600 ms `setTimeout` in a pre-request script really waits (the script's own clock and the run's), far
    /// below the 5 s limit; what its callback sets is the request's URL and the next request's.
    @Test func aDelayReallyWaitsAndWhatItSetsIsUsed() throws {
        let base = try TestServers.httpbin()
        let (output, record, seconds) = try run(PostmanScriptsEndToEndTests.collection([
            ("waits", "\(base)/anything/{{late}}", [
                "const started = Date.now();",
                "setTimeout(() => { pm.variables.set('late', 'set-later'); pm.environment.set('waited', String(Date.now() - started)); }, 600);",
            ], [
                "pm.test('the request used it', () => pm.expect(pm.response.json().url).to.match(/\\/anything\\/set-later$/));",
                "setTimeout(() => pm.collectionVariables.set('next', 'from-a-timer'), 20);",
            ]),
            ("next", "\(base)/anything/{{next}}", [], [
                "pm.test('waited', () => { const w = Number(pm.environment.get('waited')); pm.expect(w).to.be.at.least(600); pm.expect(w).to.be.below(2500); });",
                "pm.test('the next request used it', () => pm.expect(pm.response.json().url).to.match(/\\/anything\\/from-a-timer$/));",
            ]),
        ]))
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(record.results.map(Self.checks) == [["✓ the request used it"], ["✓ waited", "✓ the next request used it"]])
        #expect(seconds >= 0.6 && seconds < 4, "\(seconds) s")
    }

    /// Due order (equal delays in the order set, `setImmediate` first), the promise jobs of each callback before
    /// the next, `clearTimeout`, an interval cleared after three ticks, postman-sandbox's rules: no arguments
    /// and an empty object as `this` for the callback, a callback that is not a function sets nothing, each
    /// `clear*` clears only its own kind, an unknown id does nothing; `require('timers')` gives the globals.
    @Test func orderJobsClearingAndIntervals() throws {
        let base = try TestServers.httpbin()
        let (output, record, _) = try run(PostmanScriptsEndToEndTests.collection([
            ("order", "\(base)/get", [], [
                "const seen = [];",
                "setTimeout(() => seen.push('b'), 120);",
                "setTimeout(function () { seen.push('a:' + arguments.length + ':' + JSON.stringify(this));",
                "  Promise.resolve().then(() => seen.push('a-job')); }, 60, 'dropped');",
                "setTimeout(() => seen.push('a2'), 60);",
                "setImmediate(() => seen.push('now'));",
                "const cleared = setTimeout(() => seen.push('cleared'), 10); clearTimeout(cleared);",
                "let ticks = 0; const every = setInterval(() => { seen.push('i' + (++ticks)); if (ticks === 3) clearInterval(every); }, 15);",
                "clearTimeout(every); clearTimeout('nope'); clearInterval(12345);",
                "pm.test('not a function', () => { pm.expect(setTimeout('code', 1)).to.be.undefined; pm.expect(setInterval()).to.be.undefined; });",
                "pm.test('the timers module', () => { const t = require('timers'); pm.expect(t.setTimeout).to.equal(setTimeout);",
                "  pm.expect(t.clearInterval).to.equal(clearInterval); pm.expect(t.setImmediate).to.equal(setImmediate); });",
                "setTimeout(() => pm.test('order', () => pm.expect(seen.join(' ')).to.equal('now i1 i2 i3 a:0:{} a-job a2 b')), 200);",
            ]),
        ]))
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(Self.checks(try #require(record.results.first)) == ["✓ not a function", "✓ the timers module", "✓ order"])
    }

    /// 20,000 timers of one script: each uncleared one fires once, the cleared half never, those of one delay in
    /// the order set (the clock moves while they are set, so delays are not compared across), well within a 10 s limit: the earliest is taken from a heap (a scan of every pending timer at
    /// each callback took more than 60 s here).
    @Test func twentyThousandTimersFireInOrderAndQuickly() throws {
        let base = try TestServers.httpbin()
        let (output, record, seconds) = try run(PostmanScriptsEndToEndTests.collection([
            ("many", "\(base)/get", [], [
                "const fired = []; const ids = [];",
                "for (let i = 0; i < 20000; i++) ids.push(setTimeout(() => fired.push(i), 1 + (i % 7)));",
                "for (let i = 1; i < 20000; i += 2) clearTimeout(ids[i]);",
                "setTimeout(() => pm.test('order', () => {",
                "  pm.expect(fired.length).to.equal(10000);",
                "  pm.expect(fired.filter(i => i % 2 === 1)).to.eql([]);",
                "  pm.expect(new Set(fired).size).to.equal(10000);",
                "  // Of one delay, a timer set later is due later (or with it, after it): each class fires in order.",
                "  for (let d = 1; d <= 7; d++) { const c = fired.filter(i => 1 + (i % 7) === d);",
                "    pm.expect(c).to.eql(c.slice().sort((a, b) => a - b)); } }), 100);",
            ]),
        ]), ["--script-timeout", "10"])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(Self.checks(try #require(record.results.first)) == ["✓ order"])
        #expect(seconds < 8, "\(seconds) s")
    }

    /// `await new Promise(r => setTimeout(r, 50))` at a test script's top level, then `pm.test`; a test whose
    /// async function awaits a timer counts; a `pm.test` inside a callback counts.
    @Test func awaitingATimer() throws {
        let base = try TestServers.httpbin()
        let (output, record, _) = try run(PostmanScriptsEndToEndTests.collection([
            ("await", "\(base)/get", [], [
                "const before = Date.now();",
                "await new Promise(r => setTimeout(r, 50));",
                "pm.test('after the await', () => pm.expect(Date.now() - before).to.be.at.least(50));",
                "pm.test('an async test', async () => { await new Promise(r => setTimeout(r, 30)); pm.expect(1).to.equal(2); });",
                "setTimeout(() => pm.test('in a callback', () => pm.response.to.have.status(200)), 10);",
            ]),
        ]))
        #expect(output.status == 1, "\(output.stdout)\(output.stderr)")
        #expect(Self.checks(try #require(record.results.first)) == [
            "✓ after the await", "✗ an async test: AssertionError: expected 1 to equal 2", "✓ in a callback",
        ])
    }

    /// A callback that throws is the request's script error, with its position in the script; the event still
    /// waits for its other timers, as postman-sandbox's does (their tests are recorded).
    @Test func aCallbackThatThrowsIsTheScriptsError() throws {
        let base = try TestServers.httpbin()
        let (output, record, _) = try run(PostmanScriptsEndToEndTests.collection([
            ("throws", "\(base)/get", [], [
                "setTimeout(() => {",
                "  null.x;",
                "}, 10);",
                "setTimeout(() => pm.test('still fired', () => {}), 60);",
            ]),
        ]))
        #expect(output.status == 3, "\(output.stdout)\(output.stderr)")
        let result = try #require(record.results.first)
        #expect(result.outcome == .scriptError)
        #expect(result.error?.message == "collections/timers.json: item[0].event[0] (test) 2:7: TypeError: null is not an object (evaluating 'null.x')")
        #expect(Self.checks(result) == ["✓ still fired"])
    }

    /// An interval never cleared keeps the event alive until `--script-timeout` stops it, with the time limit's
    /// error; its timers are gone then: the next request's script (which waits longer than the interval)
    /// never sees it tick, nor a timer of a script that threw or of a skipped request.
    @Test func aPendingIntervalIsStoppedByTheTimeLimitAndNoTimerLeaks() throws {
        let base = try TestServers.httpbin()
        let (output, record, seconds) = try run(PostmanScriptsEndToEndTests.collection([
            ("forever", "\(base)/get", ["setInterval(() => { pm.globals.set('ticks', String(Number(pm.globals.get('ticks') || 0) + 1)); }, 20);"], []),
            ("threw", "\(base)/get", [], ["setTimeout(() => pm.globals.set('late', 'threw'), 50);", "throw new Error('body');"]),
            ("skipped", "\(base)/get", ["setTimeout(() => pm.globals.set('late', 'skipped'), 50);", "pm.execution.skipRequest();"], []),
            ("later", "\(base)/get", [], [
                "const ticks = pm.globals.get('ticks');",
                "setTimeout(() => pm.test('no timer leaked', () => {",
                "  pm.expect(pm.globals.get('ticks')).to.equal(ticks); pm.expect(pm.globals.get('late')).to.be.undefined; }), 300);",
            ]),
        ]), ["--script-timeout", "0.5"])
        #expect(output.status == 3, "\(output.stdout)\(output.stderr)")
        #expect(record.results[0].error?.message == "collections/timers.json: item[0].event[0] (prerequest): the script ran for more than 0.5 s and was stopped (--script-timeout)")
        #expect(record.results[1].outcome == .scriptError)
        #expect(record.results[2].outcome == .skipped)
        #expect(Self.checks(record.results[3]) == ["✓ no timer leaked"])
        #expect(seconds >= 0.8 && seconds < 5, "\(seconds) s")
    }

    /// The collection's pre-request script waits for its timer before the request's runs (each script's event
    /// ends with its timers); a script that replaces or deletes a timer global does not change the next
    /// request's, nor does what a callback put on its `this`.
    @Test func eachScriptWaitsForItsOwnTimersAndTheGlobalsComeBack() throws {
        let base = try TestServers.httpbin()
        let (output, record, _) = try run(PostmanScriptsEndToEndTests.collection([
            ("first", "\(base)/get", ["pm.test('the collection script waited', () => pm.expect(pm.variables.get('from')).to.equal('collection'));"],
             ["setTimeout(function () { this.leaked = 1; }, 1);", "setTimeout = function () { return 'mine'; }; delete clearTimeout;"]),
            ("second", "\(base)/get", [], [
                "pm.test('the globals are back', () => { pm.expect(typeof clearTimeout).to.equal('function');",
                "  pm.expect(setTimeout).to.equal(require('timers').setTimeout); });",
                "setTimeout(function () { pm.test('a fresh this', () => pm.expect(this.leaked).to.be.undefined); }, 1);",
            ]),
        ], events: [("prerequest", ["setTimeout(() => pm.variables.set('from', 'collection'), 40);"])]))
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(record.results.map(Self.checks) == [["✓ the collection script waited"], ["✓ the globals are back", "✓ a fresh this"]])
    }

    /// A poll: `pm.sendRequest` inside `setTimeout`, three times, then a timer set in a request's callback;
    /// both waits go through the same loop.
    @Test func timersAndSendRequestTogether() throws {
        let base = try TestServers.httpbin()
        let (output, record, _) = try run(PostmanScriptsEndToEndTests.collection([
            ("poll", "\(base)/anything/{{polled}}", [
                "let tries = 0;",
                "function poll() {",
                "  pm.sendRequest('\(base)/get?try=' + (++tries), (err, res) => {",
                "    if (res.json().args.try === '3') setTimeout(() => pm.variables.set('polled', 'done-' + tries), 30);",
                "    else setTimeout(poll, 20);",
                "  });",
                "}",
                "setTimeout(poll, 10);",
            ], [
                "pm.test('polled three times', () => pm.expect(pm.response.json().url).to.match(/\\/anything\\/done-3$/));",
            ]),
        ]))
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        let result = try #require(record.results.first)
        #expect(Self.checks(result) == ["✓ polled three times"])
        #expect(result.scriptRequests?.map(\.url) == ["\(base)/get?try=1", "\(base)/get?try=2", "\(base)/get?try=3"])
    }

    /// Native-format scripts have the same timers; `--dry-run` runs them too (they are local), so what a
    /// timer sets is in the request it prints.
    @Test func nativeScriptsAndDryRun() throws {
        let base = try TestServers.httpbin()
        let dir = try TemporaryDirectory()
        try dir.write("collections/n.json", """
            {"name": "N", "groups": [{"name": "g", "requests": [
              {"name": "r", "url": "\(base)/anything/{{who}}",
               "scripts": {"prerequest": "setTimeout(() => pm.variables.set('who', 'timer'), 30);",
                           "test": ["await new Promise(r => setTimeout(r, 20));", "pm.test('native', () => pm.expect(pm.response.json().url).to.match(/timer$/));"]}}
            ]}]}
            """)
        let output = try ReqRunBinary.run(["run", "--all"], in: dir.url)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(Self.checks(try #require(try RecordFiles.newest(in: dir.url).results.first)) == ["✓ native"])
        let dry = try ReqRunBinary.run(["run", "--all", "--dry-run"], in: dir.url)
        #expect(dry.status == 0, "\(dry.stdout)\(dry.stderr)")
        #expect(dry.stdout.contains("GET \(base)/anything/timer"), "\(dry.stdout)")
    }

    /// SIGTERM during a timer's wait stops the script at once (not at the end of the wait or the time limit).
    @Test func aSignalStopsAWaitAtOnce() throws {
        let dir = try TemporaryDirectory()
        try dir.write("collections/timers.json", PostmanScriptsEndToEndTests.collection([
            ("waits", "http://127.0.0.1:9/", ["setTimeout(() => {}, 20000);"], []),
        ]))
        let running = try ReqRunBinary.start(["run", "--all", "--script-timeout", "60"], in: dir.url)
        Thread.sleep(forTimeInterval: 1.0)
        let signalled = Date()
        running.send(signal: SIGTERM)
        let output = running.finish()
        #expect(output.status == 143, "\(output.stdout)\n\(output.stderr)")
        #expect(Date().timeIntervalSince(signalled) < 1.0)
        #expect(try RecordFiles.newest(in: dir.url).results.first?.error?.message
                == "collections/timers.json: item[0].event[0] (prerequest): the script was stopped: the run was stopped by SIGTERM")
    }
}
