import Foundation
import TestSupport
import Testing

/// `notes sync` between two clones of one bare repository, and `notes history`.
@Suite struct GitSyncTests {
    /// A sandbox whose vault is a clone of `remote.git`, with a second clone at `other`; both hold
    /// the notes `groceries` and `plan` and the `.gitattributes` of `notes init`, committed and pushed.
    static func clones() throws -> (Sandbox, other: String) {
        let s = try Sandbox()
        try s.write("groceries.md", "# Groceries\n\n- milk\n- bread\n")
        try s.write("plan.md", "# Plan\n\nfirst\n")
        try s.write(".gitattributes", "*.md merge=notes\n*.markdown merge=notes\n")
        return (s, try s.pushedAndCloned(["groceries.md", "plan.md", ".gitattributes"]))
    }

    @Test func aFastForwardReportsWhatCameIn() throws {
        let (s, other) = try Self.clones()
        var r = try s.run(["add", "Call the plumber"], env: ["NOTES_VAULT": other])
        #expect(r.status == 0, "\(r)")
        r = try s.run(["sync"], env: ["NOTES_VAULT": other])
        #expect(r.status == 0, "\(r)")
        #expect(
            r.stdout == """
                Committed notes: add call-the-plumber
                Nothing new from origin/main.
                Pushed 1 commit to origin/main.

                """)
        r = try s.run(["sync"])
        #expect(r.status == 0, "\(r)")
        #expect(
            r.stdout == """
                From origin/main, 1 note:
                  added    Call the plumber (call-the-plumber)
                Nothing to push.

                """)
        #expect(try s.read("call-the-plumber.md").contains("Call the plumber"))
        #expect(try s.gitStatus() == "")
    }

    @Test func aRebaseOverIndependentNotesKeepsBothAndAHandEditedFile() throws {
        let (s, other) = try Self.clones()
        // Here: a note edited and a note deleted, not committed, and a file that is not a note.
        try s.write("groceries.md", "# Groceries\n\n- milk\n- bread\n- eggs\n")
        try s.write("todo.txt", "not a note\n")
        // There: another note edited, one added and the deleted one's neighbour removed; pushed.
        try s.run(["edit", "plan", "# Plan\n\nfirst\nsecond"], env: ["NOTES_VAULT": other])
        try s.run(["add", "Standup at ten"], env: ["NOTES_VAULT": other])
        var r = try s.run(["sync"], env: ["NOTES_VAULT": other])
        #expect(r.status == 0, "\(r)")

        r = try s.run(["sync"])
        #expect(r.status == 0, "\(r)")
        #expect(
            r.stdout == """
                Committed notes: edit groceries
                From origin/main, 2 notes:
                  changed  Plan (plan)
                  added    Standup at ten (standup-at-ten)
                Pushed 1 commit to origin/main.

                """)
        #expect(try s.gitOK(["rev-list", "--merges", "HEAD"]) == "")
        #expect(try s.gitStatus() == "?? todo.txt\n")
        #expect(try s.read("plan.md").contains("second"))

        r = try s.run(["sync"], env: ["NOTES_VAULT": other])
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("From origin/main, 1 note:\n  changed  Groceries (groceries)\n"), "\(r)")
        #expect(try String(contentsOfFile: other + "/groceries.md", encoding: .utf8).contains("- eggs"))
    }

    /// The pictures and files notes link to go with them; an untracked file no note links to stays.
    @Test func syncCommitsTheAttachmentsNotesLinkToAndNoOtherUntrackedFile() throws {
        let (s, other) = try Self.clones()
        try s.write("trips/rome.md", "# Rome\n\n![[photo.png]]\n![](img/a.png)\n[pdf](../docs/x.pdf)\n")
        try s.write("attachments/photo.png", "png\n")
        try s.write("trips/img/a.png", "png a\n")
        try s.write("docs/x.pdf", "pdf\n")
        try s.write("img/unused.png", "not linked\n")
        try s.write("scratch.txt", "not linked\n")
        var r = try s.run(["sync"])
        #expect(r.status == 0, "\(r)")
        #expect(try s.gitStatus() == "?? img/unused.png\n?? scratch.txt\n")
        #expect(
            try s.committedFiles()
                == ["attachments/photo.png", "docs/x.pdf", "trips/img/a.png", "trips/rome.md"])

        r = try s.run(["sync"], env: ["NOTES_VAULT": other])
        #expect(r.status == 0, "\(r)")
        for (path, text) in [
            ("attachments/photo.png", "png\n"), ("trips/img/a.png", "png a\n"), ("docs/x.pdf", "pdf\n"),
        ] {
            #expect(try String(contentsOfFile: other + "/" + path, encoding: .utf8) == text, "\(path)")
        }
        #expect(!FileManager.default.fileExists(atPath: other + "/img/unused.png"))
    }

    @Test func aDeletedNoteIsReportedByItsOldTitle() throws {
        let (s, other) = try Self.clones()
        try s.run(["delete", "--yes", "plan"], env: ["NOTES_VAULT": other])
        var r = try s.run(["sync"], env: ["NOTES_VAULT": other])
        #expect(r.stdout.hasPrefix("Committed notes: delete plan\n"), "\(r)")
        r = try s.run(["sync"])
        #expect(r.stdout.contains("  deleted  Plan (plan)\n"), "\(r)")
        #expect(!s.exists("plan.md"))
    }

    /// A vault in a folder of the repository, with the user's `diff.relative` on (which makes
    /// `git diff` print paths from the folder it runs in): what came in is still reported.
    @Test func aVaultInAFolderReportsWhatCameInWhateverDiffRelativeSays() throws {
        let s = try Sandbox(initVault: false)
        try s.useGit()
        let (here, there, remote) = (
            s.root.path + "/here", s.root.path + "/there", s.root.path + "/remote.git"
        )
        try s.gitOK(["init", "-q", "--bare", remote], in: s.root.path)
        try s.gitOK(["clone", "-q", remote, here], in: s.root.path)
        #expect(try s.run(["init", here + "/my notes"]).status == 0)
        try "# Plan\n".write(toFile: here + "/my notes/plan.md", atomically: true, encoding: .utf8)
        try s.gitOK(["add", "-A"], in: here)
        try s.gitOK(["commit", "-q", "-m", "start"], in: here)
        try s.gitOK(["push", "-q", "-u", "origin", "main"], in: here)
        try s.gitOK(["clone", "-q", remote, there], in: s.root.path)
        try "# Call the plumber\n".write(
            toFile: there + "/my notes/call.md", atomically: true, encoding: .utf8)
        try s.gitOK(["add", "-A"], in: there)
        try s.gitOK(["commit", "-q", "-m", "call"], in: there)
        try s.gitOK(["push", "-q"], in: there)
        try s.gitOK(["config", "diff.relative", "true"], in: here)
        let r = try s.run(["sync"], env: ["NOTES_VAULT": here + "/my notes"])
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("  added    Call the plumber (call)\n"), "\(r)")
    }

    /// A note moved there is one note that moved, by its title, not a deleted note and an added one.
    @Test func aNoteMovedThereIsReportedAsMovedByItsTitle() throws {
        let (s, other) = try Self.clones()
        var r = try s.run(["move", "plan", "work/plan"], env: ["NOTES_VAULT": other])
        #expect(r.status == 0, "\(r)")
        r = try s.run(["sync"], env: ["NOTES_VAULT": other])
        #expect(r.status == 0, "\(r)")
        r = try s.run(["sync"])
        #expect(r.status == 0, "\(r)")
        #expect(
            r.stdout == """
                From origin/main, 1 note:
                  moved    Plan (plan to work/plan)
                Nothing to push.

                """)
        #expect(try s.read("work/plan.md") == "# Plan\n\nfirst\n")
    }

    /// The titles are the pulled versions', never read from the work tree: here the note that
    /// changed there has moved (its old file is gone), and one deleted there was deleted here too.
    @Test func aNoteMovedHereAndChangedThereIsReportedByItsTitle() throws {
        let (s, other) = try Self.clones()
        var r = try s.run(["edit", "--append", "groceries", "- tea"], env: ["NOTES_VAULT": other])
        #expect(r.status == 0, "\(r)")
        r = try s.run(["delete", "--yes", "plan"], env: ["NOTES_VAULT": other])
        #expect(r.status == 0, "\(r)")
        r = try s.run(["sync"], env: ["NOTES_VAULT": other])
        #expect(r.status == 0, "\(r)")
        r = try s.run(["move", "groceries", "food/groceries"])
        #expect(r.status == 0, "\(r)")
        r = try s.run(["delete", "--yes", "plan"])
        #expect(r.status == 0, "\(r)")

        r = try s.run(["sync"])
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("From origin/main, 2 notes:\n  changed  Groceries (groceries)\n"), "\(r)")
        #expect(r.stdout.contains("  deleted  Plan (plan)\n"), "\(r)")
        #expect(!r.stdout.contains("Untitled"), "\(r)")
        #expect(try s.read("food/groceries.md").contains("- tea"))
        #expect(try s.gitStatus() == "")
    }

    @Test func aConflictStopsNamesTheNoteAndLeavesTheRebaseAsGitLeftIt() throws {
        let (s, other) = try Self.clones()
        try s.run(["edit", "groceries", "# Groceries\n\n- milk\n- oat milk"], env: ["NOTES_VAULT": other])
        #expect(try s.run(["sync"], env: ["NOTES_VAULT": other]).status == 0)
        try s.run(["edit", "groceries", "# Groceries\n\n- milk\n- butter"])

        let r = try s.run(["sync"])
        #expect(r.status == 1, "\(r)")
        #expect(r.stdout == "Committed notes: edit groceries\n")
        #expect(
            r.stderr.hasPrefix("Error: the pull stopped on conflicting changes in:\n  groceries\n"), "\(r)")
        #expect(r.stderr.contains("'notes sync'") && r.stderr.contains("git rebase --abort"))
        // Mid-rebase, nothing resolved: both sides are in the file between the markers.
        #expect(FileManager.default.fileExists(atPath: s.vault + "/.git/rebase-merge"))
        #expect(try s.gitStatus().contains("UU groceries.md"))
        let text = try s.read("groceries.md")
        #expect(
            text.contains("<<<<<<<") && text.contains("- oat milk") && text.contains("- butter")
                && text.contains(">>>>>>>"))
        let json =
            try JSONSerialization.jsonObject(with: Data(try s.run(["list", "--json"]).stdout.utf8))
            as? [[String: Any]]
        #expect(json?.first { $0["id"] as? String == "groceries" }?["conflicted"] as? Bool == true)
        // A second sync does not go on over the markers.
        let again = try s.run(["sync"])
        #expect(again.status == 1)
        #expect(
            again.stderr.hasPrefix("Error: the pull stopped on conflicting changes in:\n  groceries\n"),
            "\(again)")
        #expect(FileManager.default.fileExists(atPath: s.vault + "/.git/rebase-merge"))
    }

    @Test func withoutGitARepositoryOrARemoteItSaysSo() throws {
        let s = try Sandbox()
        try s.useGit()
        try s.write("a.md", "# A\n")
        var r = try s.run(["sync"])
        #expect(r.status == 1)
        #expect(
            r.stderr
                == "Error: '\(s.vault)' is not in a git repository; make it one with: git -C \(s.vault) init\n"
        )
        r = try s.run(["sync"], env: ["PATH": s.root.path])
        #expect(r.status == 1)
        #expect(
            r.stderr
                == "Error: git is not installed (or not on PATH); install it to version and sync the vault\n")
        try s.makeRepository()
        try s.write("a.md", "# A, changed\n")
        r = try s.run(["sync"])
        #expect(r.status == 1)
        #expect(
            r.stderr
                == "Error: the repository has no remote to sync with; add one with: git remote add origin URL\n"
        )
        // Nothing was committed by a sync that could not sync.
        #expect(try s.gitStatus() == " M a.md\n")
    }

    @Test func aBranchWithoutUpstreamIsCommittedAndExplained() throws {
        let (s, _) = try Self.clones()
        try s.gitOK(["switch", "-q", "-c", "draft"])
        try s.write("plan.md", "# Plan\n\nchanged\n")
        let r = try s.run(["sync"])
        #expect(r.status == 1)
        #expect(r.stdout == "Committed notes: edit plan\n")
        #expect(
            r.stderr
                == "Error: the branch 'draft' has no upstream, so nothing was pulled or pushed; set one with: git push -u origin draft\n"
        )
    }

    @Test func historyFollowsARename() throws {
        let s = try Sandbox()
        try s.write("idea.md", "# Idea\n\nfirst\n")
        try s.makeRepository()
        try s.gitOK(["mv", "idea.md", "project.md"])
        try s.gitOK(["commit", "-q", "-m", "Rename the idea"])
        try s.write("project.md", "# Idea\n\nfirst\nsecond\n")
        try s.gitOK(["commit", "-q", "-am", "Grow the project"])

        var r = try s.run(["history", "project"])
        #expect(r.status == 0, "\(r)")
        let lines = r.stdout.split(separator: "\n").map { $0.split(separator: "\t") }
        #expect(lines.map { $0.count } == [4, 4, 4])
        #expect(lines.map { String($0[3]) } == ["Grow the project", "Rename the idea", "start"])
        #expect(lines.allSatisfy { $0[2] == "Test Writer" })

        r = try s.run(["log", "--patch", "project"])
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains(" first\n+second\n"), "\(r)")
        #expect(r.stdout.contains("rename from idea.md\nrename to project.md\n"))
        #expect(r.stdout.contains("+++ b/idea.md\n@@ -0,0 +1,3 @@\n+# Idea\n"))

        let json =
            try JSONSerialization.jsonObject(
                with: Data(try s.run(["history", "--json", "project"]).stdout.utf8)) as? [[String: Any]]
        #expect(json?.map { $0["subject"] as? String } == ["Grow the project", "Rename the idea", "start"])

        // A deleted note's history is still there.
        try s.gitOK(["rm", "-q", "project.md"])
        try s.gitOK(["commit", "-q", "-m", "Drop the project"])
        r = try s.run(["history", "project"])
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.split(separator: "\n").count == 4)
        #expect(try s.run(["history", "never-was"]).stderr == "Error: no note matches 'never-was'\n")
    }

    /// git's `--follow` takes a look-alike note added later for a copy of the first (`C085`, or
    /// `C098` for a long one) and shows the first note's commits; history follows renames only.
    @Test(arguments: [
        "# Meeting\n\n- agenda\n- notes\n",
        (1...40).map { "line \($0)\n" }.joined(),
    ])
    func historyNeverShowsALookAlikeNotesCommits(body: String) throws {
        let s = try Sandbox()
        try s.write("from-a.md", "---\ncreatedAt: 2025-01-01T10:00:00Z\n---\n" + body)
        try s.makeRepository()
        try s.write("from-a.md", "---\ncreatedAt: 2025-01-01T10:00:00Z\n---\n" + body + "- more\n")
        try s.gitOK(["commit", "-q", "-am", "Grow a"])
        try s.write("from-b.md", "---\ncreatedAt: 2025-01-02T10:00:00Z\n---\n" + body + "- more\n")
        try s.gitOK(["add", "from-b.md"])
        try s.gitOK(["commit", "-q", "-m", "Add b"])
        let follow = try s.gitOK(["log", "--follow", "--format=%s", "--", "from-b.md"])
        #expect(follow.contains("start"), "git's --follow takes b for a copy of a: \(follow)")

        let r = try s.run(["history", "from-b"])
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.split(separator: "\n").map { $0.split(separator: "\t").last ?? "" } == ["Add b"])
        let patch = try s.run(["log", "--patch", "from-b"])
        #expect(!patch.stdout.contains("from-a.md"), "\(patch)")
    }

    @Test func historyOfADeletedNoteNeverLeavesTheVault() throws {
        let s = try Sandbox()
        try s.write("outside.md", "# Outside the inner vault\n")
        try s.write("inner/gone.md", "# Gone\n")
        try s.write("inner/kept.md", "# Kept\n")
        try s.makeRepository()
        try s.gitOK(["rm", "-q", "inner/gone.md"])
        try s.gitOK(["commit", "-q", "-m", "Drop it"])
        let inner = ["--vault", s.vault + "/inner"]
        // git has both files' histories; only a plain ID of the vault reaches a deleted note's.
        #expect(try s.run(inner + ["history", "../outside"]).stderr.contains("is outside the vault"))
        #expect(try s.run(inner + ["history", "gone"]).stdout.split(separator: "\n").count == 2)
        #expect(
            try s.run(inner + ["history", s.vault + "/inner/gone"]).stderr
                == "Error: no note matches '\(s.vault)/inner/gone'\n")
        #expect(try s.run(inner + ["history", "x/../gone"]).stderr == "Error: no note matches 'x/../gone'\n")
    }

    @Test func historyOutsideGitIsAClearError() throws {
        let s = try Sandbox()
        try s.useGit()
        try s.write("a.md", "# A\n")
        let r = try s.run(["history", "a"])
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("Error: '\(s.vault)' is not in a git repository"))
    }
}
