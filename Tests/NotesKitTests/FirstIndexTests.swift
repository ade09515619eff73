import Foundation
import TestSupport
import Testing

@testable import NotesKit

/// A first index (no index yet): the walk goes on beside the reading (`SurveyStream`), handing
/// out notes in the order a whole survey lists them, and a search given to the store is matched
/// as the notes are read (`TextHits`). Neither may change the index written, nor what a command finds.
@Suite struct FirstIndexTests {
    /// Folders whose byte order is not the order a walk finds them in (`a b` < `a-b` < `a/b` <
    /// `a0`, an accented name in two spellings, folders that appear deep and late), two of more
    /// names than a batch of the survey holds (1,024), other files, an ignored folder and a hidden one.
    static func tree() -> [Sandbox.Item] {
        func notes(_ prefix: String, _ count: Int) -> [Sandbox.Item] {
            (0..<count).map {
                .file(String(format: "\(prefix)%04d.md", $0), "# \(prefix) \($0)\n\nbody \($0 % 5) crème\n")
            }
        }
        return [
            .directory(".notes", []),
            .file(".gitignore", "ignored/\n"),
            .directory("ignored", notes("i", 3)),
            .directory(".hidden", notes("h", 2)),
            .file("picture.png", "png"),
            .directory(
                "a",
                notes("a", 1_100) + [
                    .directory("b", notes("ab", 3) + [.directory("c", notes("abc", 1_030))]),
                    .file("a.pdf", "pdf"),
                ]),
            .directory("a b", notes("space", 2)),
            .directory("a-b", notes("dash", 2)),
            .directory("a0", notes("zero", 2)),
            .directory("\u{E9}t\u{E9}", notes("nfc", 2)),
            .directory("e\u{301}te\u{301}", notes("nfd", 2)),
            .directory("z", [.directory("y", [.directory("x", notes("deep", 3))])]),
        ] + notes("top", 40)
    }

    /// The index file's bytes, but the header's generation and checksum (random, and over them).
    static func indexBytes(_ store: NoteStore) throws -> [UInt8] {
        var bytes = try #require(Disk.bytes(store.indexPath))
        bytes.replaceSubrange(20..<80, with: [UInt8](repeating: 0, count: 60))
        return bytes
    }

    @Test func aWalkBesideTheReadingWritesTheSameIndex() throws {
        try Sandbox(tree: Self.tree()).test { root in
            let notes = store(try Vault(root: root))
            // Without progress to report, the walk goes on beside the reading…
            let streamed = notes.refresh(rebuild: true)
            let streamedIndex = try Self.indexBytes(notes)
            // …with it, the walk comes first (the total is known before reading).
            let walkedFirst = notes.refresh(rebuild: true, progress: { _, _ in })
            #expect(streamed.count == 2_186 && streamed.filesRead == 2_186)
            #expect(walkedFirst.count == streamed.count && walkedFirst.filesRead == streamed.filesRead)
            let same = try Self.indexBytes(notes) == streamedIndex  // a Bool: no megabytes printed
            #expect(same)
            #expect(streamed.diagnostics == walkedFirst.diagnostics)
            #expect(streamed.run(NoteQuery(search: SearchQuery("crème"))).count == 2_186)
        }
    }

    /// A walk that keeps pace with the reading tells the table a count a batch larger each time:
    /// the room it makes grows by doubling, not by a batch (a copy of the whole table each).
    @Test func theRoomExpectedGrowsByDoubling() {
        var table = IndexTable()
        var grew = 0
        var capacity = table.hashes.capacity
        for found in stride(from: 2_048, through: 100_000, by: 2_048) {
            table.expect(records: found)
            #expect(table.hashes.capacity >= found)
            if table.hashes.capacity != capacity { grew += 1 }
            capacity = table.hashes.capacity
        }
        #expect(grew <= 7, "grew \(grew) times for 48 counts")
        // Told once, it makes room for that many and no more than twice.
        var once = IndexTable()
        once.expect(records: 100_000)
        #expect(once.hashes.capacity >= 100_000 && once.hashes.capacity < 200_000)
    }

    /// An empty vault (and one whose every file is ignored): nothing to index, no file written.
    @Test func aWalkThatFindsNothingWritesNothing() throws {
        for tree: [Sandbox.Item] in [[], [.file(".gitignore", "n.md\n"), .file("n.md", "# N\n")]] {
            try Sandbox(tree: [.directory(".notes", [])] + tree).test { root in
                let notes = store(try Vault(root: root))
                let catalog = notes.refresh()
                #expect(catalog.count == 0 && !catalog.indexWritten && catalog.indexError == nil)
                #expect(!Disk.exists(notes.indexPath))
                #expect(Disk.names(root + "/.notes").allSatisfy { !$0.hasPrefix(FileSystem.tempPrefix) })
                // The lock was let go: a note added now is indexed.
                try Data("# Added\n".utf8).write(to: URL(fileURLWithPath: root + "/added.md"))
                let next = notes.refresh()
                #expect(next.count == 1 && next.indexWritten)
            }
        }
    }

    /// Notes matched as they are read find what a search of the index written finds, for the
    /// search given and for any other; a search that is not plain is not matched as read.
    @Test func aSearchMatchedWhileReadingFindsWhatTheIndexFinds() throws {
        var rng = SplitMix(seed: 26)
        let words = ["crème", "CRÈME", "creme", "lodz", "Łódź", "ＷＩＤＥ", "wide", "tea", "the", "brûlée"]
        let tree: [Sandbox.Item] =
            [.directory(".notes", []), .file("picture.png", "png")]
            + (0..<400).map { n in
                let body = (0..<6).map { _ in words[Int.random(in: 0..<words.count, using: &rng)] }
                return .file("n\(n).md", "# Note \(n)\n\n" + body.joined(separator: " ") + "\n")
            }
        let searches = [
            "crème", "lodz wide", "brulee", "nothing-here", "the tea crème", "#tag", "crème OR tea",
        ]
        try Sandbox(tree: tree).test { root in
            for given in searches {
                let first = store(try Vault(root: root))
                first.search = SearchQuery(given)
                let catalog = first.refresh(rebuild: true)
                let plain = SearchQuery(given).isPlain && !SearchQuery(given).textTerms.isEmpty
                #expect((catalog.textHits != nil) == plain, "\(given)")
                if let hits = catalog.textHits {
                    #expect(hits.byRecord.count == catalog.count + 1)  // and the picture's record
                    #expect(hits.byRecord.contains(true) == (given != "nothing-here"))
                }
                // Read from the index now written, every text scanned again.
                let again = store(try Vault(root: root)).catalog
                #expect(again.textHits == nil && again.filesRead == 0)
                for search in searches {
                    let query = NoteQuery(search: SearchQuery(search))
                    #expect(
                        catalog.run(query).map(\.id) == again.run(query).map(\.id), "\(given), then \(search)"
                    )
                }
            }
        }
    }
}
