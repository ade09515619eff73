import Foundation
import TestSupport
import Testing

@testable import NotesKit

/// A survey keeps what each folder held (`FolderListing`) and, while a folder is as it was, replays
/// that instead of listing it again. Replaying must find exactly what listing finds; a folder that
/// changed, whose ignore rules changed, or that changed too recently to tell, is listed again.
/// (The tests shorten the settling time to none, so that folders they just made can be kept:
/// nothing changes them behind the tests' backs.)
@Suite struct FolderListingsTests {
    static let tree: [Sandbox.Item] = [
        .file(".gitignore", "drafts/\n*.tmp.md\n"),
        .file("a.md", "# A\n"),
        .file("b.md", "# B\n"),
        .file("skip.tmp.md", "ignored"),
        .file("photo.png", "png"),
        .file(".hidden.md", "hidden"),
        .directory("drafts", [.file("d.md", "ignored")]),
        .directory(
            "sub",
            [
                .file("c.md", "# C\n"), .file("c.pdf", "pdf"),
                .directory("deep", [.file("e.md", "# E\n")]), .directory("empty", []),
            ]),
        .symlink("to-sub", to: "sub"),
    ]

    /// A vault over `root` whose folders are kept as soon as they are listed, with a note whose
    /// name is not UTF-8 added; nil when `root` is on a file system whose folders' times are not
    /// trusted (then nothing may be kept: checked).
    static func vault(_ root: String) throws -> Vault? {
        let name = Array(root.utf8) + Array("/bad-".utf8) + [0xFF] + Array(".md".utf8) + [0]
        let file = name.withUnsafeBufferPointer { path in
            path.baseAddress.map {
                open(UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self), O_CREAT | O_WRONLY, 0o644)
            } ?? -1
        }
        try #require(file >= 0)
        close(file)
        var vault = try Vault(root: root)
        vault.folderSettle = 0
        let fd = open(root, O_RDONLY | O_DIRECTORY)
        try #require(fd >= 0)
        defer { close(fd) }
        guard FolderListing.keepsFolderTimes(fd) else {
            #expect(vault.survey(against: nil).folders.byPath.isEmpty)
            return nil
        }
        return vault
    }

    /// What a survey found, for comparing two.
    static func summary(_ survey: Survey) -> [String] {
        survey.stale.map { "\($0.path) \($0.status?.inode ?? 0)" } + survey.newFiles.map { "file \($0)" }
            + survey.symlinkedFolders.map { "link \($0)" } + survey.diagnostics.map { "\($0)" }
            + survey.current.map { "current \($0)" } + ["mode \(survey.sharedMode)"]
    }

    /// `listing` without the entry named `name`.
    static func dropping(_ name: String, from listing: FolderListing) -> FolderListing {
        var kept = listing
        kept.entries = []
        listing.forEachEntry { kind, entry, _ in
            if !entry.elementsEqual(name.utf8) { kept.add(kind, entry) }
        }
        return kept
    }

    @Test func aSurveyReplaysWhatItListedAndFindsTheSame() throws {
        try Sandbox(tree: Self.tree).test { root in
            guard let vault = try Self.vault(root) else { return }
            let listed = vault.survey(against: nil)
            #expect(listed.listedAnew)
            // Every folder walked, none hidden or ignored.
            #expect(
                Set(listed.folders.byPath.keys.map { String(decoding: $0, as: UTF8.self) })
                    == ["", "sub", "sub/deep", "sub/empty"])
            #expect(listed.stale.map(\.path).contains("a.md") && listed.symlinkedFolders == ["to-sub"])
            // The note whose name is not UTF-8 is said so, replayed or not.
            #expect(listed.diagnostics.count == 1)
            let replayed = vault.survey(against: nil, listings: listed.folders)
            #expect(!replayed.listedAnew)
            #expect(Self.summary(replayed) == Self.summary(listed))
            #expect(replayed.folders.byPath == listed.folders.byPath)
            // So does the survey of a first index, which streams what it finds to the reader.
            let stream = SurveyStream(vault: vault, listings: listed.folders)
            while stream.next(atLeast: 2) != nil {}
            let streamed = stream.finish()
            #expect(!streamed.listedAnew)
            #expect(
                streamed.stale.map(\.path) == vault.survey(against: nil, statting: false).stale.map(\.path))
            // Against an index, every note current, whether listed or replayed.
            let notes = store(vault)
            let catalog = notes.refresh()
            #expect(catalog.count == 4)
            let index = try #require(catalog.index)
            let current = vault.survey(against: index, listings: listed.folders)
            #expect(
                current.stale.isEmpty && current.current.count == vault.survey(against: index).current.count)
        }
    }

    /// A listing stands for its folder only while the folder's device, inode and times are the
    /// stamp's and its ignore rules are the same: a listing that lacks a note shows it, by the
    /// note going missing, when it is replayed, and each difference makes the survey list again.
    @Test func aListingIsReplayedOnlyWhileTheFolderIsAsItWas() throws {
        try Sandbox(tree: Self.tree).test { root in
            guard let vault = try Self.vault(root) else { return }
            let listed = vault.survey(against: nil)
            let top = try #require(listed.folders.byPath[[]])
            var tampered = listed.folders
            tampered.byPath[[]] = Self.dropping("a.md", from: top)
            let replayed = vault.survey(against: nil, listings: tampered)
            #expect(!replayed.stale.contains { $0.path == "a.md" } && !replayed.listedAnew)
            let changes: [(String, (inout FolderListing) -> Void)] = [
                ("ctime", { $0.stamp.ctime -= 1 }), ("mtime", { $0.stamp.mtime += 1 }),
                ("inode", { $0.stamp.inode += 1 }), ("device", { $0.stamp.device += 1 }),
                ("rules", { $0.rules &+= 1 }),
            ]
            for (what, change) in changes {
                var listing = Self.dropping("a.md", from: top)
                change(&listing)
                tampered.byPath[[]] = listing
                let again = vault.survey(against: nil, listings: tampered)
                #expect(again.stale.contains { $0.path == "a.md" } && again.listedAnew, "\(what)")
                #expect(again.folders.byPath[[]] == top, "\(what)")
            }
        }
    }

    /// An ignore file rewritten in place leaves its folder's times alone; the rules it now makes
    /// still decide what the walk keeps, in that folder and below.
    @Test func anIgnoreFileChangedInPlaceIsSeen() throws {
        try Sandbox(tree: Self.tree).test { root in
            guard let vault = try Self.vault(root) else { return }
            let listed = vault.survey(against: nil)
            let before = try #require(FileSystem.status(root))
            let file = open(root + "/.gitignore", O_WRONLY | O_TRUNC)
            try #require(file >= 0)
            let rules = "drafts/\n*.tmp.md\nb.md\ne.md\n"
            #expect(write(file, rules, rules.utf8.count) == rules.utf8.count)
            close(file)
            // The test means what it says only if the folder's times did not move.
            #expect(FileSystem.status(root) == before)
            let after = vault.survey(against: nil, listings: listed.folders)
            #expect(after.listedAnew)
            #expect(!after.stale.contains { $0.path == "b.md" || $0.path == "sub/deep/e.md" })
            #expect(after.stale.contains { $0.path == "sub/c.md" })
        }
    }

    /// A symlink's target can become a folder while the folder holding the link stays as it was:
    /// a replayed link is looked at afresh.
    @Test func aReplayedSymlinkIsLookedAtAfresh() throws {
        try Sandbox(tree: []).test { outside in
            let target = outside + "/later"
            try Sandbox(tree: [.file("a.md", "# A\n"), .symlink("later", to: target)]).test { root in
                guard let vault = try Self.vault(root) else { return }
                let listed = vault.survey(against: nil)
                #expect(listed.symlinkedFolders.isEmpty)
                try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: false)
                let replayed = vault.survey(against: nil, listings: listed.folders)
                #expect(!replayed.listedAnew && replayed.symlinkedFolders == ["later"])
            }
        }
    }

    /// A folder changed within the settling time could change again within the same tick of the
    /// file system's clock without its times moving: its listing is not kept.
    @Test func aFolderChangedTooRecentlyIsNotKept() throws {
        try Sandbox(tree: Self.tree).test { root in
            var vault = try Vault(root: root)
            vault.folderSettle = Int64.max / 2
            let survey = vault.survey(against: nil)
            #expect(!survey.listedAnew && survey.folders.byPath.isEmpty)
            let fd = open(root, O_RDONLY | O_DIRECTORY)
            try #require(fd >= 0)
            defer { close(fd) }
            var st = stat()
            try #require(fstat(fd, &st) == 0)
            let stamp = FolderListing.Stamp(st)
            guard FolderListing.keepsFolderTimes(fd) else { return }
            let changed = max(stamp.mtime, stamp.ctime)
            let settle = FolderListing.settle
            #expect(!FolderListing.mayKeep(stamp, of: fd, now: changed + settle - 1))
            #expect(FolderListing.mayKeep(stamp, of: fd, now: changed + settle))
        }
    }

    /// A file system that may not keep a folder's times as a local one does keeps no listing.
    @Test func onlyKnownFileSystemsAreTrusted() throws {
        #if os(Linux)
            for (path, trusted) in [("/proc", false), ("/sys", false), (NSTemporaryDirectory(), true)] {
                let fd = open(path, O_RDONLY | O_DIRECTORY)
                try #require(fd >= 0)
                defer { close(fd) }
                // The temp folder's may be any (a container's overlay): only the others are known.
                if !trusted { #expect(!FolderListing.keepsFolderTimes(fd), "\(path)") }
            }
        #endif
    }

    /// The file of listings reads back as written; cut short, or with any byte changed, it is no
    /// file at all (never a listing that could hide a note).
    @Test func theFileReadsBackAndAnyDamageIsNoFile() throws {
        try Sandbox(tree: Self.tree).test { root in
            guard let vault = try Self.vault(root) else { return }
            let listings = vault.survey(against: nil).folders
            let bytes = listings.encoded()
            #expect(FolderListings(decoding: bytes)?.byPath == listings.byPath)
            #expect(FolderListings(decoding: FolderListings().encoded())?.byPath.isEmpty == true)
            for length in 0..<bytes.count {
                #expect(FolderListings(decoding: Array(bytes.prefix(length))) == nil, "cut at \(length)")
            }
            for i in bytes.indices {
                var damaged = bytes
                damaged[i] ^= 0x20
                #expect(FolderListings(decoding: damaged) == nil, "byte \(i)")
            }
            #expect(FolderListings(decoding: bytes + [0]) == nil)
        }
    }

    /// A file whose checksum holds but whose entries no folder could list (made by a faulty
    /// writer, or by hand) is no file either: replaying it could enter "" forever, or stop short.
    @Test func entriesNoFolderCouldListAreNoFile() throws {
        let stamp = FolderListing.Stamp(device: 1, inode: 2, mtime: 3, ctime: 4)
        func file(_ entries: [UInt8]) -> [UInt8] {
            var listings = FolderListings()
            listings.byPath[[]] = FolderListing(stamp: stamp, rules: 0, entries: entries[...])
            return listings.encoded()
        }
        let good = [0] + Array("a.md".utf8) + [0, 1] + Array("sub".utf8) + [0]
        #expect(FolderListings(decoding: file(good))?.byPath[[]]?.entries.elementsEqual(good) == true)
        #expect(FolderListings(decoding: file([])) != nil)
        for bad: [UInt8] in [
            [0, 0], [3] + Array("a.md".utf8) + [0], [0] + Array("a.md".utf8),
            [1] + Array(".hidden".utf8) + [0],
            [1] + Array("a/b".utf8) + [0], good + [0],
        ] {
            #expect(FolderListings(decoding: file(bad)) == nil, "\(bad)")
        }
    }

    /// A refresh keeps the listings beside the index, and the next one replays them without
    /// writing the file again; a damaged file is listed around and written anew.
    @Test func aRefreshKeepsTheListingsBesideTheIndex() throws {
        // The cache's folder there before, so that making it does not change the vault's.
        try Sandbox(tree: Self.tree + [.directory(".test-cache", [])]).test { root in
            guard let vault = try Self.vault(root) else { return }
            let notes = store(vault)
            let path = FolderListings.path(besideIndex: notes.indexPath)
            #expect(notes.refresh().count == 4)
            let written = try #require(FileSystem.status(path))
            let listings = try #require(FolderListings.load(path))
            #expect(listings.byPath.keys.contains([]))
            #expect(notes.refresh().count == 4)
            #expect(FileSystem.status(path)?.inode == written.inode)
            try FileSystem.writeAtomically(Array("MYNOTES-FOLDERS\nbroken".utf8), to: path)
            #expect(notes.refresh().count == 4)
            #expect(FolderListings.load(path)?.byPath == listings.byPath)
            // A note added shows, its folder listed again (its times moved: the test makes sure).
            let top = try #require(listings.byPath[[]])
            try Data("# New\n".utf8).write(to: URL(fileURLWithPath: root + "/new.md"))
            let fd = open(root, O_RDONLY | O_DIRECTORY)
            try #require(fd >= 0)
            var st = stat()
            fstat(fd, &st)
            close(fd)
            if FolderListing.Stamp(st) != top.stamp {
                #expect(notes.refresh().count == 5)
            }
        }
    }
}
