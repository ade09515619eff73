#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
import Foundation
@testable import NotesKit
import Testing

/// Temp files: the registry a signal empties, the sweep of dead processes' temps, and the modes
/// and names of what gets written.
@Suite struct FileSystemTests {
    /// A pid no process can have (above any `pid_max`).
    static let deadPID = Int32.max

    @Test func aNewFileGetsTheUmasksModeAndAnExistingOneKeepsItsOwn() throws {
        try Playground([.file("old.md", "old\n")]).test { root in
            chmod(root + "/old.md", 0o604)
            try FileSystem.writeAtomically(Array("new\n".utf8), to: root + "/old.md")
            try FileSystem.writeAtomically(Array("new\n".utf8), to: root + "/new.md")
            #expect(FileSystem.status(root + "/old.md")?.mode == 0o604)
            #expect(FileSystem.status(root + "/new.md")?.mode == 0o666 & ~FileSystem.creationMask)
            try FileSystem.writeAtomically(Array("x\n".utf8), to: root + "/old.md", mode: 0o600, keepExistingMode: false)
            #expect(FileSystem.status(root + "/old.md")?.mode == 0o600 & ~FileSystem.creationMask)
        }
    }

    @Test func anExclusiveCreateTakesTheFirstFreeNameAndLeavesNoTemp() throws {
        try Playground([.file("same.md", "taken\n"), .file("same-2.md", "taken\n")]).test { root in
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
