import Dispatch
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import NotesKit

/// The vault most tests use, beside a folder that is outside it.
let sampleTree: [Sandbox.Item] = [
    .directory(
        "vault",
        [
            .directory(".notes", [.file(".gitignore", "*\n"), .file("stray.md", "# State, not a note\n")]),
            .directory(".git", [.file("HEAD.md", "# not a note\n")]),
            .file(".hidden.md", "# hidden\n"),
            .file(
                "shopping-list.md", "---\ncreatedAt: 2026-11-29T12:38:16Z\n---\n# Shopping list\n\n- milk\n"),
            .directory(
                "work",
                [
                    .file("standup.md", "# Daily standup\n"),
                    .file("retro.md", "# Retro\n"),
                    .directory("deep", [.directory("er", [.file("nested.md", "# Nested\n")])]),
                ]),
            .file("dessert.md", "# Crème Brûlée\n"),
            .file("a-same.md", "# Same Title\n"),
            .file("b-same.md", "# Same title\n"),
            .file("old.markdown", "# Old\n"),
            .file("readme.txt", "not a note\n"),
            .file("notes.md.bak", "not a note\n"),
            .symlink("link.md", to: "shopping-list.md"),
            .symlink("escape.md", to: "../outside/secret.md"),
            .symlink("outlink", to: "../outside"),
            .symlink("worklink", to: "work"),
        ]),
    .directory("outside", [.file("secret.md", "# Secret\n")]),
]

/// Opens the sample vault in a playground and passes it with the playground root.
/// A store over `vault`, as the command line makes one; a vault without `.notes/` keeps its index in
/// a hidden folder of its own here, so that tests leave nothing outside their playground.
func store(_ vault: Vault) -> NoteStore {
    NoteStore(vault: vault, cacheDirectory: vault.root + "/.test-cache")
}

/// Every note of a vault read afresh through a store, and the problems reported on the way.
func loadNotes(_ vault: Vault) -> (notes: [Note], diagnostics: [Diagnostic]) {
    let catalog = store(vault).refresh(rebuild: true)
    return (catalog.notes, catalog.diagnostics)
}

func withSampleVault(_ body: (Vault, String) throws -> Void) throws {
    try Sandbox(tree: sampleTree).test { root in
        try body(try Vault(root: root + "/vault"), root)
    }
}

@Suite struct VaultTests {
    // MARK: Opening

    @Test func openingAMissingFolderThrows() throws {
        try Sandbox(initVault: false).test { root in
            #expect(throws: VaultError.vaultMissing(root + "/nope")) { try Vault(root: root + "/nope") }
        }
    }

    @Test func openingAFileThrows() throws {
        try Sandbox(tree: [.file("file", "x")]).test { root in
            #expect(throws: VaultError.notAFolder(root + "/file")) { try Vault(root: root + "/file") }
        }
    }

    @Test func trailingSlashesAreTrimmed() throws {
        try Sandbox(tree: [.directory("v", [])]).test { root in
            let vault = try Vault(root: root + "/v//")
            #expect(vault.root == root + "/v")
            #expect(vault.canonicalRoot == root + "/v")
            #expect(vault.fullPath("a.md") == root + "/v/a.md")
        }
    }

    @Test func initializeMakesTheStateFolderWithAGitignore() throws {
        try Sandbox(initVault: false).test { root throws in
            let path = root + "/new"
            #expect(try Vault.initialize(at: path) == true)
            #expect(Disk.text(path + "/.notes/.gitignore") == Sandbox.stateIgnore)
            #expect(try Vault.initialize(at: path) == false)
            #expect(Disk.names(path) == [".notes"])
        }
    }

    // MARK: Walking

    @Test func notePathsFindsNestedNotesAndSkipsEverythingElse() throws {
        try withSampleVault { vault, _ in
            #expect(
                vault.notePaths().sorted() == [
                    "a-same.md", "b-same.md", "dessert.md", "old.markdown", "shopping-list.md",
                    "work/deep/er/nested.md", "work/retro.md", "work/standup.md",
                ])
        }
    }

    @Test func aSymlinkLoopDoesNotHang() throws {
        let tree: [Sandbox.Item] = [.directory("v", [.symlink("loop", to: "."), .file("a.md", "a\n")])]
        try Sandbox(tree: tree).test { root throws in
            #expect(try Vault(root: root + "/v").notePaths() == ["a.md"])
        }
    }

    @Test(arguments: ["a.md", "b.markdown", "x.y.md"])
    func noteNames(_ name: String) {
        #expect(Vault.isNoteName(name))
    }

    @Test(arguments: ["a.txt", "a.md.bak", "amd", "a.mdx", "a.markdown~"])
    func notNoteNames(_ name: String) {
        #expect(!Vault.isNoteName(name))
    }

    // MARK: Loading

    @Test func loadingInvalidUTF8Throws() throws {
        let bytes: [UInt8] = [0x23, 0x20, 0xC3, 0x28, 0xFF, 0x0A]
        try Sandbox(tree: [.directory("v", [.bytes("bad.md", bytes)])]).test { root in
            let vault = try Vault(root: root + "/v")
            #expect(throws: VaultError.notUTF8(root + "/v/bad.md")) { try vault.load(path: "bad.md") }
            #expect(Disk.bytes(root + "/v/bad.md") == bytes)
        }
    }

    @Test func loadingASymlinkThrows() throws {
        try withSampleVault { vault, _ in
            #expect(throws: VaultError.self) { try vault.load(path: "link.md") }
        }
    }

    @Test func loadKeepsTheBytesAndDerivesTheNote() throws {
        try withSampleVault { vault, _ in
            let loaded = try vault.load(path: "shopping-list.md")
            let text = "---\ncreatedAt: 2026-11-29T12:38:16Z\n---\n# Shopping list\n\n- milk\n"
            #expect(loaded.bytes == Array(text.utf8))
            #expect(loaded.note.id == "shopping-list")
            #expect(loaded.note.title == "Shopping list")
            #expect(loaded.note.preview == "- milk")
            #expect(loaded.note.createdAt == 1_795_955_896)
            #expect(loaded.diagnostics.isEmpty)
            #expect(loaded.status.kind == .regular)
            #expect(loaded.status.size == Int64(loaded.bytes.count))
        }
    }

    @Test func loadNotesListsEveryReadableNoteAndReportsProblems() throws {
        let files: [Sandbox.Item] = [
            .file("good.md", "# Good\n"),
            .file("warn.md", "---\ntitle: Warned\nnot a key\ncreatedAt: yesterday\n---\nbody\n"),
            .file("open.md", "---\ntitle: never closed\n"),
            .bytes("bad.md", [0xFF, 0xFE, 0x41]),
            .directory("sub", [.file("ok.md", "ok\n")]),
        ]
        try Sandbox(tree: [.directory("v", files)]).test { root in
            let vault = try Vault(root: root + "/v")
            let before = vault.notePaths().sorted().map { Disk.bytes(root + "/v/" + $0) }
            let mtime = try #require(
                FileManager.default.attributesOfItem(atPath: root + "/v/warn.md")[.modificationDate] as? Date)
            let (notes, diagnostics) = loadNotes(vault)
            #expect(notes.map(\.id).sorted() == ["good", "open", "sub/ok", "warn"])
            let warned = try #require(notes.first { $0.id == "warn" })
            #expect(warned.title == "Warned")
            #expect(abs(warned.createdAt - mtime.timeIntervalSince1970) < 0.001)
            let sorted = diagnostics.sorted { ($0.path, $0.line ?? 0) < ($1.path, $1.line ?? 0) }
            #expect(
                sorted.map(\.path) == [
                    root + "/v/bad.md", root + "/v/open.md", root + "/v/warn.md", root + "/v/warn.md",
                ])
            #expect(sorted.map(\.line) == [nil, 1, 3, 4])
            #expect(sorted[0].message.contains("UTF-8"))
            #expect(sorted[3].message.contains("yesterday"))
            #expect(sorted[2].description == root + "/v/warn.md:3: " + sorted[2].message)
            // Reading never writes.
            #expect(vault.notePaths().sorted().map { Disk.bytes(root + "/v/" + $0) } == before)
        }
    }

    @Test func loadNotesOfManyFiles() throws {
        let files = (0..<300).map { Sandbox.Item.file(String(format: "n%03d.md", $0), "# Note \($0)\n") }
        try Sandbox(tree: [.directory("v", files)]).test { root in
            let (notes, diagnostics) = loadNotes(try Vault(root: root + "/v"))
            #expect(notes.count == 300)
            #expect(diagnostics.isEmpty)
            #expect(Set(notes.map(\.title)) == Set((0..<300).map { "Note \($0)" }))
        }
    }

    // MARK: Resolving

    enum Resolution: Sendable, CustomStringConvertible {
        case note(String)
        case noMatch
        case ambiguous([String])
        case outside

        var description: String {
            switch self {
            case .note(let id): return id
            case .noMatch: return "no match"
            case .ambiguous(let ids): return "ambiguous \(ids)"
            case .outside: return "outside"
            }
        }
    }

    /// An argument, the folder it is typed in (relative to the vault), and what it must resolve to.
    /// `ROOT` in the argument stands for the playground root.
    struct ResolveCase: CustomTestStringConvertible, Sendable {
        var name: String
        var argument: String
        var cwd = ""
        var expected: Resolution

        var testDescription: String { name }
    }

    static let resolveCases: [ResolveCase] = [
        ResolveCase(name: "exact ID", argument: "shopping-list", expected: .note("shopping-list")),
        ResolveCase(name: "exact nested ID", argument: "work/standup", expected: .note("work/standup")),
        ResolveCase(name: "exact path", argument: "shopping-list.md", expected: .note("shopping-list")),
        ResolveCase(name: ".markdown ID", argument: "old.markdown", expected: .note("old.markdown")),
        ResolveCase(
            name: "exact ID wins over a longer prefix match", argument: "work/retro",
            expected: .note("work/retro")),
        ResolveCase(
            name: "path relative to the current folder", argument: "standup.md", cwd: "work",
            expected: .note("work/standup")),
        ResolveCase(name: "./ path", argument: "./retro.md", cwd: "work", expected: .note("work/retro")),
        ResolveCase(
            name: "../ path that stays inside", argument: "../dessert.md", cwd: "work",
            expected: .note("dessert")),
        ResolveCase(
            name: "absolute path inside the vault", argument: "ROOT/vault/work/retro.md",
            expected: .note("work/retro")),
        ResolveCase(
            name: "absolute path with .. that stays inside", argument: "ROOT/vault/work/../dessert.md",
            expected: .note("dessert")),
        ResolveCase(name: "unique prefix", argument: "shop", expected: .note("shopping-list")),
        ResolveCase(name: "unique nested prefix", argument: "work/st", expected: .note("work/standup")),
        ResolveCase(
            name: "ambiguous prefix lists the candidates", argument: "work/",
            expected: .ambiguous(["work/deep/er/nested", "work/retro", "work/standup"])),
        ResolveCase(
            name: "unique title, accent-insensitive", argument: "creme brulee",
            expected: .note("dessert")),
        ResolveCase(
            name: "unique title, case-insensitive", argument: "CRÈME BRÛLÉE",
            expected: .note("dessert")),
        ResolveCase(
            name: "unique title of a nested note", argument: "daily standup",
            expected: .note("work/standup")),
        ResolveCase(
            name: "ambiguous title lists the candidates", argument: "same title",
            expected: .ambiguous(["a-same", "b-same"])),
        ResolveCase(name: "no match", argument: "nothing like it", expected: .noMatch),
        ResolveCase(name: "a missing file inside the vault", argument: "./missing.md", expected: .noMatch),
        ResolveCase(
            name: "an empty argument is not a prefix of everything", argument: "", expected: .noMatch),
        ResolveCase(name: "a title is not a substring match", argument: "brulee", expected: .noMatch),
        ResolveCase(name: "../../etc/passwd", argument: "../../etc/passwd", expected: .outside),
        ResolveCase(
            name: "../../etc/passwd from a subfolder", argument: "../../etc/passwd", cwd: "work",
            expected: .outside),
        ResolveCase(
            name: "a deep .. escape that does not exist", argument: "../../../../../../../../nope.md",
            expected: .outside),
        ResolveCase(name: "/etc/passwd", argument: "/etc/passwd", expected: .outside),
        ResolveCase(
            name: "an absolute path to another folder's note", argument: "ROOT/outside/secret.md",
            expected: .outside),
        ResolveCase(
            name: "a relative path to another folder's note", argument: "../outside/secret.md",
            expected: .outside),
        ResolveCase(
            name: "an absolute path that does not exist outside", argument: "/nonexistent/x.md",
            expected: .outside),
        ResolveCase(name: "a symlink to a note inside", argument: "link.md", expected: .outside),
        ResolveCase(name: "a symlink to a note outside", argument: "escape.md", expected: .outside),
        ResolveCase(
            name: "a note through a symlinked folder outside", argument: "outlink/secret.md",
            expected: .outside),
    ]

    @Test(arguments: resolveCases)
    func resolve(_ c: ResolveCase) throws {
        try withSampleVault { vault, root in
            let argument = c.argument.replacingOccurrences(of: "ROOT", with: root)
            let cwd = c.cwd.isEmpty ? vault.root : vault.root + "/" + c.cwd
            let result = Result { () throws(VaultError) -> Note in
                try store(vault).open(argument, cwd: cwd).note
            }
            switch (c.expected, result) {
            case (.note(let id), .success(let note)):
                #expect(note.id == id)
            case (.noMatch, .failure(let error)):
                #expect(error == .noMatch(argument))
            case (.ambiguous(let ids), .failure(let error)):
                #expect(error == .ambiguous(argument, candidates: ids))
            case (.outside, .failure(let error)):
                #expect(error == .outsideVault(argument))
            default:
                Issue.record("expected \(c.expected), got \(result)")
            }
        }
    }

    @Test func anEmptyArgumentNeverPicksTheOnlyNote() throws {
        // `notes delete "$UNSET" --yes` must not trash the one note of a vault.
        try Sandbox(tree: [.directory("v", [.file("only.md", "# Only\n")])]).test { root in
            let vault = try Vault(root: root + "/v")
            #expect(throws: VaultError.noMatch("")) { try store(vault).open("", cwd: root + "/v") }
            try vault.trash(path: "only.md", now: 100)
            let entries = vault.trashEntries().entries
            #expect(throws: VaultError.notInTrash("")) { try vault.resolveTrashed("", in: entries) }
        }
    }

    @Test func ambiguityMessageListsAtMostTenCandidates() throws {
        let files = (1...12).map { Sandbox.Item.file(String(format: "dup-%02d.md", $0), "# Dup \($0)\n") }
        try Sandbox(tree: [.directory("v", files)]).test { root in
            let vault = try Vault(root: root + "/v")
            do throws(VaultError) {
                _ = try store(vault).open("dup", cwd: root)
                Issue.record("resolved an ambiguous prefix")
            } catch {
                guard case .ambiguous(_, let candidates) = error else {
                    Issue.record("expected ambiguous, got \(error)")
                    return
                }
                #expect(candidates == (1...12).map { String(format: "dup-%02d", $0) })
                let message = error.localizedDescription
                #expect(message.contains("dup-10"))
                #expect(!message.contains("dup-11"))
                #expect(message.contains("2 more"))
            }
        }
    }

    // MARK: Adding

    @Test func addNamesTheFileAfterTheTitleAndNeverOverwrites() throws {
        let existing = "---\ncreatedAt: 2020-01-01T00:00:00Z\n---\n# Someone else's\n"
        try Sandbox(tree: [.directory("v", [.file("creme-brulee-2.md", existing)])]).test { root in
            let vault = try Vault(root: root + "/v")
            let now = 1_795_955_896.0
            let content = "# Crème Brûlée\n\nrecipe\n"
            #expect(try vault.add(content: content, now: now) == "creme-brulee")
            #expect(try vault.add(content: content, now: now) == "creme-brulee-3")
            #expect(try vault.add(content: content, now: now) == "creme-brulee-4")
            #expect(Disk.text(root + "/v/creme-brulee-2.md") == existing)
            let expected = "---\ncreatedAt: 2026-11-29T12:38:16Z\n---\n# Crème Brûlée\n\nrecipe\n"
            for name in ["creme-brulee", "creme-brulee-3", "creme-brulee-4"] {
                #expect(Disk.text(root + "/v/\(name).md") == expected)
            }
            // Nothing else, and no temporary files left behind.
            #expect(
                Disk.names(root + "/v") == [
                    "creme-brulee-2.md", "creme-brulee-3.md", "creme-brulee-4.md", "creme-brulee.md",
                ])
        }
    }

    @Test(arguments: [
        ("Japanese title kept", "データ\n", "データ"),
        ("CJK words", "# 東京 メモ\n", "東京-メモ"),
        ("plain first line", "Buy milk and eggs\n", "buy-milk-and-eggs"),
    ])
    func addSlugs(_ name: String, _ content: String, _ id: String) throws {
        try Sandbox(tree: [.directory("v", [])]).test { root in
            let vault = try Vault(root: root + "/v")
            #expect(try vault.add(content: content, now: 0) == id, "\(name)")
            #expect(vault.notePaths() == [id + ".md"])
        }
    }

    @Test func addWithAnEmptySlugUsesATimestamp() throws {
        try Sandbox(tree: [.directory("v", [])]).test { root in
            let vault = try Vault(root: root + "/v")
            let now = 1_795_955_896.0
            let base = "note-" + NoteDate.stamp(now)
            #expect(try vault.add(content: "!!!\n", now: now) == base)
            #expect(try vault.add(content: "🎉\n", now: now) == base + "-2")
            #expect(Disk.text(root + "/v/\(base).md")?.hasSuffix("---\n!!!\n") == true)
        }
    }

    @Test func concurrentAddsNeverOverwriteEachOther() throws {
        try Sandbox(tree: [.directory("v", [])]).test { root in
            let vault = try Vault(root: root + "/v")
            let count = 24
            let ids = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: count) { i in
                if let id = try? vault.add(content: "# Same title\n\nwriter \(i)\n", now: 0) {
                    ids.withLock { $0.append(id) }
                }
            }
            let added = ids.withLock { $0 }
            #expect(added.count == count)
            #expect(Set(added).count == count)
            #expect(Set(added) == Set(["same-title"] + (2...count).map { "same-title-\($0)" }))
            // Every writer's text is in exactly one file.
            let bodies = vault.notePaths().compactMap { Disk.text(root + "/v/" + $0) }
            #expect(Set(bodies).count == count)
            #expect(Disk.names(root + "/v").count == count)
        }
    }

    @Test func addedNoteReadsBack() throws {
        try Sandbox(tree: [.directory("v", [])]).test { root in
            let vault = try Vault(root: root + "/v")
            let id = try vault.add(content: "# Title\n\nText\n", now: 1_795_955_896)
            let loaded = try vault.load(path: id + ".md")
            #expect(loaded.note.title == "Title")
            #expect(loaded.note.createdAt == 1_795_955_896)
            #expect(loaded.note.updatedAt == nil)
            #expect(loaded.body == "# Title\n\nText\n")
            #expect(loaded.diagnostics.isEmpty)
        }
    }

    // MARK: Updating

    @Test func updateChangesOnlyTheBodyAndUpdatedAt() throws {
        let frontMatter = "---\ntitle:   'Keep  me'  # comment\ncreatedAt: 2026-11-29T12:38:16Z\n"
        let original = frontMatter + "tags: [a,b]\n---\nold\n"
        try Sandbox(tree: [.directory("v", [.file("n.md", original)])]).test { root in
            let vault = try Vault(root: root + "/v")
            try vault.update(path: "n.md", content: "new\n", now: 1_796_117_400)
            #expect(
                Disk.text(root + "/v/n.md")
                    == frontMatter + "updatedAt: 2026-12-01T09:30:00Z\ntags: [a,b]\n---\nnew\n")
            #expect(Disk.names(root + "/v") == ["n.md"])
        }
    }

    @Test func updateKeepsTheModificationTimeAsCreationDate() throws {
        try Sandbox(tree: [.directory("v", [.file("plain.md", "old text\n")])]).test { root in
            let path = root + "/v/plain.md"
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSince1970: 1_767_323_045)], ofItemAtPath: path)
            let vault = try Vault(root: root + "/v")
            try vault.update(path: "plain.md", content: "new text\n", now: 1_796_117_400)
            #expect(
                Disk.text(path)
                    == "---\ncreatedAt: 2026-01-02T03:04:05Z\nupdatedAt: 2026-12-01T09:30:00Z\n---\nnew text\n"
            )
        }
    }

    @Test func updateOfANoteWithUpdatedAtButNoCreationKeyKeepsItsCreationDate() throws {
        let text = "---\nupdatedAt: 2020-01-01T00:00:00Z\n---\nold\n"
        try Sandbox(tree: [.directory("v", [.file("n.md", text)])]).test { root in
            let mtime = Date(timeIntervalSince1970: 1_767_323_045)
            try FileManager.default.setAttributes([.modificationDate: mtime], ofItemAtPath: root + "/v/n.md")
            let vault = try Vault(root: root + "/v")
            try vault.update(path: "n.md", content: "new\n", now: 1_796_117_400)
            let note = try vault.load(path: "n.md").note
            #expect(note.createdAt == 1_767_323_045)
            #expect(note.updatedAt == 1_796_117_400)
        }
    }

    @Test func updateKeepsPermissions() throws {
        try Sandbox(tree: [.directory("v", [.file("n.md", "old\n")])]).test { root in
            let path = root + "/v/n.md"
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
            try Vault(root: root + "/v").update(path: "n.md", content: "new\n", now: 0)
            let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
            #expect(mode == 0o600)
        }
    }

    @Test func updateWithTheExpectedBytesWrites() throws {
        let original = "---\ncreatedAt: 2026-11-29T12:38:16Z\n---\nold\n"
        try Sandbox(tree: [.directory("v", [.file("n.md", original)])]).test { root in
            let vault = try Vault(root: root + "/v")
            try vault.update(
                path: "n.md", content: "new\n", now: 1_796_117_400, expected: Array(original.utf8))
            #expect(
                Disk.text(root + "/v/n.md")
                    == "---\ncreatedAt: 2026-11-29T12:38:16Z\nupdatedAt: 2026-12-01T09:30:00Z\n---\nnew\n")
        }
    }

    @Test func updateConflictSavesACopyAndLeavesTheNote() throws {
        let onDisk = "---\ncreatedAt: 2026-11-29T12:38:16Z\n---\nchanged by someone else\n"
        try Sandbox(tree: [.directory("v", [.directory("work", [.file("n.md", onDisk)])])]).test { root in
            let vault = try Vault(root: root + "/v")
            let now = 1_796_117_400.0
            let copy = root + "/v/work/n.conflict-" + NoteDate.stamp(now) + ".md"
            let stale = Array("---\ncreatedAt: 2026-11-29T12:38:16Z\n---\nold\n".utf8)
            #expect(throws: VaultError.conflict(id: "work/n", copy: copy)) {
                try vault.update(path: "work/n.md", content: "my edit\n", now: now, expected: stale)
            }
            #expect(Disk.text(root + "/v/work/n.md") == onDisk)
            #expect(Disk.text(copy) == "my edit\n")
            // A second conflict in the same second gets its own file.
            let second = root + "/v/work/n.conflict-" + NoteDate.stamp(now) + "-2.md"
            #expect(throws: VaultError.conflict(id: "work/n", copy: second)) {
                try vault.update(path: "work/n.md", content: "another edit\n", now: now, expected: stale)
            }
            #expect(Disk.text(copy) == "my edit\n")
            #expect(Disk.text(second) == "another edit\n")
            #expect(Disk.text(root + "/v/work/n.md") == onDisk)
        }
    }

    @Test func updateOfANonUTF8FileChangesNothing() throws {
        try Sandbox(tree: [.directory("v", [.bytes("bad.md", [0x41, 0xFF])])]).test { root in
            let vault = try Vault(root: root + "/v")
            #expect(throws: VaultError.notUTF8(root + "/v/bad.md")) {
                try vault.update(path: "bad.md", content: "x\n", now: 0)
            }
            #expect(Disk.bytes(root + "/v/bad.md") == [0x41, 0xFF])
        }
    }

    // MARK: Trash

    @Test func trashListAndRestore() throws {
        try withSampleVault { vault, _ in
            let original = Disk.bytes(vault.fullPath("work/standup.md"))
            let now = 1_795_955_896.0
            try vault.trash(path: "work/standup.md", now: now)
            #expect(!Disk.exists(vault.fullPath("work/standup.md")))
            #expect(!vault.notePaths().contains("work/standup.md"))

            let (entries, diagnostics) = vault.trashEntries()
            #expect(diagnostics.isEmpty)
            #expect(entries.count == 1)
            let entry = try #require(entries.first)
            #expect(entry.note.id == "work/standup")
            #expect(entry.note.path == "work/standup.md")
            #expect(entry.note.title == "Daily standup")
            #expect(entry.deletedAt == now)

            #expect(try vault.resolveTrashed("work/standup", in: entries) == entry)
            #expect(try vault.resolveTrashed("work/standup.md", in: entries) == entry)
            #expect(try vault.resolveTrashed("work/st", in: entries) == entry)
            #expect(try vault.resolveTrashed("DAILY STANDUP", in: entries) == entry)
            #expect(throws: VaultError.notInTrash("shopping-list")) {
                try vault.resolveTrashed("shopping-list", in: entries)
            }

            #expect(try vault.restore(entry) == "work/standup.md")
            #expect(Disk.bytes(vault.fullPath("work/standup.md")) == original)
            #expect(vault.trashEntries().entries.isEmpty)
        }
    }

    @Test func restoreRecreatesAMissingFolder() throws {
        try withSampleVault { vault, _ in
            try vault.trash(path: "work/deep/er/nested.md", now: 100)
            try FileManager.default.removeItem(atPath: vault.fullPath("work/deep"))
            let entry = try #require(vault.trashEntries().entries.first)
            #expect(try vault.restore(entry) == "work/deep/er/nested.md")
            #expect(Disk.text(vault.fullPath("work/deep/er/nested.md")) == "# Nested\n")
        }
    }

    @Test(arguments: [
        ("shopping-list.md", "shopping-list-2.md"),
        ("old.markdown", "old-2.markdown"),
        ("work/retro.md", "work/retro-2.md"),
    ])
    func restoreUsesAFreeNameWhenTheOldOneIsTaken(_ path: String, _ restored: String) throws {
        try withSampleVault { vault, _ in
            let original = Disk.bytes(vault.fullPath(path))
            try vault.trash(path: path, now: 100)
            try Data("# Newer note\n".utf8).write(to: URL(fileURLWithPath: vault.fullPath(path)))
            let entry = try #require(vault.trashEntries().entries.first)
            #expect(try vault.restore(entry) == restored)
            #expect(Disk.text(vault.fullPath(path)) == "# Newer note\n")
            #expect(Disk.bytes(vault.fullPath(restored)) == original)
        }
    }

    @Test func restoreSkipsEveryTakenName() throws {
        try withSampleVault { vault, _ in
            try vault.trash(path: "dessert.md", now: 100)
            for name in ["dessert.md", "dessert-2.md", "dessert-3.md"] {
                try Data("taken\n".utf8).write(to: URL(fileURLWithPath: vault.fullPath(name)))
            }
            let entry = try #require(vault.trashEntries().entries.first)
            #expect(try vault.restore(entry) == "dessert-4.md")
            #expect(Disk.text(vault.fullPath("dessert-4.md")) == "# Crème Brûlée\n")
        }
    }

    @Test func theMostRecentlyDeletedWins() throws {
        try withSampleVault { vault, _ in
            try vault.trash(path: "dessert.md", now: 100)
            try Data("# Second dessert\n".utf8).write(to: URL(fileURLWithPath: vault.fullPath("dessert.md")))
            try vault.trash(path: "dessert.md", now: 200)
            let entries = vault.trashEntries().entries
            #expect(entries.map(\.deletedAt) == [200, 100])
            let found = try vault.resolveTrashed("dessert", in: entries)
            #expect(found.deletedAt == 200)
            #expect(found.note.title == "Second dessert")
            // Two trashed notes with the same ID are one candidate for a prefix.
            #expect(try vault.resolveTrashed("dess", in: entries).deletedAt == 200)
        }
    }

    @Test func ambiguousTrashPrefix() throws {
        try withSampleVault { vault, _ in
            try vault.trash(path: "work/retro.md", now: 100)
            try vault.trash(path: "work/standup.md", now: 200)
            let entries = vault.trashEntries().entries
            #expect(throws: VaultError.ambiguous("work/", candidates: ["work/retro", "work/standup"])) {
                try vault.resolveTrashed("work/", in: entries)
            }
        }
    }

    @Test func aBrokenTrashEntryIsReportedAndSkipped() throws {
        try withSampleVault { vault, _ in
            try vault.trash(path: "dessert.md", now: 100)
            try FileManager.default.createDirectory(
                atPath: vault.trashDirectory + "/junk", withIntermediateDirectories: true)
            let (entries, diagnostics) = vault.trashEntries()
            #expect(entries.map(\.note.id) == ["dessert"])
            #expect(diagnostics.map(\.path) == [vault.trashDirectory + "/junk"])
        }
    }

    @Test func emptyTrashRemovesEverything() throws {
        try withSampleVault { vault, _ in
            try vault.trash(path: "dessert.md", now: 100)
            try vault.trash(path: "work/retro.md", now: 200)
            #expect(try vault.emptyTrash() == 2)
            #expect(vault.trashEntries().entries.isEmpty)
            #expect(Disk.names(vault.trashDirectory).isEmpty)
            #expect(!Disk.exists(vault.fullPath("dessert.md")))
            #expect(try vault.emptyTrash() == 0)
        }
    }

    @Test func emptyingAMissingTrashIsNothing() throws {
        try Sandbox(tree: [.directory("v", [])]).test { root throws in
            #expect(try Vault(root: root + "/v").emptyTrash() == 0)
        }
    }
}
