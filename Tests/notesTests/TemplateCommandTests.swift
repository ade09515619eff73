import Foundation
import TestSupport
import Testing

/// `notes add --template` and `notes templates`.
@Suite struct TemplateCommandTests {
    static let now = ["NOTES_TEST_NOW": "2026-12-02T09:30:00+01:00"]

    static func meeting(_ s: Sandbox) throws {
        try s.write(
            ".templates/meeting.md",
            """
            ---
            tags: [meeting]
            createdAt: 2020-01-01T00:00:00Z
            when: {{date}} {{time}}
            ---
            # {{title}}

            {{date:dddd, MMMM Do}}

            ## Notes
            {{content}}

            """)
    }

    @Test func theTextFillsTheContentAndTheTitleTheTitle() throws {
        let s = try Sandbox()
        try Self.meeting(s)
        let r = try s.run(
            ["add", "--template", "meeting", "--title", "Roof repair", "Call", "Ann"], env: Self.now)
        #expect(r.status == 0 && r.stderr == "", "\(r)")
        #expect(r.stdout == "roof-repair\n")
        #expect(
            try s.read("roof-repair.md")
                == "---\ncreatedAt: 2026-12-02T08:30:00Z\ntags: [meeting]\nwhen: 2026-12-02 08:30\n---\n"
                + "# Roof repair\n\nWednesday, December 2nd\n\n## Notes\nCall Ann\n")
    }

    @Test func stdinFillsTheContentToo() throws {
        let s = try Sandbox()
        try Self.meeting(s)
        let r = try s.run(["add", "-T", "meeting", "-t", "Piped"], stdin: "line 1\nline 2\n", env: Self.now)
        #expect(r.status == 0 && r.stdout == "piped\n", "\(r)")
        #expect(try s.read("piped.md").hasSuffix("## Notes\nline 1\nline 2\n"))
    }

    @Test func withoutContentPlaceholderTheTextGoesAfterAndTheTitleFirst() throws {
        let s = try Sandbox()
        try s.write(".templates/plain.md", "## Agenda\n\n- \n")
        let r = try s.run(["add", "--template", "plain", "--title", "Kickoff", "We met."], env: Self.now)
        #expect(r.status == 0 && r.stdout == "kickoff\n", "\(r)")
        #expect(try s.read("kickoff.md").hasSuffix("---\n# Kickoff\n\n## Agenda\n\n-\n\nWe met.\n"))
    }

    @Test func aHeadingLeftEmptyByAMissingTitleIsDropped() throws {
        let s = try Sandbox()
        try s.write(".templates/t.md", "# {{title}}\n\nIdea: {{content}}\n")
        let r = try s.run(["add", "--template", "t", "-"], stdin: "fly", env: Self.now)
        #expect(r.status == 0 && r.stdout == "idea-fly\n", "\(r)")
        #expect(try s.read("idea-fly.md").hasSuffix("---\nIdea: fly\n"))
    }

    @Test func aMissingTemplateNamesTheFolderAndTheTemplatesThere() throws {
        let s = try Sandbox()
        try Self.meeting(s)
        try s.write(".templates/work/standup.md", "# Standup\n")
        var r = try s.run(["add", "--template", "meetng", "x"])
        #expect(r.status == 1, "\(r)")
        #expect(
            r.stderr
                == "Error: no template 'meetng' in '.templates/'; the templates there: meeting, work/standup\n"
        )
        #expect(Disk.names(s.vault) == [".notes", ".templates"])
        let empty = try Sandbox()
        r = try empty.run(["add", "--template", "meeting", "x"])
        #expect(
            r.status == 1
                && r.stderr.hasPrefix("Error: no template 'meeting' in '.templates/'; there are none yet"))
    }

    /// A link in the template folder, to a folder or a file, leads to no template: `templates` does
    /// not list it, and `add` does not read through it (a cloned vault's link to the user's files).
    @Test func aTemplateThroughASymlinkIsNoTemplate() throws {
        let s = try Sandbox()
        try Self.meeting(s)
        let outside = s.root.path + "/outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try "# Private\n\nnot for this vault\n".write(
            toFile: outside + "/private.md", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            atPath: s.vault + "/.templates/out", withDestinationPath: outside)
        try FileManager.default.createSymbolicLink(
            atPath: s.vault + "/.templates/link.md", withDestinationPath: outside + "/private.md")
        #expect(try s.run(["templates"]).stdout == "meeting\n")
        for name in ["out/private", "link"] {
            let r = try s.run(["add", "--template", name, "x"], env: Self.now)
            #expect(r.status == 1, "\(r)")
            #expect(
                r.stderr == "Error: no template '\(name)' in '.templates/'; the templates there: meeting\n",
                "\(r)")
        }
        #expect(Disk.names(s.vault) == [".notes", ".templates"])
    }

    /// A Mac may write `é` as `e` and a combining accent; typed composed, the name still finds it.
    @Test func aNameFindsItsTemplateInEitherUnicodeForm() throws {
        let s = try Sandbox()
        try s.write(".templates/Re\u{301}union.md", "# {{title}}\n\nQui :\n")
        #expect(Disk.names(s.vault + "/.templates").map { Array($0.utf8).count } == [12])
        let r = try s.run(["add", "--template", "R\u{E9}union", "--title", "Lundi"], env: Self.now)
        #expect(r.status == 0 && r.stdout == "lundi\n", "\(r)")
        #expect(try s.read("lundi.md").hasSuffix("---\n# Lundi\n\nQui :\n"))
    }

    @Test func theTemplateFolderSettingNamesAnotherFolder() throws {
        let s = try Sandbox()
        try s.write("Templates/Idea.md", "# {{title}}\n")
        #expect(try s.run(["config", "set", "--vault-local", "templateFolder", "Templates"]).status == 0)
        #expect(try s.run(["templates"]).stdout == "Idea\n")
        let r = try s.run(["add", "--template", "Idea", "--title", "Boat"])
        #expect(r.status == 0 && r.stdout == "boat\n", "\(r)")
    }

    @Test func templatesListsTheNamesOrSaysThereAreNone() throws {
        let s = try Sandbox()
        var r = try s.run(["templates"])
        #expect(r.status == 0 && r.stdout == "", "\(r)")
        #expect(
            r.stderr
                == "No templates in '\(s.vault)/.templates/' yet; put Markdown files there (a daily.md makes the daily notes).\n"
        )
        try Self.meeting(s)
        try s.write(".templates/daily.md", "# {{title}}\n")
        try s.write(".templates/work/standup.md", "# Standup\n")
        try s.write(".templates/readme.txt", "not a template")
        r = try s.run(["templates"])
        #expect(r.status == 0 && r.stdout == "daily\nmeeting\nwork/standup\n", "\(r)")
        // Templates are no notes: a hidden folder.
        #expect(try s.run(["list"]).stdout == "")
        // And the shells complete them.
        #expect(try s.run(["__complete", "templates", "m"]).stdout == "meeting\n")
    }

    // MARK: The editor

    @Test func theEditorOpensOnTheFilledTemplate() throws {
        let s = try Sandbox()
        try Self.meeting(s)
        let editor = try s.script(
            "ed.sh",
            #"grep -q '^# Plan$' "$1" || exit 4; grep -q 'tags' "$1" && exit 5; printf 'decided\n' >> "$1""#)
        let r = try s.run(
            ["add", "--template", "meeting", "--title", "Plan"],
            env: Self.now.merging(["NOTES_EDITOR": editor]) { $1 },
            tty: true)
        #expect(r.status == 0 && r.stdout == "plan\n", "\(r)")
        #expect(
            try s.read("plan.md")
                == "---\ncreatedAt: 2026-12-02T08:30:00Z\ntags: [meeting]\nwhen: 2026-12-02 08:30\n---\n"
                + "# Plan\n\nWednesday, December 2nd\n\n## Notes\ndecided\n")
    }

    @Test func anUntouchedTemplateSavesNothing() throws {
        let s = try Sandbox()
        try Self.meeting(s)
        for editor in ["true", try s.script("ed.sh", #"printf '\n\n' >> "$1""#)] {
            let r = try s.run(
                ["add", "--template", "meeting", "--title", "Plan"], env: ["NOTES_EDITOR": editor], tty: true)
            #expect(r.status == 1 && r.stderr == "Nothing saved.\n" && r.stdout == "", "\(r)")
        }
        #expect(Disk.names(s.vault) == [".notes", ".templates"])
    }

    @Test func aTemplateWithABadDateFormatIsAnError() throws {
        let s = try Sandbox()
        try s.write(".templates/q.md", "Quarter {{date:Q}}\n")
        let r = try s.run(["add", "--template", "q", "x"])
        #expect(
            r.stderr.hasPrefix(
                "Error: the template '.templates/q.md' cannot be filled: the date format 'Q' holds 'Q'"),
            "\(r)")
        #expect(r.status == 1 && Disk.names(s.vault) == [".notes", ".templates"], "\(r)")
    }

    @Test func withoutATitleTheNoteStartsAtItsTextAndHasNoEmptyTitleKey() throws {
        let s = try Sandbox()
        try s.write(
            ".templates/t.md", "---\ntitle: {{title}}\ntags: [t]\n---\n# {{title}}\n\nDate {{date}}\n")
        let r = try s.run(["add", "--template", "t", "x"], env: Self.now)
        #expect(r.status == 0, "\(r)")
        #expect(
            try s.read(r.stdout.trimmingCharacters(in: .newlines) + ".md")
                == "---\ncreatedAt: 2026-12-02T08:30:00Z\ntags: [t]\n---\nDate 2026-12-02\n\nx\n")
    }
}
