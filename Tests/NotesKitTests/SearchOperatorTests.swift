import Foundation
import TestSupport
import Testing

@testable import NotesKit

/// Exclusions (`-term`, `-"a phrase"`), `OR` and its precedence, and the order of `relevance`.
@Suite struct SearchOperatorTests {
    /// The clauses of a query written out: terms joined by `OR` in a clause, `-` before an
    /// excluded one, `#` kept on a tag.
    func clauses(_ query: String) -> [[String]] {
        SearchQuery(query).clauses.map { clause in
            clause.map { ($0.excluded ? "-" : "") + String(decoding: $0.folded, as: UTF8.self) }
        }
    }

    @Test(
        arguments: [
            ("an excluded word", "creme -brulee", [["creme"], ["-brulee"]]),
            ("an excluded phrase", "tart -\"creme brulee\"", [["tart"], ["-creme brulee"]]),
            ("a dash inside a word is text", "a-b", [["a-b"]]),
            ("a dash before a quote inside a word is text", "x-\"b c\"", [["x-"], ["b c"]]),
            ("a lone dash is ignored", "a - b", [["a"], ["b"]]),
            ("OR joins two terms", "pie OR tart", [["pie", "tart"]]),
            ("OR binds tighter than AND", "a b OR c", [["a"], ["b", "c"]]),
            ("OR chains", "a OR b OR c d", [["a", "b", "c"], ["d"]]),
            ("a leading OR is ignored", "OR a b", [["a"], ["b"]]),
            ("a trailing OR is ignored", "a b OR", [["a"], ["b"]]),
            ("OR twice is OR once", "a OR OR b", [["a", "b"]]),
            ("lower-case or is a word", "a or b", [["a"], ["or"], ["b"]]),
            ("a quoted OR is a word", "a \"OR\" b", [["a"], ["or"], ["b"]]),
            ("an excluded term may be one of an OR", "a OR -b", [["a", "-b"]]),
            ("an excluded tag", "x -#work", [["x"], ["-#work"]]),
        ] as [(String, String, [[String]])])
    func parsesOperators(_ name: String, _ query: String, _ expected: [[String]]) {
        #expect(clauses(query) == expected, "\(name)")
    }

    @Test func anExcludedTagIsATagAndOnlyLookedForTermsAreHighlighted() {
        let query = SearchQuery("creme -brulee -#work")
        #expect(query.clauses[2].first?.tag == Array("work".utf8))
        #expect(query.foldedTerms == [Array("creme".utf8)])
        #expect(query.textTerms == [Array("creme".utf8)])
        #expect(query.tagTerms.isEmpty)
        let line = "Crème brûlée #work"
        #expect(query.highlights(in: line).map { String(line[$0]) } == ["Crème"])
    }

    @Test(
        arguments: [
            ("an excluded term keeps notes without it", "creme -brulee", "Crème caramel", true),
            ("an excluded term drops notes with it", "creme -brulee", "Crème brûlée", false),
            ("exclusion is folded too", "-BRULEE", "brûlée", false),
            ("an excluded phrase", "-\"creme brulee\"", "creme and brulee", true),
            ("an excluded phrase found", "-\"creme brulee\"", "a creme brulee", false),
            ("either side of an OR", "pie OR tart", "apple tart", true),
            ("neither side of an OR", "pie OR tart", "apple cake", false),
            ("a b OR c: a and c", "a b OR c", "xa xc", true),
            ("a b OR c: b and c without a", "a b OR c", "xb xc", false),
            ("a b OR c: a alone", "a b OR c", "xa", false),
            ("an OR with an excluded side", "pie OR -tart", "cake", true),
            ("an OR with an excluded side, neither", "pie OR -tart", "tart", false),
            ("a lone dash excludes nothing", "milk -", "milk", true),
        ] as [(String, String, String, Bool)])
    func matches(_ name: String, _ query: String, _ text: String, _ expected: Bool) {
        #expect(SearchQuery(query).matches(folded: Array(TextFolding.fold(text).utf8)) == expected, "\(name)")
    }

    @Test(
        arguments: [
            ("an exclusion typed on widens", "a -b", "a -br"),
            ("an exclusion added", "a", "a -b"),
            ("an OR", "a", "a OR b"),
            ("a term after an OR", "a OR b", "a OR b c"),
        ])
    func queriesWithOperatorsNeverNarrow(_ name: String, _ broader: String, _ query: String) {
        #expect(!SearchQuery(query).narrows(SearchQuery(broader)), "\(name)")
    }

    /// Notes for ranking: the one titled "Backlinks" is the oldest, so by date alone it is last.
    static let vault: [Sandbox.Item] = [
        .directory(".notes", []),
        .file("backlinks.md", "---\ncreatedAt: 2020-01-01T00:00:00Z\n---\n# Backlinks\n\nThe pane.\n"),
        .file("using.md", "---\ncreatedAt: 2021-01-01T00:00:00Z\n---\n# Using backlinks\n"),
        .file("mention.md", "---\ncreatedAt: 2022-01-01T00:00:00Z\n---\n# Plugins\n\nSee backlinks.\n"),
        .file("other.md", "---\ncreatedAt: 2023-01-01T00:00:00Z\n---\n# Other\n\nbacklinks pane\n"),
        .file("tagged.md", "---\ncreatedAt: 2024-01-01T00:00:00Z\n---\n# Backlinks pane\n"),
    ]

    @Test func relevancePutsTitleMatchesFirstEachGroupInListOrder() throws {
        try Sandbox(tree: Self.vault).test { root in
            let catalog = store(try Vault(root: root)).refresh()
            func ids(_ query: String, reverse: Bool = false, limit: Int? = nil) -> [String] {
                var q = NoteQuery(search: SearchQuery(query), order: .updated, reverse: reverse, limit: limit)
                q.ranked = true
                return catalog.run(q).map(\.id)
            }
            #expect(ids("backlinks") == ["tagged", "backlinks", "using", "other", "mention"])
            #expect(ids("backlinks", limit: 2) == ["tagged", "backlinks"])
            #expect(ids("backlinks pane") == ["tagged", "other", "backlinks"])
            #expect(ids("backlinks -pane") == ["using", "mention"])
            #expect(
                catalog.run(NoteQuery(search: SearchQuery("backlinks"), order: .updated)).map(\.id) == [
                    "tagged", "other", "mention", "using", "backlinks",
                ])
        }
    }

    /// The browser's hits are ranked as `relevance` ranks, whatever query came before.
    @Test func liveSearchRanksAsRelevanceDoesAfterAnyQuery() throws {
        try Sandbox(tree: Self.vault).test { root in
            let catalog = store(try Vault(root: root)).refresh()
            var live = LiveSearch(catalog: catalog, order: .updated)
            for query in [
                "b", "back", "backlinks", "backlinks p", "backlinks", "backlinks -p", "backlinks -pa",
                "pane OR using", "", "backlinks",
            ] {
                live.search(SearchQuery(query), toFind: 1)
                live.advance()
                var q = NoteQuery(search: SearchQuery(query), order: .updated)
                q.ranked = true
                let expected = catalog.run(q).map(\.id)
                #expect((0..<live.hits.count).map { live.hits.note(at: $0).id } == expected, "'\(query)'")
            }
        }
    }
}

/// Snippets: a window around the first match of a long line, read a piece at a time.
@Suite struct SnippetWindowTests {
    func snippet(_ text: String, _ query: String) -> String? {
        var folder = TextFolder()
        return SearchQuery(query).snippet(in: text, folding: &folder)
    }

    /// The part of a snippet before its first `needle`.
    func before(_ snippet: String, _ needle: String) -> Int {
        snippet.range(of: needle).map { snippet.distance(from: snippet.startIndex, to: $0.lowerBound) } ?? -1
    }

    @Test func aLongLineIsCutToAWindowThatShowsTheMatch() throws {
        let words = (0..<120).map { "word\($0)" }.joined(separator: " ")
        let found = try #require(snippet("  " + words + " Zanzibar  \n", "zanzibar"))
        #expect(found.hasSuffix("Zanzibar"))
        #expect(found.hasPrefix("…"))
        #expect(found.count <= Snippet.width)
        #expect(before(found, "Zanzibar") == Snippet.before)
        #expect(words.hasSuffix(String(found.dropFirst().dropLast(" Zanzibar".count))))
    }

    @Test func aMatchNearTheStartKeepsTheStartAndCutsTheEnd() throws {
        let text = "\tThe zanzibar " + String(repeating: "x", count: 500) + "\n"
        let found = try #require(snippet(text, "zanzibar"))
        #expect(found.hasPrefix("The zanzibar x"))
        #expect(found.hasSuffix("…"))
        #expect(found.count == Snippet.width)
    }

    @Test func aMatchInTheMiddleIsCutBothSides() throws {
        let text = String(repeating: "a", count: 300) + "Crème" + String(repeating: "b", count: 300)
        let found = try #require(snippet(text, "creme"))
        #expect(found.hasPrefix("…") && found.hasSuffix("…"))
        #expect(found.count == Snippet.width)
        #expect(before(found, "Crème") == Snippet.before)
    }

    @Test func aShortLineIsWholeAndALineOf200IsNotCut() {
        let line = String(repeating: "é", count: 195) + " zap"
        #expect(snippet("title\n" + line + "\n", "zap") == line)
    }

    @Test func theFirstMatchOfAnyTermPlacesTheWindow() throws {
        let text =
            String(repeating: "z ", count: 200) + "second " + String(repeating: "y ", count: 100) + "first"
        let found = try #require(snippet(text, "first second"))
        #expect(found.contains("second"))
        #expect(!found.contains("first"))
    }

    /// A source of one line of `size` bytes of `word ` with `needle` at `at`, counting what is read.
    final class CountingSource: @unchecked Sendable {
        let size: Int
        let needle: [UInt8]
        let at: Int
        var read = 0
        var largestRead = 0

        init(size: Int, needle: String, at: Int) {
            self.size = size
            self.needle = Array(needle.utf8)
            self.at = at
        }

        /// `word ` over and over, from any of its five phases.
        let pattern = Array(String(repeating: "word ", count: 70_000).utf8)

        func fill(_ buffer: UnsafeMutableRawBufferPointer, _ offset: Int) -> Int {
            let n = max(0, min(buffer.count, size - offset, pattern.count - 5))
            pattern.withUnsafeBytes {
                buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[(offset % 5)...].prefix(n)))
            }
            for (i, byte) in needle.enumerated() where (offset..<(offset + n)).contains(at + i) {
                buffer[at + i - offset] = byte
            }
            read += n
            largestRead = max(largestRead, n)
            return n
        }
    }

    @Test func aTwentyMegabyteLineIsReadAPieceAtATimeAndOnlyAsFarAsTheWindow() throws {
        let size = 20 << 20
        let early = CountingSource(size: size, needle: " Needle ", at: 1 << 20)
        var finder = Snippet.Finder(terms: SearchQuery("needle").foldedTerms, folding: TextFolder())
        let first = finder.first(in: Snippet.Lines(source: early.fill))
        let found = try #require(first)
        #expect(found.contains("Needle"))
        #expect(found.count <= Snippet.width)
        #expect(before(found, "Needle") == Snippet.before)
        // Reading stops a buffer or two past the match, far short of the 20 MB.
        #expect(early.read <= (1 << 20) + 3 * 65_536)
        #expect(early.largestRead <= 65_536)

        let late = CountingSource(size: size, needle: " needle", at: size - 7)
        let second = finder.first(in: Snippet.Lines(source: late.fill))
        let last = try #require(second)
        #expect(last.hasSuffix("needle") && last.hasPrefix("…"))
        #expect(late.read == size)
        #expect(late.largestRead <= 65_536)
    }

    @Test func piecesOfALongLineAreBoundedAndKeepEveryByte() {
        let source = CountingSource(size: 3 << 20, needle: "ü", at: 8191)
        var lines = Snippet.Lines(source: source.fill)
        var total = 0
        var largest = 0
        while let piece = lines.next() {
            total += piece.bytes.count
            largest = max(largest, piece.bytes.count)
        }
        #expect(total == 3 << 20)
        #expect(largest <= Snippet.piece)
    }
}
