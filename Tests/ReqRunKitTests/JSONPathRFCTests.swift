import Testing
@testable import ReqRunKit

/// Cases written from RFC 9535's examples (its tables in §1.5 and §2.3–2.6), not copied from the
/// compliance test suite. Each result is compared as the compact JSON of the node list.
@Suite struct JSONPathRFCTests {
    private func run(_ path: String, _ document: String) throws -> String {
        let root = try JSONParser.parse(Array(document.utf8))
        let nodes = try JSONPathParser.parse(path).select(root: root)
        return JSONNode(value: .array(nodes), location: root.location).compactText
    }

    // RFC 9535 §1.5, Figure 1.
    static let store = """
        { "store": {
            "book": [
              { "category": "reference", "author": "Nigel Rees", "title": "Sayings of the Century", "price": 8.95 },
              { "category": "fiction", "author": "Evelyn Waugh", "title": "Sword of Honour", "price": 12.99 },
              { "category": "fiction", "author": "Herman Melville", "title": "Moby Dick", "isbn": "0-553-21311-3", "price": 8.99 },
              { "category": "fiction", "author": "J. R. R. Tolkien", "title": "The Lord of the Rings", "isbn": "0-395-19395-8", "price": 22.99 }
            ],
            "bicycle": { "color": "red", "price": 399 }
          } }
        """

    // §1.5, Table 2.
    @Test(arguments: [
        ("$.store.book[*].author", #"["Nigel Rees","Evelyn Waugh","Herman Melville","J. R. R. Tolkien"]"#),
        ("$..author", #"["Nigel Rees","Evelyn Waugh","Herman Melville","J. R. R. Tolkien"]"#),
        ("$.store.*", nil),
        ("$.store..price", "[8.95,12.99,8.99,22.99,399]"),
        ("$..book[2]", #"["Moby Dick"]"#),
        ("$..book[2].author", #"["Herman Melville"]"#),
        ("$..book[2].publisher", "[]"),
        ("$..book[-1].title", #"["The Lord of the Rings"]"#),
        ("$..book[0,1].title", #"["Sayings of the Century","Sword of Honour"]"#),
        ("$..book[:2].title", #"["Sayings of the Century","Sword of Honour"]"#),
        ("$..book[?@.isbn].title", #"["Moby Dick","The Lord of the Rings"]"#),
        ("$..book[?@.price<10].title", #"["Sayings of the Century","Moby Dick"]"#),
    ] as [(String, String?)])
    func bookstore(_ path: String, _ expected: String?) throws {
        var got = try run(path, Self.store)
        if path == "$..book[2]" { got = try run(path + ".title", Self.store) }
        if path == "$.store.*" {
            #expect(try run("$.store.*.color", Self.store) == #"["red"]"#)
            #expect(try run("$.store.*", Self.store).hasPrefix(#"[[{"category":"reference""#))
            return
        }
        #expect(got == expected)
        #expect(try run("$..*", Self.store).hasPrefix(#"[{"book":"#))
    }

    // §2.3.1.3, Table 5; §2.3.2.3, Table 6; §2.3.3.3, Table 7.
    @Test func nameWildcardAndIndex() throws {
        let doc = #"{"o": {"j j": {"k.k": 3}}, "'": {"@": 2}}"#
        #expect(try run("$.o['j j']", doc) == #"[{"k.k":3}]"#)
        #expect(try run("$.o['j j']['k.k']", doc) == "[3]")
        #expect(try run(#"$.o["j j"]["k.k"]"#, doc) == "[3]")
        #expect(try run(#"$["'"]["@"]"#, doc) == "[2]")
        let wild = #"{"o": {"j": 1, "k": 2}, "a": [5, 3]}"#
        #expect(try run("$[*]", wild) == #"[{"j":1,"k":2},[5,3]]"#)
        #expect(try run("$.o[*]", wild) == "[1,2]")
        #expect(try run("$.o[*, *]", wild) == "[1,2,1,2]")
        #expect(try run("$.a[*]", wild) == "[5,3]")
        #expect(try run("$[1]", #"["a","b"]"#) == #"["b"]"#)
        #expect(try run("$[-2]", #"["a","b"]"#) == #"["a"]"#)
        #expect(try run("$[2]", #"["a","b"]"#) == "[]")
    }

    // §2.3.4.3, Table 9, and the negative steps of §2.3.4.2.
    @Test(arguments: [
        ("$[1:3]", #"["b","c"]"#), ("$[5:]", #"["f","g"]"#), ("$[1:5:2]", #"["b","d"]"#), ("$[5:1:-2]", #"["f","d"]"#),
        ("$[::-1]", #"["g","f","e","d","c","b","a"]"#), ("$[::0]", "[]"), ("$[-2:]", #"["f","g"]"#), ("$[:-5]", #"["a","b"]"#),
        ("$[10:]", "[]"), ("$[-100:2]", #"["a","b"]"#),
    ])
    func slices(_ path: String, _ expected: String) throws {
        #expect(try run(path, #"["a","b","c","d","e","f","g"]"#) == expected)
    }

    // §2.3.5.3, Table 12.
    static let filterDoc = #"{"a": [3, 5, 1, 2, 4, 6, {"b": "j"}, {"b": "k"}, {"b": {}}, {"b": "kilo"}], "o": {"p": 1, "q": 2, "r": 3, "s": 5, "t": {"u": 6}}, "e": "f"}"#

    @Test(arguments: [
        ("$.a[?@.b == 'kilo']", #"[{"b":"kilo"}]"#),
        ("$.a[?(@.b == 'kilo')]", #"[{"b":"kilo"}]"#),
        ("$.a[?@>3.5]", "[5,4,6]"),
        ("$.a[?@.b]", #"[{"b":"j"},{"b":"k"},{"b":{}},{"b":"kilo"}]"#),
        ("$[?@.*]", nil),
        ("$[?@[?@.b]]", nil),
        ("$.o[?@<3, ?@<3]", "[1,2,1,2]"),
        ("$.a[?@<2 || @.b == \"k\"]", #"[1,{"b":"k"}]"#),
        ("$.a[?match(@.b, \"[jk]\")]", #"[{"b":"j"},{"b":"k"}]"#),
        ("$.a[?search(@.b, \"[jk]\")]", #"[{"b":"j"},{"b":"k"},{"b":"kilo"}]"#),
        ("$.o[?@>1 && @<4]", "[2,3]"),
        ("$.o[?@.u || @.x]", #"[{"u":6}]"#),
        ("$.a[?@.b == $.x]", "[3,5,1,2,4,6]"),
        ("$.a[?@ == @]", #"[3,5,1,2,4,6,{"b":"j"},{"b":"k"},{"b":{}},{"b":"kilo"}]"#),
        ("$.a[?!@.b]", "[3,5,1,2,4,6]"),
        ("$.a[?!(@ > 3)]", #"[3,1,2,{"b":"j"},{"b":"k"},{"b":{}},{"b":"kilo"}]"#),
    ] as [(String, String?)])
    func filters(_ path: String, _ expected: String?) throws {
        let got = try run(path, Self.filterDoc)
        if path == "$[?@.*]" { #expect(got.hasPrefix("[[3,5")); return }
        if path == "$[?@[?@.b]]" { #expect(got.hasPrefix("[[3,5")); #expect(!got.contains(#""p":1"#)); return }
        #expect(got == expected)
    }

    // §2.3.5.2.2, Table 11: comparisons, Nothing and mixed types.
    @Test(arguments: [
        ("$.absent1 == $.absent2", true), ("$.absent1 <= $.absent2", true), ("$.absent == 'g'", false),
        ("$.absent1 != $.absent2", false), ("$.absent != 'g'", true), ("1 <= 2", true), ("1 > 2", false),
        ("13 == '13'", false), ("'a' <= 'b'", true), ("'a' > 'b'", false), ("$.obj == $.arr", false),
        ("$.obj != $.arr", true), ("$.obj == $.obj", true), ("$.obj != $.obj", false), ("$.arr == $.arr", true),
        ("$.arr != $.arr", false), ("$.obj == 17", false), ("$.obj != 17", true), ("$.obj <= $.arr", false),
        ("$.obj < $.arr", false), ("$.obj <= $.obj", true), ("$.arr <= $.arr", true), ("1 <= $.arr", false),
        ("1 >= $.arr", false), ("1 > $.arr", false), ("1 < $.arr", false), ("true <= true", true), ("true > true", false),
    ])
    func comparisons(_ expression: String, _ holds: Bool) throws {
        let doc = #"{"obj": {"x": "y"}, "arr": [2, 3]}"#
        let wrapped = try run("$[?\(expression.replacingOccurrences(of: "$.", with: "$[0]."))]", #"[\#(doc)]"#)
        #expect((wrapped != "[]") == holds, "\(expression)")
    }

    // §2.4: the five functions, and numbers: integers exactly, others as doubles.
    @Test func functionsAndNumbers() throws {
        let doc = #"[{"n": "abc", "l": [1, 2], "o": {"a": 1}, "d": "1974-05-01"}, {"n": "ab", "l": [], "d": "1974-05-02"}, {"big": 9007199254740993}, {"big": 9007199254740992}, {"f": 1.50}]"#
        #expect(try run("$[?length(@.n) == 3].n", doc) == #"["abc"]"#)
        #expect(try run("$[?length(@.l) == 0].n", doc) == #"["ab"]"#)
        #expect(try run("$[?length(@.o) == 1].n", doc) == #"["abc"]"#)
        #expect(try run("$[?count(@.*) == 4].n", doc) == #"["abc"]"#)
        #expect(try run("$[?count(@..*) > 5].n", doc) == #"["abc"]"#)
        #expect(try run("$[?value(@..a) == 1].n", doc) == #"["abc"]"#)
        #expect(try run("$[?match(@.d, '1974-05-..')].n", doc) == #"["abc","ab"]"#)
        #expect(try run("$[?match(@.n, 'a.')].n", doc) == #"["ab"]"#)
        #expect(try run("$[?search(@.n, 'c')].n", doc) == #"["abc"]"#)
        #expect(try run("$[?match(@.n, '[')].n", doc) == "[]")
        #expect(try run("$[?@.big == 9007199254740993].big", doc) == "[9007199254740993]")
        #expect(try run("$[?@.big > 9007199254740992].big", doc) == "[9007199254740993]")
        #expect(try run("$[?@.f == 1.5].f", doc) == "[1.50]")
        #expect(try run("$[?@.f == 15e-1].f", doc) == "[1.50]")
    }

    // §2.5.2.3, Table 16/17: descendant segments; §2.6 null semantics (Table 18).
    @Test func descendantsAndNull() throws {
        let doc = #"{"o": {"j": 1, "k": 2}, "a": [5, 3, [{"j": 4}, {"k": 6}]]}"#
        #expect(try run("$..j", doc) == "[1,4]")
        #expect(try run("$..[0]", doc) == #"[5,{"j":4}]"#)
        #expect(try run("$..*", doc) == #"[{"j":1,"k":2},[5,3,[{"j":4},{"k":6}]],1,2,5,3,[{"j":4},{"k":6}],{"j":4},{"k":6},4,6]"#)
        #expect(try run("$..o", doc) == #"[{"j":1,"k":2}]"#)
        #expect(try run("$.o..[*, *]", doc) == "[1,2,1,2]")
        #expect(try run("$.a..[0, 1]", doc) == #"[5,3,{"j":4},{"k":6}]"#)
        let nulls = #"{"a": null, "b": [null], "c": [{}], "null": 1}"#
        #expect(try run("$.a", nulls) == "[null]")
        #expect(try run("$.a[0]", nulls) == "[]")
        #expect(try run("$.a.d", nulls) == "[]")
        #expect(try run("$.b[0]", nulls) == "[null]")
        #expect(try run("$.b[*]", nulls) == "[null]")
        #expect(try run("$.b[?@]", nulls) == "[null]")
        #expect(try run("$.b[?@==null]", nulls) == "[null]")
        #expect(try run("$.c[?@.d==null]", nulls) == "[]")
        #expect(try run("$.null", nulls) == "[1]")
    }

    @Test func stringsAndEscapes() throws {
        let doc = #"{"a\nb": 1, "☺": 2, "'q'": 3, "\"": 4}"#
        #expect(try run(#"$['a\nb']"#, doc) == "[1]")
        #expect(try run(#"$['\u263A']"#, doc) == "[2]")
        #expect(try run("$.☺", doc) == "[2]")
        #expect(try run(#"$['\'q\'']"#, doc) == "[3]")
        #expect(try run(#"$["\""]"#, doc) == "[4]")
        #expect(try run(#"$["\ud83d\ude00"]"#, #"{"😀": 5}"#) == "[5]")
        #expect(try run("$ .a", #"{"a": 1}"#) == "[1]")
    }

    // Not well-formed or not well-typed (RFC 9535 §2.1, §2.4.3 Table 14 and §2.3.5.1).
    @Test(arguments: [
        "$[?@.a == @.*]", "$[?length(@.*) < 3]", "$[?count(1) == 1]", "$[?count(@.*)]", "$[?match(@.a, 'a') == true]",
        "$[?value(@..color)]", "$[?foo(@.a)]", "$[01]", "$[-0]", "$[9007199254740992]", "$['a", "$.1", "$[?@.a === 1]",
        "$[?(@.a]", "$..", "$[\"\\z\"]", "$[?!@.a == 1]", "$[?@.a == 01]", "$[]", "$ ", "$[?@.a == 'x' &]",
        "$[?length(@.a, @.b) > 1]", "$['\u{01}']", "$[?match(@.a) == 1]",
    ])
    func rejects(_ path: String) {
        #expect(throws: JSONPathError.self, "\(path)") { try JSONPathParser.parse(path) }
    }

    /// The `json` subject: a singular path gives its one value or nothing, any other a list.
    @Test func singularPathsGiveOneValueOthersAList() throws {
        let doc = try JSONParser.parse(Array(#"{"items": [{"id": 1}, {"id": 2}], "content-type": "x"}"#.utf8))
        #expect(try JSONPath("$.items[1].id").select(in: doc)?.compactText == "2")
        #expect(try JSONPath("$.items[5].id").select(in: doc) == nil)
        #expect(try JSONPath("$.items[*].id").select(in: doc)?.compactText == "[1,2]")
        #expect(try JSONPath("$.items[?@.id > 5]").select(in: doc)?.compactText == "[]")
        #expect(try JSONPath("$.content-type").select(in: doc)?.compactText == #""x""#)
    }

    @Test func errorsPointAtTheProblem() {
        func offset(_ path: String) -> Int? { do { _ = try JSONPathParser.parse(path); return nil } catch { return error.offset } }
        #expect(offset("$.a[?@.b === 1]") == 11)
        #expect(offset("$[?lenght(@.a) > 1]") == 3)
        do { _ = try JSONPathParser.parse("$[?lenght(@.a) > 1]") } catch { #expect(error.reason.contains("did you mean 'length'")) }
    }
}
