import Foundation
import Testing
import ReqRunKit
import TestSupport

/// The order a script sees a variable scope in (`toObject()`, `Object.keys`, `JSON.stringify`, the legacy
/// objects) and the order `--export-environment` and `--export-globals` write: Postman's `VariableList`
/// order (the file's, a new name last, a name set again in its place, one unset and set again last), the
/// same in every process; `pm.variables.toObject()` merged from globals up to the local scope.
@Suite struct PostmanVariableOrderEndToEndTests {
    /// Twelve names each, in an order neither sorted nor any hash's: `prefix` + these.
    private static let suffixes = ["09", "02", "11", "05", "01", "12", "07", "03", "10", "04", "08", "06"]

    private static func names(_ prefix: String) -> [String] { suffixes.map { prefix + $0 } }

    private static func values(_ prefix: String) -> String {
        names(prefix).map { #"{"key": "\#($0)", "value": "\#($0)-file"}"# }.joined(separator: ", ")
    }

    private static func quoted(_ text: String) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes]), as: UTF8.self)
            .dropFirst().dropLast().description
    }

    private static func item(_ name: String, _ url: String, pre: [String]) -> String {
        """
        {"name": \(quoted(name)), "event": [{"listen": "prerequest", "script": {"exec": [\(pre.map(quoted).joined(separator: ", "))]}}],
         "request": {"method": "GET", "url": \(quoted(url))}}
        """
    }

    private static func js(_ names: [String]) -> String { "[" + names.map { "'\($0)'" }.joined(separator: ", ") + "]" }

    private func checks(_ result: RequestResult) -> [String] {
        result.expectations.filter { $0.kind != nil }.map { "\($0.passed ? "✓" : "✗") \($0.description)\($0.actual.isEmpty ? "" : ": \($0.actual)")" }
    }

    @Test func scopesKeepPostmansOrderInScriptsAndExports() throws {
        let base = try TestServers.httpbin()
        let dir = try TemporaryDirectory()
        let (e, g, c, d) = (Self.names("e"), Self.names("g"), Self.names("c"), Self.names("d"))
        // The first script adds a name (last), sets one again (in its place), unsets one and sets it again (last
        // in that script; back in its place for the next, as Newman applies a script's compacted mutations), and
        // unsets one; the second sets that one again (last).
        func inScript(_ names: [String], _ p: String) -> [String] { names.filter { $0 != p + "03" && $0 != p + "07" } + [p + "new", p + "03"] }
        func next(_ names: [String], _ p: String) -> [String] { names.filter { $0 != p + "07" } + [p + "new"] }
        let change = { (api: String, p: String) in
            "\(api).set('\(p)new', 'n'); \(api).set('\(p)05', 'again'); \(api).unset('\(p)03'); \(api).set('\(p)03', 'back'); \(api).unset('\(p)07');"
        }
        let first = [
            "pm.test('environment', () => pm.expect(Object.keys(pm.environment.toObject())).to.eql(\(Self.js(e))));",
            "pm.test('globals', () => pm.expect(Object.keys(pm.globals.toObject())).to.eql(\(Self.js(g))));",
            "pm.test('collection', () => pm.expect(Object.keys(pm.collectionVariables.toObject())).to.eql(\(Self.js(c))));",
            "pm.test('data', () => pm.expect([Object.keys(pm.iterationData.toObject()), Object.keys(data)]).to.eql([\(Self.js(d)), \(Self.js(d))]));",
            "pm.test('legacy', () => pm.expect([Object.keys(environment), Object.keys(globals)]).to.eql([\(Self.js(e)), \(Self.js(g))]));",
            "pm.test('variables', () => pm.expect(Object.keys(pm.variables.toObject())).to.eql(\(Self.js(g + c + e + d))));",
            change("pm.environment", "e"), change("pm.globals", "g"), change("pm.collectionVariables", "c"),
            "pm.variables.set('l2', 'x'); pm.variables.set('l1', 'y'); pm.variables.unset('l2'); pm.variables.set('l2', 'z');",
            "pm.test('in the script', () => pm.expect(JSON.stringify(pm.environment.toObject())).to.equal(JSON.stringify(\(Self.js(inScript(e, "e")))"
                + ".reduce((o, k) => (o[k] = pm.environment.get(k), o), {}))));",
        ]
        let second = [
            "pm.test('environment', () => pm.expect(Object.keys(pm.environment.toObject())).to.eql(\(Self.js(next(e, "e")))));",
            "pm.test('globals', () => pm.expect(Object.keys(globals)).to.eql(\(Self.js(next(g, "g")))));",
            "pm.test('collection', () => pm.expect(Object.keys(pm.collectionVariables.toObject())).to.eql(\(Self.js(next(c, "c")))));",
            // The local scope is the script's as it left it (postman-runtime keeps the sandbox's `_variables`).
            "pm.test('variables', () => pm.expect(Object.keys(pm.variables.toObject())).to.eql("
                + "\(Self.js(next(g, "g") + next(c, "c") + next(e, "e") + d + ["l1", "l2"]))));",
            "pm.environment.set('e07', 'again');",
            "pm.globals.clear(); pm.globals.set('gz', '1'); pm.globals.set('ga', '2');",
        ]
        try dir.write("collections/order.json", """
            {"info": {"name": "order", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             "variable": [\(Self.values("c"))],
             "item": [\(Self.item("first", "\(base)/get", pre: first)), \(Self.item("second", "\(base)/get", pre: second))]}
            """)
        try dir.write("env.json", #"{"name": "stage", "values": [\#(Self.values("e"))]}"#)
        try dir.write("globals.json", #"{"name": "g", "values": [\#(Self.values("g"))], "_postman_variable_scope": "globals"}"#)
        try dir.write("data.csv", d.joined(separator: ",") + "\n" + d.map { "\($0)-row" }.joined(separator: ",") + "\n")
        let output = try ReqRunBinary.run(["run", "--all", "--env", "env.json", "--globals", "globals.json", "--iteration-data", "data.csv",
                                           "--export-environment", "out-env.json", "--export-globals", "out-globals.json"], in: dir.url)
        #expect(output.status == 0, "\(output.stdout)\n\(output.stderr)")
        let record = try RecordFiles.newest(in: dir.url)
        #expect(checks(record.results[0]) == ["environment", "globals", "collection", "data", "legacy", "variables", "in the script"].map { "✓ \($0)" })
        #expect(checks(record.results[1]) == ["environment", "globals", "collection", "variables"].map { "✓ \($0)" })
        struct Export: Decodable { struct Value: Decodable { var key: String }; var values: [Value] }
        let environment = try JSONDecoder().decode(Export.self, from: Data(try dir.read("out-env.json").utf8))
        #expect(environment.values.map(\.key) == next(e, "e") + ["e07"])
        let globals = try JSONDecoder().decode(Export.self, from: Data(try dir.read("out-globals.json").utf8))
        #expect(globals.values.map(\.key) == ["gz", "ga"])
    }

    /// A JSON data file's rows in each object's key order.
    @Test func jsonIterationDataKeepsTheKeyOrder() throws {
        let base = try TestServers.httpbin()
        let dir = try TemporaryDirectory()
        let d = Self.names("d")
        try dir.write("collections/order.json", """
            {"info": {"name": "order", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             "item": [\(Self.item("first", "\(base)/get", pre: [
                "pm.test('data', () => pm.expect([Object.keys(pm.iterationData.toObject()), Object.keys(data)]).to.eql([\(Self.js(d)), \(Self.js(d))]));",
             ]))]}
            """)
        try dir.write("data.json", "[{" + d.enumerated().map { "\"\($1)\": \($0 % 2 == 0 ? "\($0)" : "\"\($1)\"")" }.joined(separator: ", ") + "}]")
        let output = try ReqRunBinary.run(["run", "--all", "--iteration-data", "data.json"], in: dir.url)
        #expect(output.status == 0, "\(output.stdout)\n\(output.stderr)")
        #expect(checks(try RecordFiles.newest(in: dir.url).results[0]) == ["✓ data"])
    }
}
