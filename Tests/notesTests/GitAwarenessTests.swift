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
            // A write brings the one-line .gitignore the reads wrote up to date, to be committed.
            let expected = arguments[0] == "edit" ? " M groceries.md\n?? .notes/.gitignore\n" : ""
            #expect(status == expected, "after \(arguments)")
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
        // The first delete makes .notes/ for the trash, with its .gitignore, which is committed with
        // the vault (and says how): nothing else of the trash shows.
        let r = try s.run(["delete", "--yes", "new-one"])
        #expect(r.stderr.contains("git -C \(s.vault) add -- .notes/.gitignore"), "\(r)")
        #expect(try s.gitStatus() == " M groceries.md\n?? .notes/.gitignore\n")
    }

    @Test func initMakesSureTheStateFolderIsIgnored() throws {
        let s = try Sandbox(initVault: false)
        try s.makeRepository()
        var r = try s.run(["init", s.vault])
        #expect(r.status == 0, "\(r)")
        // Its .gitignore is the one file of .notes/ to commit (without gitAutoCommit, init says how).
        #expect(r.stderr.contains("git -C \(s.vault) add -- .notes/.gitignore"), "\(r)")
        try s.run(["list"])
        // The merge driver's .gitattributes and the state folder's .gitignore: the vault's files.
        #expect(try s.gitStatus() == "?? .gitattributes\n?? .notes/.gitignore\n")
        try s.gitOK(["add", "--", ".gitattributes", ".notes/.gitignore"])
        try s.gitOK(["commit", "-q", "-m", "vault"])
        #expect(try s.gitStatus() == "")
        // A .gitignore that lost its '*' (edited, or from an older tool) gets it back.
        try s.write(".notes/.gitignore", "index\n")
        try s.write(".notes/lock", "")
        #expect(try s.gitStatus() != "")
        r = try s.run(["init", s.vault])
        #expect(r.status == 0, "\(r)")
        #expect(try s.read(".notes/.gitignore") == "index\n" + Sandbox.stateIgnore)
        #expect(try s.gitStatus() == " M .notes/.gitignore\n")
    }

    /// The advice, pasted into a shell, stops tracking the local state and keeps the two files a
    /// clone needs (SPEC §3); once followed, or where only those are tracked, `init` is quiet.
    @Test func initWarnsWhenGitAlreadyTracksTheStateFolder() throws {
        let s = try Sandbox(initVault: false)
        try s.write(".notes/index", "old")
        try s.write(".notes/.gitignore", Sandbox.stateIgnore)
        try s.write(".notes/settings.json", "{}\n")
        try s.makeRepository()
        try s.gitOK(["add", "-f", "--", ".notes/index"])
        try s.gitOK(["commit", "-q", "-m", "the index too"])
        let r = try s.run(["init", s.vault])
        #expect(r.status == 0, "\(r)")
        #expect(r.stderr.contains("warning: git tracks files in '\(s.vault)/.notes'"), "\(r)")
        let advice = try #require(r.stderr.components(separatedBy: "stop that with: ").last)
        let pasted = try s.run([], shell: advice.trimmingCharacters(in: .newlines))
        #expect(pasted.status == 0, "\(advice)\n\(pasted)")
        #expect(try s.gitOK(["ls-files", "--", ".notes"]) == ".notes/.gitignore\n.notes/settings.json\n")
        let again = try s.run(["init", s.vault])
        #expect(again.status == 0 && !again.stderr.contains("git tracks"), "\(again)")
    }

    @Test func theStateFolderFilesAVaultCommitsDrawNoWarning() throws {
        let s = try Sandbox()
        try s.write(".notes/settings.json", "{}\n")
        try s.makeRepository()
        #expect(try s.gitOK(["ls-files", "--", ".notes"]) == ".notes/.gitignore\n.notes/settings.json\n")
        let r = try s.run(["init", s.vault])
        #expect(r.status == 0, "\(r)")
        #expect(!r.stderr.contains("git tracks"), "\(r)")
    }
}
