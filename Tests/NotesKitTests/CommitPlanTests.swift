import Foundation
import TestSupport
import Testing

@testable import NotesKit

/// The commits auto-commit and `sync` make: their messages, and when there is none.
@Suite struct CommitPlanTests {
    @Test func aMoveSaysHowManyLinksItRewroteInHowManyNotes() {
        let plan = CommitPlan([
            .moved(from: "a.md", to: "work/b.md"), .rewroteLinks("x.md", count: 2),
            .rewroteLinks("work/b.md", count: 3),
        ])
        #expect(plan?.message == "notes: move a to work/b (rewrote 5 links in 2 notes)")
        #expect(plan?.paths == ["a.md", "work/b.md", "x.md"])
        #expect(
            CommitPlan([.moved(from: "a.md", to: "b.md"), .rewroteLinks("x.md", count: 1)])?.message
                == "notes: move a to b (rewrote 1 link in 1 note)")
        #expect(CommitPlan([.moved(from: "a.md", to: "b.md")])?.message == "notes: move a to b")
    }

    /// `notes today` makes the day's note and then the editor writes it: one note added.
    @Test func aNoteMadeAndThenRewrittenWasAdded() {
        #expect(CommitPlan([.added("j/d.md"), .modified("j/d.md")])?.message == "notes: add j/d")
        #expect(CommitPlan([.modified("a.md"), .modified("a.md")])?.message == "notes: edit a")
        #expect(CommitPlan([.restored("a.md"), .modified("a.md")])?.message == "notes: restore a")
        let two = CommitPlan([.added("a.md"), .modified("b.md"), .modified("a.md")])
        #expect(two?.message == "notes: 2 changes\n\n- add a\n- edit b")
        #expect(two?.paths == ["a.md", "b.md"])
    }

    /// `sync` commits the attachments notes link to along with them: files, not notes.
    @Test func manyFilesThatAreNotAllNotesAreFiles() {
        let notes = CommitPlan(["a.md", "b.md", "c.md", "d.md"].map { Change.added($0) })
        #expect(notes?.message == "notes: add 4 notes\n\n- a\n- b\n- c\n- d")
        let files = CommitPlan(["a.md", "img/b.png", "c.pdf", "d.md"].map { Change.added($0) })
        #expect(files?.message == "notes: add 4 files\n\n- a\n- img/b.png\n- c.pdf\n- d")
        #expect(CommitPlan([]) == nil)
    }

    /// During a merge or rebase auto-commit commits nothing and says so once, not at every change
    /// (the browser commits after each).
    @Test func anUnfinishedMergeIsToldOncePerStore() throws {
        try Sandbox(tree: [.directory("v", [.directory(".notes", [])])]).test { root in
            let environment = [
                "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": root,
                "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null",
            ]
            let git = try #require(ProcessRunner.find("git", path: environment["PATH"]))
            #expect(
                try ProcessRunner.run(git, ["init", "-q", root + "/v"], environment: environment).status == 0)
            try Data("0000000000000000000000000000000000000000\n".utf8).write(
                to: URL(fileURLWithPath: root + "/v/.git/MERGE_HEAD"))
            let notes = NoteStore(
                vault: try Vault(root: root + "/v"), cacheDirectory: root + "/cache", environment: environment
            )
            _ = try notes.add(content: "# One\n", now: 0)
            #expect(throws: GitError.unfinished("merge")) { try notes.commitChanges() }
            _ = try notes.add(content: "# Two\n", now: 0)
            #expect(try notes.commitChanges() == nil)
        }
    }
}
