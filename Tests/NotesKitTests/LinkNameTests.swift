import Foundation
import TestSupport
import Testing

@testable import NotesKit

/// How a `[[link]]` names a note: ID, file name (exactly, else ignoring case but not accents),
/// aliases, title — and only the first two in a vault with `.obsidian/`, as Obsidian resolves.
@Suite struct LinkNameTests {
    static func links(_ catalog: Catalog, of id: String) -> [String] {
        LinkResolutionTests.links(catalog, of: id)
    }

    /// Case is ignored, accents are not; both sides compare in NFC, so a name stored decomposed
    /// (as macOS stores it) matches one typed composed.
    @Test func fileNamesIgnoreCaseButNotAccents() throws {
        try Sandbox(tree: [
            .file(
                "src.md",
                "[[Cafe]] [[café]] [[CAFÉ]] [[STRASSE]] [[STRAßE]] [[résumé]] [[RÉSUMÉ]] [[ΟΔΟΣ]] [[ıstanbul]]\n"
            ),
            .file("Café.md", "one\n"),
            .file("Straße.md", "two\n"),
            .file("Re\u{301}sume\u{301}.md", "three\n"),
            .file("οδος.md", "four\n"),
            .file("Istanbul.md", "five\n"),
        ]).test { root in
            let catalog = store(try Vault(root: root)).refresh()
            #expect(
                Self.links(catalog, of: "src") == [
                    "[[Cafe]] -> ", "[[café]] -> Café", "[[CAFÉ]] -> Café", "[[STRASSE]] -> ",
                    "[[STRAßE]] -> Straße", "[[résumé]] -> Re\u{301}sume\u{301}",
                    "[[RÉSUMÉ]] -> Re\u{301}sume\u{301}", "[[ΟΔΟΣ]] -> οδος", "[[ıstanbul]] -> ",
                ])
            let cafe = try #require(catalog.notes.first { $0.id == "Café" })
            #expect(catalog.backlinks(to: cafe).map(\.text) == ["[[café]]", "[[CAFÉ]]"])
            #expect(catalog.brokenLinks().map(\.text) == ["[[Cafe]]", "[[STRASSE]]", "[[ıstanbul]]"])
        }
    }

    /// The steps in order: ID · file name exactly · file name ignoring case · alias · title.
    @Test func idThenFileNameThenCaselessNameThenAliasThenTitle() throws {
        try Sandbox(tree: [
            .file(
                "src.md", "[[plan]] [[Plan]] [[road map]] [[Goals]] [[X/Y/Z/plan]] [[X/PLAN]] [[x/plan]]\n"),
            .file("x/plan.md", "# Exact name\n"),
            .file("x/y/z/Plan.md", "# Plan\n"),
            .file("aliased.md", "---\naliases: [Road Map, plan]\n---\n# Roadmap\n"),
            .file("titled.md", "# Road map\n"),
            .file("goals.md", "# Other title\n"),
            .file("targets.md", "---\naliases: goals\n---\n# Goals\n"),
        ]).test { root in
            let catalog = store(try Vault(root: root)).refresh()
            #expect(
                Self.links(catalog, of: "src") == [
                    // A file name exactly, although another note has it as an alias.
                    "[[plan]] -> x/plan",
                    // Exactly: x/y/z/Plan, 3 steps away, before x/plan, 1 step away but in another case.
                    "[[Plan]] -> x/y/z/Plan",
                    // An alias before a title.
                    "[[road map]] -> aliased",
                    // A file name ignoring case before an alias or a title.
                    "[[Goals]] -> goals",
                    // The end of an ID, or the whole ID, ignoring case.
                    "[[X/Y/Z/plan]] -> x/y/z/Plan", "[[X/PLAN]] -> x/plan",
                    // The ID.
                    "[[x/plan]] -> x/plan",
                ])
            let plan = try #require(catalog.notes.first { $0.id == "x/y/z/Plan" })
            #expect(catalog.backlinks(to: plan).map(\.text) == ["[[Plan]]", "[[X/Y/Z/plan]]"])
        }
    }

    /// Aliases in each form the front matter writes them, compared folded; the index keeps them,
    /// so a later command resolves them without reading any note; backlinks count them.
    @Test(arguments: [
        "aliases: [Big Plan, Roadmap]", "aliases:\n  - Big Plan\n  - Roadmap", "aliases: Big Plan",
        "aliases: \"Big Plan\"",
    ])
    func aliasesNameNotes(_ entry: String) throws {
        try Sandbox(tree: [
            .directory(".notes", []),
            .file("src.md", "[[big plan]] [[Big Plán|shown]] [[Other]]\n"),
            .file("deep/plan.md", "---\n\(entry)\n---\n# Plan\n"),
        ]).test { root in
            let vault = try Vault(root: root)
            _ = store(vault).refresh()
            let catalog = store(vault).refresh()
            #expect(catalog.filesRead == 0)
            #expect(
                Self.links(catalog, of: "src") == [
                    "[[big plan]] -> deep/plan", "[[Big Plán|shown]] -> deep/plan", "[[Other]] -> ",
                ])
            let plan = try #require(catalog.notes.first { $0.id == "deep/plan" })
            #expect(catalog.backlinks(to: plan).map(\.text) == ["[[big plan]]", "[[Big Plán|shown]]"])
            #expect(try store(vault).open("big plán", cwd: root).note.id == "deep/plan")
        }
    }

    /// In a vault with `.obsidian/`, only IDs and file names resolve links, as in Obsidian; commands
    /// still find notes by title and alias.
    @Test func anObsidianVaultResolvesByNamesOnly() throws {
        try Sandbox(tree: [
            .directory(".obsidian", [.file("app.json", "{}\n")]),
            .file(
                "src.md",
                "[[Project Plan]] [[project-plan]] [[PROJECT-PLAN]] [[Big Plan]] [[notes/project-plan]]\n"
            ),
            .file("notes/project-plan.md", "---\naliases: [Big Plan]\n---\n# Project Plan\n"),
        ]).test { root in
            let vault = try Vault(root: root)
            #expect(vault.isObsidianVault)
            let catalog = store(vault).refresh()
            #expect(
                Self.links(catalog, of: "src") == [
                    "[[Project Plan]] -> ", "[[project-plan]] -> notes/project-plan",
                    "[[PROJECT-PLAN]] -> notes/project-plan", "[[Big Plan]] -> ",
                    "[[notes/project-plan]] -> notes/project-plan",
                ])
            #expect(catalog.brokenLinks().map(\.text) == ["[[Project Plan]]", "[[Big Plan]]"])
            let plan = try #require(catalog.notes.first { $0.id == "notes/project-plan" })
            #expect(catalog.backlinks(to: plan).count == 3)
            #expect(try store(vault).open("Big Plan", cwd: root).note.id == "notes/project-plan")
            #expect(try store(vault).open("project plan", cwd: root).note.id == "notes/project-plan")
        }
    }

    /// An argument names a note by its file name exactly, else ignoring case (not accents) as a
    /// link does; then by ID prefix; then by title or alias, folded.
    @Test func argumentsNameNotesByFileNameIgnoringCaseAndByAlias() throws {
        try Sandbox(tree: [
            .file("en/Plugins/Backlinks.md", "# The plugin\n"),
            .file("work/Café.md", "# Coffee\n"),
            .file("a/Same.md", "# One\n"),
            .file("b/same.md", "# Two\n"),
            .file("plan.md", "---\naliases: [Big Plan]\n---\n# Plan\n"),
        ]).test { root in
            let notes = store(try Vault(root: root))
            #expect(try notes.open("backlinks", cwd: root).note.id == "en/Plugins/Backlinks")
            #expect(try notes.open("CAFÉ", cwd: root).note.id == "work/Café")
            // An exact file name wins over one in another case.
            #expect(try notes.open("same", cwd: root).note.id == "b/same")
            #expect(try notes.open("Big Plan", cwd: root).note.id == "plan")
            #expect(try notes.open("BIG PLÁN", cwd: root).note.id == "plan")
            #expect(throws: VaultError.noMatch("Cafe")) { try notes.open("Cafe", cwd: root) }
            #expect(throws: VaultError.ambiguous("SAME", candidates: ["a/Same", "b/same"])) {
                try notes.open("SAME", cwd: root)
            }
        }
    }
}
