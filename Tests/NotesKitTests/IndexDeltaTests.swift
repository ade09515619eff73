import Foundation
import TestSupport
import Testing

@testable import NotesKit

/// The index delta: a small change writes a small file beside the base; many
/// changes are merged into a new base; neither ever changes what a command sees.
@Suite struct IndexDeltaTests {
    static func tree(_ count: Int) -> [Sandbox.Item] {
        [.directory(".notes", [])]
            + (0..<count).map { .file(String(format: "n%03d.md", $0), "# Note \($0)\n\nbody \($0)\n") }
    }

    /// What a catalog says of every note, in ID order, for comparing two of them.
    static func summary(_ catalog: Catalog) -> [String] {
        catalog.notes.sorted { $0.id < $1.id }.map { "\($0.id)|\($0.title)|\($0.preview)|\($0.createdAt)" }
    }

    @Test func oneChangeWritesADeltaAndLeavesTheBaseAlone() throws {
        try Sandbox(tree: Self.tree(300)).test { root in
            let notes = store(try Vault(root: root))
            _ = notes.refresh()
            let base = try #require(Disk.bytes(notes.indexPath))
            try Data("# Changed\n".utf8).write(to: URL(fileURLWithPath: root + "/n007.md"))
            try FileManager.default.removeItem(atPath: root + "/n008.md")
            try Data("# Added\n".utf8).write(to: URL(fileURLWithPath: root + "/added.md"))
            let changed = notes.refresh()
            #expect(changed.filesRead == 2 && changed.indexWritten)
            #expect(Disk.bytes(notes.indexPath) == base)
            let delta = try #require(Disk.bytes(notes.indexPath + ".delta"))
            #expect(delta.count < base.count / 20, "delta \(delta.count) bytes, base \(base.count)")
            // The next command reads no file and writes nothing: base and delta say it all.
            let next = notes.refresh()
            #expect(next.filesRead == 0 && !next.indexWritten)
            #expect(next.count == 300)
            #expect(next.run(NoteQuery(search: SearchQuery("changed"))).map(\.id) == ["n007"])
            #expect(!next.notes.contains { $0.id == "n008" })
            #expect(next.notes.contains { $0.id == "added" })
            #expect(Self.summary(next) == Self.summary(notes.refresh(rebuild: true)))
        }
    }

    /// A folder of more names than one batch of the survey holds (its names are read in batches
    /// of 1,024), with a few other files among them: every note found, a change in the first and
    /// the last batch read again, one gone from the middle; a one-off search, whose scan lets go
    /// of each chunk of texts it read, finds what a search that keeps them finds.
    @Test func aFolderOfSeveralBatchesIsSurveyedWhole() throws {
        let count = 2_600
        let tree =
            [Sandbox.Item.directory(".notes", [])]
            + (0..<count).map { .file(String(format: "n%04d.md", $0), "# Note \($0)\n\nbody \($0 % 7)\n") }
            + (0..<5).map { .file("picture\($0).png", "png") }
        try Sandbox(tree: tree).test { root in
            let notes = store(try Vault(root: root))
            let first = notes.refresh()
            #expect(first.count == count && first.filesRead == count)
            #expect(notes.refresh().filesRead == 0)
            try Data("# Changed\n\nzebraword\n".utf8).write(to: URL(fileURLWithPath: root + "/n0003.md"))
            try Data("# Changed too\n\nzebraword\n".utf8).write(to: URL(fileURLWithPath: root + "/n2590.md"))
            try FileManager.default.removeItem(atPath: root + "/n1500.md")
            let changed = notes.refresh()
            #expect(changed.filesRead == 2 && changed.count == count - 1)
            #expect(
                changed.run(NoteQuery(search: SearchQuery("zebraword"))).map(\.id).sorted() == [
                    "n0003", "n2590",
                ])
            var oneOff = NoteQuery(search: SearchQuery("body"))
            oneOff.oneOff = true
            let kept = changed.run(NoteQuery(search: SearchQuery("body"))).map(\.id)
            #expect(kept.count == count - 3)
            #expect(changed.run(oneOff).map(\.id) == kept)
            #expect(changed.run(oneOff).map(\.id) == kept)
        }
    }

    /// Seeded random adds, edits, touches, renames and deletes, each followed by a refresh: the
    /// catalog from base + delta always equals a fresh build; then a merge.
    @Test(.tags(.heavy), .skippedInQuickLoop) func manySmallChangesThenMergesEqualAFreshBuild() throws {
        try Sandbox(tree: Self.tree(300)).test { root in
            let vault = try Vault(root: root)
            let notes = store(vault)
            _ = notes.refresh()
            var rng = SplitMix(seed: 9)
            var sawDelta = false
            var names = (0..<300).map { String(format: "n%03d.md", $0) }
            for step in 0..<700 {
                let pick = names[Int.random(in: 0..<names.count, using: &rng)]
                switch Int.random(in: 0..<5, using: &rng) {
                case 0:
                    let name = "a\(step).md"
                    try Data("# Added \(step)\n".utf8).write(to: URL(fileURLWithPath: root + "/" + name))
                    names.append(name)
                case 1:
                    try Data("# Edited \(step)\n\nnew \(step)\n".utf8).write(
                        to: URL(fileURLWithPath: root + "/" + pick))
                case 2 where names.count > 5:
                    try FileManager.default.removeItem(atPath: root + "/" + pick)
                    names.removeAll { $0 == pick }
                case 3:
                    let name = "r\(step).md"
                    try FileManager.default.moveItem(atPath: root + "/" + pick, toPath: root + "/" + name)
                    names = names.map { $0 == pick ? name : $0 }
                default:
                    try FileManager.default.setAttributes(
                        [.modificationDate: Date(timeIntervalSince1970: Double(step))],
                        ofItemAtPath: root + "/" + pick)
                }
                let hadDelta = Disk.exists(notes.indexPath + ".delta")
                let catalog = notes.refresh()
                let hasDelta = Disk.exists(notes.indexPath + ".delta")
                if hasDelta { sawDelta = true }
                // While the changes are few, the base stays and only the delta is written.
                if hadDelta { #expect(hasDelta, "step \(step)") }
                #expect(catalog.count == names.count, "step \(step)")
                if step % 50 == 0 || step == 699 {
                    let fresh = store(vault)
                    #expect(fresh.refresh().filesRead == 0, "step \(step): base + delta should be complete")
                    #expect(
                        Self.summary(catalog)
                            == Self.summary(
                                NoteStore(
                                    vault: vault, cacheDirectory: root + "/.other"
                                ).refresh(rebuild: true)), "step \(step)")
                }
            }
            #expect(sawDelta)
            // Many changes at once: merged into a new base, the delta gone.
            for name in names {
                try FileManager.default.setAttributes(
                    [.modificationDate: Date(timeIntervalSince1970: 1)], ofItemAtPath: root + "/" + name)
            }
            let base = Disk.bytes(notes.indexPath)
            let merged = notes.refresh()
            #expect(merged.filesRead == names.count && merged.indexWritten)
            #expect(Disk.bytes(notes.indexPath) != base && !Disk.exists(notes.indexPath + ".delta"))
            #expect(store(vault).refresh().filesRead == 0)
            #expect(
                Self.summary(merged)
                    == Self.summary(
                        NoteStore(
                            vault: vault, cacheDirectory: root + "/.other"
                        ).refresh(rebuild: true)))
        }
    }

    @Test(arguments: ["garbage", "truncated", "another base"])
    func aDamagedOrForeignDeltaLosesNothing(_ kind: String) throws {
        try Sandbox(tree: Self.tree(20)).test { root in
            let notes = store(try Vault(root: root))
            _ = notes.refresh()
            try Data("# Changed\n".utf8).write(to: URL(fileURLWithPath: root + "/n003.md"))
            _ = notes.refresh()
            let delta = try #require(Disk.bytes(notes.indexPath + ".delta"))
            switch kind {
            case "garbage":
                try FileSystem.writeAtomically(Array("not an index".utf8), to: notes.indexPath + ".delta")
            case "truncated":
                try FileSystem.writeAtomically(
                    Array(delta.prefix(delta.count - 3)), to: notes.indexPath + ".delta")
            default:
                // The base is merged again (a new generation): the old delta no longer applies.
                _ = notes.refresh(rebuild: true)
                try FileSystem.writeAtomically(delta, to: notes.indexPath + ".delta")
            }
            let catalog = notes.refresh()
            #expect(catalog.run(NoteQuery(search: SearchQuery("changed"))).map(\.id) == ["n003"])
            #expect(catalog.count == 20)
        }
    }

    /// A note made private after the index was written: neither index file may stay readable to
    /// others, since both hold folded text.
    @Test func bothIndexFilesFollowANoteMadePrivate() throws {
        try Sandbox(tree: Self.tree(20)).test { root in
            let notes = store(try Vault(root: root))
            _ = notes.refresh()
            try Data("# Secret plan\n".utf8).write(to: URL(fileURLWithPath: root + "/n001.md"))
            _ = notes.refresh()
            #expect(Disk.exists(notes.indexPath + ".delta"))
            chmod(root + "/n001.md", 0o600)
            _ = notes.refresh()
            for path in [notes.indexPath, notes.indexPath + ".delta"] {
                #expect(FileSystem.status(path).map { $0.mode & 0o077 } == 0, "\(path)")
            }
        }
    }

    /// Two files whose names differ only in Unicode normalisation are two notes; the delta must
    /// not take one for the other (and be rewritten on every command).
    @Test func namesThatDifferOnlyInNormalisationAreKeptApart() throws {
        let nfc = "caf\u{E9}.md"
        let nfd = "cafe\u{301}.md"
        try Sandbox(tree: Self.tree(3) + [.file(nfc, "# NFC\n"), .file(nfd, "# NFD\n")]).test { root in
            let notes = store(try Vault(root: root))
            #expect(notes.refresh().count == 5)
            try Data("# NFD edited\n".utf8).write(to: URL(fileURLWithPath: root + "/" + nfd))
            try FileManager.default.removeItem(atPath: root + "/" + nfc)
            let changed = notes.refresh()
            #expect(changed.count == 4 && changed.indexWritten)
            let settled = notes.refresh()
            #expect(settled.filesRead == 0 && !settled.indexWritten)
        }
    }

    /// Damage that still parses — a date that is not a number — means a rebuild, never a crash.
    @Test func aDamagedDateInTheIndexMeansARebuild() throws {
        let note = Note(
            id: "n", path: "n.md", title: "N", titleIsOutsideBody: false, createdAt: .nan,
            updatedAt: nil, preview: "")
        let bytes = NoteIndexFile.encode(read: [
            IndexRecord(
                path: "n.md", size: 1, mtime: 1, inode: 1, note: note,
                warnings: [], folded: FoldedText([]))
        ])
        #expect(NoteIndexFile.map(TextStorage(bytes)) == nil)
        #expect(NoteDate.format(.nan) == "1970-01-01T00:00:00Z")
        #expect(NoteDate.format(9.3e18) == "9999-12-31T23:59:59Z")
        #expect(NoteDate.format(-.infinity) == "0001-01-01T00:00:00Z")
    }
}

@Suite struct IndexStreamTests {
    /// A fresh index streams its texts out while the files are read, a megabyte at a time: with
    /// more than a megabyte of notes, every note is still found by a word only it has, from the
    /// index just written and from the index read back by the next command.
    @Test func aStreamedIndexFindsEveryNote() throws {
        let filler = String(repeating: "lorem ipsum dolor sit amet ", count: 300)
        let files: [Sandbox.Item] =
            [.directory(".notes", [])]
            + (0..<160).map { n in
                .file("n\(n).md", "# Note \(n)\n\n\(filler)\nmarker\(n)x\n")
            }
        try Sandbox(tree: [.directory("v", files)]).test { root in
            let vault = try Vault(root: root + "/v")
            let fresh = store(vault).refresh()
            #expect(fresh.indexWritten && fresh.filesRead == 160)
            let again = store(vault).refresh()
            #expect(again.filesRead == 0)
            for catalog in [fresh, again] {
                for n in stride(from: 0, to: 160, by: 13) {
                    #expect(catalog.run(NoteQuery(search: SearchQuery("marker\(n)x"))).map(\.id) == ["n\(n)"])
                }
            }
        }
    }
}

@Suite struct IndexStreamBytesTests {
    static func record(_ n: Int) -> IndexRecord {
        let note = Note(
            id: "n\(n)", path: "n\(n).md", title: "Note \(n)", titleIsOutsideBody: false,
            createdAt: Double(n), updatedAt: n % 2 == 0 ? Double(n + 1) : nil, preview: "preview \(n)")
        // Texts around the size at which the writer stops gathering pieces and writes them as they are.
        let text = (0..<(30_000 + n * 997)).map { UInt8(0x61 + ($0 + n) % 26) }
        return IndexRecord(
            path: "n\(n).md", size: Int64(n), mtime: Int64(n) * 1_000, inode: UInt64(n + 1), note: note,
            warnings: n % 3 == 0 ? [ParseWarning(line: n, message: "warning \(n)")] : [],
            folded: FoldedText(text))
    }

    /// Records handed to a stream batch after batch, chunk after chunk — the later ones in text
    /// buffers that the stream wrote out and gave back — make a file byte for byte the same as
    /// the one `NoteIndexFile.encode` makes of the same records in the same order.
    @Test func aStreamWritesTheBytesEncodeMakes() throws {
        let chunks = stride(from: 0, to: 48, by: 4).map { ($0..<($0 + 4)).map(Self.record) }
        try Sandbox(tree: []).test { root in
            let stream = try IndexStream(path: root + "/index", kept: [], of: nil, capacity: 48)
            for batch in stride(from: 0, to: chunks.count, by: 3) {
                var read: [IndexTable] = chunks[batch..<(batch + 3)].map { records in
                    var table = IndexTable(capacity: records.count)
                    table.texts = stream.textBuffer(capacity: 1)
                    for record in records { table.add(record) }
                    return table
                }
                stream.add(&read)
                #expect(read.allSatisfy { $0.texts.isEmpty })
            }
            try stream.commit(
                removed: ["gone.md"], titleSource: .content, kind: .base, generation: 7, mode: 0o600)
            let expected = NoteIndexFile.encode(
                kept: [], of: nil,
                read: chunks.map { records in
                    var table = IndexTable()
                    for record in records { table.add(record) }
                    return table
                }, removed: ["gone.md"], titleSource: .content, kind: .base, generation: 7)
            let written = try #require(Disk.bytes(root + "/index"))
            let same = written == expected  // a Bool, so a failure does not print megabytes
            #expect(same && written.count == expected.count)
            let index = try #require(NoteIndexFile.map(TextStorage(written)))
            #expect(index.count == 49)
        }
    }

    /// A chunk's text buffer, once the stream has written it out, is handed out again (with its
    /// memory) for a later chunk, rather than a new buffer whose pages the kernel must fault in.
    @Test func aWrittenTextBufferIsUsedAgain() throws {
        try Sandbox(tree: []).test { root in
            let stream = try IndexStream(path: root + "/index", kept: [], of: nil, capacity: 1)
            var table = IndexTable(capacity: 1)
            table.texts = stream.textBuffer(capacity: 1)
            table.add(Self.record(40))
            let size = table.texts.count
            var read = [table]
            stream.add(&read)
            stream.waitForWrites()
            let again = stream.textBuffer(capacity: 1)
            #expect(again.isEmpty && again.capacity >= size)
        }
    }
}
