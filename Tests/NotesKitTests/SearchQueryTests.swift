import Foundation
import NotesKit
import TestSupport
import Testing

/// A note built from file text, for search tests.
func makeNote(_ id: String, _ text: String, mtime: Double = 0) -> Note {
    Note(path: id + ".md", document: NoteDocument(parsing: text), mtime: mtime)
}

@Suite struct SearchQueryTests {
    // MARK: Parsing

    /// Terms as typed, and their folded forms written out (case, accents, width and
    /// the letters that do not decompose).
    @Test(
        arguments: [
            ("empty query", "", [], []),
            ("white space only", "  \t \n ", [], []),
            ("one term", "milk", ["milk"], ["milk"]),
            (
                "runs of white space", "  milk   eggs\tbread\n", ["milk", "eggs", "bread"],
                ["milk", "eggs", "bread"]
            ),
            (
                "a quoted phrase is one term", "\"creme brulee\" recipe", ["creme brulee", "recipe"],
                ["creme brulee", "recipe"]
            ),
            ("a phrase in the middle", "a \"b c\" d", ["a", "b c", "d"], ["a", "b c", "d"]),
            ("quotes glued to words", "a\"b c\"d", ["a", "b c", "d"], ["a", "b c", "d"]),
            (
                "an unbalanced quote runs to the end", "milk \"oat mil", ["milk", "oat mil"],
                ["milk", "oat mil"]
            ),
            ("an unbalanced quote with nothing after it", "milk \"", ["milk"], ["milk"]),
            ("an unbalanced quote of blanks", "milk \"   ", ["milk"], ["milk"]),
            ("empty quotes are no term", "\"\" milk", ["milk"], ["milk"]),
            ("a lone quote", "\"", [], []),
            (
                "a phrase keeps its inner spacing", "\"  two  spaces \"", ["  two  spaces "],
                ["  two  spaces "]
            ),
            ("two phrases", "\"a b\" \"c d\"", ["a b", "c d"], ["a b", "c d"]),
            ("accents kept as typed, folded away", "Crème", ["Crème"], ["creme"]),
            (
                "single quotes are ordinary characters", "don't 'x y'", ["don't", "'x", "y'"],
                ["don't", "'x", "y'"]
            ),
            ("case folding, ß to ss", "STRASSE Straße", ["STRASSE", "Straße"], ["strasse", "strasse"]),
            ("letters that do not decompose", "Łódź Øre", ["Łódź", "Øre"], ["lodz", "ore"]),
            (
                "full width and a decomposed accent", "ＣＡＦＥ cafe\u{301}", ["ＣＡＦＥ", "cafe\u{301}"],
                ["cafe", "cafe"]
            ),
        ] as [(String, String, [String], [String])])
    func parsesTerms(_ name: String, _ query: String, _ terms: [String], _ folded: [String]) {
        let parsed = SearchQuery(query)
        #expect(parsed.terms == terms, "\(name)")
        #expect(parsed.isEmpty == terms.isEmpty)
        #expect(parsed.foldedTerms == folded.map { Array($0.utf8) }, "\(name)")
    }

    // MARK: Matching

    @Test(
        arguments: [
            ("one term", "milk", "Buy milk", true),
            ("every term is required", "milk eggs", "Buy milk", false),
            ("all terms present", "milk eggs", "milk and eggs", true),
            ("terms in any order", "eggs milk", "milk and eggs", true),
            ("a phrase must be contiguous", "\"milk eggs\"", "milk and eggs", false),
            ("a contiguous phrase", "\"milk and\"", "milk and eggs", true),
            ("substring of a word", "rem", "Crème", true),
            ("accent-insensitive", "creme brulee", "Crème Brûlée", true),
            ("accents in the query", "crème", "CREME", true),
            ("case-insensitive ß", "STRASSE", "Straße", true),
            ("letter table", "lodz", "Łódź", true),
            ("width-insensitive", "full", "ｆｕｌｌ", true),
            ("NFD query, NFC text", "cafe\u{301}", "Café", true),
            ("terms across lines", "first second", "first line\nsecond line", true),
            ("a phrase does not span lines", "\"line second\"", "first line\nsecond line", false),
            ("no match", "zebra", "milk and eggs", false),
            ("empty query matches", "", "anything", true),
        ] as [(String, String, String, Bool)])
    func matches(_ name: String, _ query: String, _ text: String, _ expected: Bool) {
        #expect(SearchQuery(query).matches(folded: Array(TextFolding.fold(text).utf8)) == expected, "\(name)")
    }

    @Test func queriesSearchTheTitleAndBodyButNotOtherFrontMatter() throws {
        try Sandbox(tree: [
            .file("tagged.md", "---\ntags: [secret]\ntitle: Visible title\n---\nPlain body\n"),
            .file("plain.md", "# Groceries\n\nmilk, eggs\n"),
            .file("accent.md", "Crème brûlée recipe\n"),
        ]).test { root in
            let notes = store(try Vault(root: root))
            let ids = { (query: String) in
                notes.query(NoteQuery(search: SearchQuery(query), order: .title)).map(\.id)
            }
            #expect(ids("secret") == [])
            #expect(ids("tags") == [])
            #expect(ids("visible") == ["tagged"])
            #expect(ids("plain body") == ["tagged"])
            #expect(ids("groceries eggs") == ["plain"])
            #expect(ids("creme") == ["accent"])
            #expect(ids("") == ["accent", "plain", "tagged"])
            #expect(ids("e") == ["accent", "plain", "tagged"])
        }
    }

    @Test func queriesFilterOnAllCoresThenSortAndCut() throws {
        let files = (0..<1000).map { i in
            Sandbox.Item.file(
                String(format: "n%04d.md", i),
                "---\ncreatedAt: \(NoteDate.format(Double(i) * 60))\n---\n"
                    + (i % 3 == 0 ? "Fizz \(i)\n" : "Buzz \(i)\n"))
        }
        try Sandbox(tree: files).test { root in
            let notes = store(try Vault(root: root))
            let fizz = (0..<1000).filter { $0 % 3 == 0 }.map { String(format: "n%04d", $0) }
            let newest = notes.query(NoteQuery(search: SearchQuery("fizz"), order: .created))
            #expect(newest.map(\.id) == Array(fizz.reversed()))
            let oldestFive = notes.query(
                NoteQuery(search: SearchQuery("FIZZ"), order: .created, reverse: true, limit: 5))
            #expect(oldestFive.map(\.id) == Array(fizz.prefix(5)))
            #expect(notes.query(NoteQuery(limit: 3)).count == 3)
        }
    }

    // MARK: Snippets

    @Test(
        arguments: [
            (
                "the first line containing a term, trimmed", "Title\n\n   Buy Crème fraîche  \nmore creme\n",
                "creme", "Buy Crème fraîche"
            ),
            ("any term counts", "Title\nother line\nzzz\n", "zzz other", "other line"),
            ("CRLF text", "Title\r\n  the line\r\n", "line", "the line"),
            ("no line matches", "Title\nbody\n", "absent", nil),
            ("a tab is trimmed", "\tindented match\t\n", "match", "indented match"),
        ] as [(String, String, String, String?)])
    func snippet(_ name: String, _ text: String, _ query: String, _ expected: String?) {
        var folder = TextFolder()
        #expect(SearchQuery(query).snippet(in: text, folding: &folder) == expected, "\(name)")
    }

    // MARK: Highlights

    /// The highlighted substrings of `line` for `query`.
    func highlighted(_ line: String, _ query: String) -> [String] {
        SearchQuery(query).highlights(in: line).map { String(line[$0]) }
    }

    @Test func highlightsEveryOccurrenceAsTyped() {
        #expect(highlighted("Crème Brûlée and crème", "creme") == ["Crème", "crème"])
    }

    @Test func highlightsSeveralTermsInLineOrder() {
        #expect(highlighted("milk and eggs and milk", "milk eggs") == ["milk", "eggs", "milk"])
    }

    @Test func highlightCoversAWholeCharacterThatFoldsToSeveral() {
        #expect(highlighted("Straße", "ss") == ["ß"])
        #expect(highlighted("Straße", "strasse") == ["Straße"])
        #expect(highlighted("Æsir", "ae") == ["Æ"])
    }

    @Test func highlightRangesAreCharacterRanges() {
        let line = "Cafe\u{301} ｆｕｌｌ"
        let ranges = SearchQuery("café full").highlights(in: line)
        #expect(ranges.count == 2)
        #expect(ranges.map { line.distance(from: line.startIndex, to: $0.lowerBound) } == [0, 5])
        #expect(ranges.map { line[$0].count } == [4, 4])
    }

    @Test func highlightsAPhrase() {
        #expect(highlighted("a milk and eggs", "\"milk and\"") == ["milk and"])
    }

    @Test func noHighlightWithoutAMatch() {
        #expect(SearchQuery("zebra").highlights(in: "milk and eggs").isEmpty)
        #expect(SearchQuery("").highlights(in: "milk and eggs").isEmpty)
        #expect(SearchQuery("x").highlights(in: "").isEmpty)
    }

    // MARK: Sorting

    /// The list orders through the query API, on notes just read from their files and on
    /// the same notes read in place from the index (the two kinds of catalog entry).
    @Test func sortOrders() throws {
        try Sandbox(tree: [
            .directory(".notes", []),
            .file(
                "a.md", "---\ncreatedAt: 2026-01-01T00:00:00Z\nupdatedAt: 2026-06-01T00:00:00Z\n---\nZebra\n"),
            .file("b.md", "---\ncreatedAt: 2026-03-01T00:00:00Z\n---\napple\n"),
            .file("c.md", "---\ncreatedAt: 2026-03-01T00:00:00Z\n---\nÉclair\n"),
            .file("c-d.md", "---\ncreatedAt: 2026-03-01T00:00:00Z\n---\nÉclair\n"),
        ]).test { root in
            // Written one after the other, the files would differ in mtime, the first tie-break.
            for name in ["a", "b", "c", "c-d"] {
                var times = [
                    timespec(tv_sec: 1_700_000_000, tv_nsec: 0), timespec(tv_sec: 1_700_000_000, tv_nsec: 0),
                ]
                #expect(utimensat(AT_FDCWD, root + "/" + name + ".md", &times, 0) == 0)
            }
            let vault = try Vault(root: root)
            let read = store(vault).refresh()
            let mapped = store(vault).refresh()
            #expect(read.filesRead == 4 && mapped.filesRead == 0)
            for catalog in [read, mapped] {
                let ids = { (order: NotesKit.SortOrder, reverse: Bool) in
                    catalog.run(NoteQuery(order: order, reverse: reverse)).map(\.id)
                }
                // Ties (same date, same mtime) by ID in code-point order: "c" before "c-d" (not
                // "c-d.md" before "c.md").
                #expect(ids(.updated, false) == ["a", "b", "c", "c-d"])
                #expect(ids(.created, false) == ["b", "c", "c-d", "a"])
                #expect(ids(.title, false) == ["b", "c", "c-d", "a"])
                #expect(ids(.updated, true) == ["c-d", "c", "b", "a"])
            }
            let a = try #require(read.notes.first { $0.id == "a" })
            #expect(SortOrder.updated.date(of: a) == a.updatedAt)
            #expect(SortOrder.created.date(of: a) == a.createdAt)
        }
    }

    /// A limit far below the number of hits takes the best few in one pass instead of sorting all;
    /// it must give exactly the first notes of the full order, reversed or not, ties included.
    @Test func aSmallLimitIsThePrefixOfTheFullOrder() throws {
        // 60 notes on 7 dates (many ties, broken by ID), every third with an updatedAt.
        let files: [Sandbox.Item] =
            [.directory(".notes", [])]
            + (0..<60).map { n in
                let updated = n % 3 == 0 ? "updatedAt: 2026-0\((n * 5) % 9 + 1)-01T00:00:00Z\n" : ""
                return .file(
                    "n\((n * 37) % 60).md",
                    "---\ncreatedAt: 2026-0\(n % 7 + 1)-01T00:00:00Z\n\(updated)---\nNote \(n)\n")
            }
        try Sandbox(tree: files).test { root in
            let vault = try Vault(root: root)
            let read = store(vault).refresh()
            let mapped = store(vault).refresh()
            for catalog in [read, mapped] {
                for order in [NotesKit.SortOrder.updated, .created, .title] {
                    for reverse in [false, true] {
                        let all = catalog.run(NoteQuery(order: order, reverse: reverse)).map(\.id)
                        #expect(all.count == 60)
                        for limit in [1, 2, 3, 7] {
                            let some = catalog.run(NoteQuery(order: order, reverse: reverse, limit: limit))
                                .map(\.id)
                            #expect(
                                some == Array(all.prefix(limit)), "\(order) reverse \(reverse) limit \(limit)"
                            )
                        }
                    }
                }
            }
        }
    }
}
