import Foundation
import TestSupport
import Testing

@testable import NotesKit

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// Temp files: the registry a signal empties, the sweep of dead processes' temps, and the modes
/// and names of what gets written.
@Suite struct FileSystemTests {
    /// A pid no process can have (above any `pid_max`).
    static let deadPID = Int32.max

    @Test func theCleanupRoutineRemovesRegisteredTemps() throws {
        try Sandbox(initVault: false).test { root in
            let registry = TemporaryFiles(capacity: 2)
            guard case .success(let made) = registry.makeTemp(root + "/.notes-tmp-\(getpid())-XXXXXX") else {
                Issue.record("mkstemp failed")
                return
            }
            close(made.fd)
            #expect(made.entry.slot != nil)
            #expect(Disk.exists(made.entry.path))
            registry.removeAll()
            #expect(!Disk.exists(made.entry.path))
        }
    }

    @Test func theCleanupRoutineRemovesNothingButThisProcesssTemps() throws {
        let ownTemp = ".notes-tmp-\(getpid())-abcdef"
        let names = [
            "note.md", ".notes-tmp-\(Self.deadPID)-abcdef", ".notes-tmp-\(getpid())-abcdefg",
            ".notes-tmp-\(getpid())-abc", "x.notes-tmp-\(getpid())-abcdef", ownTemp,
        ]
        try Sandbox(tree: names.map { .file($0, "text") }).test { root in
            let registry = TemporaryFiles(capacity: names.count)
            for name in names {
                #expect(registry.claim(Array((root + "/" + name).utf8CString)) != nil)
            }
            registry.removeAll()
            #expect(Disk.names(root) == names.filter { $0 != ownTemp }.sorted())
        }
    }

    @Test func aReleasedSlotIsNotCleanedUp() throws {
        let name = ".notes-tmp-\(getpid())-abcdef"
        try Sandbox(tree: [.file(name, "renamed into place meanwhile")]).test { root in
            let registry = TemporaryFiles(capacity: 1)
            let slot = try #require(registry.claim(Array((root + "/" + name).utf8CString)))
            registry.release(slot)
            registry.removeAll()
            #expect(Disk.exists(root + "/" + name))
            #expect(registry.claim(Array("/x".utf8CString)) == slot)
        }
    }

    @Test(
        arguments: [
            (".notes-tmp-123-abcdef", Int32(123)),
            (".notes-tmp-2147483647-aB3dE9", Int32.max),
            (".notes-tmp-abcdef", nil),
            (".notes-tmp-123-abcde", nil),
            (".notes-tmp--abcdef", nil),
            (".notes-tmp-0-abcdef", nil),
            (".notes-tmp-99999999999-abcdef", nil),
            (".notes-tmp-12a-abcdef", nil),
            ("notes-tmp-123-abcdef", nil),
        ] as [(String, Int32?)])
    func theOwnerOfATempIsReadFromItsName(_ name: String, _ pid: Int32?) {
        #expect(FileSystem.tempOwner(name) == pid)
    }

    @Test func aSweepRemovesOnlyTheTempsOfDeadProcesses() throws {
        let dead = ".notes-tmp-\(Self.deadPID)-abcdef"
        let live = ".notes-tmp-\(getpid())-abcdef"
        let parent = ".notes-tmp-\(getppid())-abcdef"
        try Sandbox(tree: [
            .file(dead, "x"), .file(live, "x"), .file(parent, "x"), .file(".notes-tmp-abcdef", "x"),
            .directory(".notes-tmp-\(Self.deadPID)-folder", []), .file("note.md", "x"),
        ]).test { root in
            FileSystem.sweepStaleTemps(in: root)
            #expect(
                Disk.names(root)
                    == [
                        ".notes-tmp-\(Self.deadPID)-folder", parent, live,
                        ".notes-tmp-abcdef", "note.md",
                    ].sorted())
        }
    }

    @Test func aWriteSweepsTheFolderItWritesInto() throws {
        try Sandbox(tree: [.file(".notes-tmp-\(Self.deadPID)-abcdef", "x")]).test { root in
            try FileSystem.writeAtomically(Array("hi\n".utf8), to: root + "/note.md")
            #expect(Disk.names(root) == ["note.md"])
        }
    }

    @Test func aNewFileGetsTheUmasksModeAndAnExistingOneKeepsItsOwn() throws {
        try Sandbox(tree: [.file("old.md", "old\n")]).test { root in
            chmod(root + "/old.md", 0o604)
            try FileSystem.writeAtomically(Array("new\n".utf8), to: root + "/old.md")
            try FileSystem.writeAtomically(Array("new\n".utf8), to: root + "/new.md")
            #expect(FileSystem.status(root + "/old.md")?.mode == 0o604)
            #expect(FileSystem.status(root + "/new.md")?.mode == 0o666 & ~FileSystem.creationMask)
            try FileSystem.writeAtomically(
                Array("x\n".utf8), to: root + "/old.md", mode: 0o600, keepExistingMode: false)
            #expect(FileSystem.status(root + "/old.md")?.mode == 0o600 & ~FileSystem.creationMask)
        }
    }

    @Test func anExclusiveCreateTakesTheFirstFreeNameAndLeavesNoTemp() throws {
        try Sandbox(tree: [.file("same.md", "taken\n"), .file("same-2.md", "taken\n")]).test { root in
            let made = try FileSystem.createExclusively(Array("new\n".utf8)) {
                root + "/same" + ($0 == 1 ? "" : "-\($0)") + ".md"
            }
            #expect(made == 3)
            #expect(Disk.text(root + "/same-3.md") == "new\n")
            #expect(Disk.names(root) == ["same-2.md", "same-3.md", "same.md"])
            #expect(FileSystem.status(root + "/same-3.md")?.mode == 0o666 & ~FileSystem.creationMask)
        }
    }
}

@Suite struct PendingFileTests {
    /// Pieces of every size around the megabyte gathering buffer, appended, with a placeholder
    /// filled in at offset 0 at the end (as the index writer does): the file holds exactly the
    /// pieces in order.
    @Test(arguments: [
        [0, 1, 700_000, 700_000, 400_000, 2_500_000, 10, (1 << 20) - 1, 1 << 20, 3, 1 << 20],
        [10, 3],
        [],
        // Around the size from which pieces are written as they are, between gathered ones.
        [5, 65_535, 65_536, 7, 100_000, 1, 65_537, 200_000, 12],
        // Thousands of small pieces (an index's chunks' strings), a few large ones among them.
        (0..<3000).map { $0 % 500 == 0 ? 70_000 : ($0 * 37) % 900 },
        // A batch's texts: tens of kilobytes each, megabytes in all (written a megabyte a call).
        (0..<80).map { 40_000 + $0 * 7 },
    ])
    func piecesOfAnySizeLandInOrder(_ sizes: [Int]) throws {
        for way in [Way.oneByOne, .allCores, .vectored] {
            try piecesLandInOrder(sizes, way: way)
        }
    }

    /// How the pieces between the first two and the last are appended.
    private enum Way { case oneByOne, allCores, vectored }

    /// The pieces appended one by one; or after a few appended one by one, all at once, with
    /// `appendOnAllCores` (as the index writer writes its tables) or `append(all:)` (as it
    /// writes a batch's texts), then a few more.
    private func piecesLandInOrder(_ sizes: [Int], way: Way) throws {
        let together = way != .oneByOne
        var rng = SplitMix(seed: 11)
        var expected: [UInt8] = Array(repeating: 0, count: 8)
        try Sandbox(tree: []).test { root in
            let file = try PendingFile(beside: root + "/out")
            expected.withUnsafeBytes(file.append)
            let pieces = sizes.map { size in (0..<size).map { _ in UInt8.random(in: 0...255, using: &rng) } }
            // Appended alone: the first two and the last (so that what `appendOnAllCores` writes
            // lands between gathered bytes on both sides).
            let head = together ? min(2, pieces.count) : pieces.count
            let tail = together ? max(head, pieces.count - 1) : pieces.count
            for piece in pieces[..<head] { piece.withUnsafeBytes(file.append) }
            let middle = Array(pieces[head..<tail])
            switch way {
            case .oneByOne: break
            case .allCores:
                file.appendOnAllCores { emit in for piece in middle { piece.withUnsafeBytes(emit) } }
            case .vectored:
                // Each piece in memory of its own, as each chunk's texts are.
                let copies = middle.map { piece in
                    let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: piece.count, alignment: 1)
                    copy.copyBytes(from: piece)
                    return UnsafeRawBufferPointer(copy)
                }
                defer { for copy in copies { copy.deallocate() } }
                file.append(all: copies)
            }
            for piece in pieces[tail...] { piece.withUnsafeBytes(file.append) }
            for piece in pieces { expected += piece }
            let header: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]
            header.withUnsafeBytes { file.write($0, at: 0) }
            expected.replaceSubrange(0..<8, with: header)
            #expect(file.length == expected.count)
            try file.commit(mode: 0o600)
            let written = try #require(Disk.bytes(root + "/out"))
            #expect(written.count == expected.count)
            let same = written == expected  // a Bool, so a failure does not print megabytes
            #expect(
                same,
                "first difference at \(String(describing: zip(written, expected).enumerated().first { $1.0 != $1.1 }?.offset))"
            )
        }
    }
}
