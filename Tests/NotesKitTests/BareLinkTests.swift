import Foundation
import TestSupport
import Testing

@testable import NotesKit

/// Markdown links without an extension (`[p](Plan)`, `[d](../../My%20Plan)`), which Obsidian reads
/// as links to the note at that path with `.md` (a file at that path or of that name taking them
/// first): `links`, `backlinks`, the link filters, orphans, a heading rename and a move read them
/// by one rule (`LinkResolver.note(ofBare:from:)`), and a move writes them without `.md` again.
@Suite struct BareLinkTests {
    static let tree: [Sandbox.Item] = [
        .directory(".notes", [.file(".gitignore", Sandbox.stateIgnore)]), .directory(".obsidian", []),
        .file("Plan.md", "# Plan\n"),
        .file("s.md", "---\ncreatedAt: 2026-01-01T00:00:00Z\n---\nsee [p](Plan) and [q](Plan#Plan)\n"),
        .file("My Plan.md", "# My Plan\n## Goal\n"),
        .file("a/b/t.md", "x [d](../../My%20Plan) y [e](<../../My Plan#Goal>)\n"),
        // A file takes a link before a note of its name.
        .file("LICENSE", "terms\n"), .file("LICENSE.md", "# License\n"), .file("l.md", "[l](LICENSE)\n"),
    ]

    static func note(_ catalog: Catalog, _ id: String) throws -> Note {
        try #require(catalog.notes.first { $0.id == id })
    }

    /// The IDs `list --links-to` (or, for nil, `--orphan`) gives.
    static func listed(_ catalog: Catalog, linksTo path: String?) -> [String] {
        var query = NoteQuery()
        if let path { query.filter.linksTo = path } else { query.filter.orphan = true }
        return catalog.run(query).map(\.id).sorted()
    }

    @Test func backlinksFiltersAndOrphansReadThemAsLinksDo() throws {
        try Sandbox(tree: Self.tree).test { root in
            let catalog = store(try Vault(root: root)).refresh()
            let s = try Self.note(catalog, "s")
            #expect(catalog.links(of: s).map { $0.note?.id } == ["Plan", "Plan"])
            #expect(
                catalog.backlinks(to: try Self.note(catalog, "Plan")).map(\.text) == [
                    "[p](Plan)", "[q](Plan#Plan)",
                ])
            #expect(
                catalog.backlinks(to: try Self.note(catalog, "My Plan")).map(\.text) == [
                    "[d](../../My%20Plan)", "[e](<../../My Plan#Goal>)",
                ])
            #expect(Self.listed(catalog, linksTo: "Plan.md") == ["s"])
            #expect(Self.listed(catalog, linksTo: "My Plan.md") == ["a/b/t"])
            // `[l](LICENSE)` goes to the file, so no note links to LICENSE.md.
            let l = try Self.note(catalog, "l")
            #expect(catalog.links(of: l).map(\.file) == ["LICENSE"])
            #expect(catalog.backlinks(to: try Self.note(catalog, "LICENSE")).isEmpty)
            #expect(Self.listed(catalog, linksTo: nil) == ["LICENSE", "a/b/t", "l", "s"])
            // Kept beside the index and read back by the next command, orphans stay what
            // `backlinks` says.
            #expect(try LinkedNotesTests.check(root) == ["LICENSE", "a/b/t", "l", "s"])
        }
    }

    /// What an older version kept beside the index, when these links did not count, is not read
    /// as the answer: `LinkedNotes.version` is part of the key.
    @Test func orphansKeptBeforeTheyCountedAreWorkedOutAgain() throws {
        try Sandbox(tree: Self.tree).test { root in
            let notes = store(try Vault(root: root))
            let catalog = notes.refresh()
            var key = try #require(LinkedNotes.key(of: catalog))
            let version = LinkedNotes.magic.count..<(LinkedNotes.magic.count + 4)
            key.replaceSubrange(version, with: [1, 0, 0, 0])
            let stale = [Bool](repeating: false, count: catalog.count)
            try Data(LinkedNotes.encode(stale, of: catalog, key: key)).write(
                to: URL(fileURLWithPath: LinkedNotes.path(besideIndex: notes.indexPath)))
            #expect(Self.listed(catalog, linksTo: nil) == ["LICENSE", "a/b/t", "l", "s"])
        }
    }

    @Test func aMoveRewritesThemWithoutAnExtensionAndTouchesNothingElse() throws {
        try Sandbox(tree: Self.tree).test { root in
            let notes = store(try Vault(root: root))
            let before = NoteMoveTests.snapshot(root)
            let plan = try notes.planMove(try notes.open("Plan", cwd: root), to: "Plan2")
            #expect(
                plan.notes.map(\.rewrites) == [
                    [
                        LinkRewrite(line: 4, old: "[p](Plan)", new: "[p](Plan2)"),
                        LinkRewrite(line: 4, old: "[q](Plan#Plan)", new: "[q](Plan2#Plan)"),
                    ]
                ])
            _ = try notes.move(plan)
            let moved = try notes.move(
                try notes.planMove(try notes.open("My Plan", cwd: root), to: "sub/My Plan2"))
            #expect(moved.linkCount == 2)
            // Byte for byte: only the link targets changed, front matter and all else kept.
            #expect(
                Disk.text(root + "/s.md")
                    == "---\ncreatedAt: 2026-01-01T00:00:00Z\n---\nsee [p](Plan2) and [q](Plan2#Plan)\n")
            #expect(
                Disk.text(root + "/a/b/t.md")
                    == "x [d](../../sub/My%20Plan2) y [e](<../../sub/My Plan2#Goal>)\n")
            let after = NoteMoveTests.snapshot(root)
            #expect(
                Set(after.difference(from: before).map { String($0.prefix { $0 != ":" }) }) == [
                    "s.md", "a/b/t.md", "Plan.md", "Plan2.md", "My Plan.md", "sub", "sub/My Plan2.md",
                ])
            let catalog = notes.refresh()
            #expect(catalog.brokenLinks().isEmpty)
            #expect(catalog.backlinks(to: try Self.note(catalog, "Plan2")).count == 2)
            #expect(catalog.backlinks(to: try Self.note(catalog, "sub/My Plan2")).count == 2)
        }
    }

    /// The moved note's own links without an extension follow it to its new folder, to a note
    /// or (an attachment link) to the file that takes it.
    @Test func theMovedNotesOwnOnesFollowItsFolder() throws {
        try Sandbox(tree: Self.tree + [.file("l2.md", "[l](LICENSE) [p](Plan) [m](./My%20Plan)\n")]).test {
            root in
            let notes = store(try Vault(root: root))
            _ = try notes.move(try notes.planMove(try notes.open("l2", cwd: root), to: "x/y/l2"))
            #expect(
                Disk.text(root + "/x/y/l2.md") == "[l](../../LICENSE) [p](../../Plan) [m](../../My%20Plan)\n")
            let catalog = notes.refresh()
            #expect(
                catalog.links(of: try Self.note(catalog, "x/y/l2")).map { $0.note?.id ?? $0.file } == [
                    "LICENSE", "Plan", "My Plan",
                ])
        }
    }

    @Test func aHeadingRenameRewritesTheirHeadings() throws {
        try Sandbox(tree: Self.tree).test { root in
            let notes = store(try Vault(root: root))
            _ = notes.refresh()
            let edits = try #require(notes.planHeadingRename(inNoteAt: "My Plan.md", line: 2, to: "Aim"))
            #expect(edits.map(\.path) == ["My Plan.md", "a/b/t.md"])
            #expect(edits.last?.edits.map(\.replacement) == ["Aim"])
        }
    }
}
