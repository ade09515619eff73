import Foundation
import TestSupport
import Testing

/// A vault kept in git travels between machines: its `.notes/.gitignore` and `.notes/settings.json`
/// are committed and nothing else of `.notes/` is, so a clone is a vault, found from any folder
/// in it, with the vault's own settings.
@Suite struct VaultCloneTests {
    /// A sandbox with git, a bare repository `remote.git` and a clone of it, `a`; returns both paths.
    static func remoteAndClone(_ s: Sandbox) throws -> (remote: String, a: String) {
        try s.useGit()
        let remote = s.root.path + "/remote.git"
        let a = s.root.path + "/a"
        try s.gitOK(["init", "-q", "--bare", remote], in: s.root.path)
        try s.gitOK(["clone", "-q", remote, a], in: s.root.path)
        return (remote, a)
    }

    /// The files git tracks in a work tree, one a line.
    static func tracked(_ s: Sandbox, in folder: String) throws -> String {
        try s.gitOK(["ls-files"], in: folder)
    }

    @Test func aCloneOfAVaultIsAVaultFromAnyFolderInIt() throws {
        let s = try Sandbox(initVault: false)
        let (remote, a) = try Self.remoteAndClone(s)
        var r = try s.run(["init"], cwd: a, vaultVariable: false)
        #expect(r.status == 0, "\(r)")
        // Without gitAutoCommit, init says what to commit.
        #expect(r.stderr.contains("git -C \(a) add -- .notes/.gitignore"), "\(r)")
        r = try s.run(["config", "set", "--vault-local", "sort", "title"], cwd: a, vaultVariable: false)
        #expect(r.status == 0, "\(r)")
        #expect(
            r.stderr.contains("git -C \(a) add -- .notes/.gitignore .gitattributes .notes/settings.json"),
            "\(r)")
        for title in ["Zebra", "Apple"] {
            r = try s.run(["add", title], cwd: a, vaultVariable: false)
            #expect(r.status == 0, "\(r)")
        }
        try s.gitOK(["add", "-A"], in: a)
        try s.gitOK(["commit", "-q", "-m", "notes"], in: a)
        // Of .notes/, only the two files that make a clone the same vault.
        #expect(
            try Self.tracked(s, in: a)
                == ".gitattributes\n.notes/.gitignore\n.notes/settings.json\napple.md\nzebra.md\n")
        try s.gitOK(["push", "-q", "origin", "HEAD"], in: a)

        let b = s.root.path + "/b"
        try s.gitOK(["clone", "-q", remote, b], in: s.root.path)
        try FileManager.default.createDirectory(atPath: b + "/ideas", withIntermediateDirectories: true)
        r = try s.run(["add", "From the other machine"], cwd: b + "/ideas", vaultVariable: false)
        #expect(r.status == 0 && r.stderr == "", "\(r)")
        #expect(Disk.exists(b + "/ideas/from-the-other-machine.md"))
        #expect(!Disk.exists(s.home + "/Notes"))
        // The vault's settings came with it.
        r = try s.run(["list"], cwd: b, vaultVariable: false)
        #expect(
            r.stdout.split(separator: "\n").map { $0.split(separator: "\t").last ?? "" } == [
                "Apple", "From the other machine", "Zebra",
            ])
        #expect(
            try s.run(["config"], cwd: b, vaultVariable: false).stdout.contains(
                "sort            title       vault"))
        // The index and the lock the commands wrote stay out of git.
        #expect(try s.gitStatus(in: b) == "?? ideas/from-the-other-machine.md\n")
    }

    @Test func gitAutoCommitSetInTheVaultCommitsInEveryClone() throws {
        let s = try Sandbox(initVault: false)
        let (remote, a) = try Self.remoteAndClone(s)
        try s.run(["init"], cwd: a, vaultVariable: false)
        var r = try s.run(
            ["config", "set", "--vault-local", "gitAutoCommit", "true"], cwd: a, vaultVariable: false)
        #expect(r.status == 0, "\(r)")
        // Turning it on commits that very change, with the .gitignore init wrote.
        #expect(try s.commitSubjects(in: a).count == 1)
        #expect(
            try s.committedFiles(in: a) == [".gitattributes", ".notes/.gitignore", ".notes/settings.json"])
        r = try s.run(["add", "Idea"], cwd: a, vaultVariable: false)
        #expect(r.status == 0 && r.stderr == "", "\(r)")
        #expect(try s.commitSubjects(in: a).first == "notes: add idea")
        #expect(try s.gitStatus(in: a) == "")
        try s.gitOK(["push", "-q", "origin", "HEAD"], in: a)

        let b = s.root.path + "/b"
        try s.gitOK(["clone", "-q", remote, b], in: s.root.path)
        // The user's own file says nothing about gitAutoCommit: the vault's does.
        r = try s.run(["add", "Second"], cwd: b, vaultVariable: false)
        #expect(r.status == 0 && r.stderr == "", "\(r)")
        #expect(try s.commitSubjects(in: b).first == "notes: add second")
        #expect(try s.gitStatus(in: b) == "")
        let config = try s.run(["config", "list", "--json"], cwd: b, vaultVariable: false)
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(config.stdout.utf8)) as? [String: [String: Any]])
        #expect(json["gitAutoCommit"]?["source"] as? String == "vault")
        #expect(json["gitAutoCommit"]?["value"] as? Bool == true)
        // unset --vault-local is committed too (it was on when the command started).
        r = try s.run(["config", "unset", "--vault-local", "gitAutoCommit"], cwd: b, vaultVariable: false)
        #expect(r.status == 0, "\(r)")
        #expect(try s.commitSubjects(in: b).first == "notes: update the vault's settings")
    }

    @Test func writeCommandsBringAnOldOneLineGitignoreUpToDate() throws {
        let s = try Sandbox(initVault: false)
        try s.write("groceries.md", "# Groceries\n")
        try s.write(".notes/.gitignore", "*\n")
        try s.makeRepository()
        // A read leaves it: it must not leave `git status` dirty.
        #expect(try s.run(["list"]).status == 0)
        #expect(try s.read(".notes/.gitignore") == "*\n")
        #expect(try s.gitStatus() == "")
        let r = try s.run(["edit", "groceries", "# Groceries\n\n- milk"])
        #expect(r.status == 0, "\(r)")
        #expect(try s.read(".notes/.gitignore") == Sandbox.stateIgnore)
        #expect(r.stderr.contains("git -C \(s.vault) add -- .notes/.gitignore && git -C"), "\(r)")
        #expect(try s.gitStatus() == " M groceries.md\n?? .notes/.gitignore\n")

        // With gitAutoCommit, the upgrade is committed with the change that made it.
        let t = try Sandbox(initVault: false)
        try t.write("groceries.md", "# Groceries\n")
        try t.write(".notes/.gitignore", "*\n")
        try t.makeRepository()
        try t.run(["config", "set", "gitAutoCommit", "true"])
        #expect(try t.run(["add", "Another"]).stderr == "")
        #expect(try t.committedFiles() == [".notes/.gitignore", "another.md"])
        #expect(try t.gitStatus() == "")
    }

    @Test func aRepositoryThatIgnoresTheStateFolderStillCommitsTheNotes() throws {
        let s = try Sandbox(initVault: false)
        try s.write(".notes/.gitignore", "*\n")
        try s.write(".gitignore", ".notes/\n")
        try s.makeRepository()
        try s.run(["config", "set", "gitAutoCommit", "true"])
        let r = try s.run(["add", "Kept"])
        #expect(r.status == 0 && r.stderr == "", "\(r)")
        #expect(try s.committedFiles() == ["kept.md"])
        #expect(try s.gitStatus() == "")
    }

    @Test func aFolderWithObsidianIsFoundAsTheVault() throws {
        let s = try Sandbox(initVault: false, layout: [.directory(".obsidian", [.file("app.json", "{}")])])
        try FileManager.default.createDirectory(
            atPath: s.vault + "/projects", withIntermediateDirectories: true)
        let r = try s.run(["add", "Plan"], cwd: s.vault + "/projects", vaultVariable: false)
        #expect(r.status == 0 && r.stderr == "", "\(r)")
        // Named as Obsidian names notes: by the title.
        #expect(s.exists("projects/Plan.md"))
        #expect(
            try s.run(["path"], cwd: s.vault + "/projects", vaultVariable: false).stdout == s.vault + "\n")
    }

    @Test func aWriteOutsideANotesRepositoryThatIsNoVaultSaysWhereItWent() throws {
        // A clone made before the vault's .notes/ was committed: Markdown files, no .notes/.
        let s = try Sandbox(initVault: false)
        try s.write("old-note.md", "# Old\n")
        try s.makeRepository()
        try FileManager.default.createDirectory(atPath: s.vault + "/sub", withIntermediateDirectories: true)
        var r = try s.run(["add", "Lost?"], cwd: s.vault + "/sub", vaultVariable: false)
        #expect(r.status == 0, "\(r)")
        #expect(Disk.exists(s.home + "/Notes/lost.md"))
        let warning =
            "warning: this went to the vault \(s.home)/Notes, not to \(s.vault), a git repository of notes "
            + "that is not a vault; make it one with: notes init \(s.vault)\n"
        #expect(r.stderr == "Created the vault \(s.home)/Notes.\n" + warning, "\(r)")
        r = try s.run(["add", "Again"], cwd: s.vault, vaultVariable: false)
        #expect(r.stderr == warning, "\(r)")
        // Reads, and writes from elsewhere, say nothing.
        #expect(try s.run(["list"], cwd: s.vault, vaultVariable: false).stderr == "")
        #expect(try s.run(["add", "Elsewhere"], cwd: s.home, vaultVariable: false).stderr == "")
        // Once it is a vault, notes go there.
        try s.run(["init"], cwd: s.vault, vaultVariable: false)
        r = try s.run(["add", "Found"], cwd: s.vault + "/sub", vaultVariable: false)
        #expect(r.stderr == "" && s.exists("sub/found.md"), "\(r)")
    }
}
