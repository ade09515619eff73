import NotesKit
import Testing

/// Conflict markers and conflict copies, and the unified diff used when no diff tool is there.
@Suite struct ConflictTests {
    @Test(arguments: [
        ("<<<<<<< HEAD\nmine\n=======\ntheirs\n>>>>>>> origin/main\n", true),
        ("intro\n<<<<<<< ours\na\n||||||| base\n=======\nb\n>>>>>>> theirs", true),
        ("<<<<<<< HEAD\nan opening only\n", false),
        (">>>>>>> a closing first\n<<<<<<< then an opening\n", false),
        ("text with <<<<<<< inside a line\nand >>>>>>> too\n", false),
        ("<<<<<< six\n>>>>>> six\n", false),
        ("<< <<<<<< < <<<<<<\n>>>>>>> after runs of fewer than seven\n", false),
        ("a < b\n<<<<<<<<\n>>>>>>>", true),
        ("x\n<<<<<<<", false),
        ("", false),
    ])
    func markers(text: String, present: Bool) {
        #expect(ConflictMarkers.present(in: text) == present)
    }

    /// A named case of `ConflictMarkers.introduced`: the merged file, its three versions, and
    /// whether the merge put markers in it.
    struct MergedCase: CustomTestStringConvertible, Sendable {
        var name: String
        var merged: String
        var base = ""
        var ours = ""
        var theirs = ""
        var introduced: Bool
        var testDescription: String { name }
    }

    static let quoted = "# Git tips\n\n```\n<<<<<<< HEAD\nmine\n=======\ntheirs\n>>>>>>> branch\n```\n"

    @Test(arguments: [
        MergedCase(
            name: "the driver's markers",
            merged: "a\n<<<<<<< a.md (ours)\nx\n=======\ny\n>>>>>>> a.md (theirs)\n",
            base: "a\nw\n", ours: "a\nx\n", theirs: "a\ny\n", introduced: true),
        MergedCase(
            name: "git's own markers", merged: "<<<<<<< HEAD\nx\n=======\ny\n>>>>>>> 1234567 (Edit)\n",
            base: "w\n", ours: "x\n", theirs: "y\n", introduced: true),
        MergedCase(
            name: "a closing marker left alone", merged: "x\ny\n>>>>>>> a.md (theirs)\n", ours: "x\n",
            theirs: "y\n", introduced: true),
        MergedCase(
            name: "markers of another size (%L)", merged: "<<<<<<<<<< ours\nx\n>>>>>>>>>> theirs\n",
            introduced: true),
        MergedCase(
            name: "CRLF markers", merged: "<<<<<<< ours\r\nx\r\n=======\r\ny\r\n>>>>>>> theirs\r\n",
            ours: "x\r\n", theirs: "y\r\n", introduced: true),
        MergedCase(
            name: "no markers", merged: "x\ny\n", base: "w\n", ours: "x\n", theirs: "y\n", introduced: false),
        MergedCase(
            name: "a quote both sides have, mended", merged: quoted + "\nend A and B\n",
            base: quoted + "\nend\n",
            ours: quoted + "\nend A\n", theirs: quoted + "\nend B\n", introduced: false),
        MergedCase(
            name: "a quote both sides have, not mended",
            merged: quoted + "\n<<<<<<< t.md (ours)\nend A\n=======\nend B\n>>>>>>> t.md (theirs)\n",
            base: quoted + "\nend\n", ours: quoted + "\nend A\n", theirs: quoted + "\nend B\n",
            introduced: true),
        MergedCase(
            name: "git's markers with the label the quote has",
            merged: "<<<<<<< HEAD\n" + quoted + "x\n=======\n" + quoted + "y\n>>>>>>> branch\n",
            base: quoted, ours: quoted + "x\n", theirs: quoted + "y\n", introduced: true),
        MergedCase(
            name: "a quote one side added", merged: "x\n" + quoted, base: "w\n", ours: "x\n",
            theirs: "w\n" + quoted, introduced: false),
        MergedCase(
            name: "the same quote added by both sides, both kept", merged: quoted + quoted, ours: quoted,
            theirs: quoted, introduced: false),
        MergedCase(
            name: "one quote in three versions, two in the result", merged: quoted + quoted, base: quoted,
            ours: quoted, theirs: quoted, introduced: true),
        MergedCase(
            name: "a quote the file lost, its markers kept", merged: "<<<<<<< HEAD\n>>>>>>> branch\n",
            base: quoted, ours: quoted, theirs: "", introduced: false),
    ])
    func markersOfTheMerge(_ c: MergedCase) {
        #expect(
            ConflictMarkers.introduced(
                in: Array(c.merged.utf8), base: Array(c.base.utf8), ours: Array(c.ours.utf8),
                theirs: Array(c.theirs.utf8)) == c.introduced)
    }

    @Test func aNoteWithMarkersIsConflicted() {
        let note = Note(
            path: "a.md", document: NoteDocument(parsing: "# A\n<<<<<<< HEAD\nx\n=======\ny\n>>>>>>> b\n"),
            mtime: 0)
        #expect(note.conflicted)
        #expect(!Note(path: "b.md", document: NoteDocument(parsing: "# B\n"), mtime: 0).conflicted)
        // Two edits of one note both change updatedAt: git's markers are then in the front matter.
        let merged = """
            ---
            createdAt: 2026-11-30T10:00:00Z
            <<<<<<< HEAD
            updatedAt: 2026-11-30T11:00:00Z
            =======
            updatedAt: 2026-11-30T12:00:00Z
            >>>>>>> theirs
            ---
            # Plan

            """
        #expect(Note(path: "c.md", document: NoteDocument(parsing: merged), mtime: 0).conflicted)
        let spanning = "---\ncreatedAt: 2026-11-30\n<<<<<<< HEAD\n---\n# A\n=======\n# B\n>>>>>>> theirs\n"
        #expect(Note(path: "d.md", document: NoteDocument(parsing: spanning), mtime: 0).conflicted)
    }

    @Test(arguments: [
        ("groceries.sync-conflict-20261130-101500-ABCDEFG.md", "groceries.md", ConflictCopy.Source.syncthing),
        ("work/plan.sync-conflict-20261130-101500-7XQ2ZZA.markdown", "work/plan.markdown", .syncthing),
        ("plan (Ann's conflicted copy 2026-11-30).md", "plan.md", .dropbox),
        ("plan (conflicted copy).md", "plan.md", .dropbox),
        ("a (b) (Ann's MacBook's conflicted copy 2026-11-30).md", "a (b).md", .dropbox),
        ("old (conflicted copy 2026-11-30 101500).md", "old.md", .nextcloud),
        ("work/standup.conflict-20261130-101500.md", "work/standup.md", .notes),
        ("standup.conflict-20261130-101500-2.md", "standup.md", .notes),
        ("old.markdown.conflict-20261130-101500.md", "old.markdown", .notes),
    ])
    func copies(path: String, original: String, source: ConflictCopy.Source) {
        let copy = ConflictCopy(path: path)
        #expect(copy == ConflictCopy(path: path))
        #expect(copy?.original == original)
        #expect(copy?.source == source)
    }

    @Test(arguments: [
        "groceries.md", "conflict-resolution.md", "a.sync-conflict-2026-ABC.md", "x.conflict-2026.md",
        "notes (my copy).md", "y.conflict-20261130-101500.txt", "z.conflict-20261130-101500.markdown",
        ".sync-conflict-20261130-101500-ABCDEFG.md",
    ])
    func notCopies(path: String) {
        #expect(ConflictCopy(path: path) == nil)
    }

    @Test func unifiedDiffLikeDiffU() {
        let old = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n"
        let new = "a\nB\nc\nd\ne\nf\ng\nh\ni\nj\nk\n"
        #expect(
            UnifiedDiff.make(old, new, oldLabel: "x.md", newLabel: "y.md", context: 2) == """
                --- x.md
                +++ y.md
                @@ -1,4 +1,4 @@
                 a
                -b
                +B
                 c
                 d
                @@ -9,2 +9,3 @@
                 i
                 j
                +k

                """)
        #expect(UnifiedDiff.make("same\n", "same\n", oldLabel: "a", newLabel: "b") == "")
        #expect(
            UnifiedDiff.make("", "new\n", oldLabel: "a", newLabel: "b")
                == "--- a\n+++ b\n@@ -0,0 +1 @@\n+new\n")
    }

    /// Texts that differ only by the line feed at the end differ, marked as diff -u marks them.
    @Test func aMissingLastLineFeedIsADifference() {
        #expect(
            UnifiedDiff.make("a\nb", "a\nb\n", oldLabel: "x", newLabel: "y") == """
                --- x
                +++ y
                @@ -1,2 +1,2 @@
                 a
                -b
                \\ No newline at end of file
                +b

                """)
        #expect(
            UnifiedDiff.make("a\nb\n", "a\nc", oldLabel: "x", newLabel: "y") == """
                --- x
                +++ y
                @@ -1,2 +1,2 @@
                 a
                -b
                +c
                \\ No newline at end of file

                """)
        #expect(UnifiedDiff.make("a\nb", "a\nb", oldLabel: "x", newLabel: "y") == "")
    }
}
