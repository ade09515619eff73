import Foundation
import TestSupport
import Testing

@testable import NotesKit

/// The browser's search: hits in the order of `Catalog.run` ranked by relevance, each query re-checking
/// only the notes it must.
@Suite struct LiveSearchTests {
    @Test(
        arguments: [
            ("a letter typed on", "cr", "cre", true),
            ("a letter taken back", "cre", "cr", false),
            ("a term added", "milk", "milk eggs", true),
            ("a term taken away", "milk eggs", "milk", false),
            ("a letter typed before a term", "ilk", "milk", true),
            ("the same after folding", "creme", "CRÈME", true),
            ("the new letter changes how the last folds", "ﾃ", "ﾃﾞ", false),
            ("anything narrows the empty query", "", "x", true),
            ("the empty query narrows nothing", "x", "", false),
            ("a phrase is not inside one of its words", "\"milk eggs\"", "milk", false),
            ("a phrase holds its words", "milk", "\"milk eggs\"", true),
            ("an unrelated term", "milk", "bread", false),
        ] as [(String, String, String, Bool)])
    func narrowing(_ name: String, _ broader: String, _ query: String, _ expected: Bool) {
        #expect(SearchQuery(query).narrows(SearchQuery(broader)) == expected, "\(name)")
    }

    /// A vault where dates tie (ties go by ID), titles sort in localized order, a conflict copy
    /// sorts after its original, and some notes are new since the index was written (read from
    /// their files, not mapped).
    static let vault: [Sandbox.Item] = [
        .directory(".notes", []),
        .file("b.md", "---\ncreatedAt: 2026-01-02T00:00:00Z\n---\n# Banana bread\n"),
        .file("a.md", "---\ncreatedAt: 2026-01-02T00:00:00Z\n---\n# apple crumble\n"),
        .file(
            "c.md",
            "---\ncreatedAt: 2026-01-01T00:00:00Z\nupdatedAt: 2026-03-01T00:00:00Z\n---\n# Crème brûlée\n"),
        .file("z/d.md", "---\ncreatedAt: 2026-02-01T00:00:00Z\n---\n# Éclair\n\ncream\n"),
        .file("e10.md", "---\ncreatedAt: 2026-01-05T00:00:00Z\n---\n# Note 10\n"),
        .file("e9.md", "---\ncreatedAt: 2026-01-05T00:00:00Z\n---\n# Note 9\n"),
        // The newest, but a conflict copy: it sorts right after its original.
        .file(
            "b (Ann's conflicted copy 2026-04-01).md",
            "---\ncreatedAt: 2026-04-01T00:00:00Z\n---\n# Banana loaf\n"),
    ]

    @Test(arguments: NotesKit.SortOrder.allCases)
    func hitsComeInTheOrderOfRun(order: NotesKit.SortOrder) throws {
        try Sandbox(tree: Self.vault).test { root in
            let notes = store(try Vault(root: root))
            _ = notes.catalog
            try Data("---\ncreatedAt: 2026-01-02T00:00:00Z\n---\n# apple pie\n".utf8)
                .write(to: URL(fileURLWithPath: root + "/a2.md"))
            let catalog = notes.refresh()
            #expect(catalog.filesRead == 1)
            for query in ["", "e", "cr", "crème", "note", "zzz"] {
                var live = LiveSearch(catalog: catalog, order: order)
                live.search(SearchQuery(query))
                let expected = catalog.run(ranked(query, order)).map(\.id)
                #expect(ids(live.hits) == expected, "\(order) '\(query)'")
            }
        }
    }

    @Test func aLongerQueryReChecksOnlyThePreviousHits() throws {
        try Sandbox(tree: Self.vault).test { root in
            let catalog = store(try Vault(root: root)).catalog
            var live = LiveSearch(catalog: catalog, order: .updated)
            live.search(SearchQuery("cr"))
            #expect(Set(ids(live.hits)) == ["c", "z/d", "a"])
            #expect(live.hits.checked == catalog.count)
            live.search(SearchQuery("cre"))
            #expect(Set(ids(live.hits)) == ["c", "z/d"])
            #expect(live.hits.checked == 3)
            live.search(SearchQuery("crea"))
            #expect(ids(live.hits) == ["z/d"])
            #expect(live.hits.checked == 2)
            // Backspace back to a recent query costs nothing.
            live.search(SearchQuery("cre"))
            #expect(Set(ids(live.hits)) == ["c", "z/d"])
            #expect(live.hits.checked == 0)
            // A query that narrows none of the recent ones reads every note.
            live.search(SearchQuery("note"))
            #expect(live.hits.checked == catalog.count)
            // The smallest recent query it narrows: "crem" narrows "cre" (2 hits), not "cr" (3).
            live.search(SearchQuery("crem"))
            #expect(ids(live.hits) == ["c"])
            #expect(live.hits.checked == 2)
            live.search(SearchQuery(""))
            #expect(live.hits.count == catalog.count)
            #expect(live.hits.checked == 0)
        }
    }

    /// `#work` asks for a tag and `"#work"` for text: they fold alike, but are two queries, so
    /// adding the quotes searches again rather than keep the tag's hits.
    @Test func aTagTermAndTheSameTextQuotedAreTwoQueries() throws {
        try Sandbox(tree: [.file("t.md", "# T\n\n#work here\n"), .file("x.md", "# X\n\nsee a#work\n")]).test {
            root in
            var live = LiveSearch(catalog: store(try Vault(root: root)).catalog, order: .updated)
            live.search(SearchQuery("#work"))
            #expect(ids(live.hits) == ["t"])
            live.search(SearchQuery("\"#work\""))
            #expect(Set(ids(live.hits)) == ["t", "x"])
            live.search(SearchQuery("#work"))
            #expect(ids(live.hits) == ["t"])
        }
    }

    /// A search can stop once it has enough hits for a screen: those are the first in the order,
    /// and a narrower query made meanwhile checks them and the notes not checked yet.
    @Test func hitsFoundSoFarAreTheFirstInTheOrder() throws {
        let items: [Sandbox.Item] =
            (0..<600).map { n in
                .file(
                    "n\(n).md",
                    "---\ncreatedAt: 2026-01-01T00:\(String(format: "%02d", n % 60)):00Z\n---\n"
                        + (n % 3 == 0 ? "# cream \(n)\n" : n % 3 == 1 ? "# crumble \(n)\n" : "# bread \(n)\n")
                )
            } + [.directory(".notes", [])]
        try Sandbox(tree: items).test { root in
            let catalog = store(try Vault(root: root)).catalog
            let full = { (query: String) in
                catalog.run(ranked(query, .created)).map(\.id)
            }
            var live = LiveSearch(catalog: catalog, order: .created)
            live.search(SearchQuery("c"), toFind: 2)
            #expect(live.hits.count >= 2 && !live.hits.isComplete)
            #expect(live.hits.checked < catalog.count)
            #expect(ids(live.hits) == Array(full("c").prefix(live.hits.count)))
            // Going on with a deadline already past still checks one chunk.
            let first = live.hits.checked
            live.advance(before: .now)
            let scanned = live.hits.checked
            #expect(scanned > first && !live.hits.isComplete)
            #expect(ids(live.hits) == Array(full("c").prefix(live.hits.count)))
            // Narrowing a search that stopped early still finds everything, checking only what it
            // had not ruled out: its hits so far and the notes it had not checked.
            let left = live.hits.count + catalog.count - scanned
            live.search(SearchQuery("cr"))
            #expect(live.hits.isComplete)
            #expect(ids(live.hits) == full("cr"))
            #expect(live.hits.checked == left)
            // Back to the query that stopped early: it goes on from where it was.
            live.search(SearchQuery("c"))
            #expect(ids(live.hits) == full("c"))
            #expect(live.hits.checked == catalog.count - scanned)
        }
    }

    @Test func aHitIsFoundByItsID() throws {
        try Sandbox(tree: Self.vault).test { root in
            var live = LiveSearch(catalog: store(try Vault(root: root)).catalog, order: .title)
            #expect(
                ids(live.hits) == ["a", "b", "b (Ann's conflicted copy 2026-04-01)", "c", "z/d", "e9", "e10"])
            #expect(live.hits.rank(ofID: "z/d") == 4)
            #expect(live.hits.rank(ofID: "z") == nil)
            live.search(SearchQuery("note"))
            #expect(live.hits.rank(ofID: "e10") == 1)
            #expect(live.hits.rank(ofID: "a") == nil)
        }
    }

    /// Seeded random typing — letters, accents, halfwidth kana whose voiced mark changes the
    /// letter before it, blanks, quotes, Backspace and clearing — over a vault of random words:
    /// after every keystroke the hits are exactly those of a full search, in its order.
    @Test func randomTypingAlwaysGivesTheHitsOfAFullSearch() throws {
        var rng = SplitMix(seed: 10)
        let words = [
            "crème", "creme", "cream", "brûlée", "brule", "ﾃﾞｰﾀ", "テータ", "データ", "straße", "strasse",
            "milk", "mil", "k", "ab", "ba", "東京", "東",
        ]
        var items: [Sandbox.Item] = [.directory(".notes", [])]
        for n in 0..<150 {
            let text = (0..<Int.random(in: 1...6, using: &rng)).map { _ in
                words.randomElement(using: &rng) ?? ""
            }
            items.append(
                .file(
                    "n\(n).md",
                    "---\ncreatedAt: 2026-01-\(10 + n % 9)T00:00:00Z\n---\n"
                        + text.joined(separator: " ") + "\n"))
        }
        let keys = [
            "c", "r", "e", "è", "m", "a", "b", "ﾃ", "ﾞ", "ｰ", "ﾀ", "テ", "ー", "タ", "ß", "s", "k", "東", "京",
            " ", "\"", "-", " OR ", "BS", "BS", "BS", "CLEAR",
        ]
        try Sandbox(tree: items).test { root in
            let catalog = store(try Vault(root: root)).catalog
            var live = LiveSearch(catalog: catalog, order: .created)
            var query = ""
            for step in 0..<600 {
                switch keys.randomElement(using: &rng) ?? "" {
                case "BS": if !query.isEmpty { query.removeLast() }
                case "CLEAR": query = ""
                case let key: query += key
                }
                // As the browser does: often only a screenful before the next key.
                let wanted = [1, 5, Int.max].randomElement(using: &rng) ?? .max
                live.search(SearchQuery(query), toFind: wanted)
                let expected = catalog.run(ranked(query, .created)).map(\.id)
                #expect(ids(live.hits) == Array(expected.prefix(live.hits.count)), "step \(step): '\(query)'")
                #expect(live.hits.count >= min(wanted, expected.count), "step \(step): '\(query)'")
                if step % 3 == 0 {
                    live.advance()
                    #expect(ids(live.hits) == expected, "step \(step): '\(query)'")
                }
            }
        }
    }

    private func ids(_ hits: SearchHits) -> [String] { (0..<hits.count).map { hits.note(at: $0).id } }

    /// The query of `search --sort relevance`, whose order the browser's hits have.
    private func ranked(_ query: String, _ order: NotesKit.SortOrder) -> NoteQuery {
        var ranked = NoteQuery(search: SearchQuery(query), order: order)
        ranked.ranked = true
        return ranked
    }
}
