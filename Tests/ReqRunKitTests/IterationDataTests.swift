import Testing
@testable import ReqRunKit

/// Data files (`--iteration-data`): CSV per RFC 4180 with a header row, and JSON arrays of objects.
@Suite struct IterationDataTests {
    private func rows(_ text: String, file: String = "data.csv") throws -> [[String]] {
        try IterationData.decode(Array(text.utf8), file: file).rows.map { $0.map { "\($0.name)=\($0.value)" } }
    }

    private func failure(_ text: String, file: String = "data.csv") -> String {
        do {
            _ = try IterationData.decode(Array(text.utf8), file: file)
            return "no error"
        } catch {
            return error.description
        }
    }

    @Test func csvHasAHeaderRowQuotesEmbeddedNewlinesAndCRLF() throws {
        #expect(try rows("user,note\r\nann,\"says \"\"hi\"\", twice\"\r\nbob,\"two\nlines\"\r\n") == [
            ["user=ann", "note=says \"hi\", twice"], ["user=bob", "note=two\nlines"],
        ])
        // A byte order mark is not part of the first column's name; empty lines and empty fields.
        #expect(try rows("\u{FEFF}a,b\n\n1,\n,2\n\n") == [["a=1", "b="], ["a=", "b=2"]])
        #expect(try rows("only,header\n") == [])
        #expect(try rows("") == [])
    }

    @Test func badCSVSaysWhereWithLineAndColumn() {
        #expect(failure("a,b\n1,2,3\n") == "data.csv:2:1: this row has 3 fields, the header 2")
        #expect(failure("a,b\n1,\"open\n\n") == "data.csv:2:3: this quoted field is not closed (a \" is missing)")
        #expect(failure("a,b\n1,x\"y\n") == "data.csv:2:4: a \" inside an unquoted field (quote the whole field and write \"\" for each \")")
        #expect(failure("a,b\n\"x\"y,2\n").hasPrefix("data.csv:2:4: text after a closing quote"))
        #expect(failure("a,a\n1,2\n") == "data.csv:1:3: the column 'a' is named twice in the header")
        // The line count goes on through a quoted line break.
        #expect(failure("a,b\n\"x\ny\",2\n3\n") == "data.csv:4:1: this row has 1 field, the header 2")
    }

    @Test func jsonIsAnArrayOfObjectsWithValuesAsText() throws {
        #expect(try rows(#"[{"user": "ann", "n": 5, "ok": true, "none": null, "o": {"a": [1]}}, {}]"#, file: "d.json") == [
            ["user=ann", "n=5", "ok=true", "none=", "o={\"a\":[1]}"], [],
        ])
        // Told by its first character when the name says nothing.
        #expect(try rows("\u{FEFF} [{\"a\": \"1\"}]", file: "data.txt") == [["a=1"]])
        #expect(failure(#"{"a": 1}"#, file: "d.json") == "d.json:1:1: expected an array of objects (one per iteration), found an object")
        #expect(failure("[{\"a\": 1},\n 2]", file: "d.json") == "d.json:2:2: [1]: expected an object of name → value, found a number")
        #expect(failure("[{\"a\": 1,}]", file: "d.json").hasPrefix("d.json:1:"))
    }

    @Test func iterationsReuseTheLastRowAsNewmanDoes() {
        let data = IterationData(rows: [[Variable(name: "a", value: "1")], [Variable(name: "a", value: "2")]])
        #expect(RunData(data: data).count == 2)
        #expect(RunData(requestedCount: 3, data: data).count == 3)
        #expect(RunData(requestedCount: 3, data: data).row(2) == [Variable(name: "a", value: "2")])
        #expect(RunData(requestedCount: 1, data: data).count == 1)
        #expect(RunData(data: IterationData(rows: [])).count == 1)
        #expect(!RunData().isIterated && RunData().count == 1)
    }
}
