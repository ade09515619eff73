import Foundation
import TestSupport
import Testing

@testable import NotesKit

/// The index's checksums (a decoded index either equals what was encoded or is
/// rejected): damage to any byte of an index file is refused when the file is opened, or noticed
/// when the part it hit is read — and then that note is read again from its file, so a command
/// never shows what the damage made of it, and the damaged file is put aside to be written anew.
@Suite struct IndexChecksumTests {
    // MARK: The checksum

    static func checksum(_ bytes: [UInt8]) -> UInt64 { bytes.withUnsafeBytes { IndexChecksum.of($0) } }

    @Test func everyFlippedBitChangesTheShortChecksum() {
        let bytes = (0..<100).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        let original = IndexChecksum.short(bytes)
        for at in bytes.indices {
            for bit in 0..<8 {
                var damaged = bytes
                damaged[at] ^= UInt8(1 << bit)
                #expect(IndexChecksum.short(damaged) != original, "bit \(bit) of byte \(at)")
            }
        }
    }

    /// What a sum of words, or a multiply without the rotation, would miss: the top bit flipped in
    /// two words of one lane (32 bytes apart), two words swapped, zeros added at the end.
    @Test func changesThatCancelInWeakerSumsAreCaught() {
        let bytes = (0..<256).map { UInt8(truncatingIfNeeded: $0 &* 101 &+ 7) }
        let original = Self.checksum(bytes)
        for (first, second) in [(0, 32), (8, 72), (0, 224)] {
            var damaged = bytes
            damaged[first + 7] ^= 0x80
            damaged[second + 7] ^= 0x80
            #expect(Self.checksum(damaged) != original, "top bits of the words at \(first) and \(second)")
        }
        var swapped = bytes
        swapped.replaceSubrange(0..<8, with: bytes[32..<40])
        swapped.replaceSubrange(32..<40, with: bytes[0..<8])
        #expect(Self.checksum(swapped) != original)
        #expect(Self.checksum(bytes + [0]) != original)
        #expect(Self.checksum([]) != Self.checksum([0]))
        // The seed chains runs: the same bytes split otherwise between two runs sum otherwise.
        let (a, b) = (Array(bytes[..<100]), Array(bytes[100...]))
        let (c, d) = (Array(bytes[..<101]), Array(bytes[101...]))
        let ab = b.withUnsafeBytes { IndexChecksum.of($0, seed: Self.checksum(a)) }
        let cd = d.withUnsafeBytes { IndexChecksum.of($0, seed: Self.checksum(c)) }
        #expect(ab != cd)
    }

    // MARK: An index file

    /// A small index of notes with titles, tags, links and warnings, and one file that is no note.
    static func encoded() -> IndexFuzz.Encoded {
        var folder = TextFolder()
        var table = IndexTable()
        var expected: [DecodedRecord] = []
        let notes = [
            (
                "a.md",
                "---\ncreatedAt: 2026-01-01T00:00:00Z\ntags: [Work, idea/new]\n---\n# Alpha\n\nCrème, see [[b]].\n"
            ),
            ("sub/b.md", "---\ntitle: Bêta\nbad line\n---\nbody with #tag and [x](../a.md)\n"),
            ("c.md", "# Gamma\n\n" + String(repeating: "long text ", count: 40) + "\n"),
        ]
        for (number, (path, text)) in notes.enumerated() {
            if let record = IndexFuzz.add(
                text: text, path: path, mtime: Int64(number) * 1_000_000_000 + 500_000_000,
                inode: UInt64(number + 1),
                titleSource: .content, readable: true, to: &table, folder: &folder)
            {
                expected.append(record)
            }
        }
        if let unreadable = IndexFuzz.add(
            text: "x", path: "bad.md", mtime: 9, inode: 9, titleSource: .content,
            readable: false, to: &table, folder: &folder)
        {
            expected.append(unreadable)
        }
        let bytes = NoteIndexFile.encode(
            kept: [], of: nil, read: [table], removed: [], titleSource: .content,
            kind: .base, generation: 3)
        return IndexFuzz.Encoded(
            bytes: bytes, titleSource: .content, expected: expected,
            paths: notes.map(\.0) + ["bad.md"])
    }

    /// Each byte of the file, damaged three ways in turn: the file is refused, or it reads exactly
    /// as encoded with the damaged note read again. Both happen (the tables are checked when the
    /// file is opened, the parts of a record when they are read), and no damage goes unnoticed.
    @Test func everyDamagedByteIsRefusedOrReadAgain() throws {
        let encoded = Self.encoded()
        let original = try #require(MappedIndex.open(TextStorage(encoded.bytes), titleSource: .content))
        #expect(encoded.expected.count == 4)
        var refused = 0
        var readAgain = 0
        for at in encoded.bytes.indices {
            for mask: UInt8 in [0x01, 0x80, 0xFF] {
                var damaged = encoded.bytes
                damaged[at] ^= mask
                let what = "byte \(at) xor \(mask)"
                let problems = IndexFuzz.checkVerified(damaged, of: encoded, original: original, what: what)
                #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
                if MappedIndex.open(TextStorage(damaged), titleSource: .content) == nil {
                    refused += 1
                } else {
                    readAgain += 1
                }
            }
        }
        // Text, strings, tags and links are most of a small file; the header and tables the rest.
        #expect(refused > 0 && readAgain > 0, "\(refused) refused, \(readAgain) read again")
    }

    // MARK: A vault

    static let tree: [Sandbox.Item] = [
        .directory(".notes", []),
        .file(
            "a.md", "---\ntags: [ProjectX]\n---\n# Alphaquux\n\nThe zebraword is here, see [[Betanote]].\n"),
        .file("Betanote.md", "# Second\n\nplain body\n"),
        .file("c.md", "# Third\n\nother words\n"),
    ]

    /// Where `marker` first occurs in the index file's region `region` (text, strings, tags, links).
    static func offset(of marker: String, in region: String, of bytes: [UInt8]) throws -> Int {
        func number(at offset: Int, _ width: Int) -> Int {
            (0..<width).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
        }
        let text = IndexLayout.headerSize
        let records = text + number(at: 36, 8)
        let paths = records + number(at: 28, 4) * IndexLayout.recordSize + number(at: 32, 4) * 4
        let strings = paths + number(at: 44, 8)
        let tags = strings + number(at: 52, 8)
        let links = tags + number(at: 60, 4)
        let range =
            [
                "text": text..<records, "strings": strings..<tags, "tags": tags..<links,
                "links": links..<(links + number(at: 64, 4)),
            ][region] ?? 0..<0
        let needle = Array(marker.utf8)
        let found = range.first { at in
            at + needle.count <= range.upperBound && bytes[at..<(at + needle.count)].elementsEqual(needle)
        }
        return try #require(found, "\(marker) in the \(region) region")
    }

    /// A byte of one note's text, title, tag or link key in the index on disk, changed: commands
    /// still see the note as its file has it (read again), the damaged index file is put aside,
    /// and the next command writes a new one.
    @Test(arguments: ["text", "title", "tag", "link"])
    func aDamagedPartIsReadAgainFromTheNoteAndTheIndexRewritten(_ part: String) throws {
        try Sandbox(tree: Self.tree).test { root in
            let notes = store(try Vault(root: root))
            #expect(notes.refresh().filesRead == 3)
            var bytes = try #require(Disk.bytes(notes.indexPath))
            let (marker, region) =
                [
                    "text": ("zebraword", "text"), "title": ("Alphaquux", "strings"),
                    "tag": ("projectx", "tags"), "link": ("betanote", "links"),
                ][part] ?? ("", "")
            bytes[try Self.offset(of: marker, in: region, of: bytes) + 2] ^= 0x20
            try FileSystem.writeAtomically(bytes, to: notes.indexPath)

            let catalog = notes.refresh()
            // The tables are sound: the files are not read to check them.
            #expect(catalog.filesRead == 0)
            #expect(catalog.run(NoteQuery(search: SearchQuery("zebraword"))).map(\.id) == ["a"])
            let a = try #require(catalog.notes.first { $0.id == "a" })
            #expect(a.title == "Alphaquux" && a.tags == ["ProjectX"])
            var tagged = NoteQuery()
            tagged.tags = ["projectx"]
            #expect(catalog.run(tagged).map(\.id) == ["a"])
            #expect(catalog.tagCounts() == [TagCount(tag: "ProjectX", count: 1)])
            let beta = try #require(catalog.notes.first { $0.id == "Betanote" })
            #expect(catalog.backlinks(to: beta).count == 1)
            // Put aside, and written anew by the next command.
            #expect(FileSystem.status(notes.indexPath) == nil)
            let next = notes.refresh()
            #expect(next.filesRead == 3 && next.indexWritten)
            #expect(notes.refresh().filesRead == 0)
        }
    }

    /// Damage to the delta puts the delta aside, not the base: the next command reads again only
    /// the files the delta had.
    @Test func aDamagedDeltaIsPutAsideAndTheBaseKept() throws {
        try Sandbox(tree: IndexDeltaTests.tree(40)).test { root in
            let notes = store(try Vault(root: root))
            _ = notes.refresh()
            try Data("# Changed\n\nthe zebraword\n".utf8).write(to: URL(fileURLWithPath: root + "/n007.md"))
            #expect(notes.refresh().filesRead == 1)
            let deltaPath = notes.indexPath + ".delta"
            var delta = try #require(Disk.bytes(deltaPath))
            delta[try Self.offset(of: "zebraword", in: "text", of: delta)] ^= 0x01
            try FileSystem.writeAtomically(delta, to: deltaPath)
            let catalog = notes.refresh()
            #expect(catalog.run(NoteQuery(search: SearchQuery("zebraword"))).map(\.id) == ["n007"])
            #expect(FileSystem.status(deltaPath) == nil && FileSystem.status(notes.indexPath) != nil)
            #expect(notes.refresh().filesRead == 1)
        }
    }

    /// The damaged file is put aside only if it is still the one the command mapped: an index
    /// written since by another command is kept.
    /// The vault's index with a byte of note a's text changed; the sound bytes and the damaged.
    static func damageText(of notes: NoteStore) throws -> (sound: [UInt8], damaged: [UInt8]) {
        _ = notes.refresh()
        let sound = try #require(Disk.bytes(notes.indexPath))
        var bytes = sound
        bytes[try Self.offset(of: "zebraword", in: "text", of: bytes)] ^= 0x01
        try FileSystem.writeAtomically(bytes, to: notes.indexPath)
        return (sound, bytes)
    }

    @Test func anIndexWrittenSinceIsNotPutAside() throws {
        try Sandbox(tree: Self.tree).test { root in
            let notes = store(try Vault(root: root))
            let (sound, _) = try Self.damageText(of: notes)
            let catalog = notes.refresh()
            // Another command writes a sound index meanwhile.
            try FileSystem.writeAtomically(sound, to: notes.indexPath)
            #expect(catalog.run(NoteQuery(search: SearchQuery("zebraword"))).map(\.id) == ["a"])
            #expect(Disk.bytes(notes.indexPath) == sound)
            #expect(notes.refresh().filesRead == 0)
        }
    }

    /// Nor while another process holds the vault's lock (it is writing a new index), nor while
    /// this one does (its own write replaces the file; it must not wait on itself).
    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/flock"), "flock(1) is not installed"))
    func anIndexIsNotPutAsideWhileTheLockIsHeld() throws {
        try Sandbox(tree: Self.tree).test { root in
            let notes = store(try Vault(root: root))
            let (_, bytes) = try Self.damageText(of: notes)
            // Another process: flock(1) holds the lock until its input ends.
            let holder = Process()
            holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
            holder.arguments = [notes.lockPath, "-c", "echo held; exec cat"]
            let input = Pipe()
            let output = Pipe()
            (holder.standardInput, holder.standardOutput) = (input, output)
            try holder.run()
            #expect(output.fileHandleForReading.availableData == Data("held\n".utf8))
            let catalog = notes.refresh()
            #expect(catalog.run(NoteQuery(search: SearchQuery("zebraword"))).map(\.id) == ["a"])
            try input.fileHandleForWriting.close()
            holder.waitUntilExit()
            #expect(Disk.bytes(notes.indexPath) == bytes)
            // This process.
            let again = notes.refresh()
            let lock = try #require(try VaultLock(path: notes.lockPath, wait: false, vault: notes.vault.root))
            #expect(VaultLock.isHeld(notes.lockPath))
            #expect(again.run(NoteQuery(search: SearchQuery("zebraword"))).map(\.id) == ["a"])
            lock.release()
            #expect(!VaultLock.isHeld(notes.lockPath))
            #expect(Disk.bytes(notes.indexPath) == bytes)
        }
    }
}

extension IndexChecksumTests {
    /// A writer copies a kept record only when every part of it is sound; a damaged one is read
    /// again, so the next index holds the note as its file has it, not the damage.
    @Test func aKeptRecordIsCopiedSoundOrReadAgain() throws {
        let encoded = Self.encoded()
        let original = try #require(MappedIndex.open(TextStorage(encoded.bytes), titleSource: .content))
        var damaged = encoded.bytes
        damaged[try Self.offset(of: "long text", in: "text", of: damaged)] ^= 0x01
        damaged[try Self.offset(of: "Alpha", in: "strings", of: damaged)] ^= 0x01
        let rereads = IndexFuzz.Rereads()
        let index = try #require(
            MappedIndex.open(
                TextStorage(damaged), titleSource: .content,
                repair: IndexFuzz.repair(from: original, titleSource: .content, rereads: rereads)))
        let next = try #require(
            MappedIndex.open(
                TextStorage(
                    NoteIndexFile.encode(
                        kept: Array(0..<index.count), of: IndexView(base: index, delta: nil),
                        read: [IndexTable](), removed: [],
                        titleSource: .content, kind: .base, generation: 4)), titleSource: .content))
        #expect(rereads.total == 2)
        #expect((0..<next.count).map { IndexFuzz.decode(next, $0) } == encoded.expected)
    }
}
