import Foundation
import TestSupport
import Testing

/// `notes today`: the daily note's name, its template, entries added without an editor, the
/// editor, and Obsidian's daily notes.
@Suite struct TodayCommandTests {
    /// Wednesday 2 December 2026, 08:30 UTC (the sandbox's time zone).
    static let now = ["NOTES_TEST_NOW": "2026-12-02T09:30:00+01:00"]

    @Test func addsAnEntryToTodaysNoteMakingItFirst() throws {
        let s = try Sandbox()
        var r = try s.run(["today", "bought", "milk"], env: Self.now)
        #expect(r.status == 0 && r.stderr == "", "\(r)")
        #expect(r.stdout == "journal/2026-12-02\n")
        #expect(
            try s.read("journal/2026-12-02.md")
                == "---\ncreatedAt: 2026-12-02T08:30:00Z\n---\n# 2026-12-02\n\n- 08:30 bought milk\n")
        r = try s.run(
            ["daily", "-"], stdin: "call Ann\nabout the roof\r\n\n  and the gutter\n",
            env: ["NOTES_TEST_NOW": "2026-12-02T18:05:00Z"])
        #expect(r.status == 0 && r.stdout == "journal/2026-12-02\n", "\(r)")
        #expect(
            try s.read("journal/2026-12-02.md").hasSuffix(
                "updatedAt: 2026-12-02T18:05:00Z\n---\n# 2026-12-02\n\n- 08:30 bought milk\n"
                    + "- 18:05 call Ann\n  about the roof\n\n    and the gutter\n"))
        // The note is a note like any other.
        #expect(try s.run(["list"]).stdout.hasPrefix("journal/2026-12-02\t"))
    }

    @Test func theLocalTimeZoneNamesTheDayAndTheTime() throws {
        let s = try Sandbox()
        // 23:30 UTC on 1 December is already 2 December in Tokyo.
        let r = try s.run(
            ["today", "late"], env: ["NOTES_TEST_NOW": "2026-12-01T23:30:00Z", "TZ": "Asia/Tokyo"])
        #expect(r.stdout == "journal/2026-12-02\n", "\(r)")
        #expect(try s.read("journal/2026-12-02.md").hasSuffix("\n- 08:30 late\n"))
    }

    @Test(arguments: [
        ("2026-11-30", "journal/2026-11-30", "- 08:30 x"), ("yesterday", "journal/2026-12-01", "- 08:30 x"),
        ("3 days ago", "journal/2026-11-29", "- 08:30 x"), ("1w", "journal/2026-11-25", "- 08:30 x"),
        ("monday", "journal/2026-11-30", "- 08:30 x"), ("today", "journal/2026-12-02", "- 08:30 x"),
        ("2026-11-20T18:45", "journal/2026-11-20", "- 18:45 x"),
    ])
    func dateNamesAnotherDay(date: String, id: String, entry: String) throws {
        let s = try Sandbox()
        let r = try s.run(["today", "--date", date, "x"], env: Self.now)
        #expect(r.status == 0 && r.stdout == id + "\n", "\(r)")
        #expect(try s.read(id + ".md").hasSuffix("\n" + entry + "\n"))
    }

    // MARK: The day a note is for

    @Test(arguments: [
        ("2026-11-30", "journal/2026-11-30", "2026-11-30T08:30:00Z", "- 08:30 x"),
        ("yesterday", "journal/2026-12-01", "2026-12-01T08:30:00Z", "- 08:30 x"),
        ("3 days ago", "journal/2026-11-29", "2026-11-29T08:30:00Z", "- 08:30 x"),
        ("friday", "journal/2026-11-27", "2026-11-27T08:30:00Z", "- 08:30 x"),
        ("2026-12-25", "journal/2026-12-25", "2026-12-25T08:30:00Z", "- 08:30 x"),
        ("2026-11-20T18:45", "journal/2026-11-20", "2026-11-20T18:45:00Z", "- 18:45 x"),
        ("today", "journal/2026-12-02", "2026-12-02T08:30:00Z", "- 08:30 x"),
    ])
    func aNoteForAnotherDayIsCreatedOnThatDay(date: String, id: String, created: String, entry: String)
        throws
    {
        let s = try Sandbox()
        let r = try s.run(["today", "--date", date, "x"], env: Self.now)
        #expect(r.status == 0 && r.stdout == id + "\n", "\(r)")
        let name = String(id.dropFirst("journal/".count))
        #expect(try s.read(id + ".md") == "---\ncreatedAt: \(created)\n---\n# \(name)\n\n\(entry)\n")
    }

    /// Berlin: UTC+1 in winter, UTC+2 from 29 March to 25 October 2026, the clocks going forward
    /// from 02:00 to 03:00 on the first night and back from 03:00 to 02:00 on the second.
    @Test(arguments: [
        ("2026-07-01", "2026-12-02T09:30:00+01:00", "2026-07-01T07:30:00Z", "- 09:30 x"),
        ("2026-03-29", "2026-12-02T02:30:00+01:00", "2026-03-29T01:30:00Z", "- 03:30 x"),
        ("2026-10-25", "2026-12-02T02:30:00+01:00", "2026-10-25T00:30:00Z", "- 02:30 x"),
        ("2026-03-30", "2026-12-02T02:30:00+01:00", "2026-03-30T00:30:00Z", "- 02:30 x"),
        ("yesterday", "2026-03-30T09:00:00+02:00", "2026-03-29T07:00:00Z", "- 09:00 x"),
        ("yesterday", "2026-03-30T02:30:00+02:00", "2026-03-29T01:30:00Z", "- 03:30 x"),
        ("yesterday", "2026-10-26T02:30:00+01:00", "2026-10-25T00:30:00Z", "- 02:30 x"),
    ])
    func anotherDaysTimeIsItsWallClocksAcrossAChangeOfTheClocks(
        date: String, now: String, created: String, entry: String
    ) throws {
        let s = try Sandbox()
        let r = try s.run(
            ["today", "--date", date, "x"], env: ["NOTES_TEST_NOW": now, "TZ": "Europe/Berlin"])
        #expect(r.status == 0, "\(r)")
        let id = r.stdout.trimmingCharacters(in: .newlines)
        #expect(try s.read(id + ".md").hasPrefix("---\ncreatedAt: \(created)\n---\n"), "\(date) \(now)")
        #expect(try s.read(id + ".md").hasSuffix("\n\n" + entry + "\n"), "\(date) \(now)")
    }

    /// Samoa skipped 30 December 2011 whole, from UTC-10 to UTC+14: a note asked for that day is
    /// still named after it.
    @Test func aDayTheClocksSkipWholeNamesItsOwnNote() throws {
        let s = try Sandbox()
        let r = try s.run(
            ["today", "--date", "2011-12-30", "x"],
            env: ["NOTES_TEST_NOW": "2026-12-02T09:30:00+13:00", "TZ": "Pacific/Apia"])
        #expect(r.status == 0 && r.stdout == "journal/2011-12-30\n", "\(r)")
        #expect(try s.read("journal/2011-12-30.md").hasSuffix("\n- 09:30 x\n"))
    }

    @Test func theJournalIsListedAndFilteredByItsDays() throws {
        let s = try Sandbox()
        for date in ["2026-11-30", "today", "yesterday"] {
            #expect(try s.run(["today", "--date", date, "x"], env: Self.now).status == 0)
        }
        // Made in the editor, left as it was.
        let editor = Self.now.merging(["NOTES_EDITOR": "true"]) { $1 }
        #expect(try s.run(["today", "--date", "2026-11-29"], env: editor, tty: true).status == 0)
        func ids(_ arguments: [String]) throws -> [String] {
            try s.run(arguments, env: Self.now).stdout.split(separator: "\n").map {
                String($0.prefix { $0 != "\t" })
            }
        }
        let days = ["journal/2026-12-02", "journal/2026-12-01", "journal/2026-11-30", "journal/2026-11-29"]
        #expect(try ids(["list"]) == days)
        #expect(try ids(["list", "--sort", "created", "--reverse"]) == days.reversed())
        #expect(try ids(["list", "--since", "yesterday"]) == Array(days.prefix(2)))
        #expect(try ids(["list", "--until", "2026-11-30"]) == Array(days.suffix(2)))
        // An entry added now is an edit like any other: the note is the one changed last.
        #expect(try s.run(["today", "--date", "2026-11-29", "later"], env: Self.now).status == 0)
        #expect(try ids(["list"]).first == "journal/2026-11-29")
        #expect(try ids(["list", "--sort", "created"]) == days)
    }

    @Test func aDateThatDoesNotParseIsAUsageErrorListingTheForms() throws {
        let s = try Sandbox()
        let r = try s.run(["today", "--date", "someday", "x"], env: Self.now)
        #expect(r.status == 64, "\(r)")
        #expect(r.stderr.hasPrefix("Error: 'someday' is not a date; use one of:\n  YYYY-MM-DD"), "\(r)")
        #expect(r.stderr.contains("See 'notes today --help'"))
        #expect(!s.exists("journal"))
    }

    @Test func anEmptyEntryMakesNoNote() throws {
        let s = try Sandbox()
        let r = try s.run(["today", "-"], stdin: " \n\n", env: Self.now)
        #expect(r.status == 1 && r.stderr == "Error: note is empty; nothing saved\n", "\(r)")
        #expect(!s.exists("journal"))
    }

    @Test func anEntryKeepsTheNotesLineEndings() throws {
        let s = try Sandbox()
        try s.write("journal/2026-12-02.md", "# Wednesday\r\n\r\n- 07:00 woke up\r\n")
        #expect(try s.run(["today", "coffee"], env: Self.now).status == 0)
        #expect(
            try s.read("journal/2026-12-02.md").hasSuffix(
                "---\r\n# Wednesday\r\n\r\n- 07:00 woke up\r\n- 08:30 coffee\r\n"))
    }

    @Test func theDailyTemplateIsFilledForTheDay() throws {
        let s = try Sandbox()
        try s.write(
            ".templates/daily.md",
            """
            ---
            createdAt: 2020-01-01T00:00:00Z
            tags: [journal]
            week: {{date:GGGG-[W]WW}}
            ---
            # {{title}} ({{date:dddd}})

            ← [[{{yesterday}}]] · [[{{tomorrow}}]] →
            Made {{date}} {{time}}; {{unknown}} stays.

            """)
        let r = try s.run(["today", "--date", "2027-01-01", "first"], env: Self.now)
        #expect(r.status == 0 && r.stdout == "journal/2027-01-01\n", "\(r)")
        #expect(
            try s.read("journal/2027-01-01.md")
                == """
                ---
                createdAt: 2027-01-01T08:30:00Z
                tags: [journal]
                week: 2026-W53
                ---
                # 2027-01-01 (Friday)

                ← [[journal/2026-12-31]] · [[journal/2027-01-02]] →
                Made 2027-01-01 08:30; {{unknown}} stays.

                - 08:30 first

                """)
    }

    @Test func everyTokenInTheDailyFormat() throws {
        let s = try Sandbox()
        let format = "YYYY YY MMMM MMM MM M DD D Do dddd ddd d HH H hh h mm ss A a WW W GGGG [at] Do"
        try s.write(".notes/settings.json", #"{"dailyFolder": "", "dailyFormat": "\#(format)"}"#)
        // Sunday 1 March 2026, 00:05:09 local time: a 12-hour clock's 12, week 9.
        let r = try s.run(
            ["today", "--date", "2026-03-01", "x"], env: ["NOTES_TEST_NOW": "2026-12-02T00:05:09Z"])
        let name = "2026 26 March Mar 03 3 01 1 1st Sunday Sun 0 00 0 12 12 05 09 AM am 09 9 2026 at 1st"
        #expect(r.status == 0 && r.stdout == name + "\n", "\(r)")
        #expect(s.exists(name + ".md"))
    }

    @Test(arguments: [
        ("2027-01-01", "2026-W53"), ("2027-01-03", "2026-W53"), ("2027-01-04", "2027-W01"),
        ("2024-12-30", "2025-W01"), ("2021-01-03", "2020-W53"), ("2026-01-01", "2026-W01"),
    ])
    func isoWeeksInTheFormatAtTheEdgesOfTheYear(date: String, week: String) throws {
        let s = try Sandbox()
        try s.write(".notes/settings.json", #"{"dailyFolder": "weeks", "dailyFormat": "GGGG-[W]WW"}"#)
        let r = try s.run(["today", "--date", date, "x"], env: Self.now)
        #expect(r.status == 0 && r.stdout == "weeks/" + week + "\n", "\(r)")
    }

    @Test func aSlashInTheFormatMakesFolders() throws {
        let s = try Sandbox()
        #expect(
            try s.run(["config", "set", "--vault-local", "dailyFormat", "YYYY/MM-MMMM/YYYY-MM-DD"]).status
                == 0)
        #expect(try s.run(["config", "set", "--vault-local", "dailyFolder", ""]).status == 0)
        let r = try s.run(["today", "x"], env: Self.now)
        #expect(r.status == 0 && r.stdout == "2026/12-December/2026-12-02\n", "\(r)")
        #expect(try s.read("2026/12-December/2026-12-02.md").contains("# 2026-12-02\n"))
    }

    @Test func aFormatWithALetterThatIsNoTokenIsRefused() throws {
        let s = try Sandbox()
        let r = try s.run(["config", "set", "dailyFormat", "YYYY-Q"])
        #expect(r.status == 64, "\(r)")
        #expect(r.stderr.contains("holds 'Q', which is not a date token"), "\(r)")
    }

    @Test(arguments: [
        ("dailyFormat", "YYYY//MM", "empty, hidden"), ("dailyFolder", ".hidden", "hidden folder"),
    ])
    func aSettingThatNamesNoNoteIsRefusedWhenSet(key: String, value: String, reason: String) throws {
        let s = try Sandbox()
        let r = try s.run(["config", "set", "--vault-local", key, value])
        #expect(r.status == 64, "\(r)")
        #expect(r.stderr.contains("'\(value)' is not a valid value for '\(key)'"), "\(r)")
        #expect(r.stderr.contains(reason), "\(r)")
        #expect(!s.exists(".notes/settings.json"))
    }

    @Test(arguments: [
        (#"{"dailyFormat":"gggg-[W]ww"}"#, "dailyFormat", "'gggg'"),
        (#"{"dailyFolder":".hidden"}"#, "dailyFolder", "hidden folder"),
    ])
    func aSettingsFilesUnusableDailySettingIsAnErrorNotTheDefault(file: String, key: String, reason: String)
        throws
    {
        let s = try Sandbox()
        try s.write(".notes/settings.json", file)
        let r = try s.run(["today", "x"], env: Self.now)
        #expect(r.status == 1, "\(r)")
        #expect(r.stderr.contains("Error: the setting '\(key)'"), "\(r)")
        #expect(r.stderr.contains(s.vault + "/.notes/settings.json"), "\(r)")
        #expect(r.stderr.contains(reason), "\(r)")
        #expect(!r.stderr.contains("it is ignored"), "\(r)")
        #expect(!s.exists("journal"))
    }

    @Test func aUserFilesUnusableDailyFormatIsAnErrorNamingThatFile() throws {
        let s = try Sandbox()
        #expect(try s.run(["config", "set", "sort", "title"]).status == 0)
        let path = try s.run(["config", "path"]).stdout.trimmingCharacters(in: .newlines)
        try #"{"dailyFormat":"YYYY-Q"}"#.write(toFile: path, atomically: true, encoding: .utf8)
        let r = try s.run(["today", "x"], env: Self.now)
        #expect(r.status == 1, "\(r)")
        #expect(r.stderr.contains("Error: the setting 'dailyFormat' is 'YYYY-Q' in '\(path)'"), "\(r)")
        #expect(r.stderr.contains("holds 'Q'"), "\(r)")
        #expect(!s.exists("journal"))
    }

    // MARK: The editor

    @Test func withoutTextTheEditorOpensOnTheNewNote() throws {
        let s = try Sandbox()
        try s.write(".templates/daily.md", "# {{title}}\n\n## Plan\n")
        let editor = try s.script(
            "ed.sh", #"grep -q '^## Plan$' "$1" || exit 4; printf -- '- ship it\n' >> "$1""#)
        let r = try s.run(["today"], env: Self.now.merging(["NOTES_EDITOR": editor]) { $1 }, tty: true)
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout == "journal/2026-12-02\n")
        #expect(try s.read("journal/2026-12-02.md").hasSuffix("---\n# 2026-12-02\n\n## Plan\n- ship it\n"))
    }

    @Test func anUntouchedDailyNoteIsKept() throws {
        let s = try Sandbox()
        let r = try s.run(["today"], env: Self.now.merging(["NOTES_EDITOR": "true"]) { $1 }, tty: true)
        #expect(r.status == 0 && r.stderr == "", "\(r)")
        #expect(r.stdout == "journal/2026-12-02\n")
        #expect(
            try s.read("journal/2026-12-02.md") == "---\ncreatedAt: 2026-12-02T08:30:00Z\n---\n# 2026-12-02\n"
        )
        // Opened again, the note is not made again; without a terminal the editor still opens, as for `edit`.
        let editor = try s.script("ed.sh", #"printf 'later\n' >> "$1""#)
        #expect(try s.run(["today"], env: Self.now.merging(["NOTES_EDITOR": editor]) { $1 }).status == 0)
        #expect(try s.read("journal/2026-12-02.md").hasSuffix("---\n# 2026-12-02\nlater\n"))
    }

    @Test func emptiedInTheEditorNothingIsSaved() throws {
        let s = try Sandbox()
        try s.write("journal/2026-12-02.md", "# Today\n\nkeep\n")
        let editor = try s.script("ed.sh", #": > "$1""#)
        let r = try s.run(["today"], env: Self.now.merging(["NOTES_EDITOR": editor]) { $1 }, tty: true)
        #expect(r.status == 1 && r.stderr == "Nothing saved.\n", "\(r)")
        #expect(try s.read("journal/2026-12-02.md") == "# Today\n\nkeep\n")
    }

    // MARK: Auto-commit

    @Test func withAutoCommitEachRunIsOneCommitSayingWhatItDid() throws {
        let s = try Sandbox()
        try s.makeRepository()
        #expect(try s.run(["config", "set", "gitAutoCommit", "true"]).status == 0)
        func lastCommit() throws -> (message: String, files: [String]) {
            (
                try s.gitOK(["log", "-1", "--format=%B"]).trimmingCharacters(in: .whitespacesAndNewlines),
                try s.committedFiles()
            )
        }
        var r = try s.run(["today", "bought", "milk"], env: Self.now)
        #expect(r.status == 0 && r.stderr == "", "\(r)")
        #expect(try lastCommit() == ("notes: add journal/2026-12-02", ["journal/2026-12-02.md"]))
        r = try s.run(["today", "-"], stdin: "and bread\n", env: Self.now)
        #expect(r.status == 0 && r.stderr == "", "\(r)")
        #expect(try lastCommit() == ("notes: edit journal/2026-12-02", ["journal/2026-12-02.md"]))
        // Made, then written in the editor: added.
        let editor = try s.script("ed.sh", #"printf -- '- call Ann\n' >> "$1""#)
        let env = Self.now.merging(["NOTES_EDITOR": editor]) { $1 }
        r = try s.run(["today", "--date", "yesterday"], env: env, tty: true)
        #expect(r.status == 0 && r.stderr == "", "\(r)")
        #expect(try lastCommit() == ("notes: add journal/2026-12-01", ["journal/2026-12-01.md"]))
        r = try s.run(["today", "--date", "yesterday"], env: env, tty: true)
        #expect(try lastCommit() == ("notes: edit journal/2026-12-01", ["journal/2026-12-01.md"]))
        // Made and left untouched: added, as the note is kept.
        r = try s.run(
            ["today", "--date", "2026-11-30"], env: Self.now.merging(["NOTES_EDITOR": "true"]) { $1 })
        #expect(try lastCommit() == ("notes: add journal/2026-11-30", ["journal/2026-11-30.md"]))
        #expect(try s.commitSubjects().count == 6)
        #expect(try s.gitStatus() == "")
    }

    // MARK: Obsidian

    static func obsidianVault(_ s: Sandbox, dailyNotes: String) throws {
        try s.write(".obsidian/daily-notes.json", dailyNotes)
        try s.write(".obsidian/templates.json", #"{"folder": "Templates"}"#)
        try s.write("Templates/Daily.md", "---\ntags: [daily]\n---\n## {{title}}\n\n{{date:dddd}}\n")
        try s.write("Templates/Meeting.md", "# {{title}}\n\nAttendees:\n")
    }

    @Test func anObsidianVaultsDailyNotesAreWhereObsidianPutsThem() throws {
        let s = try Sandbox()
        try Self.obsidianVault(
            s,
            dailyNotes: #"{"folder": "Journal/Daily", "format": "DD.MM.YYYY", "template": "Templates/Daily"}"#
        )
        var r = try s.run(["today", "x"], env: Self.now)
        #expect(r.status == 0 && r.stdout == "Journal/Daily/02.12.2026\n", "\(r)")
        #expect(
            try s.read("Journal/Daily/02.12.2026.md")
                == "---\ncreatedAt: 2026-12-02T08:30:00Z\ntags: [daily]\n---\n"
                + "## 02.12.2026\n\nWednesday\n\n- 08:30 x\n")
        r = try s.run(["config"])
        #expect(r.stdout.contains("dailyFolder     Journal/Daily  obsidian\n"), "\(r)")
        #expect(r.stdout.contains("dailyFormat     DD.MM.YYYY     obsidian\n"), "\(r)")
        #expect(r.stdout.contains("templateFolder  Templates      obsidian\n"), "\(r)")
        #expect(try s.run(["templates"]).stdout == "Daily\nMeeting\n")
        // A setting someone wrote wins over what Obsidian's files say.
        #expect(try s.run(["config", "set", "--vault-local", "dailyFolder", "Log"]).status == 0)
        r = try s.run(["today", "y"], env: Self.now)
        #expect(r.status == 0 && r.stdout == "Log/02.12.2026\n", "\(r)")
    }

    @Test func withoutDailyNotesSettingsAnObsidianVaultsDailyNotesAreAtItsTop() throws {
        let s = try Sandbox()
        try s.write(".obsidian/app.json", "{}")
        let r = try s.run(["today", "x"], env: Self.now)
        #expect(r.status == 0 && r.stdout == "2026-12-02\n", "\(r)")
    }

    @Test func aTemplateDailyNotesJSONNamesThatIsMissingIsSaid() throws {
        let s = try Sandbox()
        try s.write(".obsidian/daily-notes.json", #"{"template": "Templates/Gone"}"#)
        let r = try s.run(["today", "x"], env: Self.now)
        #expect(r.status == 0 && r.stdout == "2026-12-02\n", "\(r)")
        #expect(r.stderr.contains("warning: the daily notes' template 'Templates/Gone'"), "\(r)")
        #expect(try s.read("2026-12-02.md").hasSuffix("---\n# 2026-12-02\n\n- 08:30 x\n"))
    }

    @Test func aTemplateDailyNotesJSONNamesThroughASymlinkIsNotRead() throws {
        let s = try Sandbox()
        let outside = s.root.path + "/outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try "private\n".write(toFile: outside + "/Day.md", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            atPath: s.vault + "/Templates", withDestinationPath: outside)
        try s.write(".obsidian/daily-notes.json", #"{"template": "Templates/Day"}"#)
        let r = try s.run(["today", "x"], env: Self.now)
        #expect(r.status == 0 && r.stdout == "2026-12-02\n", "\(r)")
        #expect(r.stderr.contains("warning: the daily notes' template 'Templates/Day'"), "\(r)")
        #expect(
            try s.read("2026-12-02.md")
                == "---\ncreatedAt: 2026-12-02T08:30:00Z\n---\n# 2026-12-02\n\n- 08:30 x\n")
    }

    @Test func anObsidianFormatWithALetterThatIsNoTokenIsAnError() throws {
        let s = try Sandbox()
        try s.write(".obsidian/daily-notes.json", #"{"format": "YYYY-[Q]Q"}"#)
        var r = try s.run(["today", "x"], env: Self.now)
        #expect(r.status == 1, "\(r)")
        #expect(
            r.stderr.hasPrefix(
                "Error: the setting 'dailyFormat' is 'YYYY-[Q]Q' in '\(s.vault)/.obsidian/daily-notes.json', "
                    + "which cannot be used: the date format 'YYYY-[Q]Q' holds 'Q', which is not a date token"
            ),
            "\(r)")
        #expect(Disk.names(s.vault) == [".notes", ".obsidian"])
        // The list says the file's value is not the one in effect.
        r = try s.run(["config", "list"])
        #expect(r.stdout.contains(#"default (obsidian value "YYYY-[Q]Q" is invalid)"#), "\(r)")
        r = try s.run(["config", "list", "--json"])
        #expect(r.stdout.contains(#""invalidObsidianValue": "YYYY-[Q]Q""#), "\(r)")
    }

    @Test func aBrokenDailyNotesJSONIsSaidOnceAndObsidiansDefaultsAreUsed() throws {
        let s = try Sandbox()
        try s.write(".obsidian/daily-notes.json", "{broken")
        let r = try s.run(["today", "x"], env: Self.now)
        #expect(r.status == 0 && r.stdout == "2026-12-02\n", "\(r)")
        #expect(
            r.stderr
                == "warning: '\(s.vault)/.obsidian/daily-notes.json' is not a JSON object, so Obsidian's "
                + "defaults are used in its place\n", "\(r)")
    }
}
