import Foundation
import TestSupport
import Testing

@testable import NotesKit

/// `NoteStore.planMove` and `move`: the file moves inside the vault, and every link
/// whose resolution the move changes is rewritten, its target only.
@Suite struct NoteMoveTests {
    static let vault: [Sandbox.Item] = [
        .directory(".notes", [.file(".gitignore", Sandbox.stateIgnore)]),
        .file(
            "idea.md",
            "---\ncreatedAt: 2026-01-01T00:00:00Z\n---\n# Big idea\n\nSee [sib](work/plan.md) and [[plan]].\n## Part\n"
        ),
        .file(
            "work/plan.md",
            "---\ncreatedAt: 2026-01-02T00:00:00Z\nupdatedAt: 2026-01-03T00:00:00Z\n---\n"
                + "# Plan\n\n[[idea]], [[idea#Part|the idea]], ![[idea]] and [up](../idea.md#Part).\n"),
        .file("far/away/note.md", "[[Big idea]] [[idea.md]] [x](<../../idea.md>) `[[idea]]` [[other]]\n"),
        .file("other.md", "# Other\n"),
    ]

    func moved(_ argument: String, _ check: (String, NoteStore, MoveReport) throws -> Void) throws {
        try Sandbox(tree: Self.vault).test { root in
            let notes = store(try Vault(root: root))
            let loaded = try notes.open("idea", cwd: root)
            let report = try notes.move(try notes.planMove(loaded, to: argument))
            try check(root, notes, report)
        }
    }

    @Test func linksInOtherFoldersFollowTheNoteAndKeepTheirStyle() throws {
        try moved("archive/2026/idea") { root, notes, report in
            #expect(!Disk.exists(root + "/idea.md") && Disk.exists(root + "/archive/2026/idea.md"))
            #expect(
                Disk.text(root + "/work/plan.md")
                    == "---\ncreatedAt: 2026-01-02T00:00:00Z\nupdatedAt: 2026-01-03T00:00:00Z\n---\n"
                    + "# Plan\n\n[[idea]], [[idea#Part|the idea]], ![[idea]] and [up](../archive/2026/idea.md#Part).\n"
            )
            // A title link still goes there; a file name with `.md` stays one; <…> is kept.
            #expect(
                Disk.text(root + "/far/away/note.md")
                    == "[[Big idea]] [[idea.md]] [x](<../../archive/2026/idea.md>) `[[idea]]` [[other]]\n")
            // The note's own relative link follows it; its wiki link goes where it went.
            #expect(
                Disk.text(root + "/archive/2026/idea.md")
                    == "---\ncreatedAt: 2026-01-01T00:00:00Z\n---\n# Big idea\n\nSee [sib](../../work/plan.md) and [[plan]].\n## Part\n"
            )
            #expect(report.rewritten.map(\.id) == ["archive/2026/idea", "far/away/note", "work/plan"])
            #expect(report.linkCount == 3 && report.changed.isEmpty && report.failed.isEmpty)
            #expect(
                notes.changes == [
                    .moved(from: "idea.md", to: "archive/2026/idea.md"),
                    .rewroteLinks("archive/2026/idea.md", count: 1),
                    .rewroteLinks("far/away/note.md", count: 1), .rewroteLinks("work/plan.md", count: 1),
                ])
            // Nothing is broken, and everything that linked to it still does.
            let catalog = notes.refresh()
            #expect(catalog.brokenLinks().map(\.text) == [])
            let note = try #require(catalog.notes.first { $0.id == "archive/2026/idea" })
            #expect(catalog.backlinks(to: note).count == 7)
        }
    }

    @Test func aNewFileNameRewritesLinksByName() throws {
        try moved("concept") { root, _, report in
            #expect(
                Disk.text(root + "/work/plan.md")?.contains(
                    "[[concept]], [[concept#Part|the idea]], ![[concept]] and [up](../concept.md#Part)")
                    == true)
            #expect(
                Disk.text(root + "/far/away/note.md")
                    == "[[Big idea]] [[concept.md]] [x](<../../concept.md>) `[[idea]]` [[other]]\n")
            #expect(report.linkCount == 6)
        }
    }

    @Test func aTrailingSlashMovesIntoAFolderKeepingTheName() throws {
        try moved("ideas/") { root, _, _ in
            #expect(Disk.exists(root + "/ideas/idea.md"))
        }
    }

    /// A move must not change where other links go: a note that takes a file name another note
    /// has, nearer to some links, would capture them.
    @Test func linksTheNewNameWouldCaptureKeepGoingWhereTheyWent() throws {
        try Sandbox(tree: [
            .file("team/src.md", "[[plan]] [[x]]\n"),
            .file("docs/plan.md", "# The plan\n"),
            .file("x.md", "# Something\n"),
        ]).test { root in
            let notes = store(try Vault(root: root))
            let report = try notes.move(try notes.planMove(try notes.open("x", cwd: root), to: "team/plan"))
            // [[plan]] went to docs/plan by its file name; team/plan is nearer now, so the link
            // names docs/plan by its ID. [[x]] follows x, by its new file name, nearest here.
            #expect(Disk.text(root + "/team/src.md") == "[[docs/plan]] [[plan]]\n")
            let catalog = notes.refresh()
            let src = try #require(catalog.notes.first { $0.id == "team/src" })
            #expect(catalog.links(of: src).map { $0.note?.id } == ["docs/plan", "team/plan"])
            #expect(report.rewritten.map(\.id) == ["team/src"])
        }
    }

    /// Links by the end of a path, or by a name in another case (as Obsidian writes them), follow
    /// the note too, written as short as they were.
    @Test func pathEndingsFollowTheNoteAsShortAsTheyWere() throws {
        try Sandbox(tree: [
            .file("en/src.md", "[[Plugins/Backlinks]] [[plugins/BACKLINKS]] [[Backlinks]] [[backlinks]]\n"),
            .file("en/Plugins/Backlinks.md", "# B\n"),
            .file("de/Plugins/Backlinks.md", "# B de\n"),
        ]).test { root in
            let notes = store(try Vault(root: root))
            _ = try notes.move(
                try notes.planMove(try notes.open("en/Plugins/Backlinks", cwd: root), to: "en/Core/Backlinks")
            )
            #expect(
                Disk.text(root + "/en/src.md")
                    == "[[Core/Backlinks]] [[Core/Backlinks]] [[Backlinks]] [[backlinks]]\n")
            let catalog = notes.refresh()
            let src = try #require(catalog.notes.first { $0.id == "en/src" })
            #expect(
                catalog.links(of: src).map { $0.note?.id } == Array(repeating: "en/Core/Backlinks", count: 4))
        }
    }

    /// The moved note's attachment links keep going to the files they went to from its old
    /// folder: a relative path follows the note, a name that a nearer file of that name would
    /// now take gets as much of the file's path as it needs; paths from the vault's top, and
    /// links that still find their file, stay as written.
    @Test func theMovedNotesAttachmentLinksKeepTheirFiles() throws {
        let text =
            "---\ncreatedAt: 2026-01-01T00:00:00Z\n---\n# N\n"
            + "![](../img/a.png) ![[a.png|300]] ![](<../img/a.png>) [pdf](../docs/My%20Doc.pdf#page=2)\n"
            + "![](/img/a.png) ![[img/a.png]] ![[b.png]] ![](gone.png) `![](../img/a.png)`\n"
        try Sandbox(tree: [
            .file("notes/n.md", text), .file("img/a.png", "a"), .file("other/img/a.png", "other a"),
            .file("img/b.png", "b"), .file("docs/My Doc.pdf", "pdf"),
        ]).test { root in
            let notes = store(try Vault(root: root))
            let files = { (id: String) throws -> [String?] in
                let catalog = notes.refresh()
                let note = try #require(catalog.notes.first { $0.id == id })
                return catalog.links(of: note).map(\.file)
            }
            let expected = [
                "img/a.png", "img/a.png", "img/a.png", "docs/My Doc.pdf", "img/a.png", "img/a.png",
                "img/b.png", nil,
            ]
            #expect(try files("notes/n") == expected)
            // In its own folder under another name, every link still goes where it went.
            #expect(try notes.planMove(try notes.open("notes/n", cwd: root), to: "notes/m").linkCount == 0)
            let report = try notes.move(
                try notes.planMove(try notes.open("notes/n", cwd: root), to: "other/deep/n"))
            #expect(report.linkCount == 4)
            #expect(
                Disk.text(root + "/other/deep/n.md")
                    == "---\ncreatedAt: 2026-01-01T00:00:00Z\n---\n# N\n"
                    + "![](../../img/a.png) ![[img/a.png|300]] ![](<../../img/a.png>) [pdf](../../docs/My%20Doc.pdf#page=2)\n"
                    + "![](/img/a.png) ![[img/a.png]] ![[b.png]] ![](gone.png) `![](../img/a.png)`\n")
            #expect(try files("other/deep/n") == expected)
            // Next to `other/img/a.png`, `img/a.png` names that one: the path from the note's
            // folder is written instead.
            _ = try notes.move(try notes.planMove(try notes.open("other/deep/n", cwd: root), to: "other/n"))
            #expect(
                Disk.text(root + "/other/n.md")
                    == "---\ncreatedAt: 2026-01-01T00:00:00Z\n---\n# N\n"
                    + "![](../img/a.png) ![[../img/a.png|300]] ![](<../img/a.png>) [pdf](../docs/My%20Doc.pdf#page=2)\n"
                    + "![](/img/a.png) ![[../img/a.png]] ![[b.png]] ![](gone.png) `![](../img/a.png)`\n")
            #expect(try files("other/n") == expected)
        }
    }

    /// A link that went by a name (ID, file name) must go by a name after the move, even when
    /// the title or an alias would still find the note; links by title or alias stay as written.
    @Test func linksByNameStayByNameThoughATitleOrAliasWouldFindTheNote() throws {
        try Sandbox(tree: [
            .file("beta.md", "---\naliases: [Second]\n---\n# Beta\n"),
            .file("src.md", "[[beta]] [[Beta|b]] [[Second]] [[BETA#Part]] [b](beta.md)\n"),
        ]).test { root in
            let notes = store(try Vault(root: root))
            let plan = try notes.planMove(try notes.open("beta", cwd: root), to: "archive/beta-renamed")
            #expect(plan.linkCount == 4)
            _ = try notes.move(plan)
            #expect(
                Disk.text(root + "/src.md")
                    == "[[beta-renamed]] [[beta-renamed|b]] [[Second]] [[beta-renamed#Part]] [b](archive/beta-renamed.md)\n"
            )
        }
    }

    @Test func aDryRunPlanChangesNothing() throws {
        try Sandbox(tree: Self.vault).test { root in
            let notes = store(try Vault(root: root))
            _ = notes.refresh()
            let before = Self.snapshot(root)
            let plan = try notes.planMove(try notes.open("idea", cwd: root), to: "archive/idea")
            #expect(
                plan.linkCount == 3 && plan.notes.map(\.id) == ["archive/idea", "far/away/note", "work/plan"])
            #expect(
                plan.notes.first { $0.id == "work/plan" }?.rewrites
                    == [
                        LinkRewrite(
                            line: 7, old: "[up](../idea.md#Part)", new: "[up](../archive/idea.md#Part)")
                    ])
            #expect(Self.snapshot(root) == before)
            #expect(notes.changes.isEmpty)
        }
    }

    /// The guard: a note that is no longer as the index saw it when the plan was made is left as
    /// it is (and reported), and the others are rewritten.
    @Test func aNoteChangedSinceThePlanIsLeftAlone() throws {
        try Sandbox(tree: Self.vault).test { root in
            let notes = store(try Vault(root: root))
            let plan = try notes.planMove(try notes.open("idea", cwd: root), to: "archive/idea")
            let edited = "[[idea]] edited meanwhile\n"
            try Data(edited.utf8).write(to: URL(fileURLWithPath: root + "/work/plan.md"))
            let report = try notes.move(plan)
            #expect(Disk.text(root + "/work/plan.md") == edited)
            #expect(report.changed == ["work/plan"])
            #expect(report.rewritten.map(\.id) == ["archive/idea", "far/away/note"])
            #expect(!notes.changes.contains { $0.paths == ["work/plan.md"] })
        }
    }

    /// The target must stay inside the vault and be free; nothing changes when it is not.
    @Test(arguments: [
        ("../outside", "outside the vault"), ("/etc/passwd", "outside the vault"),
        ("a/../../x", "outside the vault"),
        ("linked/x", "outside the vault"), (".git/x", "hidden folder"), ("x/.dot", "hidden file"),
        ("other", "already exists"),
        ("work", "already exists"), ("work/plan.md", "already exists"), ("bad#name", "cannot hold"),
        ("bad[[x]]", "cannot hold"), ("Plan?", "holds '?'"), ("c:d", "holds ':'"), (" A ", "with a blank"),
        ("a//b", "no name"), ("sub/x ", "with a blank"), ("sub/x .md", "with a blank"),
        // A name that takes the links to a file that is not a note (`![[p.png]]` to `p.png.md`).
        ("p.png", "'p.png' is the name of the file 'img/p.png'"),
        ("sub/P.PNG", "name of the file 'img/p.png'"),
        ("img/p.png", "'img/p.png' is the path of the file 'img/p.png'"),
    ])
    func aBadTargetChangesNothing(_ argument: String, _ fragment: String) throws {
        let outside = FileManager.default.temporaryDirectory.path
        let tree: [Sandbox.Item] = [
            .symlink("linked", to: outside), .file("work/idea.md", "taken\n"), .file("img/p.png", "png"),
            .file("LICENSE", "terms\n"),
        ]
        try Sandbox(tree: Self.vault + tree)
            .test { root in
                let notes = store(try Vault(root: root))
                let before = Self.snapshot(root)
                let error = #expect(throws: VaultError.self) {
                    try notes.planMove(try notes.open("idea", cwd: root), to: argument)
                }
                #expect(error?.errorDescription?.contains(fragment) == true, "\(String(describing: error))")
                #expect(Self.snapshot(root) == before)
            }
    }

    /// The names a move checks are those it makes: a note whose own name, or folder, no new note
    /// could have (made elsewhere, by another app) still moves, keeping them. A name without an
    /// extension takes no attachment's links (`[[LICENSE]]` finds no file): it is free.
    @Test(arguments: [
        ("Why?", "ar/", "ar/Why?.md"), ("Q1: plans/x", "Q1: plans/y", "Q1: plans/y.md"),
        (" lead", "ar/", "ar/ lead.md"), ("idea", "License", "License.md"),
    ])
    func aNoteWithANameNoNewNoteCouldHaveStillMoves(_ id: String, _ argument: String, _ path: String) throws {
        let tree: [Sandbox.Item] = [
            .file("Why?.md", "why\n"), .file("Q1: plans/x.md", "x\n"), .file(" lead.md", "lead\n"),
            .directory("ar", []), .file("LICENSE", "terms\n"),
        ]
        try Sandbox(tree: Self.vault + tree).test { root in
            let notes = store(try Vault(root: root))
            let plan = try notes.planMove(try notes.open(id, cwd: root), to: argument)
            #expect(plan.to == path)
            _ = try notes.move(plan)
            #expect(Disk.exists(root + "/" + path))
        }
    }

    /// Between the plan and the move, a file appears at the target: it is never replaced.
    @Test func aFileThatAppearsAtTheTargetIsNeverReplaced() throws {
        try Sandbox(tree: Self.vault).test { root in
            let notes = store(try Vault(root: root))
            let plan = try notes.planMove(try notes.open("idea", cwd: root), to: "fresh")
            try Data("mine\n".utf8).write(to: URL(fileURLWithPath: root + "/fresh.md"))
            #expect(throws: VaultError.alreadyExists("fresh")) { try notes.move(plan) }
            #expect(Disk.text(root + "/fresh.md") == "mine\n" && Disk.exists(root + "/idea.md"))
        }
    }

    /// The rename itself never replaces a file, whatever a check before it saw.
    @Test func anExclusiveMoveNeverReplacesAFile() throws {
        try Sandbox(tree: [.file("a.md", "a\n"), .file("b.md", "b\n")]).test { root in
            #expect(throws: FileSystemError.self) {
                try FileSystem.moveExclusively(root + "/a.md", to: root + "/b.md")
            }
            #expect(Disk.text(root + "/a.md") == "a\n" && Disk.text(root + "/b.md") == "b\n")
            try FileSystem.moveExclusively(root + "/a.md", to: root + "/c.md")
            #expect(Disk.names(root) == ["b.md", "c.md"])
        }
    }

    /// Between the plan and the move, a folder on the way becomes a symlink out of the vault:
    /// nothing is moved there.
    @Test func aFolderThatBecomesASymlinkIsRefusedAtTheMove() throws {
        try Sandbox(tree: Self.vault + [.directory("outside", [])]).test { root in
            let notes = store(try Vault(root: root))
            let plan = try notes.planMove(try notes.open("idea", cwd: root), to: "sub/idea")
            try FileManager.default.createSymbolicLink(
                atPath: root + "/sub", withDestinationPath: root + "/outside")
            #expect(throws: VaultError.outsideVault("sub/idea.md")) { try notes.move(plan) }
            #expect(Disk.names(root + "/outside").isEmpty && Disk.exists(root + "/idea.md"))
        }
    }

    /// A moved note whose own links are rewritten is written at its new path before it is there:
    /// its mode comes from the note as read, not from a file at that path (there is none yet).
    @Test func aPrivateNoteStaysPrivateWhenItsOwnLinksAreRewritten() throws {
        try Sandbox(tree: Self.vault).test { root in
            chmod(root + "/idea.md", 0o600)
            let notes = store(try Vault(root: root))
            let report = try notes.move(
                try notes.planMove(try notes.open("idea", cwd: root), to: "archive/2026/idea"))
            #expect(report.rewritten.map(\.id).contains("archive/2026/idea"))
            var st = stat()
            #expect(stat(root + "/archive/2026/idea.md", &st) == 0 && st.st_mode & 0o777 == 0o600)
        }
    }

    @Test func theBatchWriterLeavesAFileThatChangedBeforeItsRename() throws {
        try Sandbox(tree: [.file("a.md", "a\n"), .file("b.md", "b\n")]).test { root in
            let outcomes = FileSystem.writeAtomically(batch: [
                (root + "/a.md", Array("A\n".utf8), 0o644), (root + "/b.md", Array("B\n".utf8), 0o644),
            ]) { i in
                i == 0
            }
            #expect(Disk.text(root + "/a.md") == "A\n" && Disk.text(root + "/b.md") == "b\n")
            guard case .written = outcomes[0], case .changed = outcomes[1] else {
                Issue.record("outcomes \(outcomes)")
                return
            }
            #expect(Disk.names(root) == ["a.md", "b.md"])
        }
    }

    /// The plan is worked out on all cores, the candidates in chunks of 2,048 notes and the notes
    /// in chunks of 8: in a vault of 2,600 notes, the 372 that link to the hub (by name, by path,
    /// from a folder) are every one in the plan, in the order of their IDs, each rewrite right, and
    /// none of the notes that do not.
    @Test func aPlanOverManyNotesHasEveryLinkingNoteInOrder() throws {
        var tree: [Sandbox.Item] = [
            .directory(".notes", [.file(".gitignore", Sandbox.stateIgnore)]), .file("hub.md", "# Hub\n"),
        ]
        var linking: [String] = []
        var expected: [String: String] = [:]
        for i in 0..<2600 {
            let id = i % 2 == 0 ? String(format: "n%04d", i) : String(format: "deep/n%04d", i)
            let text: String
            switch i % 7 {
            case 0 where id.hasPrefix("deep/"):
                (text, expected[id]) = ("See [h](../hub.md).\n", "See [h](../archive/hub.md).\n")
            case 0:
                (text, expected[id]) = (
                    "See [[hub]] and [h](hub.md).\n", "See [[hub]] and [h](archive/hub.md).\n"
                )
            default: text = "No link to it, [[n0001]] only.\n"
            }
            if i % 7 == 0 { linking.append(id) }
            tree.append(.file(id + ".md", text))
        }
        try Sandbox(tree: tree).test { root in
            let notes = store(try Vault(root: root))
            let plan = try notes.planMove(try notes.open("hub", cwd: root), to: "archive/hub")
            #expect(plan.notes.map(\.id) == linking.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
            #expect(plan.notes.count == 372 && plan.linkCount == 372)
            let report = try notes.move(plan)
            #expect(report.rewritten.count == 372 && report.changed.isEmpty && report.failed.isEmpty)
            for (id, text) in expected where Disk.text(root + "/" + id + ".md") != text {
                Issue.record("\(id): \(Disk.text(root + "/" + id + ".md") ?? "missing")")
            }
            #expect(Disk.text(root + "/n0002.md") == "No link to it, [[n0001]] only.\n")
        }
    }

    /// Everything under `root` but the index and the store's cache.
    static func snapshot(_ root: String) -> TreeSnapshot {
        TreeSnapshot(root, skipping: [".notes", ".test-cache"])
    }
}
