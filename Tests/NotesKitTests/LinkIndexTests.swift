import Foundation
import TestSupport
import Testing

@testable import NotesKit

/// Tags and links as the catalog reads them from the index: resolution, counts,
/// backlinks, broken links, and their refresh when notes change.
@Suite struct LinkResolutionTests {
    /// Where each link of `id` goes: its text and the ID it resolves to ("" when broken).
    static func links(_ catalog: Catalog, of id: String) -> [String] {
        guard let note = catalog.notes.first(where: { $0.id == id }) else { return ["no note \(id)"] }
        return catalog.links(of: note).map { $0.link.text + " -> " + ($0.note?.id ?? "") }
    }

    @Test func idThenNearestFileNameThenTitle() throws {
        try Sandbox(tree: [
            .file(
                "a/b/src.md", "[[standup]] [[Weekly plan]] [[x/standup]] [[plan]] [[weekly PLAN]] [[Nope]]\n"),
            .file("a/standup.md", "# Near\n"),
            .file("z/standup.md", "# Far\n"),
            .file("x/standup.md", "# By ID\n"),
            .file("plan.md", "# Weekly plan\n"),
            .file("a/b/weekly.md", "---\ntitle: weekly plan\n---\n"),
        ]).test { root in
            let catalog = store(try Vault(root: root)).refresh()
            #expect(
                Self.links(catalog, of: "a/b/src") == [
                    // File name: a/standup is 1 step from a/b, x/ and z/ are 3.
                    "[[standup]] -> a/standup",
                    // Title, folded; two notes have it: the nearest (a/b/weekly, 0 steps) wins.
                    "[[Weekly plan]] -> a/b/weekly",
                    // An ID.
                    "[[x/standup]] -> x/standup",
                    // A file name beats a title.
                    "[[plan]] -> plan",
                    "[[weekly PLAN]] -> a/b/weekly",
                    "[[Nope]] -> ",
                ])
        }
    }

    /// Ties: the same number of folder steps, then the smaller ID in code-point order.
    @Test(arguments: [
        ("src.md", "a/n"),  // top: a/n and b/n are both 1 step; a < b
        ("b/src.md", "b/n"),  // b/n is 0 steps
        ("b/c/src.md", "b/n"),  // b/n 1 step, a/n 3
        ("c/src.md", "a/n"),  // both 2 steps
    ])
    func nearestFileNameTies(_ source: String, _ expected: String) throws {
        try Sandbox(tree: [.file(source, "[[n]]\n"), .file("a/n.md", "A\n"), .file("b/n.md", "B\n")]).test {
            root in
            let catalog = store(try Vault(root: root)).refresh()
            #expect(Self.links(catalog, of: Note.id(forPath: source)) == ["[[n]] -> " + expected])
        }
    }

    /// The links Obsidian resolves: a target with folders names the notes whose ID ends with it;
    /// names and such endings compare exactly, else ignoring case, before any title.
    @Test func pathEndingsAndNamesInAnotherCaseAsObsidianDoes() throws {
        try Sandbox(tree: [
            .file(
                "en/src.md",
                "[[Plugins/Backlinks]] [[backlinks]] [[plugins/BACKLINKS]] [[Backlinks]] [[ins/Backlinks]] [[outline]]\n"
            ),
            .file("en/Plugins/Backlinks.md", "# B\n"),
            .file("de/Plugins/Backlinks.md", "# B de\n"),
            .file("z/titled.md", "---\ntitle: BACKLINKS\n---\n"),
            .file("de/Outline.md", "# O\n"),
        ]).test { root in
            let catalog = store(try Vault(root: root)).refresh()
            #expect(
                Self.links(catalog, of: "en/src") == [
                    "[[Plugins/Backlinks]] -> en/Plugins/Backlinks",  // the end of two IDs; en is nearer
                    "[[backlinks]] -> en/Plugins/Backlinks",  // a name in another case before a title
                    "[[plugins/BACKLINKS]] -> en/Plugins/Backlinks",  // an ending in another case
                    "[[Backlinks]] -> en/Plugins/Backlinks",  // a file name, exactly
                    "[[ins/Backlinks]] -> ",  // ends at a folder's edge only
                    "[[outline]] -> de/Outline",  // a file name in another case
                ])
            let backlinks = try #require(catalog.notes.first { $0.id == "en/Plugins/Backlinks" })
            #expect(
                catalog.backlinks(to: backlinks).map(\.text) == [
                    "[[Plugins/Backlinks]]", "[[backlinks]]", "[[plugins/BACKLINKS]]", "[[Backlinks]]",
                ])
            let outline = try #require(catalog.notes.first { $0.id == "de/Outline" })
            #expect(catalog.backlinks(to: outline).map(\.text) == ["[[outline]]"])
        }
    }

    @Test func markdownLinksAreRelativeThenFromTheTop() throws {
        try Sandbox(tree: [
            .file(
                "w/src.md",
                "[a](../n.md) [b](n.md) [c](w2/m.md) [d](../../out.md) [e](My%20Note.md) [f](./gone.md)\n"),
            .file("n.md", "top\n"),
            .file("w2/m.md", "m\n"),
            .file("w/My Note.md", "spaced\n"),
        ]).test { root in
            let catalog = store(try Vault(root: root)).refresh()
            #expect(
                Self.links(catalog, of: "w/src") == [
                    "[a](../n.md) -> n", "[b](n.md) -> n", "[c](w2/m.md) -> w2/m", "[d](../../out.md) -> ",
                    "[e](My%20Note.md) -> w/My Note", "[f](./gone.md) -> ",
                ])
        }
    }

    @Test func tagCountsAreByFoldedTagSpelledAsInTheNewestNote() throws {
        try Sandbox(tree: [
            .file(
                "old.md", "---\ncreatedAt: 2020-01-01T00:00:00Z\ntags: [Café, work]\n---\n#work/meetings\n"),
            .file("new.md", "---\ncreatedAt: 2024-01-01T00:00:00Z\n---\n#cafe #Work #zeta\n"),
            .file("mid.md", "---\ncreatedAt: 2022-01-01T00:00:00Z\n---\n#CAFE #alpha\n"),
        ]).test { root in
            let catalog = store(try Vault(root: root)).refresh()
            #expect(
                catalog.tagCounts() == [
                    TagCount(tag: "cafe", count: 3), TagCount(tag: "Work", count: 2),
                    TagCount(tag: "alpha", count: 1),
                    TagCount(tag: "work/meetings", count: 1), TagCount(tag: "zeta", count: 1),
                ])
            var query = NoteQuery()
            query.tags = ["WORK"]
            #expect(Set(catalog.run(query).map(\.id)) == ["old", "new"])
            query.tags = ["work/meetings"]
            #expect(catalog.run(query).map(\.id) == ["old"])
            query.tags = ["work", "café"]
            #expect(Set(catalog.run(query).map(\.id)) == ["old", "new"])
            query.tags = ["work", "alpha"]
            #expect(catalog.run(query).isEmpty)
            #expect(
                catalog.run(NoteQuery(search: SearchQuery("#work"))).map(\.id).sorted() == ["new", "old"])
            #expect(catalog.run(NoteQuery(search: SearchQuery("#meetings"))).isEmpty)
        }
    }

    @Test func backlinksAndBrokenLinks() throws {
        try Sandbox(tree: [
            .file("target.md", "# The Target\n[[target]]\n## Top\n"),
            .file("a.md", "x\n[[target|t]] and [[The target]]\n[t](target.md#Top) [[missing]]\n"),
            .file("sub/b.md", "[up](../target.md)\n[[sub/nothing]]\n"),
            .file("sub/target.md", "# Another\n"),
            .file("c.md", "`[[target]]` [[targets]]\n"),
        ]).test { root in
            let catalog = store(try Vault(root: root)).refresh()
            let target = try #require(catalog.notes.first { $0.id == "target" })
            let backlinks = catalog.backlinks(to: target).map { "\($0.source.id):\($0.line) \($0.text)" }
            // sub/b's [[sub/...]] goes nowhere; from sub/, [[target]] would be sub/target, but
            // sub/b has none; a.md's [[target]] is top-level target (an ID match).
            #expect(
                backlinks == [
                    "a:2 [[target|t]]", "a:2 [[The target]]", "a:3 [t](target.md#Top)",
                    "sub/b:1 [up](../target.md)",
                    "target:2 [[target]]",
                ])
            let broken = catalog.brokenLinks().map { "\($0.source.id):\($0.line) \($0.text)" }
            #expect(broken == ["a:3 [[missing]]", "c:1 [[targets]]", "sub/b:2 [[sub/nothing]]"])
        }
    }

    /// The index is only a cache: tags and links read from it equal those read from the files,
    /// and change when a note does — from a delta as from a new base.
    @Test func tagsAndLinksFollowAChangedNoteThroughTheDelta() throws {
        let files: [Sandbox.Item] =
            [.directory(".notes", [])]
            + (0..<300).map { n in
                .file(String(format: "n%03d.md", n), "# Note \(n)\n\n#common [[n000]]\n")
            }
        try Sandbox(tree: files).test { root in
            let vault = try Vault(root: root)
            let notes = store(vault)
            let first = notes.refresh()
            let target = try #require(first.notes.first { $0.id == "n000" })
            #expect(first.backlinks(to: target).count == 300)
            #expect(first.tagCounts() == [TagCount(tag: "common", count: 300)])
            try Data("# Changed\n\n#Fresh [[n001]]\n".utf8).write(to: URL(fileURLWithPath: root + "/n007.md"))
            try FileManager.default.removeItem(atPath: root + "/n008.md")
            let changed = notes.refresh()
            #expect(changed.filesRead == 1 && Disk.exists(notes.indexPath + ".delta"))
            // The next command reads no file: base and delta hold the new tags and links.
            let again = store(vault).refresh()
            #expect(again.filesRead == 0)
            for catalog in [changed, again] {
                #expect(catalog.backlinks(to: target).count == 298)
                #expect(
                    catalog.tagCounts() == [
                        TagCount(tag: "common", count: 298), TagCount(tag: "Fresh", count: 1),
                    ])
                let n001 = try #require(catalog.notes.first { $0.id == "n001" })
                #expect(catalog.backlinks(to: n001).map(\.source.id) == ["n007"])
                #expect(catalog.notes.first { $0.id == "n007" }?.tags == ["Fresh"])
            }
            #expect(
                Self.summary(again)
                    == Self.summary(
                        NoteStore(vault: vault, cacheDirectory: root + "/.other").refresh(rebuild: true)))
        }
    }

    /// Every note's tags and links, for comparing two catalogs.
    static func summary(_ catalog: Catalog) -> [String] {
        catalog.notes.sorted { $0.id < $1.id }.map { note in
            note.id + " " + note.tags.joined(separator: ",") + " "
                + links(catalog, of: note.id).joined(separator: ",")
        }
    }

    /// Damage in the tags and links that still lies within their regions reads as no tags and
    /// no links, never a crash.
    @Test(arguments: [
        NoteRefs.Encoded(tags: [0xFF, 0xFF, 0xFF, 0xFF]), NoteRefs.Encoded(tags: [1, 0, 0, 0, 200]),
        NoteRefs.Encoded(links: [5, 0, 1, 9, 0]), NoteRefs.Encoded(shown: [1, 0, 0, 0, 200, 0, 0, 0]),
        NoteRefs.Encoded(shown: [0, 0, 0, 0, 1, 0, 0, 0, 7]),
    ])
    func damagedTagsAndLinksReadAsNothing(_ refs: NoteRefs.Encoded) throws {
        let note = Note(
            id: "n", path: "n.md", title: "N", titleIsOutsideBody: false, createdAt: 1, updatedAt: nil,
            preview: "")
        let bytes = NoteIndexFile.encode(read: [
            IndexRecord(
                path: "n.md", size: 1, mtime: 1, inode: 1, note: note, warnings: [], folded: FoldedText([]),
                refs: refs)
        ])
        let index = try #require(NoteIndexFile.map(TextStorage(bytes)))
        #expect(!index.tagsChunk(0).hasTags([Array("a".utf8)]) && index.links(at: 0).isEmpty)
        #expect(index.note(at: 0).tags.isEmpty && index.note(at: 0, viaPread: true).tags.isEmpty)
    }
}
