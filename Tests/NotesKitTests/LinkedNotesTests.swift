import Foundation
import TestSupport
import Testing

@testable import NotesKit

/// The notes other notes link to, kept beside the index (`LinkedNotes`) for the catalog they were
/// worked out for: after every change — a delta or a new base — `--orphan` answers what
/// `backlinks` says, never what was kept for the vault as it was.
@Suite struct LinkedNotesTests {
    /// A vault with a `.notes/` folder (its index there) and the notes `files` gives.
    static func tree(_ files: [(String, String)], obsidian: Bool = false) -> [Sandbox.Item] {
        [.directory(".notes", [])] + (obsidian ? [.directory(".obsidian", [])] : [])
            + files.map { .file($0.0, $0.1) }
    }

    /// The IDs of the notes no other note links to, as `backlinks` finds links.
    static func orphansByBacklinks(_ catalog: Catalog) -> Set<String> {
        Set(
            catalog.notes.filter { note in
                !catalog.backlinks(to: note).contains { $0.source.id != note.id }
            }.map(\.id))
    }

    /// The IDs `list --orphan` gives.
    static func orphans(_ catalog: Catalog) -> Set<String> {
        var query = NoteQuery()
        query.filter.orphan = true
        return Set(catalog.run(query).map(\.id))
    }

    /// Opens the vault at `root` as a new command would (writing the index when anything
    /// changed), and checks its orphans against `backlinks`: worked out, then, by the next
    /// command (which reads the index the first one wrote, its notes in another order), from
    /// what the first one kept; returns them.
    @discardableResult
    static func check(_ root: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Set<String>
    {
        let notes = store(try Vault(root: root))
        let catalog = notes.refresh()
        let expected = orphansByBacklinks(catalog)
        #expect(orphans(catalog) == expected, sourceLocation: sourceLocation)
        let path = LinkedNotes.path(besideIndex: notes.indexPath)
        let key = try #require(LinkedNotes.key(of: catalog), sourceLocation: sourceLocation)
        let kept = LinkedNotes.read(path, for: catalog, key: key)
        #expect(kept == catalog.resolvedLinkedFromOthers(), sourceLocation: sourceLocation)
        let next = store(try Vault(root: root)).refresh()
        let nextKey = try #require(LinkedNotes.key(of: next), sourceLocation: sourceLocation)
        let found = LinkedNotes.read(path, for: next, key: nextKey)
        #expect(found == next.resolvedLinkedFromOthers(), sourceLocation: sourceLocation)
        #expect(orphans(next) == expected, sourceLocation: sourceLocation)
        return expected
    }

    static func write(_ root: String, _ path: String, _ text: String) throws {
        let url = URL(fileURLWithPath: root + "/" + path)
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    @Test func aNoteLosingAndRegainingItsOnlyIncomingLink() throws {
        try Sandbox(tree: Self.tree([("a.md", "# A\nsee [[b]]\n"), ("b.md", "# B\n")])).test { root in
            #expect(try Self.check(root) == ["a"])
            try Self.write(root, "a.md", "# A\nno link now\n")
            #expect(try Self.check(root) == ["a", "b"])
            try Self.write(root, "a.md", "# A\nsee [b](b.md) again\n")
            #expect(try Self.check(root) == ["a"])
        }
    }

    @Test func aNewNoteTakesABrokenLinkAndADeletedOneLetsItGo() throws {
        try Sandbox(tree: Self.tree([("a.md", "# A\nsee [[c]]\n"), ("b.md", "# B\n[[a]]\n")])).test { root in
            #expect(try Self.check(root) == ["b"])
            try Self.write(root, "c.md", "# C\n")
            #expect(try Self.check(root) == ["b"])
            try FileManager.default.removeItem(atPath: root + "/c.md")
            #expect(try Self.check(root) == ["b"])
            // The only note linking to `a` goes: `a` is an orphan though `a` itself is unchanged.
            try FileManager.default.removeItem(atPath: root + "/b.md")
            #expect(try Self.check(root) == ["a"])
        }
    }

    /// A rename can break a link, and a move can hand it to another note of the same name, one
    /// that did not change itself.
    @Test func renamesAndMovesMoveLinksBetweenUnchangedNotes() throws {
        let files = [
            ("x/a.md", "# A\n[[n]]\n"), ("x/n.md", "# N in x\n"), ("y/n.md", "# N in y\n"),
            ("b.md", "# B\n[[a]]\n"),
        ]
        try Sandbox(tree: Self.tree(files)).test { root in
            #expect(try Self.check(root) == ["b", "y/n"])
            // The nearest `n` goes: the link goes to the other one.
            try FileManager.default.moveItem(atPath: root + "/x/n.md", toPath: root + "/x/m.md")
            #expect(try Self.check(root) == ["b", "x/m"])
            // Moved to another folder as far away: of two as near, the smaller ID.
            try FileManager.default.createDirectory(atPath: root + "/z", withIntermediateDirectories: true)
            try FileManager.default.moveItem(atPath: root + "/x/m.md", toPath: root + "/z/n.md")
            #expect(try Self.check(root) == ["b", "z/n"])
            try FileManager.default.moveItem(atPath: root + "/z/n.md", toPath: root + "/x/n.md")
            #expect(try Self.check(root) == ["b", "y/n"])
        }
    }

    /// Titles and aliases name notes outside Obsidian's vaults only; a vault that gains an
    /// `.obsidian/` folder, with no note changed, answers by Obsidian's rules at once.
    @Test func titlesAliasesAndObsidiansRules() throws {
        let files = [
            ("a.md", "# A\n[[Bee Title]] [[cee]]\n"), ("b.md", "# Bee Title\n"),
            ("c.md", "---\naliases: [Cee]\n---\n# C\n"),
        ]
        try Sandbox(tree: Self.tree(files)).test { root in
            #expect(try Self.check(root) == ["a"])
            // A title changed: the link no longer names it.
            try Self.write(root, "b.md", "# Another Title\n")
            #expect(try Self.check(root) == ["a", "b"])
            try Self.write(root, "b.md", "# Bee Title\n\nback\n")
            #expect(try Self.check(root) == ["a"])
            try FileManager.default.createDirectory(
                atPath: root + "/.obsidian", withIntermediateDirectories: true)
            #expect(try Self.check(root) == ["a", "b", "c"])
            try FileManager.default.removeItem(atPath: root + "/.obsidian")
            #expect(try Self.check(root) == ["a"])
        }
        try Sandbox(tree: Self.tree(files, obsidian: true)).test { root in
            #expect(try Self.check(root) == ["a", "b", "c"])
            try Self.write(root, "a.md", "# A\n[[b]] [[Cee]]\n")
            #expect(try Self.check(root) == ["a", "c"])
        }
    }

    /// A conflict copy beside its original links nowhere; without its original it is a note
    /// like any other.
    @Test func aConflictCopyLinksOnceItsOriginalIsThere() throws {
        let copy = "b.sync-conflict-20261201-101010-ABCDEFG.md"
        try Sandbox(tree: Self.tree([(copy, "# B copy\n[[c]]\n"), ("c.md", "# C\n")])).test { root in
            #expect(try Self.check(root) == [String(copy.dropLast(3))])
            try Self.write(root, "b.md", "# B\n")
            #expect(try Self.check(root) == [String(copy.dropLast(3)), "b", "c"])
            try FileManager.default.removeItem(atPath: root + "/b.md")
            #expect(try Self.check(root) == [String(copy.dropLast(3))])
        }
    }

    /// Many changes at once make a new base, whose kept answer is worked out anew.
    @Test func aNewBaseIsAnsweredAnew() throws {
        let files = (0..<600).map { ("n\($0).md", "# N \($0)\n[[n\(($0 + 1) % 600)]]\n") }
        try Sandbox(tree: Self.tree(files)).test { root in
            #expect(try Self.check(root) == [])
            let base = try #require(Disk.bytes(root + "/.notes/index"))
            for i in 0..<600 where i % 2 == 0 { try Self.write(root, "n\(i).md", "# N \(i)\nno link\n") }
            #expect(try Self.check(root) == Set((0..<600).filter { $0 % 2 == 1 }.map { "n\($0)" }))
            #expect(Disk.bytes(root + "/.notes/index") != base)
        }
    }

    /// A kept file is used only when it is whole and for this very catalog.
    @Test func aDamagedOrForeignKeptFileIsNotUsed() throws {
        try Sandbox(tree: Self.tree([("a.md", "# A\nsee [[b]]\n"), ("b.md", "# B\n")])).test { root in
            let notes = store(try Vault(root: root))
            let catalog = notes.refresh()
            let key = try #require(LinkedNotes.key(of: catalog))
            let path = LinkedNotes.path(besideIndex: notes.indexPath)
            #expect(Self.orphans(catalog) == ["a"])
            var bytes = try #require(Disk.bytes(path))
            #expect(
                LinkedNotes.decode(bytes, of: catalog, key: key)
                    == catalog.resolvedLinkedFromOthers())
            // A flipped bit: the checksum no longer holds.
            bytes[key.count] ^= 3
            #expect(LinkedNotes.decode(bytes, of: catalog, key: key) == nil)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            #expect(Self.orphans(notes.refresh()) == ["a"])
            // Another catalog's key: other records, other rules.
            var records = key
            records[records.count - 1] ^= 1
            var rules = key
            rules[LinkedNotes.magic.count + 4] ^= 1
            for other in [records, rules] {
                let foreign = LinkedNotes.encode([true, true], of: catalog, key: other)
                #expect(LinkedNotes.decode(foreign, of: catalog, key: key) == nil)
            }
        }
    }
}
