import Foundation
import NotesKit
import TestSupport
import Testing

/// Two machines editing one note: the merge driver that `init` and `sync` set up takes the later
/// `updatedAt` and merges the rest line by line, so only edits of the same lines stop a sync; a
/// sync that stopped goes on once the user has removed the markers.
@Suite struct GitMergeTests {
    /// The groceries note with its dates, `updatedAt` at `second` past ten.
    static func groceries(_ lines: [String], second: Int, crlf: Bool = false) -> String {
        let text =
            "---\ncreatedAt: 2026-11-01T10:00:00Z\nupdatedAt: 2026-11-01T10:00:\(String(format: "%02d", second))Z\n---\n"
            + "# Groceries\n\n" + lines.map { $0 + "\n" }.joined()
        return crlf ? text.replacingOccurrences(of: "\n", with: "\r\n") : text
    }

    static let start = ["- milk", "- bread", "- eggs", "- tea"]

    /// A sandbox whose vault is a clone of `remote.git`, with a second clone at `other`; both hold
    /// the groceries note, committed and pushed, and no `.gitattributes` yet.
    static func clones(crlf: Bool = false) throws -> (Sandbox, other: String) {
        let s = try Sandbox()
        try s.write("groceries.md", groceries(start, second: 0, crlf: crlf))
        return (s, try s.pushedAndCloned(["groceries.md"]))
    }

    static func replacing(_ old: String, with new: String, in lines: [String]) -> [String] {
        lines.map { $0 == old ? new : $0 }
    }

    @Test(arguments: [false, true], [false, true])
    func editsOfDifferentLinesMergeWithTheLaterUpdatedAt(hereIsLater: Bool, crlf: Bool) throws {
        let (s, other) = try Self.clones(crlf: crlf)
        let there = Self.replacing("- milk", with: "- oat milk", in: Self.start)
        try String(Self.groceries(there, second: hereIsLater ? 1 : 2, crlf: crlf)).write(
            toFile: other + "/groceries.md", atomically: true, encoding: .utf8)
        var r = try s.run(["sync"], env: ["NOTES_VAULT": other])
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("Committed the vault's own files"), "\(r)")

        try s.write(
            "groceries.md",
            Self.groceries(
                Self.replacing("- tea", with: "- green tea", in: Self.start), second: hereIsLater ? 2 : 1,
                crlf: crlf))
        r = try s.run(["sync"])
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("  changed  Groceries (groceries)\n"), "\(r)")
        let both = Self.groceries(
            ["- oat milk", "- bread", "- eggs", "- green tea"], second: 2, crlf: crlf)
        #expect(try s.read("groceries.md") == both)
        #expect(try s.gitStatus() == "")

        r = try s.run(["sync"], env: ["NOTES_VAULT": other])
        #expect(r.status == 0, "\(r)")
        #expect(try String(contentsOfFile: other + "/groceries.md", encoding: .utf8) == both)
        #expect(try s.read(".gitattributes") == "*.md merge=notes\n*.markdown merge=notes\n")
    }

    /// A vault versioned with plain git has no `.gitattributes`, and the other machine pushed its
    /// edit with git itself: the first `notes sync` here rebases before any tree holds the
    /// driver's lines. The repository's own attributes file (`info/attributes`, which git reads
    /// for every merge and `git status` never shows) sends the note through the driver all the
    /// same; the lines the user had there stay, and a second sync adds nothing.
    @Test func theFirstSyncOverAPushWithoutGitattributesMergesTheDates() throws {
        let (s, other) = try Self.clones()
        try String(Self.groceries(Self.replacing("- milk", with: "- oat milk", in: Self.start), second: 2))
            .write(toFile: other + "/groceries.md", atomically: true, encoding: .utf8)
        try s.gitOK(["commit", "-q", "-am", "oat milk"], in: other)
        try s.gitOK(["push", "-q"], in: other)
        let local = s.vault + "/.git/info/attributes"
        try FileManager.default.createDirectory(
            atPath: s.vault + "/.git/info", withIntermediateDirectories: true)
        try "*.png binary\n".write(toFile: local, atomically: true, encoding: .utf8)
        try s.write(
            "groceries.md",
            Self.groceries(Self.replacing("- tea", with: "- green tea", in: Self.start), second: 1))

        var r = try s.run(["sync"])
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("  changed  Groceries (groceries)\n"), "\(r)")
        #expect(
            try s.read("groceries.md")
                == Self.groceries(["- oat milk", "- bread", "- eggs", "- green tea"], second: 2))
        #expect(try s.gitStatus() == "")
        let lines = "*.png binary\n*.md merge=notes\n*.markdown merge=notes\n"
        #expect(Disk.text(local) == lines)
        r = try s.run(["sync"])
        #expect(r.status == 0, "\(r)")
        #expect(Disk.text(local) == lines)
    }

    /// A vault in a folder of the repository: the lines of the repository's attributes file are
    /// read from the top of the work tree, so they name the vault's folder (its glob characters
    /// escaped, quoted for the space) and leave the repository's other Markdown files alone.
    @Test func theRepositorysAttributesNameTheVaultsFolderOnly() throws {
        let s = try Sandbox(initVault: false)
        try s.useGit()
        try s.gitOK(["init", "-q"], in: s.root.path)
        let r = try s.run(["init", s.root.path + "/my *notes"])
        #expect(r.status == 0, "\(r)")
        // Only the repository's file is asked: the vault's `.gitattributes` would say `notes` too.
        try FileManager.default.removeItem(atPath: s.root.path + "/my *notes/.gitattributes")
        let attributes = try s.gitOK(
            [
                "check-attr", "merge", "--", "my *notes/a.md", "my *notes/sub/b.markdown", "my xnotes/a.md",
                "vault/c.md", "top.md",
            ], in: s.root.path)
        #expect(
            attributes == """
                my *notes/a.md: merge: notes
                my *notes/sub/b.markdown: merge: notes
                my xnotes/a.md: merge: unspecified
                vault/c.md: merge: unspecified
                top.md: merge: unspecified

                """)
    }

    /// A folder whose name starts with `#` (a comment line) or `!` (a negative pattern, which git
    /// refuses in attributes, with a warning on every command), with or without a blank (quoted).
    @Test(arguments: ["#notes", "!bang", "#my notes"])
    func theRepositorysAttributesNameAFolderThatLooksLikeAComment(folder: String) throws {
        let s = try Sandbox(initVault: false)
        try s.useGit()
        try s.gitOK(["init", "-q"], in: s.root.path)
        let r = try s.run(["init", s.root.path + "/" + folder])
        #expect(r.status == 0 && !r.stderr.contains("merge driver"), "\(r)")
        try FileManager.default.removeItem(atPath: s.root.path + "/" + folder + "/.gitattributes")
        let attributes = try s.git(
            ["check-attr", "merge", "--", folder + "/a.md", "other/a.md"], in: s.root.path)
        #expect(attributes.status == 0 && attributes.stderr.isEmpty, "\(attributes)")
        #expect(attributes.stdout == "\(folder)/a.md: merge: notes\nother/a.md: merge: unspecified\n")
    }

    /// The repository's attributes file may be a symlink (a dotfiles setup): the file it leads to
    /// gets the lines and the link stays. One that cannot be written is a warning, not a failed
    /// `init`.
    @Test func aSymlinkedOrUnwritableAttributesFileDoesNotStopInit() throws {
        let s = try Sandbox(initVault: false)
        try s.useGit()
        try s.gitOK(["init", "-q"], in: s.root.path)
        let info = s.root.path + "/.git/info"
        try FileManager.default.createDirectory(atPath: info, withIntermediateDirectories: true)
        try "# mine\n".write(toFile: s.root.path + "/dot-attributes", atomically: true, encoding: .utf8)
        try? FileManager.default.removeItem(atPath: info + "/attributes")
        try FileManager.default.createSymbolicLink(
            atPath: info + "/attributes", withDestinationPath: "../../dot-attributes")
        let r = try s.run(["init", s.root.path + "/v"])
        #expect(r.status == 0 && !r.stderr.contains("merge driver"), "\(r)")
        #expect(
            try FileManager.default.destinationOfSymbolicLink(atPath: info + "/attributes")
                == "../../dot-attributes")
        #expect(
            try String(contentsOfFile: s.root.path + "/dot-attributes", encoding: .utf8)
                == "# mine\nv/**/*.md merge=notes\nv/**/*.markdown merge=notes\n")
        // A link that leads nowhere writable: a warning that says what to add by hand.
        try FileManager.default.removeItem(atPath: info + "/attributes")
        try FileManager.default.createSymbolicLink(
            atPath: info + "/attributes", withDestinationPath: "/proc/version")
        let w = try s.run(["init", s.root.path + "/w"])
        #expect(w.status == 0, "\(w)")
        #expect(
            w.stderr.hasPrefix("warning: could not add the merge driver's lines to '/proc/version'"), "\(w)")
        #expect(w.stderr.contains("w/**/*.md merge=notes"), "\(w)")
        #expect(!(try s.gitOK(["config", "merge.notes.driver"], in: s.root.path)).isEmpty)
    }

    /// The note is mended by hand (any editor) or with `notes edit`, which sets `updatedAt`.
    @Test(arguments: [false, true])
    func anEditOfTheSameLineStopsAndTheMendedNoteFinishesTheSync(withNotesEdit: Bool) throws {
        let (s, other) = try Self.clones()
        try String(Self.groceries(Self.replacing("- milk", with: "- oat milk", in: Self.start), second: 1))
            .write(toFile: other + "/groceries.md", atomically: true, encoding: .utf8)
        #expect(try s.run(["sync"], env: ["NOTES_VAULT": other]).status == 0)
        try s.write(
            "groceries.md",
            Self.groceries(Self.replacing("- milk", with: "- soy milk", in: Self.start), second: 2))

        var r = try s.run(["sync"])
        #expect(r.status == 1, "\(r)")
        #expect(
            r.stderr.hasPrefix("Error: the pull stopped on conflicting changes in:\n  groceries\n"), "\(r)")
        #expect(r.stderr.contains("notes sync"), "\(r)")
        // Only the same line is between the markers: the dates merged.
        r = try s.run(["show", "groceries"])
        #expect(r.stdout.contains("<<<<<<<") && r.stdout.contains(">>>>>>>"), "\(r)")
        #expect(r.stdout.contains("- oat milk") && r.stdout.contains("- soy milk"), "\(r)")
        let stopped = try s.read("groceries.md")
        #expect(
            stopped.hasPrefix("---\ncreatedAt: 2026-11-01T10:00:00Z\nupdatedAt: 2026-11-01T10:00:02Z\n---\n"))

        // Not mended yet: it says so and goes no further.
        r = try s.run(["sync"])
        #expect(r.status == 1, "\(r)")
        #expect(
            r.stderr.hasPrefix("Error: the pull stopped on conflicting changes in:\n  groceries\n"), "\(r)")
        #expect(FileManager.default.fileExists(atPath: s.vault + "/.git/rebase-merge"))

        let lines = ["- oat milk", "- soy milk", "- bread", "- eggs", "- tea"]
        var mended = Self.groceries(lines, second: 2)
        if withNotesEdit {
            r = try s.run(
                ["edit", "groceries", "-"], stdin: "# Groceries\n\n" + lines.joined(separator: "\n"))
            #expect(r.status == 0, "\(r)")
            mended = try s.read("groceries.md")
            #expect(!mended.contains("updatedAt: 2026-11-01T10:00:02Z") && !mended.contains("<<<<<<<"))
        } else {
            try s.write("groceries.md", mended)
        }
        r = try s.run(["sync"])
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("  changed  Groceries (groceries)\n"), "\(r)")
        #expect(r.stdout.hasSuffix("Pushed 1 commit to origin/main.\n"), "\(r)")
        #expect(!FileManager.default.fileExists(atPath: s.vault + "/.git/rebase-merge"))
        #expect(try s.gitStatus() == "")
        #expect(try s.read("groceries.md") == mended)

        r = try s.run(["sync"], env: ["NOTES_VAULT": other])
        #expect(r.status == 0, "\(r)")
        #expect(try String(contentsOfFile: other + "/groceries.md", encoding: .utf8) == mended)
    }

    @Test func aFailingDriverStopsTheSyncAndLosesNoEdit() throws {
        let (s, other) = try Self.clones()
        try String(Self.groceries(Self.replacing("- milk", with: "- oat milk", in: Self.start), second: 1))
            .write(toFile: other + "/groceries.md", atomically: true, encoding: .utf8)
        #expect(try s.run(["sync"], env: ["NOTES_VAULT": other]).status == 0)
        try s.write(
            "groceries.md",
            Self.groceries(Self.replacing("- tea", with: "- green tea", in: Self.start), second: 2))
        // Configuration from the environment wins over the repository's: the driver is `false`.
        let failing = [
            "GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "merge.notes.driver", "GIT_CONFIG_VALUE_0": "false",
        ]
        var r = try s.run(["sync"], env: failing)
        #expect(r.status == 1, "\(r)")
        #expect(
            r.stderr.hasPrefix("Error: the pull stopped on conflicting changes in:\n  groceries\n"), "\(r)")
        #expect(try s.gitStatus().contains("UU groceries.md"))
        // The driver left one side; neither edit is lost in the file.
        let text = try s.read("groceries.md")
        #expect(text.contains("- oat milk") && text.contains("- green tea"), "\(text)")

        r = try s.run(["sync"])
        #expect(r.status == 0, "\(r)")
        #expect(
            try s.read("groceries.md")
                == Self.groceries(["- oat milk", "- bread", "- eggs", "- green tea"], second: 2))
        #expect(try s.gitStatus() == "")
    }

    @Test func aNoteDeletedThereAndEditedHereStopsTheSyncNamingIt() throws {
        let (s, other) = try Self.clones()
        try s.gitOK(["rm", "-q", "groceries.md"], in: other)
        try s.gitOK(["commit", "-q", "-m", "Drop the groceries"], in: other)
        try s.gitOK(["push", "-q"], in: other)
        let edited = Self.groceries(Self.replacing("- tea", with: "- green tea", in: Self.start), second: 2)
        try s.write("groceries.md", edited)

        var r = try s.run(["sync"])
        #expect(r.status == 1, "\(r)")
        #expect(
            r.stderr.hasPrefix("Error: the pull stopped on conflicting changes in:\n  groceries\n"), "\(r)")
        #expect(try s.read("groceries.md") == edited)
        // Kept as it is, the edited note stays.
        r = try s.run(["sync"])
        #expect(r.status == 0, "\(r)")
        #expect(try s.read("groceries.md") == edited)
        #expect(try s.gitStatus() == "")
    }

    @Test func aRebaseOfTheUsersOwnIsNotContinued() throws {
        let (s, _) = try Self.clones()
        // Two commits of one's own, the last one being edited: the rebase is not onto the upstream.
        try s.gitOK(["commit", "-q", "--allow-empty", "-m", "mine"])
        try s.gitOK(["commit", "-q", "--allow-empty", "-m", "mine too"])
        let r0 = try s.git([
            "-c", "sequence.editor=sed -i s/^pick/edit/", "rebase", "-q", "-i", "--keep-empty", "HEAD~1",
        ])
        #expect(r0.status == 0, "\(r0)")
        let r = try s.run(["sync"])
        #expect(r.status == 1, "\(r)")
        #expect(r.stderr.hasPrefix("Error: a rebase is in progress"), "\(r)")
        #expect(try s.gitOK(["status"]).contains("interactive rebase in progress"))
    }

    @Test func initAndSyncSetUpTheDriverForTheBinaryAsItIsFound() throws {
        let s = try Sandbox(initVault: false)
        try s.makeRepository()
        let folder = s.root.path + "/my 'tools'"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: folder + "/notes", withDestinationPath: Sandbox.binary)
        let quoted = Shell.quote(folder + "/notes")
        var r = try s.run([], shell: quoted + " init " + Shell.quote(s.vault))
        #expect(r.status == 0, "\(r)")
        #expect(r.stderr.contains("add -- .notes/.gitignore .gitattributes"), "\(r)")
        #expect(try s.read(".gitattributes") == "*.md merge=notes\n*.markdown merge=notes\n")
        #expect(try s.gitOK(["config", "merge.notes.driver"]) == quoted + " __merge -- %O %A %B %L %P\n")
        // The binary moved: the next sync finds it again (and then stops: no remote).
        r = try s.run(["sync"])
        #expect(r.status == 1, "\(r)")
        #expect(
            try s.gitOK(["config", "merge.notes.driver"]) == Sandbox.binary + " __merge -- %O %A %B %L %P\n")
        // A .gitattributes of the user's keeps its lines.
        try s.write(".gitattributes", "*.png binary")
        r = try s.run(["init", s.vault])
        #expect(r.status == 0, "\(r)")
        // It is already a vault, but not nothing changed.
        #expect(r.stdout == "\(s.vault) is already a vault; brought .gitattributes up to date\n", "\(r)")
        // The `.gitignore` the first init wrote is still not committed: it is named too.
        #expect(r.stderr.contains("add -- .gitattributes .notes/.gitignore &&"), "\(r)")
        #expect(try s.read(".gitattributes") == "*.png binary\n*.md merge=notes\n*.markdown merge=notes\n")
    }

    static let conflictedFrontMatter = """
        ---
        createdAt: 2026-11-01T10:00:00Z
        <<<<<<< ours
        tags: [home]
        =======
        tags: [shop]
        >>>>>>> theirs
        updatedAt: 2026-11-01T10:00:02Z
        ---
        # Groceries

        - milk

        """

    @Test(arguments: [false, true])
    func aNoteWithMarkersInItsFrontMatterIsShownAndEditedWhole(crlf: Bool) throws {
        let s = try Sandbox()
        let eol = crlf ? "\r\n" : "\n"
        try s.write("groceries.md", Self.conflictedFrontMatter.replacingOccurrences(of: "\n", with: eol))
        var r = try s.run(["show", "groceries"])
        #expect(r.stdout == Self.conflictedFrontMatter.replacingOccurrences(of: "\n", with: eol), "\(r)")

        // The editor gets the whole file, markers included, and what it leaves is the file.
        let script = s.root.path + "/mend.sh"
        try """
        #!/bin/sh
        cp "$1" '\(s.root.path)/seen.md'
        grep -v -e '^<<<<<<<' -e '^=======' -e '^>>>>>>>' -e 'tags: \\[shop\\]' "$1" > "$1.new"
        mv "$1.new" "$1"

        """.write(toFile: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script)
        r = try s.run(["edit", "groceries"], env: ["NOTES_EDITOR": script])
        #expect(r.status == 0, "\(r)")
        #expect(
            try String(contentsOfFile: s.root.path + "/seen.md", encoding: .utf8)
                == Self.conflictedFrontMatter)
        let mended = """
            ---
            createdAt: 2026-11-01T10:00:00Z
            tags: [home]
            updatedAt: 2026-11-01T10:00:02Z
            ---
            # Groceries

            - milk

            """
        #expect(try s.read("groceries.md") == mended.replacingOccurrences(of: "\n", with: eol))
        let listed = try jsonArray(try s.run(["list", "--json"]).stdout)
        #expect(listed.first?["conflicted"] as? Bool == false, "\(listed)")

        // Text given on the command line replaces the whole file too.
        try s.write("groceries.md", Self.conflictedFrontMatter)
        r = try s.run(["edit", "groceries", "-"], stdin: mended)
        #expect(r.status == 0, "\(r)")
        #expect(try s.read("groceries.md") == mended)
    }
}
