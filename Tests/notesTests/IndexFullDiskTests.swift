import Foundation
import TestSupport
import Testing

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// The index is written while the notes are read: each batch's folded text goes to the file and
/// is let go. When the disk fills up part way, the index is not written, and the command answers
/// from the same records encoded in memory — whose texts must then be read again, not left empty.
@Suite(.tags(.heavy), .skippedInQuickLoop) struct IndexFullDiskTests {
    @Test func aSearchOnADiskTooFullForTheIndexStillFindsEveryNote() throws {
        #if os(Linux)
            let s = try Sandbox()
            let disk = s.root.path + "/disk"
            try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
            // Room for the notes (a page each) but not for an index of their text as well.
            guard mount("tmpfs", disk, "tmpfs", 0, "size=160k") == 0 else {
                try Test.cancel(
                    "cannot mount a small tmpfs here (\(String(cString: strerror(errno)))); it needs root")
            }
            defer { umount2(disk, Int32(MNT_DETACH)) }
            try FileManager.default.createDirectory(
                atPath: disk + "/.notes", withIntermediateDirectories: true)
            let filler = String(repeating: "plain words to fill the page ", count: 120)
            for k in 0..<30 {
                try Data("# Note \(k)\n\n\(filler)\nneedle\(k % 3)\n".utf8).write(
                    to: URL(fileURLWithPath: disk + "/n\(k).md"))
            }
            let search = try s.run(["search", "needle1"], env: ["NOTES_VAULT": disk])
            #expect(search.status == 0, "\(search)")
            let found = search.stdout.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }.sorted()
            #expect(found == (0..<30).filter { $0 % 3 == 1 }.map { "n\($0)" }.sorted(), "\(search)")
            #expect(!FileManager.default.fileExists(atPath: disk + "/.notes/index"))
        #else
            try Test.cancel("a small tmpfs is mounted with Linux's mount(2)")
        #endif
    }
}
