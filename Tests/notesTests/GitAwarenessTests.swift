import Foundation
import TestSupport
import Testing

/// Inside a git work tree no command leaves `git status` dirty except by the notes it was asked
/// to change.
@Suite struct GitAwarenessTests {
    static let reads: [[String]] = [
        ["list"], ["list", "--json"], ["search", "milk"], ["show", "groceries"], ["path", "groceries"],
        ["index"],
        ["trash"], ["config"], ["list", "--git"], ["conflicts"], ["history", "groceries"],
    ]

    @Test func readCommandsLeaveTheStatusClean() throws {
        let s = try Sandbox()
        try s.write("groceries.md", "# Groceries\n\n- milk\n")
        // A .notes/ with no .gitignore, as one made by hand: neither the index nor the lock may show.
        try FileManager.default.removeItem(atPath: s.vault + "/.notes/.gitignore")
        try s.makeRepository()
        for arguments in Self.reads + [["edit", "groceries", "# Groceries\n\n- eggs"]] {
            let r = try s.run(arguments)
            #expect(r.status == 0, "\(arguments): \(r)")
            let status = try s.gitStatus()
            #expect(status == (arguments[0] == "edit" ? " M groceries.md\n" : ""), "after \(arguments)")
        }
    }

    @Test func aPlainFolderStaysCleanToo() throws {
        let s = try Sandbox(initVault: false)
        try s.write("groceries.md", "# Groceries\n\n- milk\n")
        try s.makeRepository()
        for arguments in Self.reads {
            let r = try s.run(arguments)
            #expect(r.status == 0, "\(arguments): \(r)")
        }
        #expect(try s.gitStatus() == "")
    }

    @Test func writesLeaveOnlyTheirNotes() throws {
        let s = try Sandbox(initVault: false)
        try s.write("groceries.md", "# Groceries\n\n- milk\n")
        try s.makeRepository()
        try s.run(["add", "New one"])
        try s.run(["edit", "groceries", "# Groceries\n\n- eggs"])
        // The first delete makes .notes/ for the trash, with its .gitignore.
        try s.run(["delete", "--yes", "new-one"])
        #expect(try s.gitStatus() == " M groceries.md\n")
    }

    @Test func initMakesSureTheStateFolderIsIgnored() throws {
        let s = try Sandbox(initVault: false)
        try s.makeRepository()
        var r = try s.run(["init", s.vault])
        #expect(r.status == 0, "\(r)")
        try s.run(["list"])
        // Only the merge driver's .gitattributes, for sync to commit.
        #expect(try s.gitStatus() == "?? .gitattributes\n")
        // A .gitignore that lost its '*' (edited, or from an older tool) gets it back.
        try s.write(".notes/.gitignore", "index\n")
        try s.write(".notes/lock", "")
        #expect(try s.gitStatus() != "")
        r = try s.run(["init", s.vault])
        #expect(r.status == 0, "\(r)")
        #expect(try s.read(".notes/.gitignore") == "index\n*\n")
        #expect(try s.gitStatus() == "?? .gitattributes\n")
    }

    @Test func initWarnsWhenGitAlreadyTracksTheStateFolder() throws {
        let s = try Sandbox(initVault: false)
        try s.write(".notes/index", "old")
        try s.makeRepository()
        let r = try s.run(["init", s.vault])
        #expect(r.status == 0, "\(r)")
        #expect(r.stderr.contains("warning: git tracks files in '\(s.vault)/.notes'"), "\(r)")
        #expect(r.stderr.contains("rm -r --cached .notes"), "\(r)")
    }
}
