import Foundation
import TestSupport
import Testing

@testable import NotesKit

/// A rename in case only (`plan` to `Plan`): the links that spelled the old file name are
/// rewritten to spell the new one, as Obsidian does, though they would still find the note
/// ignoring case; and the rename itself works where the file system ignores case.
@Suite struct CaseRenameTests {
    static let tree: [Sandbox.Item] = [
        .directory(".notes", [.file(".gitignore", Sandbox.stateIgnore)]), .directory(".obsidian", []),
        .file("work/plan.md", "# Plan\n"),
        .file(
            "b.md",
            "---\ncreatedAt: 2026-01-01T00:00:00Z\n---\n"
                + "[[plan]] [[work/plan#Plan|p]] [[PLAN]] [[Plan]] [x](work/plan.md) [y](work/plan) [[plan.md]]\n"
        ),
        .file("work/c.md", "[[./plan]] [[/work/plan]]\n"),
    ]

    @Test func linksThatSpelledTheOldNameSpellTheNewOne() throws {
        try Sandbox(tree: Self.tree).test { root in
            let notes = store(try Vault(root: root))
            let plan = try notes.planMove(try notes.open("work/plan", cwd: root), to: "work/Plan")
            #expect(
                plan.notes.flatMap { entry in entry.rewrites.map { "\(entry.id): \($0.old) → \($0.new)" } }
                    == [
                        "b: [[plan]] → [[Plan]]", "b: [[work/plan#Plan|p]] → [[work/Plan#Plan|p]]",
                        "b: [x](work/plan.md) → [x](work/Plan.md)", "b: [y](work/plan) → [y](work/Plan)",
                        "b: [[plan.md]] → [[Plan.md]]", "work/c: [[./plan]] → [[./Plan]]",
                        "work/c: [[/work/plan]] → [[/work/Plan]]",
                    ])
            _ = try notes.move(plan)
            #expect(Disk.exists(root + "/work/Plan.md"))
            // `[[PLAN]]` and `[[Plan]]` did not spell the old name: as they were.
            #expect(
                Disk.text(root + "/b.md")
                    == "---\ncreatedAt: 2026-01-01T00:00:00Z\n---\n"
                    + "[[Plan]] [[work/Plan#Plan|p]] [[PLAN]] [[Plan]] [x](work/Plan.md) [y](work/Plan) [[Plan.md]]\n"
            )
            #expect(notes.refresh().brokenLinks().isEmpty)
        }
    }

    /// Where case is ignored, `plan.md` and `Plan.md` are one file: the new name is no "taken"
    /// one, and the file goes through a name of its own (the test stands two hard links of one file
    /// for the two spellings; a file system that tells case apart says they are two files).
    @Test func oneFileInTwoCasesIsTheSameNoteAndRenamesThroughANameBeside() throws {
        try Sandbox(tree: Self.tree + [.file("other.md", "x\n")]).test { root in
            let vault = try Vault(root: root)
            #expect(!vault.isSameFile("work/plan.md", inAnotherCaseAs: "work/Plan.md"))
            #expect(link(root + "/work/plan.md", root + "/work/Plan.md") == 0)
            #expect(vault.isSameFile("work/plan.md", inAnotherCaseAs: "work/Plan.md"))
            #expect(
                try vault.notePath(forNew: "work/Plan", name: "", replacing: "work/plan.md") == "work/Plan.md"
            )
            #expect(throws: VaultError.alreadyExists("work/Plan")) {
                try vault.notePath(forNew: "work/Plan", name: "")
            }
            #expect(!vault.isSameFile("b.md", inAnotherCaseAs: "other.md"))
            unlink(root + "/work/Plan.md")
            try FileSystem.renameCase(root + "/work/plan.md", to: root + "/work/Plan.md")
            #expect(Disk.text(root + "/work/Plan.md") == "# Plan\n" && !Disk.exists(root + "/work/plan.md"))
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: root + "/work").sorted() == [
                    "Plan.md", "c.md",
                ])
        }
    }
}
