import Foundation
import TestSupport
import Testing

@testable import NotesKit

/// An index reads notes in batches of 32 (`FileBatch`) where the system has io_uring (`FileRing`):
/// one system call opens them all, one reads and closes them. A batch must give exactly the bytes
/// and status reading a file on its own gives, leave every other file (not a regular file, too
/// large, changed meanwhile, unreadable) to that way, and close every file it opened.
@Suite struct FileBatchTests {
    /// Whether this system gives a ring (Linux, io_uring not forbidden). Without one, a batch reads
    /// nothing and every file is read on its own: the tests check that instead.
    static let hasRing = FileRing(slots: 1) != nil

    /// Opens `folder` for the batch to read relative to, runs `body`, closes it.
    static func withFolder(_ folder: String, _ body: (Int32) throws -> Void) throws {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        try #require(fd >= 0)
        defer { close(fd) }
        try body(fd)
    }

    @Test func aBatchReadsRegularFilesWholeAndLeavesTheRest() throws {
        let big = String(repeating: "x", count: RecordScratch.sizeLimit + 1)
        try Sandbox(tree: [
            .file("a.md", "# A\n\ncrème\n"),
            .directory("sub", [.file("b.md", "Łódź\n")]),
            .file("empty.md", ""),
            .file("big.md", big),
            .directory("folder.md", []),
            .symlink("link.md", to: "a.md"),
        ]).test { root in
            #expect(mkfifo(root + "/fifo.md", 0o600) == 0)
            let paths = [
                "a.md", "sub/b.md", "empty.md", "big.md", "folder.md", "link.md", "fifo.md", "gone.md",
            ]
            try Self.withFolder(root) { fd in
                let batch = FileBatch()
                batch.read(paths, relativeTo: fd)
                let texts = paths.indices.map {
                    batch.file($0).map { String(decoding: $0.bytes, as: UTF8.self) }
                }
                if Self.hasRing {
                    #expect(texts == ["# A\n\ncrème\n", "Łódź\n", "", nil, nil, nil, nil, nil])
                    for (i, path) in paths.enumerated().prefix(3) {
                        #expect(batch.file(i)?.status == FileSystem.status(root + "/" + path))
                    }
                } else {
                    #expect(texts.allSatisfy { $0 == nil })
                }
                // Without the folder open, nothing is read (and nothing of the last batch is left).
                batch.read(paths, relativeTo: nil)
                #expect(batch.file(0) == nil)
                // An empty batch reads nothing, and the batch after it still goes through the ring
                // (no open failing is not every open failing).
                batch.read([String](), relativeTo: fd)
                batch.read(["a.md"], relativeTo: fd)
                #expect((batch.file(0) != nil) == Self.hasRing)
            }
        }
    }

    /// Every file a batch opens is closed, whatever became of its read: its descriptor, looked at
    /// once the batch is done, is either closed or another file (opened meanwhile elsewhere).
    @Test func aBatchClosesEveryFileItOpens() throws {
        guard Self.hasRing, let ring = FileRing(slots: 4) else { return }
        try Sandbox(tree: [.file("a.md", "a"), .file("b.md", "bb"), .directory("c.md", [])]).test { root in
            try Self.withFolder(root) { folder in
                let names = (["a.md", "b.md", "c.md", "gone.md"] as [String]).map { strdup($0) }
                defer { for name in names { free(name) } }
                let opened = try #require(
                    ring.open(
                        names.map { UnsafePointer($0.unsafelyUnwrapped) }, relativeTo: folder, flags: O_RDONLY
                    ))
                #expect(opened[0] >= 0 && opened[1] >= 0 && opened[2] >= 0 && opened[3] == -Int(ENOENT))
                let fds = opened.prefix(3).map { Int32($0) }
                var inodes: [UInt64] = []
                for fd in fds {
                    var st = stat()
                    #expect(fstat(fd, &st) == 0)
                    inodes.append(UInt64(st.st_ino))
                }
                let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16, alignment: 16)
                defer { buffer.deallocate() }
                // A read, a read that fails (a folder), a file only closed.
                let counts = try #require(
                    ring.readAndClose([
                        FileRing.Read(fd: fds[0], buffer: buffer.baseAddress, capacity: 8),
                        FileRing.Read(fd: fds[2], buffer: buffer.baseAddress.map { $0 + 8 }, capacity: 8),
                        FileRing.Read(fd: fds[1], buffer: nil, capacity: 0),
                    ]))
                #expect(counts[0] == 1 && buffer[0] == UInt8(ascii: "a") && counts[1] == -Int(EISDIR))
                for (fd, inode) in zip([fds[0], fds[2], fds[1]], [inodes[0], inodes[2], inodes[1]]) {
                    var st = stat()
                    #expect(fstat(fd, &st) != 0 || UInt64(st.st_ino) != inode, "descriptor \(fd) left open")
                }
            }
        }
    }

    /// A file that grows or shrinks between its status and its read is not taken half-read (or with
    /// a byte its status does not count): it is left to be read on its own.
    @Test func aFileChangedBeforeItsReadIsLeftToTheUsualWay() throws {
        guard Self.hasRing else { return }
        try Sandbox(tree: [.file("grows.md", "abc"), .file("shrinks.md", "abcdef"), .file("stays.md", "xyz")])
            .test { root in
                try Self.withFolder(root) { fd in
                    let batch = FileBatch()
                    batch.beforeReading = {
                        let grows = open(root + "/grows.md", O_WRONLY | O_APPEND)
                        _ = write(grows, "d", 1)
                        close(grows)
                        #expect(truncate(root + "/shrinks.md", 2) == 0)
                    }
                    batch.read(["grows.md", "shrinks.md", "stays.md"], relativeTo: fd)
                    #expect(batch.file(0) == nil && batch.file(1) == nil)
                    #expect(batch.file(2).map { Array($0.bytes) } == Array("xyz".utf8))
                }
            }
    }

    /// The index a batch reads is the index reading files one by one writes, byte for byte, for
    /// notes of every kind (more than a batch holds, in folders, ones for the slow path, files
    /// that are not notes' bytes at all), and so are the warnings.
    @Test func anIndexReadInBatchesIsTheIndexReadOneByOne() throws {
        var tree: [Sandbox.Item] = (0..<70).map {
            .file("n\($0).md", "# Note \($0)\n\nbody crème #tag [[n\($0 + 1)]]\n")
        }
        tree += [
            .directory("sub", (0..<40).map { .file("s\($0).md", "---\ntags: [a, b]\n---\nLine \($0)\n") }),
            .file("crlf.md", "# CRLF\r\n\r\nbody\r\n"),
            .bytes("latin1.md", [0x23, 0x20, 0xE9, 0x0A]),
            .file("bom.md", "\u{FEFF}# BOM\n"),
            .file("conflict.md", "<<<<<<< ours\na\n=======\nb\n>>>>>>> theirs\n"),
            .file("quoted.md", "---\ntitle: \"Quoted: yes\"\n---\nbody\n"),
            .file("empty.md", ""),
            .file("big.md", "# Big\n" + String(repeating: "word ", count: RecordScratch.sizeLimit / 4)),
            .symlink("link.md", to: "n1.md"),
            .directory("folder.md", []),
        ]
        try Sandbox(tree: tree).test { root in
            #expect(mkfifo(root + "/fifo.md", 0o600) == 0)
            var vault = try Vault(root: root)
            let notes = store(vault)
            let batched = notes.refresh(rebuild: true)
            let batchedIndex = try FirstIndexTests.indexBytes(notes)
            vault.readsInBatches = false
            let oneByOne = store(vault)
            let single = oneByOne.refresh(rebuild: true)
            // A Bool: no megabytes printed.
            let same = try FirstIndexTests.indexBytes(oneByOne) == batchedIndex
            #expect(same)
            // 117 files read, the one that is not UTF-8 skipped with a warning.
            #expect(batched.filesRead == 117 && batched.count == 116 && batched.diagnostics.count == 1)
            #expect(single.filesRead == batched.filesRead && single.count == batched.count)
            #expect(batched.diagnostics == single.diagnostics)
        }
    }
}
