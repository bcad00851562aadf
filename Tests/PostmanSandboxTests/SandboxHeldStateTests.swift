import Testing
import PostmanSandbox
import ReqRunKit

/// The context keeps the scopes and `pm.info`'s iteration between requests and Swift sends only what differs
/// from what it holds (`PostmanSandbox.held`): whatever changed them outside the scripts (a capture, `--var`,
/// a declared request, another collection's scripts, a new iteration) is seen by the next script, and what a
/// script set, unset or cleared is what the next one sees, as when every scope was sent for every request.
@Suite struct SandboxHeldStateTests {
    private static let response = ResponseView(status: 200, headers: [HeaderField(name: "Content-Type", value: "application/json")],
                                               body: Array(#"{"ok": true}"#.utf8), bodySize: 12, totalMicroseconds: 1_000)

    private static func context(collection: VariableList = [:], groups: VariableList = [:], environment: VariableList = [:],
                                upper: VariableList = [:]) -> ScriptContext {
        ScriptContext(requestName: "r", requestID: nil, collectionKey: 0, collectionValues: collection, groupValues: groups,
                      environmentValues: environment, upperValues: upper)
    }

    private func run(_ sandbox: PostmanSandbox, _ source: String, _ context: ScriptContext, _ variables: inout ScriptVariables) -> ScriptOutcome {
        sandbox.test([Script(event: .test, source: source, file: "c.json", fieldPath: "item[0].event[0]")], request: Request(url: "http://x.invalid/"),
                     response: Self.response, context: context, variables: &variables)
    }

    /// The name of the probe's one assertion: what the script sees of each layer, as JSON (names sorted).
    private func probe(_ sandbox: PostmanSandbox, _ context: ScriptContext, _ variables: inout ScriptVariables) -> String {
        let outcome = run(sandbox, """
            function s(o) { var r = {}; Object.keys(o).sort().forEach(function (k) { r[k] = o[k]; }); return r; }
            pm.test(JSON.stringify([s(pm.globals.toObject()), s(pm.collectionVariables.toObject()), s(pm.environment.toObject()),
              pm.variables.get('l'), pm.variables.get('g2'), pm.variables.get('u'), pm.info.iteration, pm.info.iterationCount,
              pm.iterationData.toObject()]), () => {});
            """, context, &variables)
        return outcome.assertions.first?.name ?? "error: \(outcome.error ?? "no assertion")"
    }

    @Test func aScopeChangedOutsideTheScriptsBetweenTwoRequestsIsSeenByTheNext() throws {
        let sandbox = try PostmanSandbox()
        var variables = ScriptVariables()
        var context = Self.context(collection: ["c": "file"], environment: ["e": "file"])
        _ = run(sandbox, "pm.environment.set('e', 'script'); pm.globals.set('g', 'script'); pm.variables.set('l', 'local');", context, &variables)
        #expect(probe(sandbox, context, &variables) == #"[{"g":"script"},{"c":"file"},{"e":"script"},"local",null,null,0,1,{}]"#)
        // A capture (or a declared request) sets an environment value; `--var` an upper one; the files' layers change.
        variables.environment["e"] = "captured"
        context.upperValues = ["u": "var"]
        context.groupValues = ["g2": "group"]
        context.collectionValues = ["c": "file2", "c2": "new"]
        #expect(probe(sandbox, context, &variables) == #"[{"g":"script"},{"c":"file2","c2":"new"},{"e":"captured"},"local","group","var",0,1,{}]"#)
        // A value removed outside: the file's value is seen again; the local scope emptied; a new iteration with a data row.
        variables.environment.removeValue(forKey: "e")
        variables.local = [:]
        variables.globals = [:]
        context.collectionValues = ["c": "file"]
        context.iteration = 1
        context.iterationCount = 2
        context.iterationData = [Variable(name: "d", value: "row")]
        #expect(probe(sandbox, context, &variables) == #"[{},{"c":"file"},{"e":"file"},null,"group","var",1,2,{"d":"row"}]"#)
        context.iterationData = []
        #expect(probe(sandbox, context, &variables) == #"[{},{"c":"file"},{"e":"file"},null,"group","var",1,2,{}]"#)
    }

    /// Two collections, two contexts, one environment: what one collection's scripts set is seen by the other's.
    @Test func anotherCollectionsScriptsChangeIsSeenByTheNextScriptOfTheFirst() throws {
        let first = try PostmanSandbox(), second = try PostmanSandbox()
        var variables = ScriptVariables()
        let context = Self.context()
        _ = run(first, "pm.environment.set('e', 'first');", context, &variables)
        _ = run(second, "pm.environment.set('e', pm.environment.get('e') + ' second'); pm.environment.set('f', 1);", context, &variables)
        #expect(probe(first, context, &variables) == #"[{},{},{"e":"first second","f":"1"},null,null,null,0,1,{}]"#)
        _ = run(first, "pm.environment.unset('f');", context, &variables)
        #expect(probe(second, context, &variables) == #"[{},{},{"e":"first second"},null,null,null,0,1,{}]"#)
    }

    /// What a script unset or cleared stays gone for the next request; values set as numbers and objects stay
    /// as set while nothing outside changes them, an object changed in place comes back, and a value Swift
    /// changed arrives as its text.
    @Test func unsetClearedAndTypedValuesAreWhatTheNextScriptSees() throws {
        let sandbox = try PostmanSandbox()
        var variables = ScriptVariables()
        let context = Self.context(environment: ["e": "file"])
        _ = run(sandbox, "pm.environment.set('n', 5); pm.environment.set('o', {a: 1}); pm.globals.set('g', 'x'); pm.globals.set('h', 'y');"
                + " pm.environment.unset('e');", context, &variables)
        #expect(variables.environment == ["n": "5", "o": #"{"a":1}"#] && variables.globals == ["g": "x", "h": "y"])
        #expect(variables.unsetEnvironment == ["e"])
        let typed = run(sandbox, "pm.test('types', () => pm.expect([typeof pm.environment.get('n'), pm.environment.get('o').a, pm.environment.has('e')])"
                        + ".to.eql(['number', 1, false])); pm.environment.get('o').a = 2; pm.globals.clear(); pm.globals.set('h', 'z');", context, &variables)
        #expect(typed.assertions.map { $0.error ?? "passed" } == ["passed"])
        #expect(variables.environment == ["n": "5", "o": #"{"a":2}"#] && variables.globals == ["h": "z"])
        variables.environment["n"] = "6"
        let after = run(sandbox, "pm.test('after', () => pm.expect([pm.environment.get('n'), pm.environment.get('o').a, pm.globals.toObject()])"
                        + ".to.eql(['6', 2, {h: 'z'}]));", context, &variables)
        #expect(after.assertions.map { $0.error ?? "passed" } == ["passed"])
    }

    /// An object whose text changes each time it is written comes back as the text `end` wrote, as when Swift
    /// sent that text back; a variable named `__proto__` is seen until a script changes its scope.
    @Test func valuesWhoseTextChangesAndProtoNamesAreAsBefore() throws {
        let sandbox = try PostmanSandbox()
        var variables = ScriptVariables()
        let context = Self.context()
        _ = run(sandbox, "var n = 0; pm.environment.set('t', {toJSON: function () { return n++; }});", context, &variables)
        #expect(variables.environment == ["t": "0"])
        let seen = run(sandbox, "pm.test('t', () => pm.expect(pm.environment.get('t')).to.equal('0'));", context, &variables)
        #expect(seen.assertions.map { $0.error ?? "passed" } == ["passed"])
        variables.environment = ["__proto__": "x"]
        let proto = "pm.test(String(pm.environment.get('__proto__')) + ' ' + pm.environment.has('__proto__'), () => {});"
        for _ in 0..<2 {
            #expect(run(sandbox, proto, context, &variables).assertions.map(\.name) == ["x true"])
        }
        _ = run(sandbox, "pm.environment.set('a', 'b');", context, &variables)
        #expect(variables.environment == ["a": "b"])
        #expect(run(sandbox, proto, context, &variables).assertions.map(\.name) == ["undefined false"])
    }

    /// An event whose end cannot be read (a value no text can be made of) changes no variable, and the next
    /// request sees the scopes as Swift has them, not what the failed event left in the context.
    @Test func anEventThatFailsToFinishLeavesNothingForTheNext() throws {
        let sandbox = try PostmanSandbox()
        var variables = ScriptVariables()
        let context = Self.context()
        _ = run(sandbox, "pm.environment.set('a', 'kept');", context, &variables)
        let failed = run(sandbox, "pm.environment.set('bad', {toJSON: function () { throw 1; }, toString: function () { throw 2; }});"
                         + " pm.environment.set('a', 'lost');", context, &variables)
        #expect(failed.error != nil)
        #expect(variables.environment == ["a": "kept"])
        #expect(probe(sandbox, context, &variables) == #"[{},{},{"a":"kept"},null,null,null,0,1,{}]"#)
    }

    /// The response's body and header fields are sent only when they differ from the last event's: each script
    /// sees its own response, whichever of the two changed, a body with a NUL (sent in the JSON) and an empty one.
    @Test func eachScriptSeesItsOwnResponsesBodyAndHeaderFields() throws {
        let sandbox = try PostmanSandbox()
        var variables = ScriptVariables()
        let context = Self.context()
        let probe = Script(event: .test, source: "pm.test(JSON.stringify([pm.response.text(), pm.response.headers.get('X-A') || null]), () => {});",
                           file: "c.json", fieldPath: "item[0].event[0]")
        let responses: [(String, String?)] = [("one", "1"), ("one", "1"), ("one", "2"), ("two", "2"), ("a\u{0}b", "2"), ("a\u{0}b", nil), ("", nil),
                                              ("", nil), ("two", "2"), ("é😀", "é")]
        for (body, field) in responses {
            let response = ResponseView(status: 200, headers: field.map { [HeaderField(name: "X-A", value: $0)] } ?? [], body: Array(body.utf8),
                                        bodySize: body.utf8.count, totalMicroseconds: 1_000)
            let outcome = sandbox.test([probe], request: Request(url: "http://x.invalid/"), response: response, context: context, variables: &variables)
            let expected = "[\"\(body.replacingOccurrences(of: "\u{0}", with: "\\u0000"))\",\(field.map { "\"\($0)\"" } ?? "null")]"
            #expect(outcome.assertions.map(\.name) == [expected])
            // A pre-request event between them: no response.
            var request = Request(url: "http://x.invalid/")
            let before = sandbox.preRequest([Script(event: .prerequest, source: "pm.test(String(pm.response), () => {});", file: "c.json",
                                                    fieldPath: "item[0].event[1]")], request: &request, context: context, variables: &variables)
            #expect(before.assertions.map(\.name) == ["null"])
        }
    }

    /// A body or header field that differs from the last response's only in its Unicode normal form (`é` as one
    /// code point, then as `e` and a combining accent: equal for Swift's `==`) is sent again: each script sees its
    /// own response's code points.
    @Test func aResponseThatDiffersOnlyInItsNormalFormIsSentAgain() throws {
        let sandbox = try PostmanSandbox()
        var variables = ScriptVariables()
        let probe = Script(event: .test, source: """
            function points(t) { return Array.from(t).map(function (c) { return c.codePointAt(0).toString(16); }).join(' '); }
            pm.test(points(pm.response.text()) + '/' + points(pm.response.headers.get('X-A')), () => {});
            """, file: "c.json", fieldPath: "item[0].event[0]")
        for (text, expected) in [("\u{E9}", "e9/e9"), ("e\u{301}", "65 301/65 301"), ("\u{E9}", "e9/e9")] {
            let response = ResponseView(status: 200, headers: [HeaderField(name: "X-A", value: text)], body: Array(text.utf8),
                                        bodySize: text.utf8.count, totalMicroseconds: 1_000)
            let outcome = sandbox.test([probe], request: Request(url: "http://x.invalid/"), response: response, context: Self.context(),
                                       variables: &variables)
            #expect(outcome.assertions.map(\.name) == [expected])
        }
    }

    /// What the sandbox looks for in a request's script texts (`defineProperty`: the next request's clean-up then
    /// looks at every global name) follows each request's own scripts, though the last texts' answer is kept: a
    /// global one request's script defined (not enumerable) is gone at the next, between requests whose scripts
    /// do not name it.
    @Test func aGlobalDefinedByOneRequestsScriptIsGoneAtTheNext() throws {
        let sandbox = try PostmanSandbox()
        var variables = ScriptVariables()
        let plain = "pm.test(typeof hidden, () => {});"
        let defines = "Object.defineProperty(globalThis, 'hidden', { value: 1, configurable: true }); pm.test(typeof hidden, () => {});"
        var seen: [String] = []
        for source in [plain, plain, defines, plain, plain, defines, defines, plain] {
            let outcome = run(sandbox, source, Self.context(), &variables)
            seen += outcome.assertions.map(\.name)
        }
        #expect(seen == ["undefined", "undefined", "number", "undefined", "undefined", "number", "number", "undefined"])
    }

    /// `pm` is a new object for each request with the same own properties in the same order, each enumerable
    /// and configurable, the lazy ones accessors; what a script adds, replaces or deletes on it is gone at the
    /// next request.
    @Test func pmIsANewObjectOfTheSameShapeForEachRequest() throws {
        let sandbox = try PostmanSandbox()
        var variables = ScriptVariables()
        let context = Self.context()
        let shape = """
            var d = Object.getOwnPropertyNames(pm).map(function (k) {
              var p = Object.getOwnPropertyDescriptor(pm, k);
              return k + (p.enumerable ? 'E' : '') + (p.configurable ? 'C' : '') + (p.writable ? 'W' : '') + (p.get ? 'G' : '') + (p.set ? 'S' : '');
            });
            pm.test(d.join(' ') + ' | ' + ('test' in pm) + ' ' + pm.hasOwnProperty('request') + ' ' + (pm.x === undefined) + ' '
              + (typeof pm.request.url.toString) + ' ' + (pm.environment === pm.environment) + ' ' + Object.keys(pm).length, () => {});
            pm.x = 1; pm.request = 'replaced'; delete pm.globals; pm.test2 = pm.test;
            """
        let expected = "testECW expectECW variablesECW iterationDataECW infoECW requestECGS responseECGS environmentECGS collectionVariablesECGS"
            + " globalsECGS executionECGS sendRequestECW cookiesECGS visualizerECGS vaultECW requireECW | true true true function true 16"
        for _ in 0..<3 {
            let outcome = run(sandbox, shape, context, &variables)
            #expect(outcome.error == nil)
            #expect(outcome.assertions.map(\.name) == [expected])
        }
    }

    /// Scripts are compiled once per text by its bytes: two texts that differ only in Unicode normal form are
    /// two programs (here a one-character and a two-character string), also when another script ran between
    /// them (the table, not only the last script kept).
    @Test func scriptsThatDifferOnlyInTheirNormalFormAreTwoPrograms() throws {
        let sandbox = try PostmanSandbox()
        var variables = ScriptVariables()
        let context = Self.context()
        let length = { (word: String) -> String in "pm.test('length ' + '\(word)'.length, () => {});" }
        let names = ["caf\u{E9}", "other", "cafe\u{301}"].map { word in
            run(sandbox, length(word), context, &variables).assertions.first?.name ?? "none"
        }
        #expect(names == ["length 4", "length 5", "length 5"])
        #expect(sandbox.compiledScriptCount >= 3)
    }

}
