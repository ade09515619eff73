import Foundation
import TestSupport
import Testing

@testable import NotesKit

/// The store: the one way the command line reads and changes a vault.
@Suite struct NoteStoreTests {
    @Test func readingAPlainFolderWritesNothingIntoIt() throws {
        try Sandbox(tree: [
            .directory(
                "plain", [.file("a.md", "# Alpha\n"), .directory("sub", [.file("b.md", "# Beta\n")])]),
            .directory("cache", []),
        ]).test { root in
            let vault = try Vault(root: root + "/plain")
            let before = Disk.names(root + "/plain")
            let notes = NoteStore(vault: vault, cacheDirectory: root + "/cache")
            #expect(notes.stateFolder.hasPrefix(root + "/cache/plain-"))
            #expect(Set(notes.catalog.notes.map(\.id)) == ["a", "sub/b"])
            #expect(notes.catalog.indexWritten)
            #expect(Disk.exists(notes.indexPath))
            #expect(try notes.open("sub/b", cwd: root).note.title == "Beta")
            #expect(notes.query(NoteQuery(search: SearchQuery("alpha"))).map(\.id) == ["a"])
            #expect(Disk.names(root + "/plain") == before)
            // The cached index is used by the next store, as by the next command.
            #expect(NoteStore(vault: vault, cacheDirectory: root + "/cache").catalog.filesRead == 0)
        }
    }

    @Test func aVaultWithItsOwnStateFolderKeepsItsIndexThere() throws {
        try Sandbox(tree: [.directory("v", [.directory(".notes", []), .file("a.md", "a\n")])]).test { root in
            let notes = NoteStore(vault: try Vault(root: root + "/v"), cacheDirectory: root + "/cache")
            #expect(notes.indexPath == root + "/v/.notes/index")
            _ = notes.catalog
            #expect(Disk.exists(root + "/v/.notes/index"))
            #expect(!Disk.exists(root + "/cache"))
        }
    }

    @Test func twoFoldersWithTheSameNameGetTwoCacheFolders() {
        #expect(NoteStore.cacheName(for: "/a/Notes") != NoteStore.cacheName(for: "/b/Notes"))
        #expect(NoteStore.cacheName(for: "/a/Notes").hasPrefix("Notes-"))
        #expect(NoteStore.cacheName(for: "/a/Mes notes é").hasPrefix("Mes-notes--"))
    }

    @Test func everyChangeIsRecorded() throws {
        try Sandbox(tree: [
            .directory("v", [.directory(".notes", [.file(".gitignore", Sandbox.stateIgnore)])])
        ]).test { root in
            let notes = store(try Vault(root: root + "/v"))
            let id = try notes.add(content: "# Plan\n", now: 100, folder: "work")
            #expect(id == "work/plan")
            let loaded = try notes.open(id, cwd: root)
            try notes.update(loaded, content: "# Plan\n\nmore\n", now: 200, expectUnchanged: true)
            try notes.delete(loaded.note, now: 300)
            let restored = try notes.restore(try notes.trashed("plan"))
            #expect(
                notes.changes == [
                    .added("work/plan.md"), .modified("work/plan.md"), .removed("work/plan.md"),
                    .restored(restored),
                ])
            // Each change is seen by the next read: the catalog is refreshed after it.
            #expect(notes.catalog.notes.map(\.id) == ["work/plan"])
        }
    }

    @Test func anEditOfAFileThatChangedSinceItWasReadIsAConflict() throws {
        try Sandbox(tree: [.directory("v", [.file("n.md", "old\n")])]).test { root in
            let notes = store(try Vault(root: root + "/v"))
            let loaded = try notes.open("n", cwd: root)
            try Data("changed elsewhere\n".utf8).write(to: URL(fileURLWithPath: root + "/v/n.md"))
            #expect(throws: VaultError.self) {
                try notes.update(loaded, content: "mine\n", now: 1, expectUnchanged: true)
            }
            #expect(Disk.text(root + "/v/n.md") == "changed elsewhere\n")
            #expect(notes.changes.isEmpty)
        }
    }

    /// A vault folder removed while a store is open (a long-lived language server, a disk
    /// unmounted) is not made again, empty, by the next refresh or write: its lock refuses, and
    /// nothing is written.
    @Test func aVaultRemovedWhileOpenIsNotMadeAgain() throws {
        try Sandbox(tree: [.directory("v", [.directory(".notes", []), .file("a.md", "a\n")])]).test { root in
            let notes = store(try Vault(root: root + "/v"))
            #expect(notes.refresh().indexWritten)
            try FileManager.default.removeItem(atPath: root + "/v")
            #expect(!notes.refresh().indexWritten)
            #expect(throws: VaultError.self) { try notes.create("New", now: 0) }
            // Nor around a note in a folder (a link's "create note" in the language server).
            #expect(throws: VaultError.vaultMissing(root + "/v")) { try notes.create("sub/New", now: 0) }
            #expect(throws: VaultError.vaultMissing(root + "/v")) {
                try VaultLock(path: notes.lockPath, wait: true, vault: notes.vault.root)
            }
            #expect(throws: VaultError.vaultMissing(root + "/v")) { try notes.saveVaultSettings(Settings()) }
            #expect(!Disk.exists(root + "/v"))
        }
    }

    /// A vault reached through a symlink (`~/Notes` → a synced folder) is there: its lock, a note in
    /// a new folder and its index are written as in any vault.
    @Test func aVaultThroughASymlinkIsWritten() throws {
        try Sandbox(tree: [.directory("real", [.directory(".notes", []), .file("a.md", "a\n")])]).test {
            root in
            try FileManager.default.createSymbolicLink(atPath: root + "/link", withDestinationPath: "real")
            let notes = store(try Vault(root: root + "/link"))
            #expect(notes.refresh().indexWritten)
            #expect(try notes.create("sub/New", now: 0) == "sub/New.md")
            #expect(Disk.exists(root + "/real/sub/New.md"))
            let lock = try #require(try VaultLock(path: notes.lockPath, wait: true, vault: notes.vault.root))
            lock.release()
        }
    }

    @Test func theIndexIsNotWrittenWhileAnotherWriterHoldsTheLock() throws {
        try Sandbox(tree: [.directory("v", [.directory(".notes", []), .file("a.md", "a\n")])]).test { root in
            let vault = try Vault(root: root + "/v")
            let notes = store(vault)
            let held = try #require(try VaultLock(path: notes.lockPath, wait: false, vault: notes.vault.root))
            // flock locks belong to an open file: a second open in this process is another writer.
            #expect(try VaultLock(path: notes.lockPath, wait: false, vault: notes.vault.root) == nil)
            let busy = notes.refresh()
            #expect(busy.notes.map(\.id) == ["a"])
            #expect(!busy.indexWritten)
            #expect(!Disk.exists(notes.indexPath))
            held.release()
            #expect(notes.refresh().indexWritten)
            #expect(Disk.exists(notes.indexPath))
            // With an index on disk, changes seen while the lock is held are encoded in memory as
            // a delta of it: the changed, added and deleted notes show as they are now.
            let again = try #require(
                try VaultLock(path: notes.lockPath, wait: false, vault: notes.vault.root))
            try Data("# Changed\n".utf8).write(to: URL(fileURLWithPath: root + "/v/a.md"))
            try Data("# Bee\n".utf8).write(to: URL(fileURLWithPath: root + "/v/b.md"))
            let changed = notes.refresh()
            #expect(!changed.indexWritten && changed.filesRead == 2)
            #expect(changed.notes.map(\.title).sorted() == ["Bee", "Changed"])
            #expect(changed.run(NoteQuery(search: SearchQuery("bee"))).map(\.id) == ["b"])
            try FileManager.default.removeItem(atPath: root + "/v/a.md")
            #expect(notes.refresh().notes.map(\.id) == ["b"])
            again.release()
        }
    }

    /// A one-off search releases the mapped text it has scanned; an index encoded in memory (the
    /// lock was held) must keep its text, or the next search of the catalog would read zeros.
    @Test func aOneOffSearchKeepsTheTextOfAnIndexInMemory() throws {
        let body = String(repeating: "filler words here ", count: 400)
        try Sandbox(tree: [
            .directory(
                "v",
                [
                    .directory(".notes", []),
                    .file("a.md", "# A\n\n\(body)\nneedle\n"),
                    .file("b.md", "# B\n\n\(body)\nneedle\n"),
                    .file("c.md", "# C\n\n\(body)\nneedle\n"),
                ])
        ]).test { root in
            let vault = try Vault(root: root + "/v")
            let notes = store(vault)
            let held = try #require(try VaultLock(path: notes.lockPath, wait: false, vault: notes.vault.root))
            defer { held.release() }
            let catalog = notes.refresh()
            #expect(!catalog.indexWritten)
            var query = NoteQuery(search: SearchQuery("needle"))
            query.oneOff = true
            #expect(catalog.run(query).count == 3)
            #expect(catalog.run(query).count == 3)
        }
        // And from the mapped file, scanned text comes back when it is read again.
        try Sandbox(tree: [
            .directory(
                "v",
                [
                    .directory(".notes", []), .file("a.md", "# A\n\n\(body)\nneedle\n"),
                    .file("b.md", "# B\n\n\(body)\nneedle\n"),
                ])
        ]).test { root in
            let notes = store(try Vault(root: root + "/v"))
            _ = notes.refresh()
            let catalog = notes.refresh()
            #expect(catalog.filesRead == 0)
            var query = NoteQuery(search: SearchQuery("needle"))
            query.oneOff = true
            #expect(catalog.run(query).count == 2)
            #expect(catalog.run(query).count == 2)
        }
    }

    @Test func aTrashEntryWhoseFolderIsASymlinkIsNotRestoredThroughIt() throws {
        try Sandbox(tree: [
            .directory("outside", []),
            .directory(
                "v", [.directory(".notes", []), .directory("link", []), .file("link-note.md", "x\n")]),
        ]).test { root in
            let vault = try Vault(root: root + "/v")
            let notes = store(vault)
            try FileManager.default.createDirectory(
                atPath: root + "/v/work", withIntermediateDirectories: true)
            try Data("# Secret\n".utf8).write(to: URL(fileURLWithPath: root + "/v/work/s.md"))
            try notes.delete(try notes.open("work/s", cwd: root).note, now: 100)
            // After the delete, `work` becomes a link to a folder outside the vault.
            try FileManager.default.removeItem(atPath: root + "/v/work")
            try FileManager.default.createSymbolicLink(
                atPath: root + "/v/work", withDestinationPath: root + "/outside")
            let entry = try notes.trashed("work/s")
            #expect(throws: VaultError.outsideVault("work/s.md")) { try notes.restore(entry) }
            #expect(Disk.names(root + "/outside").isEmpty)
        }
    }

    @Test func openingFindsTheVaultAndMakesOnlyTheDefaultOne() throws {
        try Sandbox(tree: [.directory("home", []), .directory("elsewhere", [.file("n.md", "n\n")])]).test {
            root in
            let locations = Locations(environment: ["HOME": root + "/home"], cwd: root)
            var settings = Settings()
            if case .missingDefault(let path) = try NoteStore.open(
                locations: locations, flag: nil, settings: settings, creatingDefaultVault: false)
            {
                #expect(path == root + "/home/Notes")
            } else {
                Issue.record("a read made or found a vault")
            }
            #expect(!Disk.exists(root + "/home/Notes"))
            guard
                case .created(_, let made) = try NoteStore.open(
                    locations: locations, flag: nil, settings: settings, creatingDefaultVault: true)
            else {
                Issue.record("a write did not make the default vault")
                return
            }
            #expect(made == root + "/home/Notes" && Disk.exists(root + "/home/Notes/.notes/.gitignore"))
            // A vault named by the user is never made: a typo must not become a vault.
            #expect(throws: VaultError.vaultMissing(root + "/typo")) {
                try NoteStore.open(
                    locations: locations, flag: root + "/typo", settings: settings, creatingDefaultVault: true
                )
            }
            settings.titleFrom = .filename
            guard
                case .opened(let notes) = try NoteStore.open(
                    locations: locations, flag: root + "/elsewhere", settings: settings,
                    creatingDefaultVault: false)
            else {
                Issue.record("an existing vault was not opened")
                return
            }
            #expect(notes.vault.titleSource == .filename)
            #expect(notes.stateFolder.hasPrefix(root + "/home/.cache/notes/elsewhere-"))
        }
    }

    @Test func theStoreAppliesTheContentRules() throws {
        try Sandbox(tree: [
            .directory(
                "v",
                [
                    .directory(".notes", [.file(".gitignore", Sandbox.stateIgnore)]),
                    .file("n.md", "# N\r\n\r\nbody\r\n"),
                ])
        ])
        .test { root in
            let notes = store(try Vault(root: root + "/v"))
            #expect(throws: VaultError.emptyNote) { try notes.add(content: " \n\t\n", now: 1) }
            #expect(try notes.add(content: "\n  # Trimmed  \n\n", now: 1) == "trimmed")
            #expect(Disk.text(root + "/v/trimmed.md")?.hasSuffix("---\n# Trimmed\n") == true)
            let loaded = try notes.open("n", cwd: root)
            // The same text (line endings aside) is no change: nothing is written or recorded.
            #expect(try !notes.update(loaded, content: "# N\n\nbody\n  ", now: 2, expectUnchanged: true))
            #expect(Disk.text(root + "/v/n.md") == "# N\r\n\r\nbody\r\n")
            #expect(throws: VaultError.emptyNote) {
                try notes.update(loaded, content: "", now: 2, expectUnchanged: true)
            }
            #expect(notes.changes == [.added("trimmed.md")])
        }
    }
}
