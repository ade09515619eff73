import Foundation
import NotesKit
import Testing

@Suite struct JSONValueTests {
    @Test func readsEveryKindOfValue() throws {
        let value = try JSONValue.parse(
            #" {"a": [1, -2.5, 3e2, true, false, null], "b": {"c": "d"}, "e": {}, "f": []} "#)
        #expect(
            value
                == .object([
                    "a": .array([.int(1), .number(-2.5), .number(300), .bool(true), .bool(false), .null]),
                    "b": .object(["c": .string("d")]), "e": .object([:]), "f": .array([]),
                ]))
        #expect(value["b"]?["c"]?.stringValue == "d")
        #expect(value["a"]?.arrayValue?.first?.intValue == 1)
        #expect(value["missing"] == nil)
    }

    @Test func writesCompactlyInOrder() {
        let value = JSONValue.object([
            "z": .int(3), "a": .array([.number(0.5), .null, .bool(true)]), "s": .string("q\"\\\n\u{1}é"),
        ])
        #expect(value.compact == #"{"z":3,"a":[0.5,null,true],"s":"q\"\\\n\u0001é"}"#)
    }

    /// A string with nothing to escape is copied whole; each escape, wherever it is, still is one.
    @Test func stringsWithoutEscapesAreWrittenAsThemselves() {
        var out = ""
        JSONValue.quote("file:///v/a%20b/😀 中e\u{301}.md", into: &out)
        #expect(out == "\"file:///v/a%20b/😀 中e\u{301}.md\"")
        for (text, written) in [
            ("a\"", #""a\"""#), ("\\z", #""\\z""#), ("é\u{1F}", #""é\u001f""#), ("\t", #""\t""#),
        ] {
            out = ""
            JSONValue.quote(text, into: &out)
            #expect(out == written)
        }
    }

    @Test func escapesAndSurrogatePairs() throws {
        #expect(try JSONValue.parse(#""\u00e9\u4e2d\ud83d\ude00\/\b\f\t""#) == .string("é中😀/\u{8}\u{c}\t"))
        #expect(try JSONValue.parse(#""\uD83D\uDE00""#) == .string("😀"))
        let text = "😀 中 e\u{301}"
        #expect(try JSONValue.parse(JSONValue.string(text).compact) == .string(text))
    }

    @Test(arguments: [
        "", " ", "{", "[1,]", "{\"a\":1,}", "[1 2]", "01", "-", "1.", "1e", "+1", "tru", "nul", "\"abc",
        "\"\\x\"", "\"\\u12\"", "\"\\ud83d\"", "\"\\ude00\"", "\"\\ud83d\\u0041\"", "\"a\u{1}\"", "{1:2}",
        "[1] x", "NaN", "{\"a\" 1}", "'a'",
    ])
    func refusesGarbage(_ text: String) {
        #expect(throws: JSONValue.ParseError.self) { try JSONValue.parse(text) }
    }

    @Test func refusesBinaryGarbage() {
        #expect(throws: JSONValue.ParseError.self) { try JSONValue.parse([0xFF, 0xFE, 0x00, 0x7B]) }
        #expect(throws: JSONValue.ParseError.self) { try JSONValue.parse([0x22, 0xC3, 0x28, 0x22]) }
    }

    @Test func limitsNesting() throws {
        let ok =
            String(repeating: "[", count: JSONValue.maximumDepth)
            + String(repeating: "]", count: JSONValue.maximumDepth)
        #expect(throws: Never.self) { try JSONValue.parse(ok) }
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONValue.ParseError.self) { try JSONValue.parse(deep) }
        let objects =
            String(repeating: "{\"a\":", count: 10_000) + "1" + String(repeating: "}", count: 10_000)
        #expect(throws: JSONValue.ParseError.self) { try JSONValue.parse(objects) }
    }

    @Test func numbersRoundTrip() throws {
        #expect(JSONValue.int(-42).compact == "-42")
        #expect(JSONValue.number(1.25).compact == "1.25")
        #expect(JSONValue.number(.infinity).compact == "null")
        #expect(try JSONValue.parse("9007199254740991").intValue == 9_007_199_254_740_991)
        #expect(try JSONValue.parse("1.5").intValue == nil)
    }
}
