import Foundation
import NotesKit
import Testing

/// Filling a template: each placeholder, the title heading, the content, the front matter.
@Suite struct TemplateTests {
    /// Wednesday 2 December 2026, 14:05:09.
    static let time = LocalDateTime(year: 2026, month: 12, day: 2, hour: 14, minute: 5, second: 9)

    func fill(_ text: String, title: String = "", content: String? = nil) throws -> FilledTemplate {
        try Template(name: "t", text: text).filled(
            with: TemplateValues(title: title, time: Self.time, content: content))
    }

    /// One placeholder and what it becomes.
    struct Case: CustomTestStringConvertible, Sendable {
        var template: String
        var expected: String
        var testDescription: String { template }
    }

    static let placeholders: [Case] = [
        Case(template: "Title: {{title}}", expected: "Title: Plan"),
        Case(template: "{{date}}", expected: "2026-12-02"),
        Case(template: "{{time}}", expected: "14:05"),
        Case(template: "{{date:dddd, MMMM Do YYYY}}", expected: "Wednesday, December 2nd 2026"),
        Case(template: "{{date:GGGG-[W]WW}}", expected: "2026-W49"),
        Case(template: "{{time:h:mm:ss A}}", expected: "2:05:09 PM"),
        Case(template: "{{time:HH}}h", expected: "14h"),
        Case(template: "{{date:}}", expected: "2026-12-02"),
        Case(template: "{{date}} {{time}} {{date}}", expected: "2026-12-02 14:05 2026-12-02"),
        Case(template: "{{unknown}} {{ title }} {{Title}}", expected: "{{unknown}} {{ title }} {{Title}}"),
        Case(template: "{{date", expected: "{{date"),
        Case(template: "a {{b", expected: "a {{b"),
        Case(template: "{{yesterday}} {{tomorrow}}", expected: "{{yesterday}} {{tomorrow}}"),
        Case(template: "{{}}", expected: "{{}}"),
    ]

    @Test(arguments: placeholders)
    func fillsEachPlaceholder(_ c: Case) throws {
        // A title the template does not name would become a heading of its own.
        let title = c.template.contains("{{title}}") ? "Plan" : ""
        #expect(try fill(c.template, title: title).body == c.expected)
    }

    @Test func dailyNotesFillYesterdayAndTomorrow() throws {
        let values = TemplateValues(
            title: "2026-12-02", time: Self.time, yesterday: "journal/2026-12-01",
            tomorrow: "journal/2026-12-03",
            titleHeading: false)
        let filled = try Template(name: "daily", text: "[[{{yesterday}}]] · [[{{tomorrow}}]]\n").filled(
            with: values)
        #expect(filled.body == "[[journal/2026-12-01]] · [[journal/2026-12-03]]\n")
    }

    @Test func aTitleBecomesTheFirstHeadingOnlyWithoutTitlePlaceholder() throws {
        #expect(try fill("## Agenda\n", title: "Standup").body == "# Standup\n\n## Agenda\n")
        #expect(try fill("# {{title}}\n\n## Agenda\n", title: "Standup").body == "# Standup\n\n## Agenda\n")
        #expect(try fill("Meeting: {{title}}\n", title: "Standup").body == "Meeting: Standup\n")
        // A blank title adds no heading.
        #expect(try fill("## Agenda\n", title: "  ").body == "## Agenda\n")
    }

    @Test func aHeadingLeftWithoutItsTitleIsDropped() throws {
        #expect(try fill("# {{title}}\n\nBody\n").body == "Body\n")
        #expect(try fill("# {{title}}\n \n\nBody\n\n").body == "Body\n\n")
        #expect(try fill("## {{title}} \n### {{title}}\nBody\n").body == "Body\n")
        // Only a line a placeholder emptied: a `#` the template holds as it is stays.
        #expect(try fill("#\nBody\n").body == "#\nBody\n")
        #expect(try fill("# {{title}} notes\n").body == "#  notes\n")
    }

    @Test func contentGoesWhereThePlaceholderIsElseAfterTheTemplate() throws {
        #expect(
            try fill("## Notes\n{{content}}\n## End\n", content: "hello\n").body
                == "## Notes\nhello\n## End\n")
        #expect(try fill("## Notes\n\n", content: "hello").body == "## Notes\n\nhello")
        #expect(try fill("", content: "hello").body == "hello")
        // Without content the placeholder is filled with nothing.
        #expect(try fill("a{{content}}b\n").body == "ab\n")
        // What the content holds is not filled again.
        #expect(try fill("{{content}}", content: "{{title}} {{date}}").body == "{{title}} {{date}}")
    }

    @Test func frontMatterIsFilledAndItsOwnDatesDropped() throws {
        let template = """
            ---
            createdAt: 2020-01-01T00:00:00Z
            title: "{{title}}"
            updatedAt:
              - 2020-01-02
            tags: [meeting]
            day: {{date:YYYY-MM-DD}}
            ---
            # {{title}}

            """
        let filled = try fill(template, title: "Plan")
        #expect(filled.frontMatter == ["title: \"Plan\"\n", "tags: [meeting]\n", "day: 2026-12-02\n"])
        #expect(filled.body == "# Plan\n")
        let created = 1_796_220_309.0  // 2026-12-02T14:05:09Z
        #expect(
            filled.noteText(created: created)
                == "---\ncreatedAt: 2026-12-02T14:05:09Z\ntitle: \"Plan\"\ntags: [meeting]\nday: 2026-12-02\n---\n# Plan\n"
        )
        #expect(filled.noteText(body: "edited\n", created: created).hasSuffix("---\nedited\n"))
        // A template without front matter gives the note none of its own: `add` writes it.
        #expect(try fill("# {{title}}\n", title: "Plan").noteText(created: created) == "# Plan\n")
    }

    @Test func anUnfilledTitleLeavesNoEmptyFrontMatterKey() throws {
        let template =
            "---\ntitle: {{title}}\nname: \"{{title}}\"\nsubject: Re {{title}}\ntags: [a]\n---\nx\n"
        #expect(try fill(template).frontMatter == ["subject: Re\n", "tags: [a]\n"])
        #expect(
            try fill(template, title: "T").frontMatter
                == ["title: T\n", "name: \"T\"\n", "subject: Re T\n", "tags: [a]\n"])
    }

    /// What fills the front matter reads back as given, whatever it holds: quoted where a plain
    /// value would read otherwise (`Re: budget` would be a key, ` #1` a comment), escaped in a
    /// quoted one, and left as it is where it reads back plain.
    @Test(arguments: [
        #"Say "hi", Bob: #1"#, "It's [done], {ok}", "- dash", "Plan", "Plan: B", #"back\slash"#,
    ])
    func aFrontMatterValueReadsBackAsTheTitleGiven(title: String) throws {
        let template = """
            ---
            title: {{title}}
            quoted: "{{title}}"
            single: '{{title}}'
            subject: Re {{title}} # a comment
            aliases: [{{title}}, "{{title}}", other]
            list:
              - {{title}}
            day: {{date}} {{time}}
            ---
            x

            """
        let text = try fill(template, title: title).noteText(created: 0)
        let document = NoteDocument(parsing: text)
        #expect(document.warnings.isEmpty, "\(text)")
        let fm = try #require(document.frontMatter)
        for key in ["title", "quoted", "single"] { #expect(fm.scalar(key) == title, "\(key): \(text)") }
        #expect(fm.scalar("subject") == "Re " + title, "\(text)")
        #expect(fm.items("aliases") == [title, title, "other"], "\(text)")
        #expect(fm.items("list") == [title], "\(text)")
        #expect(fm.scalar("day") == "2026-12-02 14:05", "\(text)")
        #expect(text.contains(" # a comment\n"))
    }

    @Test func aValueThatReadsBackPlainIsWrittenAsTheTemplateHasIt() throws {
        let template = "---\ntitle: {{title}}\ntags: [a,{{title}}]\nat: {{time}}\n---\nx\n"
        #expect(
            try fill(template, title: "Weekly sync").frontMatter
                == ["title: Weekly sync\n", "tags: [a, Weekly sync]\n", "at: 14:05\n"])
    }

    @Test func aLineThatHeldOnlyAnEmptyContentIsDropped() throws {
        #expect(try fill("## Notes\n{{content}}\n\n## End\n").body == "## Notes\n\n## End\n")
        #expect(
            try fill("## Notes\n  {{content}}\n\n## End\n", content: "a").body == "## Notes\n  a\n\n## End\n")
        // Content in a line of other text leaves that text.
        #expect(try fill("Log: {{content}}\n").body == "Log: \n")
    }

    @Test func aTemplateWithCRLFLinesIsFilledWithLF() throws {
        let filled = try fill("---\r\ntags: [a]\r\n---\r\n# {{title}}\r\nx\r\n", title: "T")
        #expect(filled.frontMatter == ["tags: [a]\n"])
        #expect(filled.body == "# T\nx\n")
    }

    @Test func aFormatWithALetterThatIsNoTokenIsAnError() {
        let reason = MomentFormatError.unknownToken("Q", format: "YYYY-Q").errorDescription ?? ""
        #expect(throws: JournalError.badTemplate("t", reason: reason)) { try fill("{{date:YYYY-Q}}") }
    }
}
