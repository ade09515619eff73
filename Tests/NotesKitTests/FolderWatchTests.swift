import Foundation
import TestSupport
import Testing

@testable import NotesKit

/// The folders the language server's session watches are those the walk visits, and a change in
/// one is seen by polling their modification times.
@Suite struct FolderWatchTests {
    @Test func theWatchedFoldersAreThoseTheWalkVisits() throws {
        let sandbox = try Sandbox()
        try sandbox.write("a/one.md", "# One\n")
        try sandbox.write("a/b/two.md", "# Two\n")
        try sandbox.write("empty/.keep", "")
        try sandbox.write(".hidden/three.md", "# Three\n")
        try sandbox.write("node_modules/x/four.md", "# Four\n")
        try sandbox.write("a/build/five.md", "# Five\n")
        try sandbox.write(".gitignore", "node_modules/\n")
        try sandbox.write("a/.ignore", "build/\n")
        try FileManager.default.createSymbolicLink(
            atPath: sandbox.vault + "/link", withDestinationPath: sandbox.vault + "/a")
        #expect(FolderWatch.folders(root: sandbox.vault).sorted() == ["", "a", "a/b", "empty"])
    }

    @Test func pollingSeesAFileAddedInAnyFolder() throws {
        let sandbox = try Sandbox()
        try sandbox.write("a/b/two.md", "# Two\n")
        let watch = FolderWatch(root: sandbox.vault, mode: .polling)
        watch.rescan()
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        #expect(!watch.wait(timeout: 0, wake: fds[0]))
        // A folder's mtime moves on by the clock's tick; make it differ for sure.
        try sandbox.write("a/b/new.md", "# New\n")
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: sandbox.vault + "/a/b")
        #expect(watch.wait(timeout: 0, wake: fds[0]))
    }
}
