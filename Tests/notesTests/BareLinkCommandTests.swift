import Foundation
import TestSupport
import Testing

/// Obsidian's Markdown links without an extension (`[p](Plan)`, `[d](../My%20Plan)`), and a
/// moved note's attachment links, end to end in a vault Obsidian opens, found from the current
/// folder as a user there would: `links`, `backlinks`, `list --links-to` and `--orphan` agree, and
/// `move` rewrites exactly the link targets.
@Suite struct BareLinkCommandTests {
    /// A vault with `.obsidian/` and no `.notes/`, holding `files`.
    static func vault(_ files: [(String, String)]) throws -> Sandbox {
        try Sandbox(
            initVault: false, layout: [.directory(".obsidian", [])] + files.map { .file($0.0, $0.1) })
    }

    /// `notes` run in the vault's folder, without `NOTES_VAULT`.
    static func run(_ s: Sandbox, _ arguments: [String]) throws -> RunResult {
        try s.run(arguments, cwd: s.vault, vaultVariable: false)
    }

    /// The IDs of a piped `list`.
    static func ids(_ r: RunResult) -> [String] {
        r.stdout.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }
    }

    @Test func linksWithoutAnExtensionAreBacklinksAndMoveRewritesThem() throws {
        let s = try Self.vault([
            ("Plan.md", "# Plan\n"), ("s.md", "see [p](Plan) and [q](Plan#Plan)\n"),
            ("My Plan.md", "# My Plan\n"), ("d/t.md", "# T\n\n[d](../My%20Plan), ok.\n"),
        ])
        #expect(try Self.run(s, ["links", "s"]).stdout == "1\tPlan\t[p](Plan)\n1\tPlan\t[q](Plan#Plan)\n")
        #expect(try Self.run(s, ["backlinks", "Plan"]).stdout == "s\t1\t[p](Plan)\ns\t1\t[q](Plan#Plan)\n")
        #expect(Self.ids(try Self.run(s, ["list", "--links-to", "Plan"])) == ["s"])
        #expect(Self.ids(try Self.run(s, ["list", "--links-to", "My Plan"])) == ["d/t"])
        #expect(Self.ids(try Self.run(s, ["list", "--orphan", "--sort", "title"])) == ["s", "d/t"])
        let before = TreeSnapshot(s.vault, skipping: [".notes", ".obsidian"])
        let r = try Self.run(s, ["move", "Plan", "Plan2"])
        #expect(
            r.stdout == """
                Moved 'Plan' to 'Plan2'; rewrote 2 links in 1 note:
                  s:1  [p](Plan) → [p](Plan2)
                  s:1  [q](Plan#Plan) → [q](Plan2#Plan)

                """, "\(r)")
        let moved = try Self.run(s, ["move", "My Plan", "sub/My Plan2"])
        #expect(moved.stdout.contains("[d](../My%20Plan) → [d](../sub/My%20Plan2)"), "\(moved)")
        // Byte for byte: the targets alone changed.
        #expect(try s.bytes("s.md") == Array("see [p](Plan2) and [q](Plan2#Plan)\n".utf8))
        #expect(try s.bytes("d/t.md") == Array("# T\n\n[d](../sub/My%20Plan2), ok.\n".utf8))
        let changed = TreeSnapshot(s.vault, skipping: [".notes", ".obsidian"]).difference(from: before)
        #expect(
            Set(changed.map { String($0.prefix { $0 != ":" }) }) == [
                "s.md", "d/t.md", "Plan.md", "Plan2.md", "My Plan.md", "sub", "sub/My Plan2.md",
            ], "\(changed)")
        #expect(try Self.run(s, ["links", "--broken"]).stdout == "")
        #expect(try Self.run(s, ["backlinks", "Plan2"]).stdout.split(separator: "\n").count == 2)
    }

    @Test func aMovedNotesAttachmentLinksKeepTheirPictures() throws {
        let s = try Self.vault([
            ("img/a.png", "a"), ("other/img/a.png", "another a"),
            ("notes/n.md", "# N\n\n![](../img/a.png) ![[a.png]]\n"),
        ])
        #expect(
            try Self.run(s, ["links", "notes/n"]).stdout.split(separator: "\n").map {
                $0.split(separator: "\t")[1]
            } == ["img/a.png", "img/a.png"])
        let r = try Self.run(s, ["move", "notes/n", "other/deep/n"])
        #expect(
            r.stdout == """
                Moved 'notes/n' to 'other/deep/n'; rewrote 2 links in 1 note:
                  other/deep/n:3  ![](../img/a.png) → ![](../../img/a.png)
                  other/deep/n:3  ![[a.png]] → ![[img/a.png]]

                """, "\(r)")
        #expect(try s.bytes("other/deep/n.md") == Array("# N\n\n![](../../img/a.png) ![[img/a.png]]\n".utf8))
        #expect(
            try Self.run(s, ["links", "other/deep/n"]).stdout
                == "3\timg/a.png\t![](../../img/a.png)\n3\timg/a.png\t![[img/a.png]]\n")
    }
}
