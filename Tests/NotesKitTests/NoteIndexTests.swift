import Foundation
import TestSupport
import Testing

@testable import NotesKit

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// The index cache: fresh entries are not read again; changes, additions and removals
/// are; a missing or corrupt index costs one rebuild and loses nothing.
@Suite struct NoteIndexTests {
    static let tree: [Sandbox.Item] = [
        .directory(".notes", []),
        .file(
            "a.md",
            "---\ncreatedAt: 2026-01-01T00:00:00Z\nupdatedAt: 2026-02-01T00:00:00Z\n---\n# Alpha\n\nCrème brûlée\n"
        ),
        .file("b.md", "---\ntitle: \"Bêta\"\nbad line\n---\nbody of b\n"),
        .directory("sub", [.file("c.md", "# Gamma\n")]),
        .bytes("latin1.md", [0x63, 0x61, 0x66, 0xE9, 0x0A]),
    ]

    /// Overwrites a file in place with other bytes of the same size and puts its mtime back, so
    /// only the contents and the status-change time (which no call puts back) differ from what
    /// the index recorded.
    static func swapContentsKeepingStat(_ path: String, _ text: String) throws {
        var st = stat()
        guard stat(path, &st) == 0 else { throw Sandbox.SetupError("stat \(path)") }
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.write(Data(text.utf8))
        try handle.close()
        #if canImport(Darwin)
            var times = [st.st_atimespec, st.st_mtimespec]
        #else
            var times = [st.st_atim, st.st_mtim]
        #endif
        guard utimensat(AT_FDCWD, path, &times, 0) == 0 else { throw Sandbox.SetupError("utimensat") }
    }

    @Test func aFreshIndexIsWrittenThenUsedWithoutReadingFiles() throws {
        try Sandbox(tree: Self.tree).test { root in
            let vault = try Vault(root: root)
            let first = store(vault).refresh()
            #expect(first.filesRead == 4)
            #expect(first.indexWritten)
            #expect(Set(first.notes.map(\.id)) == ["a", "b", "sub/c"])
            let second = store(vault).refresh()
            #expect(second.filesRead == 0)
            #expect(!second.indexWritten)
            #expect(second.notes.map(\.id).sorted() == first.notes.map(\.id).sorted())
            let a = try #require(second.notes.first { $0.id == "a" })
            #expect(a.title == "Alpha" && a.preview == "Crème brûlée")
            #expect(a.createdAt == 1_767_225_600 && a.updatedAt == 1_769_904_000)
            // A file's warnings come once, when it is read: not again while it is unchanged.
            #expect(first.diagnostics.contains { $0.path.hasSuffix("b.md") && $0.line == 3 })
            #expect(
                first.diagnostics.contains { $0.path.hasSuffix("latin1.md") && $0.message.contains("UTF-8") })
            #expect(second.diagnostics.isEmpty)
        }
    }

    /// A rewrite that keeps the size and puts the modification time back (`cp -p`, `rsync -a`,
    /// `touch -r`) still moves the status-change time, which no call sets back: the file is read
    /// again, and then the index answers without reading it.
    @Test func aRewriteThatKeepsSizeAndMtimeIsReadAgainThenAnsweredFromTheIndex() throws {
        try Sandbox(tree: Self.tree).test { root in
            let vault = try Vault(root: root)
            _ = store(vault).refresh()
            try Self.swapContentsKeepingStat(root + "/sub/c.md", "# Omega\n")
            let changed = store(vault).refresh()
            #expect(changed.filesRead == 1)
            #expect(changed.run(NoteQuery(search: SearchQuery("omega"))).map(\.id) == ["sub/c"])
            let catalog = store(vault).refresh()
            #expect(catalog.filesRead == 0)
            #expect(catalog.run(NoteQuery(search: SearchQuery("omega"))).map(\.id) == ["sub/c"])
            #expect(catalog.run(NoteQuery(search: SearchQuery("gamma"))).isEmpty)
            #expect(catalog.run(NoteQuery(search: SearchQuery("CREME BRULEE"))).map(\.id) == ["a"])
            #expect(catalog.run(NoteQuery(search: SearchQuery("beta"))).map(\.id) == ["b"])
        }
    }

    @Test func changedAddedAndRemovedFilesAreNoticed() throws {
        try Sandbox(tree: Self.tree).test { root in
            let vault = try Vault(root: root)
            _ = store(vault).refresh()
            try "# Gamma two, longer now\n".write(
                toFile: root + "/sub/c.md", atomically: true, encoding: .utf8)
            try "# Delta\n".write(toFile: root + "/d.md", atomically: true, encoding: .utf8)
            try FileManager.default.removeItem(atPath: root + "/a.md")
            let catalog = store(vault).refresh()
            #expect(catalog.filesRead == 2)
            #expect(catalog.indexWritten)
            #expect(Set(catalog.notes.map(\.id)) == ["b", "sub/c", "d"])
            #expect(catalog.notes.first { $0.id == "sub/c" }?.title == "Gamma two, longer now")
            #expect(catalog.run(NoteQuery(search: SearchQuery("delta"))).map(\.id) == ["d"])
            #expect(store(vault).refresh().filesRead == 0)
        }
    }

    @Test(arguments: [
        ("garbage", Array("not an index at all".utf8)),
        ("empty", []),
        ("truncated", Array("MYNOTES-INDEX\n".utf8) + [1, 0, 0, 0, 200, 0, 0, 0]),
        ("wrong version", Array("MYNOTES-INDEX\n".utf8) + [99, 0, 0, 0, 0, 0, 0, 0]),
    ])
    func aBadIndexCostsOneRebuildAndLosesNothing(name: String, bytes: [UInt8]) throws {
        try Sandbox(tree: Self.tree).test { root in
            let vault = try Vault(root: root)
            try FileSystem.writeAtomically(bytes, to: store(vault).indexPath)
            let catalog = store(vault).refresh()
            #expect(catalog.filesRead == 4, "\(name)")
            #expect(Set(catalog.notes.map(\.id)) == ["a", "b", "sub/c"])
            #expect(store(vault).refresh().filesRead == 0)
        }
    }

    @Test func anIndexFromTheFoldingBeforeIssue7IsRebuilt() throws {
        // Version 1 stored the old folding, which split Hangul syllables into jamo: trusting such
        // an index would let `사` match inside `등산` again.
        let tree: [Sandbox.Item] = [.directory(".notes", []), .file("k.md", "# 등산\n\nデータ\n")]
        try Sandbox(tree: tree).test { root in
            let vault = try Vault(root: root)
            _ = store(vault).refresh()
            let written = try #require(Disk.bytes(store(vault).indexPath))
            let mapped = try #require(NoteIndexFile.map(TextStorage(written)))
            let current = (0..<mapped.count).map(mapped.record(at:))
            // 등산 as jamo, データ without its voiced mark.
            let oldFolding =
                "# \u{1103}\u{1173}\u{11BC}\u{1109}\u{1161}\u{11AB}\n\n"
                + "\u{30C6}\u{30FC}\u{30BF}\n"
            let stale = current.map { record -> IndexRecord in
                var record = record
                record.folded = FoldedText(Array(oldFolding.utf8))
                return record
            }
            var bytes = NoteIndexFile.encode(read: stale)
            let versionField = NoteIndexFile.magic.count..<(NoteIndexFile.magic.count + 4)
            bytes.replaceSubrange(versionField, with: [1, 0, 0, 0])
            try FileSystem.writeAtomically(bytes, to: store(vault).indexPath)
            let catalog = store(vault).refresh()
            #expect(catalog.filesRead == 1)
            #expect(catalog.indexWritten)
            #expect(catalog.run(NoteQuery(search: SearchQuery("사"))).isEmpty)
            #expect(catalog.run(NoteQuery(search: SearchQuery("テータ"))).isEmpty)
            #expect(catalog.run(NoteQuery(search: SearchQuery("등산 データ"))).map(\.id) == ["k"])
        }
    }

    @Test func aTruncatedRealIndexIsRejected() throws {
        try Sandbox(tree: Self.tree).test { root in
            let vault = try Vault(root: root)
            _ = store(vault).refresh()
            let full = try #require(Disk.bytes(store(vault).indexPath))
            for cut in [full.count - 1, full.count / 2, 20] {
                try FileSystem.writeAtomically(Array(full.prefix(cut)), to: store(vault).indexPath)
                #expect(store(vault).refresh().filesRead == 4, "cut at \(cut)")
            }
        }
    }

    @Test func rebuildReadsEverything() throws {
        try Sandbox(tree: Self.tree).test { root in
            let vault = try Vault(root: root)
            _ = store(vault).refresh()
            var calls: [(Int, Int)] = []
            let catalog = store(vault).refresh(rebuild: true) { calls.append(($0, $1)) }
            #expect(catalog.filesRead == 4)
            #expect(calls.last.map { $0 == (4, 4) } == true)
        }
    }

    @Test func theIndexRoundTripsEveryField() throws {
        let note = Note(
            id: "x/y", path: "x/y.md", title: "Tïtle \"q\"", titleIsOutsideBody: true,
            createdAt: 1.5, updatedAt: nil, preview: "pré")
        let records = [
            IndexRecord(
                path: "x/y.md", size: 42, mtime: 1_234_000_000_501, inode: 7, note: note,
                warnings: [ParseWarning(line: 3, message: "m")], folded: FoldedText(Array("folded".utf8))),
            IndexRecord(
                path: "bad.md", size: 1, mtime: 2, inode: 8, note: nil,
                warnings: [ParseWarning(line: 0, message: "not valid UTF-8; skipped")], folded: FoldedText([])
            ),
        ]
        let mapped = try #require(NoteIndexFile.map(TextStorage(NoteIndexFile.encode(read: records))))
        let decoded = (0..<mapped.count).map(mapped.record(at:))
        #expect(decoded.count == 2)
        #expect(decoded[0].note == note)
        #expect(decoded[0].mtime == 1_234_000_000_501 && decoded[0].size == 42 && decoded[0].inode == 7)
        #expect(decoded[0].warnings == [ParseWarning(line: 3, message: "m")])
        #expect(decoded[0].folded.withUnsafeBytes { Array($0) } == Array("folded".utf8))
        #expect(decoded[1].note == nil && decoded[1].folded.count == 0)
    }

    /// Where the slots and the strings of an encoded index start, from its header.
    static func regions(of bytes: [UInt8]) -> (slots: Int, strings: Int) {
        func number(at offset: Int, _ width: Int) -> Int {
            (0..<width).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
        }
        let (count, slotCount) = (number(at: 28, 4), number(at: 32, 4))
        let (text, paths) = (number(at: 36, 8), number(at: 44, 8))
        let slots = IndexLayout.headerSize + text + count * IndexLayout.recordSize
        return (slots, slots + slotCount * 4 + paths)
    }

    /// `bytes` with the header's checksum made to match them again: damage a checksum would not
    /// tell (one in four billion), to test the bounds checks beneath it.
    static func resealed(_ bytes: [UInt8]) -> [UInt8] {
        func number(at offset: Int, _ width: Int) -> Int {
            (0..<width).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
        }
        let records = IndexLayout.headerSize + number(at: 36, 8)
        let slots = records + number(at: 28, 4) * IndexLayout.recordSize
        let paths = slots + number(at: 32, 4) * 4
        let checksum = bytes.withUnsafeBytes { b in
            IndexChecksum.ofTables(
                header: UnsafeRawBufferPointer(rebasing: b[..<IndexLayout.checksumOffset]),
                records: UnsafeRawBufferPointer(rebasing: b[records..<slots]),
                slots: UnsafeRawBufferPointer(rebasing: b[slots..<paths]),
                paths: UnsafeRawBufferPointer(rebasing: b[paths..<(paths + number(at: 44, 8))]))
        }
        var sealed = bytes
        withUnsafeBytes(of: checksum.littleEndian) {
            sealed.replaceSubrange(IndexLayout.checksumOffset..<(IndexLayout.checksumOffset + 8), with: $0)
        }
        return sealed
    }

    /// The path table is read from the file, so a damaged one must still end every lookup: here
    /// every slot names the one record, and a path the index does not have is looked up. (Such
    /// damage fails the header's checksum; resealed, it gets past it.)
    @Test func aDamagedPathTableNeverLoops() throws {
        let record = IndexRecord(
            path: "a.md", size: 1, mtime: 1, inode: 1, note: nil, warnings: [], folded: FoldedText([]))
        var bytes = NoteIndexFile.encode(read: [record])
        let slotCount = Int(bytes[32]) | Int(bytes[33]) << 8
        let slots = Self.regions(of: bytes).slots
        for slot in 0..<slotCount {
            bytes.replaceSubrange((slots + slot * 4)..<(slots + slot * 4 + 4), with: [1, 0, 0, 0])
        }
        #expect(NoteIndexFile.map(TextStorage(bytes)) == nil)
        let mapped = try #require(NoteIndexFile.map(TextStorage(Self.resealed(bytes))))
        #expect(mapped.find("a.md") == 0)
        #expect(mapped.find("b.md") == nil)
    }

    /// Titles, previews and warnings are checked when read: damaged ones read as empty, and the
    /// record is not copied into the next index (its file is read again).
    @Test func damagedStringsAreNotTrustedOrCopied() throws {
        let note = Note(
            id: "n", path: "n.md", title: "Title", titleIsOutsideBody: false, createdAt: 1, updatedAt: nil,
            preview: "p")
        var bytes = NoteIndexFile.encode(read: [
            IndexRecord(
                path: "n.md", size: 1, mtime: 1, inode: 1, note: note,
                warnings: [], folded: FoldedText(Array("title".utf8)))
        ])
        // The title's length, first in the strings region: far beyond the file.
        let strings = Self.regions(of: bytes).strings
        bytes.replaceSubrange(strings..<(strings + 4), with: [0xFF, 0xFF, 0xFF, 0x7F])
        let mapped = try #require(NoteIndexFile.map(TextStorage(bytes)))
        #expect(mapped.note(at: 0).title == "" && mapped.note(at: 0).id == "n")
        let next = try #require(
            NoteIndexFile.map(
                TextStorage(
                    NoteIndexFile.encode(kept: [0], of: IndexView(base: mapped, delta: nil), read: []))))
        #expect(next.count == 0)
    }

    /// The few notes a command shows are read with `pread` instead of through the mapping: the same
    /// notes, whatever the length of a title (one longer than the first read, too) or a damaged one.
    @Test func notesReadWithPreadEqualNotesReadInPlace() throws {
        let long = String(repeating: "Ünïcode title ", count: 2000)
        let notes = [
            Note(
                id: "a", path: "a.md", title: "Short", titleIsOutsideBody: false, createdAt: 1, updatedAt: 2,
                preview: "p"),
            Note(
                id: "b", path: "b.md", title: long, titleIsOutsideBody: true, createdAt: 3, updatedAt: nil,
                preview: long),
            Note(
                id: "c", path: "c.md", title: "", titleIsOutsideBody: false, createdAt: 4, updatedAt: nil,
                preview: ""),
        ]
        let records = notes.map {
            IndexRecord(
                path: $0.path, size: 1, mtime: 1, inode: 1, note: $0, warnings: [],
                folded: FoldedText(Array($0.title.utf8)))
        }
        try Sandbox(tree: []).test { root in
            try FileSystem.writeAtomically(NoteIndexFile.encode(read: records), to: root + "/index")
            let mapped = try #require(TextStorage(mapping: root + "/index").flatMap { NoteIndexFile.map($0) })
            for number in 0..<mapped.count {
                #expect(mapped.note(at: number, viaPread: true) == notes[number])
                #expect(mapped.note(at: number) == notes[number])
            }
        }
        // A title length far past the end: empty, as when read in place, and the reads end.
        var bytes = NoteIndexFile.encode(read: Array(records.prefix(1)))
        let strings = Self.regions(of: bytes).strings
        bytes.replaceSubrange(strings..<(strings + 4), with: [0xFF, 0xFF, 0xFF, 0x7F])
        try Sandbox(tree: []).test { root in
            try FileSystem.writeAtomically(bytes, to: root + "/index")
            let mapped = try #require(TextStorage(mapping: root + "/index").flatMap { NoteIndexFile.map($0) })
            #expect(mapped.note(at: 0, viaPread: true).title == "")
        }
    }

    /// Records kept from a mapped index are copied byte for byte into the next index, beside
    /// records read from files, and found again by path.
    @Test func keptRecordsAreCopiedAsTheyAreAndFoundByPath() throws {
        let note = Note(
            id: "x/y", path: "x/y.md", title: "Tïtle", titleIsOutsideBody: false,
            createdAt: 1.5, updatedAt: 9, preview: "pré")
        let first = [
            IndexRecord(
                path: "x/y.md", size: 42, mtime: 3_250_000_000, inode: 7, note: note,
                warnings: [ParseWarning(line: 3, message: "m")], folded: FoldedText(Array("folded".utf8))),
            IndexRecord(
                path: "gone.md", size: 1, mtime: 2, inode: 8, note: nil, warnings: [], folded: FoldedText([])),
        ]
        let old = try #require(NoteIndexFile.map(TextStorage(NoteIndexFile.encode(read: first))))
        #expect(old.find("x/y.md") == 0 && old.find("gone.md") == 1 && old.find("x/y") == nil)
        let added = IndexRecord(
            path: "new.md", size: 5, mtime: 6, inode: 9,
            note: Note(path: "new.md", document: NoteDocument(parsing: "# New\n"), mtime: 6),
            warnings: [], folded: FoldedText(Array("# new\n".utf8)))
        let next = try #require(
            NoteIndexFile.map(
                TextStorage(
                    NoteIndexFile.encode(kept: [0], of: IndexView(base: old, delta: nil), read: [added]))))
        #expect(next.count == 2)
        let kept = next.record(at: try #require(next.find("x/y.md")))
        #expect(kept.note == note && kept.size == 42 && kept.mtime == 3_250_000_000 && kept.inode == 7)
        #expect(kept.warnings == [ParseWarning(line: 3, message: "m")])
        #expect(kept.folded.withUnsafeBytes { Array($0) } == Array("folded".utf8))
        #expect(next.record(at: try #require(next.find("new.md"))).note?.title == "New")
        #expect(next.find("gone.md") == nil)
    }
}
