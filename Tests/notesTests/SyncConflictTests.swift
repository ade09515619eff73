import Foundation
import TestSupport
import Testing

/// What `notes sync` goes on with after a pull stopped: only the markers the merge put in a file
/// stop it (whether git's index still has the file unmerged or the user staged it), never those a
/// note quotes; and uncommitted changes that git could not put back after the pull are said,
/// not swallowed.
@Suite struct SyncConflictTests {
    /// The bare repository both clones push to.
    static func remote(_ s: Sandbox) -> String { s.root.path + "/remote.git" }

    /// The file at `path` on the remote's `main`, or nil.
    static func onRemote(_ s: Sandbox, _ path: String) throws -> String? {
        let r = try s.git(["--git-dir", remote(s), "show", "main:" + path], in: s.root.path)
        return r.status == 0 ? r.stdout : nil
    }

    static let stopped = "Error: the pull stopped on conflicting changes in:\n  groceries\n"

    /// `git add` marks a conflict resolved for git, markers or not; sync looks at the file.
    @Test(arguments: [false, true])
    func aNoteStagedWithItsMarkersIsNamedAgainAndNothingIsPushed(mendedIsStaged: Bool) throws {
        let (s, other) = try GitMergeTests.clones()
        let start = GitMergeTests.start
        try String(
            GitMergeTests.groceries(
                GitMergeTests.replacing("- milk", with: "- oat milk", in: start), second: 1)
        )
        .write(toFile: other + "/groceries.md", atomically: true, encoding: .utf8)
        #expect(try s.run(["sync"], env: ["NOTES_VAULT": other]).status == 0)
        try s.write(
            "groceries.md",
            GitMergeTests.groceries(
                GitMergeTests.replacing("- milk", with: "- soy milk", in: start), second: 2))
        var r = try s.run(["sync"])
        #expect(r.status == 1, "\(r)")
        let remoteTip = try s.gitOK(["--git-dir", Self.remote(s), "rev-parse", "main"], in: s.root.path)

        try s.gitOK(["add", "groceries.md"])
        #expect(try s.gitStatus() == "M  groceries.md\n")
        r = try s.run(["sync"])
        #expect(r.status == 1, "\(r)")
        #expect(r.stderr.hasPrefix(Self.stopped), "\(r)")
        #expect(r.stdout == "", "\(r)")
        #expect(FileManager.default.fileExists(atPath: s.vault + "/.git/rebase-merge"))
        #expect(
            try s.gitOK(["--git-dir", Self.remote(s), "rev-parse", "main"], in: s.root.path) == remoteTip)
        #expect(try Self.onRemote(s, "groceries.md")?.contains("<<<<<<<") == false)

        // Mended in the file; staged again or not, what is committed is the file.
        let mended = GitMergeTests.groceries(
            ["- oat milk", "- soy milk", "- bread", "- eggs", "- tea"], second: 2)
        try s.write("groceries.md", mended)
        if mendedIsStaged { try s.gitOK(["add", "groceries.md"]) }
        r = try s.run(["sync"])
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.hasSuffix("Pushed 1 commit to origin/main.\n"), "\(r)")
        #expect(try s.gitStatus() == "")
        #expect(try Self.onRemote(s, "groceries.md") == mended)
    }

    /// git names the conflicted files from the top of the work tree for sync, whatever the
    /// user's `diff.relative` says, so a vault in a folder of the repository knows its notes.
    @Test func aVaultInAFolderOfTheRepositoryFindsItsConflictedNotes() throws {
        let s = try Sandbox()
        try s.write("inner/.notes/.gitignore", Sandbox.stateIgnore)
        try s.write("inner/groceries.md", "# Groceries\n\n- milk\n")
        let other = try s.pushedAndCloned(["inner/groceries.md", "inner/.notes/.gitignore"])
        try s.gitOK(["config", "diff.relative", "true"])
        try "# Groceries\n\n- oat milk\n".write(
            toFile: other + "/inner/groceries.md", atomically: true, encoding: .utf8)
        try s.gitOK(["commit", "-q", "-am", "Oat milk"], in: other)
        try s.gitOK(["push", "-q"], in: other)
        let inner = ["--vault", s.vault + "/inner"]
        try s.write("inner/groceries.md", "# Groceries\n\n- soy milk\n")

        var r = try s.run(inner + ["sync"])
        #expect(r.status == 1, "\(r)")
        #expect(r.stderr.hasPrefix(Self.stopped), "\(r)")
        try s.gitOK(["add", "inner/groceries.md"])
        r = try s.run(inner + ["sync"])
        #expect(r.status == 1, "\(r)")
        #expect(r.stderr.hasPrefix(Self.stopped), "\(r)")
        try s.write("inner/groceries.md", "# Groceries\n\n- oat milk\n- soy milk\n")
        r = try s.run(inner + ["sync"])
        #expect(r.status == 0, "\(r)")
        #expect(try Self.onRemote(s, "inner/groceries.md") == "# Groceries\n\n- oat milk\n- soy milk\n")
    }

    /// A note of git tips, quoting conflict markers in a code block, with its last line `last`.
    static func tips(_ last: String, second: Int) -> String {
        "---\ncreatedAt: 2026-11-01T10:00:00Z\n"
            + "updatedAt: 2026-11-01T10:00:\(String(format: "%02d", second))Z\n---\n# Git tips\n\n"
            + "```\n<<<<<<< HEAD\nmine\n=======\ntheirs\n>>>>>>> branch\n```\n\n" + last + "\n"
    }

    /// The markers a note quotes are on both sides: they neither stop a mended note nor let an
    /// unmended one through. When the merge driver fails, the note still gets both edits between
    /// markers (its quoted ones are not the merge's).
    @Test(arguments: [false, true], [false, true])
    func aNoteThatQuotesMarkersFinishesTheSyncOnceMended(driverFails: Bool, mendedIsStaged: Bool) throws {
        let s = try Sandbox()
        try s.write("tips.md", Self.tips("end", second: 0))
        let other = try s.pushedAndCloned(["tips.md"])
        try Self.tips("end there", second: 1).write(
            toFile: other + "/tips.md", atomically: true, encoding: .utf8)
        #expect(try s.run(["sync"], env: ["NOTES_VAULT": other]).status == 0)
        try s.write("tips.md", Self.tips("end here", second: 2))

        let failing = [
            "GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "merge.notes.driver", "GIT_CONFIG_VALUE_0": "false",
        ]
        var r = try s.run(["sync"], env: driverFails ? failing : [:])
        #expect(r.status == 1, "\(r)")
        #expect(r.stderr.hasPrefix("Error: the pull stopped on conflicting changes in:\n  tips\n"), "\(r)")
        let text = try s.read("tips.md")
        #expect(text.contains("\nend there\n") && text.contains("\nend here\n"), "\(text)")
        #expect(text.components(separatedBy: "\n<<<<<<<").count == 3, "\(text)")

        // Not mended: the merge's markers are still there beside the quoted ones.
        if mendedIsStaged { try s.gitOK(["add", "tips.md"]) }
        r = try s.run(["sync"])
        #expect(r.status == 1, "\(r)")
        #expect(r.stderr.hasPrefix("Error: the pull stopped on conflicting changes in:\n  tips\n"), "\(r)")

        let mended = Self.tips("end here and there", second: 2)
        try s.write("tips.md", mended)
        if mendedIsStaged { try s.gitOK(["add", "tips.md"]) }
        r = try s.run(["sync"])
        #expect(r.status == 0, "\(r)")
        #expect(try s.gitStatus() == "")
        #expect(try Self.onRemote(s, "tips.md") == mended)
        // The quoted markers still mark the note in `list`, as any markers do.
        #expect(try s.run(["list", "--marks"]).stdout.hasSuffix("\t!\n"))
    }

    /// The clones of `GitSyncTests`, with `todo.txt` (not a note) committed in both, and changed
    /// and pushed by the other clone.
    static func clonesWithTodoChangedThere() throws -> (Sandbox, other: String) {
        let (s, other) = try GitSyncTests.clones()
        try s.write("todo.txt", "base\n")
        try s.gitOK(["add", "todo.txt"])
        try s.gitOK(["commit", "-q", "-m", "A list"])
        try s.gitOK(["push", "-q"])
        try s.gitOK(["pull", "-q"], in: other)
        try "there\n".write(toFile: other + "/todo.txt", atomically: true, encoding: .utf8)
        try s.gitOK(["commit", "-q", "-am", "The list there"], in: other)
        return (s, other)
    }

    static let autostashConflict = """
        Error: putting back your uncommitted changes after the pull conflicted in:
          todo.txt
        The pull itself went through, and your changes are safe in the stash ('git stash list' shows it). \
        Resolve each file: keep what you want, remove the <<<<<<<, ======= and >>>>>>> lines, and mark it \
        resolved with 'git add FILE' (or 'git restore --staged FILE' to leave the change uncommitted); then \
        drop the stash with 'git stash drop' (check with 'git stash list' that it holds nothing else you want)

        """

    @Test func uncommittedChangesThatConflictAfterThePullAreSaidAndKept() throws {
        let (s, other) = try Self.clonesWithTodoChangedThere()
        try s.gitOK(["push", "-q"], in: other)
        try s.write("todo.txt", "here\n")
        try s.run(["edit", "plan", "# Plan\n\nfirst\nsecond"])

        var r = try s.run(["sync"])
        #expect(r.status == 1, "\(r)")
        #expect(
            r.stdout == """
                Committed notes: edit plan
                From origin/main, 1 commit that changed no note.
                Pushed 1 commit to origin/main.

                """, "\(r)")
        #expect(r.stderr == Self.autostashConflict, "\(r)")
        #expect(try s.gitStatus() == "UU todo.txt\n")
        #expect(try s.gitOK(["stash", "list"]).contains("autostash"))
        let todo = try s.read("todo.txt")
        #expect(todo.contains("there\n") && todo.contains("here\n") && todo.contains("<<<<<<<"), "\(todo)")
        #expect(try Self.onRemote(s, "plan.md")?.contains("second") == true)

        // Nothing is in progress, yet the file is unmerged: the next sync says so.
        r = try s.run(["sync"])
        #expect(r.status == 1, "\(r)")
        #expect(r.stdout == "", "\(r)")
        #expect(
            r.stderr.hasPrefix(
                "Error: these files are unmerged, with no rebase or merge in progress:\n  todo.txt\n"),
            "\(r)")
        #expect(
            r.stderr.hasSuffix(
                "'git stash drop' (check with 'git stash list' that it holds nothing else "
                    + "you want), and sync again\n"), "\(r)")

        try s.write("todo.txt", "here and there\n")
        try s.gitOK(["restore", "--staged", "todo.txt"])
        try s.gitOK(["stash", "drop", "-q"])
        r = try s.run(["sync"])
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout == "Nothing new from origin/main.\nNothing to push.\n", "\(r)")
        #expect(try s.gitStatus() == " M todo.txt\n")
    }

    /// The stash is put back when the rebase that a later sync went on with ends; no pull can run
    /// over the unmerged files then, so the sync reports what that rebase brought.
    @Test func uncommittedChangesThatConflictAfterAResumedRebaseAreSaid() throws {
        let (s, other) = try Self.clonesWithTodoChangedThere()
        try "# Groceries\n\n- milk\n- oat milk\n".write(
            toFile: other + "/groceries.md", atomically: true, encoding: .utf8)
        try s.gitOK(["commit", "-q", "-am", "Oat milk"], in: other)
        try s.gitOK(["push", "-q"], in: other)
        try s.write("groceries.md", "# Groceries\n\n- milk\n- butter\n")
        try s.write("todo.txt", "here\n")

        var r = try s.run(["sync"])
        #expect(r.status == 1, "\(r)")
        #expect(r.stderr.hasPrefix(Self.stopped), "\(r)")
        try s.write("groceries.md", "# Groceries\n\n- milk\n- oat milk\n- butter\n")
        r = try s.run(["sync"])
        #expect(r.status == 1, "\(r)")
        #expect(
            r.stdout == """
                From origin/main, 1 note:
                  changed  Groceries (groceries)
                Pushed 1 commit to origin/main.

                """, "\(r)")
        #expect(r.stderr == Self.autostashConflict, "\(r)")
        #expect(!FileManager.default.fileExists(atPath: s.vault + "/.git/rebase-merge"))
        #expect(try s.gitStatus() == "UU todo.txt\n")
        #expect(try Self.onRemote(s, "groceries.md") == "# Groceries\n\n- milk\n- oat milk\n- butter\n")
    }

    /// Unmerged files of a cherry-pick are the cherry-pick's, not a stash's.
    @Test func aCherryPickInProgressIsNamed() throws {
        let (s, _) = try GitSyncTests.clones()
        try s.write("todo.txt", "base\n")
        try s.gitOK(["add", "todo.txt"])
        try s.gitOK(["commit", "-q", "-m", "A list"])
        try s.gitOK(["switch", "-q", "-c", "elsewhere"])
        try s.write("todo.txt", "elsewhere\n")
        try s.gitOK(["commit", "-q", "-am", "Elsewhere"])
        try s.gitOK(["switch", "-q", "main"])
        try s.write("todo.txt", "here\n")
        try s.gitOK(["commit", "-q", "-am", "Here"])
        #expect(try s.git(["cherry-pick", "elsewhere"]).status != 0)

        let r = try s.run(["sync"])
        #expect(r.status == 1, "\(r)")
        #expect(
            r.stderr
                == "Error: a cherry-pick is in progress; finish it (git status says how) or abort it, then sync again\n",
            "\(r)")
    }
}
