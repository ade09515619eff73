import Foundation
import TestSupport
import Testing

/// `gitAutoCommit` on real repositories: each write command commits exactly the files
/// it changed, with a message naming what it did, and a commit that fails is only a warning.
@Suite struct GitAutoCommitTests {
    /// A committed vault with auto-commit on, one note, and two files the user is working on: one
    /// changed but not staged and one staged, which no command may commit.
    static func repository() throws -> Sandbox {
        let s = try Sandbox()
        try s.write("groceries.md", "# Groceries\n\n- milk\n")
        try s.write("unrelated.txt", "draft\n")
        try s.makeRepository()
        try s.run(["config", "set", "gitAutoCommit", "true"])
        try s.write("unrelated.txt", "draft, changed\n")
        try s.write("staged.md", "# Staged by hand\n")
        try s.gitOK(["add", "staged.md"])
        return s
    }

    /// The user's own work is where it was: changed, staged, not committed.
    static func expectUserWorkUntouched(_ s: Sandbox, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        let status = try s.gitStatus()
        #expect(status.contains(" M unrelated.txt"), "\(status)", sourceLocation: sourceLocation)
        #expect(status.contains("A  staged.md"), "\(status)", sourceLocation: sourceLocation)
    }

    @Test func eachWriteCommandCommitsOnlyItsFilesWithItsMessage() throws {
        let s = try Self.repository()
        var r = try s.run(["add", "Call the plumber"])
        #expect(r.status == 0 && r.stderr == "", "\(r)")
        #expect(try s.commitSubjects().first == "notes: add call-the-plumber")
        #expect(try s.committedFiles() == ["call-the-plumber.md"])

        r = try s.run(["edit", "groceries", "# Groceries\n\n- milk\n- eggs"])
        #expect(r.status == 0, "\(r)")
        #expect(try s.commitSubjects().first == "notes: edit groceries")
        #expect(try s.committedFiles() == ["groceries.md"])

        r = try s.run(["delete", "--yes", "groceries", "call-the-plumber"])
        #expect(r.status == 0, "\(r)")
        #expect(try s.commitSubjects().first == "notes: delete groceries, call-the-plumber")
        #expect(try s.committedFiles() == ["call-the-plumber.md", "groceries.md"])

        r = try s.run(["restore", "groceries"])
        #expect(r.status == 0, "\(r)")
        #expect(try s.commitSubjects().first == "notes: restore groceries")
        #expect(try s.committedFiles() == ["groceries.md"])
        #expect(try s.gitOK(["show", "HEAD:groceries.md"]).contains("- eggs"))

        #expect(try s.commitSubjects().count == 5)
        try Self.expectUserWorkUntouched(s)
        // Nothing but the user's own work is left uncommitted: not .notes/, not the trash.
        let status = try s.gitStatus()
        #expect(status == "A  staged.md\n M unrelated.txt\n")
    }

    /// A move is one commit named as `notes move` reports it, with the notes whose links it rewrote.
    @Test func aMoveIsCommittedWithTheLinksItRewrote() throws {
        let s = try Self.repository()
        try s.write("idea.md", "# Big idea\n")
        try s.write("one.md", "# One\n\n[[idea]] and [[idea|the idea]]\n")
        try s.write("two.md", "# Two\n\nSee [it](idea.md).\n")
        try s.gitOK(["add", "idea.md", "one.md", "two.md"])
        try s.gitOK(["commit", "-q", "-m", "links", "--", "idea.md", "one.md", "two.md"])
        var r = try s.run(["move", "idea", "plan"])
        #expect(r.status == 0 && r.stderr == "", "\(r)")
        #expect(r.stdout.hasPrefix("Moved 'idea' to 'plan'; rewrote 3 links in 2 notes:\n"), "\(r)")
        #expect(try s.commitSubjects().first == "notes: move idea to plan (rewrote 3 links in 2 notes)")
        #expect(try s.committedFiles() == ["one.md", "plan.md", "two.md"])
        #expect(try s.gitOK(["show", "--name-status", "--format=", "-M"]).contains("R100\tidea.md\tplan.md"))
        r = try s.run(["move", "groceries", "shopping"])
        #expect(r.status == 0, "\(r)")
        #expect(try s.commitSubjects().first == "notes: move groceries to shopping")
        try Self.expectUserWorkUntouched(s)
    }

    /// Writers that run at once take turns to commit, so none finds git's `index.lock` or HEAD
    /// taken by another (`cannot lock ref 'HEAD'`) and every note is committed. A few runs, as the
    /// race does not go wrong every time.
    @Test(.tags(.heavy), .skippedInQuickLoop, arguments: 0..<4)
    func writersAtOnceLeaveNoNoteUncommitted(run: Int) throws {
        let s = try Sandbox()
        try s.makeRepository()
        try s.run(["config", "set", "gitAutoCommit", "true"])
        let count = 16
        let race = try Race(s, label: "parallel auto-commit, run \(run)")
        let racers = try (0..<count).map { try race.gated("add\($0)", ["add", "Note \($0)"]) }
        race.release(racers)
        for (name, result) in race.finishAll() {
            #expect(result.status == 0 && result.stderr == "", "\(race.label): \(name): \(result)")
        }
        #expect(try s.gitStatus() == "", "\(race.label)")
        let subjects = try s.commitSubjects()
        #expect(Set(subjects) == Set(["start"] + (0..<count).map { "notes: add note-\($0)" }), "\(subjects)")
        #expect(subjects.count == count + 1)
    }

    /// Another git working in the repository (its `index.lock` there) makes a commit wait, not fail.
    @Test func aCommitWaitsForAnotherGitsIndexLock() throws {
        let s = try Sandbox()
        try s.makeRepository()
        try s.run(["config", "set", "gitAutoCommit", "true"])
        let lock = s.vault + "/.git/index.lock"
        #expect(FileManager.default.createFile(atPath: lock, contents: Data()))
        let race = try Race(s, label: "index.lock")
        let racer = try race.gated("add", ["add", "While git works"], env: ["NOTES_TRACE": "1"])
        race.release([racer])
        // The lock goes only once the commit waits for it.
        let waited = Self.waitUntil(racer, says: "git: waiting for index.lock")
        try FileManager.default.removeItem(atPath: lock)
        let r = racer.finish()
        #expect(waited, "\(r)")
        #expect(r.status == 0 && !r.stderr.contains("warning"), "\(r)")
        #expect(try s.commitSubjects() == ["notes: add while-git-works", "start"])
        #expect(try s.gitStatus() == "")
    }

    /// Whether `racer` wrote `text` to its stderr before it ended (or a minute passed).
    static func waitUntil(_ racer: Racer, says text: String) -> Bool {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let said = (try? String(contentsOfFile: racer.errPath, encoding: .utf8)) ?? ""
            if said.contains(text) { return true }
            if racer.poll() { return false }
            usleep(1000)
        }
        return false
    }

    /// A commit in the middle of a rebase would land among the commits being replayed, and git
    /// refuses one of only some paths during a merge: auto-commit commits nothing and says so once.
    @Test(arguments: ["merge", "rebase"]) func duringAnUnfinishedRebaseOrMergeNothingIsCommitted(
        operation: String
    ) throws {
        let s = try Sandbox()
        try s.write("groceries.md", "# Groceries\n\n- milk\n")
        try s.makeRepository()
        try s.run(["config", "set", "gitAutoCommit", "true"])
        try s.gitOK(["switch", "-q", "-c", "side"])
        try s.write("groceries.md", "# Groceries\n\n- oat milk\n")
        try s.gitOK(["commit", "-q", "-am", "side"])
        try s.gitOK(["switch", "-q", "main"])
        try s.write("groceries.md", "# Groceries\n\n- butter\n")
        try s.gitOK(["commit", "-q", "-am", "main"])
        if operation == "rebase" { try s.gitOK(["switch", "-q", "side"]) }
        let stopped = try s.git(operation == "merge" ? ["merge", "side"] : ["rebase", "main"])
        #expect(stopped.status != 0, "\(stopped)")
        let before = try s.gitOK(["rev-parse", "HEAD"])

        let r = try s.run(["add", "During it"])
        #expect(r.status == 0, "\(r)")
        #expect(
            r.stderr
                == "warning: the note is saved, but not committed: a \(operation) is in progress; finish it "
                + "(git status says how) or abort it, then 'notes sync' commits the notes\n", "\(r)")
        #expect(try s.read("during-it.md").contains("During it"))
        #expect(try s.gitOK(["rev-parse", "HEAD"]) == before)
        #expect(try s.gitStatus().contains("?? during-it.md"))
    }

    @Test func readCommandsAndUnchangedEditsCommitNothing() throws {
        let s = try Self.repository()
        for arguments in [
            ["list"], ["search", "milk"], ["show", "groceries"],
            ["edit", "groceries", "# Groceries\n\n- milk"],
        ] {
            let r = try s.run(arguments)
            #expect(r.status == 0, "\(r)")
        }
        #expect(try s.commitSubjects() == ["start"])
        try Self.expectUserWorkUntouched(s)
    }

    @Test func offByDefault() throws {
        let s = try Sandbox()
        try s.makeRepository()
        let r = try s.run(["add", "Not committed"])
        #expect(r.status == 0 && r.stderr == "", "\(r)")
        #expect(try s.commitSubjects() == ["start"])
        #expect(try s.gitStatus() == "?? not-committed.md\n")
    }

    /// Paths are literal: a note named with glob characters is that file, not a pattern matching others.
    @Test func aNoteNamedLikeAPatternCommitsOnlyItself() throws {
        let s = try Sandbox()
        try s.write("o*.md", "# Star\n")
        try s.write("other.md", "# Other\n")
        try s.makeRepository()
        try s.run(["config", "set", "gitAutoCommit", "true"])
        try s.write("other.md", "# Other, changed by hand\n")
        let r = try s.run(["edit", "o*", "# Star, edited"])
        #expect(r.status == 0 && r.stderr.contains("Saved"), "\(r)")
        #expect(try s.committedFiles() == ["o*.md"])
        let status = try s.gitStatus()
        #expect(status == " M other.md\n")
    }

    @Test func aVaultInAFolderOfTheRepositoryCommitsItsPaths() throws {
        let s = try Sandbox(initVault: false)
        try s.useGit()
        try s.gitOK(["init", "-q"], in: s.root.path)
        try s.write("old.md", "# Old\n")
        try s.gitOK(["add", "vault/old.md"], in: s.root.path)
        try s.gitOK(["commit", "-q", "-m", "start"], in: s.root.path)
        try s.run(["config", "set", "gitAutoCommit", "true"])
        var r = try s.run(["add", "--folder", "work", "Standup"])
        #expect(r.status == 0 && r.stderr == "", "\(r)")
        #expect(try s.committedFiles(in: s.root.path) == ["vault/work/standup.md"])
        r = try s.run(["delete", "--yes", "old"])
        #expect(r.status == 0, "\(r)")
        #expect(try s.commitSubjects(in: s.root.path).first == "notes: delete old")
        // The first delete made .notes/ for the trash: its .gitignore is committed with it.
        #expect(try s.committedFiles(in: s.root.path) == ["vault/.notes/.gitignore", "vault/old.md"])
    }

    @Test func deletingANoteGitNeverTrackedCommitsNothing() throws {
        let s = try Self.repository()
        try s.write("scratch.md", "# Scratch\n")
        let r = try s.run(["delete", "--yes", "scratch"])
        #expect(r.status == 0 && !r.stderr.contains("warning"), "\(r)")
        #expect(try s.commitSubjects() == ["start"])
        try Self.expectUserWorkUntouched(s)
    }

    @Test func noIdentityIsAWarningAndTheNoteIsSaved() throws {
        let s = try Sandbox()
        try s.makeRepository()
        try s.run(["config", "set", "gitAutoCommit", "true"])
        // No name or email anywhere, and git may not make one up from the host name.
        try s.useGit(identity: false)
        try s.gitOK(["config", "user.useConfigOnly", "true"])
        let r = try s.run(["add", "Saved anyway"])
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout == "saved-anyway\n")
        #expect(r.stderr.hasPrefix("warning: the note is saved, but git did not commit it:\n"), "\(r)")
        #expect(try s.read("saved-anyway.md").contains("Saved anyway"))
        #expect(try s.commitSubjects() == ["start"])
    }

    @Test func aHookThatRefusesIsAWarningAndTheEditIsSaved() throws {
        let s = try Self.repository()
        let hook = s.vault + "/.git/hooks/pre-commit"
        try "#!/bin/sh\necho 'no commits today' >&2\nexit 1\n".write(
            toFile: hook, atomically: true, encoding: .utf8)
        chmod(hook, 0o755)
        let r = try s.run(["edit", "groceries", "# Groceries\n\n- bread"])
        #expect(r.status == 0, "\(r)")
        #expect(
            r.stderr.contains("warning: the note is saved, but git did not commit it:\n  no commits today"),
            "\(r)")
        #expect(try s.read("groceries.md").contains("- bread"))
        #expect(try s.commitSubjects() == ["start"])
    }

    @Test func outsideARepositoryItWarns() throws {
        let s = try Sandbox()
        try s.useGit()
        try s.run(["config", "set", "gitAutoCommit", "true"])
        let r = try s.run(["add", "No repository"])
        #expect(r.status == 0, "\(r)")
        #expect(
            r.stderr.contains("warning: gitAutoCommit is on, but '\(s.vault)' is not in a git repository"),
            "\(r)")
        #expect(s.exists("no-repository.md"))
    }

    @Test func theBrowsersWritesAreCommitted() throws {
        let s = try Self.repository()
        let t = try TerminalSession(s)
        t.wait(for: "Groceries")
        t.type("groc")
        t.wait(for: "1 of 2")
        t.type("\u{4}")
        t.wait(for: "Delete")
        t.type("y")
        t.wait(for: "Moved 'groceries' to the trash")
        t.type("\u{3}")
        #expect(t.exitStatus() == 0)
        #expect(try s.commitSubjects().first == "notes: delete groceries")
        #expect(try s.committedFiles() == ["groceries.md"])
        try Self.expectUserWorkUntouched(s)
    }
}
