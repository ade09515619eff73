import Foundation
import TestSupport
import Testing

/// Conflict markers and conflict copies as `list` and `notes conflicts` show them.
@Suite struct ConflictsCommandTests {
    static func vault() throws -> Sandbox {
        let s = try Sandbox()
        try s.write("groceries.md", "---\ncreatedAt: 2026-11-05T10:00:00Z\n---\n# Groceries\n\n- milk\n")
        try s.write(
            "groceries.sync-conflict-20261130-101500-ABCDEFG.md",
            "---\ncreatedAt: 2026-11-04T10:00:00Z\n---\n# Groceries\n\n- milk\n- eggs\n")
        try s.write("plan.md", "---\ncreatedAt: 2026-11-03T10:00:00Z\n---\n# Plan\n")
        try s.write(
            "plan (Ann's conflicted copy 2026-11-30).md",
            "---\ncreatedAt: 2026-11-02T10:00:00Z\n---\n# Plan B\n")
        try s.write(
            "old (conflicted copy 2026-11-30 101500).md", "---\ncreatedAt: 2026-11-01T10:00:00Z\n---\n# Old\n"
        )
        try s.write("work/standup.md", "---\ncreatedAt: 2026-10-31T10:00:00Z\n---\n# Standup\n")
        try s.write("work/standup.conflict-20261130-101500.md", "# Standup, typed meanwhile\n")
        try s.write(
            "merge.md",
            "---\ncreatedAt: 2026-10-30T10:00:00Z\n---\n# Merge\n<<<<<<< HEAD\nmine\n=======\ntheirs\n>>>>>>> b\n"
        )
        return s
    }

    @Test func aNoteIsNamedByItsFileNameAsALinkNamesIt() throws {
        let s = try Sandbox()
        try s.write("en/Plugins/Backlinks.md", "# Backlinks plugin\n")
        try s.write("work/standup-at-ten.md", "# Standup\n")
        try s.write("a/same.md", "# One\n")
        try s.write("b/same.md", "# Two\n")
        #expect(try s.run(["show", "Backlinks"]).stdout == "# Backlinks plugin\n")
        #expect(try s.run(["show", "standup-at-ten"]).stdout == "# Standup\n")
        let r = try s.run(["show", "same"])
        #expect(r.status == 1 && r.stderr.hasPrefix("Error: 'same' matches 2 notes"), "\(r)")
        #expect(try s.run(["show", "b/same"]).stdout == "# Two\n")
    }

    @Test func aCopyNeverMakesANameAmbiguous() throws {
        let s = try Self.vault()
        // A prefix or a title that both a note and its copy have names the note.
        for (name, expected) in [("grocer", "groceries"), ("Groceries", "groceries"), ("pla", "plan")] {
            let r = try s.run(["show", "--json", name])
            #expect(r.status == 0, "\(name): \(r)")
            let id = (try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])?["id"]
            #expect(id as? String == expected, "\(name): \(r)")
        }
        #expect(try s.run(["edit", "grocer", "-"], stdin: "# Groceries\n\n- oat milk\n").status == 0)
        #expect(try s.read("groceries.md").hasSuffix("- oat milk\n"))
        // The copy is reached by its own ID; a copy whose note is gone by its name.
        #expect(
            try s.run(["show", "groceries.sync-conflict-20261130-101500-ABCDEFG"]).stdout.contains("- eggs"))
        #expect(try s.run(["show", "old"]).stdout == "# Old\n")
        // Two notes that are not copies stay ambiguous.
        try s.write("plans.md", "# Plans\n")
        let r = try s.run(["show", "pla"])
        #expect(r.status == 1 && r.stderr.hasPrefix("Error: 'pla' matches 2 notes"), "\(r)")
    }

    @Test func conflictsListsEachCopyWithItsOriginal() throws {
        let s = try Self.vault()
        var r = try s.run(["conflicts"])
        #expect(r.status == 0, "\(r)")
        #expect(
            r.stdout == """
                groceries.sync-conflict-20261130-101500-ABCDEFG\tgroceries\tsyncthing
                old (conflicted copy 2026-11-30 101500)\told\tnextcloud
                plan (Ann's conflicted copy 2026-11-30)\tplan\tdropbox
                work/standup.conflict-20261130-101500\twork/standup\tnotes

                """)
        r = try s.run(["conflicts", "--color", "always"])
        #expect(
            r.stdout.contains(
                "old (conflicted copy 2026-11-30 101500)          copy of  old (gone)    (Nextcloud)\n"),
            "\(r)")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(try s.run(["conflicts", "--json"]).stdout.utf8))
                as? [[String: Any]])
        #expect(json.count == 4)
        #expect(json[0]["source"] as? String == "syncthing")
        #expect((json[0]["original"] as? [String: Any])?["id"] as? String == "groceries")
        #expect(json[1]["original"] is NSNull)
    }

    @Test func diffShowsHowTheCopyDiffers() throws {
        let s = try Self.vault()
        let r = try s.run(["conflicts", "--diff"])
        #expect(r.status == 0, "\(r)")
        #expect(
            r.stdout.contains(
                "--- a/groceries.md\n+++ b/groceries.sync-conflict-20261130-101500-ABCDEFG.md\n"), "\(r)")
        #expect(r.stdout.contains("-createdAt: 2026-11-05T10:00:00Z\n+createdAt: 2026-11-04T10:00:00Z\n"))
        #expect(r.stdout.contains(" - milk\n+- eggs\n"))
        #expect(
            r.stderr.contains("'old (conflicted copy 2026-11-30 101500)' is a copy of 'old', which is gone."))
        // Without git or diff on PATH, the diff is made by notes itself.
        let bare = try s.run(["conflicts", "--diff"], env: ["PATH": s.root.path])
        #expect(bare.status == 0, "\(bare)")
        #expect(
            bare.stdout.contains(
                "--- groceries.md\n+++ groceries.sync-conflict-20261130-101500-ABCDEFG.md\n@@ -1,6 +1,7 @@\n"),
            "\(bare)")
        #expect(bare.stdout.contains(" - milk\n+- eggs\n"))
    }

    @Test func listMarksConflictsAndOriginalsWithCopies() throws {
        let s = try Self.vault()
        let r = try s.run(["list", "--color", "always", "--sort", "created"], env: ["COLUMNS": "100"])
        let lines = r.stdout.split(separator: "\n").map {
            String($0).replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        }
        #expect(lines.first { $0.contains(" groceries ") }?.hasPrefix(" = Groceries") == true, "\(lines)")
        #expect(lines.first { $0.contains(" plan ") }?.hasPrefix(" = Plan") == true)
        #expect(lines.first { $0.contains(" merge ") }?.hasPrefix(" ! Merge") == true)
        #expect(lines.first { $0.contains(" work/standup ") }?.hasPrefix(" = Standup") == true)
        #expect(lines.first { $0.contains("plan (Ann") }?.hasPrefix("   Plan B") == true)
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(try s.run(["list", "--json"]).stdout.utf8))
                as? [[String: Any]])
        let byID = Dictionary(uniqueKeysWithValues: json.map { ($0["id"] as? String ?? "", $0) })
        #expect(byID["merge"]?["conflicted"] as? Bool == true)
        #expect(byID["groceries"]?["conflicted"] as? Bool == false)
        #expect(
            byID["groceries"]?["conflictCopies"] as? [String] == [
                "groceries.sync-conflict-20261130-101500-ABCDEFG"
            ])
        #expect(byID["plan"]?["conflictCopies"] as? [String] == ["plan (Ann's conflicted copy 2026-11-30)"])
        #expect(byID["merge"]?["dirty"] == nil)
    }

    /// The mark comes from the index: a note that gains markers later (a merge) is flagged once
    /// the index sees the change, and loses the flag when they are resolved.
    @Test func markersFollowTheFileThroughTheIndex() throws {
        let s = try Sandbox()
        try s.write("a.md", "# A\n")
        func conflicted() throws -> Bool? {
            let json =
                try JSONSerialization.jsonObject(with: Data(try s.run(["list", "--json"]).stdout.utf8))
                as? [[String: Any]]
            return json?.first?["conflicted"] as? Bool
        }
        #expect(try conflicted() == false)
        try s.write("a.md", "# A\n<<<<<<< HEAD\nx\n=======\ny\n>>>>>>> b\n")
        #expect(try conflicted() == true)
        #expect(try conflicted() == true)
        try s.write("a.md", "# A\nx\ny\n")
        #expect(try conflicted() == false)
    }

    @Test func listGitMarksUncommittedNotes() throws {
        let s = try Sandbox()
        try s.write("clean.md", "---\ncreatedAt: 2026-11-03T10:00:00Z\n---\n# Clean\n")
        try s.write("changed.md", "---\ncreatedAt: 2026-11-02T10:00:00Z\n---\n# Changed\n")
        try s.makeRepository()
        try s.write("changed.md", "---\ncreatedAt: 2026-11-02T10:00:00Z\n---\n# Changed by hand\n")
        try s.write("work/new.md", "---\ncreatedAt: 2026-11-01T10:00:00Z\n---\n# New\n")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(try s.run(["list", "--json", "--git"]).stdout.utf8))
                as? [[String: Any]])
        #expect(json.map { $0["id"] as? String ?? "" } == ["clean", "changed", "work/new"])
        #expect(json.map { $0["dirty"] as? Bool } == [false, true, true])
        let r = try s.run(["list", "--git", "--color", "always", "--sort", "created"])
        let lines = r.stdout.split(separator: "\n").map {
            String($0).replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        }
        #expect(lines.map { String($0.prefix(4)) } == ["   C", " * C", " * N"], "\(r)")
        // Piped, the marks are a fourth column: --git implies --marks.
        let piped = try s.run(["list", "--git", "--sort", "created"])
        #expect(
            piped.stdout.split(separator: "\n").map {
                $0.split(separator: "\t", omittingEmptySubsequences: false).last ?? ""
            }
                == ["", "*", "*"], "\(piped)")
        // Outside a repository, --git is a clear error.
        let plain = try Sandbox()
        try plain.useGit()
        let outside = try plain.run(["list", "--git"])
        #expect(outside.status == 1)
        #expect(outside.stderr.hasPrefix("Error: '\(plain.vault)' is not in a git repository"), "\(outside)")
    }

    /// Piped rows have three columns unless the marks are asked for (`--marks`, or `--git`):
    /// then a fourth holds them, empty for a note without any.
    @Test func pipedMarksAreAFourthColumnOnlyWhenAsked() throws {
        let s = try Sandbox()
        try s.write("clean.md", "---\ncreatedAt: 2026-11-03T10:00:00Z\n---\n# Clean\n")
        try s.write(
            "torn.md", "---\ncreatedAt: 2026-11-02T10:00:00Z\n---\n<<<<<<< a\nx\n=======\ny\n>>>>>>> b\n")
        try s.write("plan.md", "---\ncreatedAt: 2026-11-01T10:00:00Z\n---\n# Plan\n")
        try s.write("plan.conflict-20261130-101500.md", "# Plan, typed meanwhile\n")
        let plain = try s.run(["list", "--sort", "created", "--reverse"])
        #expect(plain.status == 0, "\(plain)")
        #expect(
            plain.stdout.split(separator: "\n").allSatisfy { $0.split(separator: "\t").count == 3 },
            "\(plain)")
        let r = try s.run(["list", "--marks", "--sort", "created", "--reverse"])
        #expect(r.status == 0, "\(r)")
        let rows = r.stdout.split(separator: "\n").map {
            $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        }
        #expect(rows.map { $0.count } == [4, 4, 4, 4], "\(r)")
        #expect(
            Dictionary(uniqueKeysWithValues: rows.map { ($0[0], $0[3]) })
                == ["plan": "=", "plan.conflict-20261130-101500": "", "torn": "!", "clean": ""], "\(r)")
        let search = try s.run(["search", "--marks", "plan"])
        #expect(search.stdout.contains("\tPlan\t=\n"), "\(search)")
    }
}
