import Foundation
import TestSupport
import Testing

@testable import NotesKit

/// The journal's settings, the template folder, daily notes' names, and entries added to them.
@Suite struct JournalTests {
    static let day = LocalDateTime(year: 2026, month: 12, day: 2, hour: 9, minute: 30)
    static let journal = JournalSettings(
        dailyFolder: "journal", dailyFormat: "YYYY-MM-DD", templateFolder: ".templates")

    func store(_ root: String) throws -> NoteStore {
        NoteStore(vault: try Vault(root: root), cacheDirectory: root + "/../cache")
    }

    // MARK: Settings

    @Test func theJournalKeysHaveTheirDefaultsAndBelongToTheVault() throws {
        let settings = try decodeSettings("{}")
        #expect(settings.effective(.dailyFolder) == "journal")
        #expect(settings.effective(.dailyFormat) == "YYYY-MM-DD")
        #expect(settings.effective(.templateFolder) == ".templates")
        for key in [Settings.Key.dailyFolder, .dailyFormat, .templateFolder] { #expect(key.belongsToVault) }
        let read = try decodeSettings(
            #"{"dailyFolder": "days", "dailyFormat": "YYYY/MM/DD", "templateFolder": "T"}"#)
        #expect(
            read.dailyNotesFolder == "days" && read.dailyNotesFormat == "YYYY/MM/DD"
                && read.templatesFolder == "T")
        #expect(read.problems.isEmpty)
    }

    @Test(arguments: [
        (Settings.Key.dailyFormat, "YYYY-Q"), (.dailyFormat, ""), (.dailyFolder, "../elsewhere"),
        (.dailyFolder, "/abs"), (.templateFolder, "a/../../b"), (.templateFolder, ".."),
    ])
    func refusesValuesThatCannotBeUsed(key: Settings.Key, value: String) {
        var settings = Settings()
        #expect(throws: SettingsError.self) { try settings.set(key, text: value) }
        #expect(!settings.isSet(key))
    }

    @Test func aBadFormatInTheFileIsAProblemNamingTheLetter() throws {
        let settings = try decodeSettings(#"{"dailyFormat": "YYYY-xx"}"#)
        #expect(settings.dailyNotesFormat == "YYYY-MM-DD")
        #expect(settings.problems.count == 1)
        #expect(settings.problems.first?.contains("'xx'") == true)
    }

    static let obsidianTree: [Sandbox.Item] = [
        .directory(
            "v",
            [
                .directory(
                    ".obsidian",
                    [
                        .file(
                            "daily-notes.json",
                            #"{"folder": "/Daily/", "format": "YYYY/MMMM/YYYY-MM-DD", "template": "Templates/Day", "autorun": false}"#
                        ),
                        .file("templates.json", #"{"folder": "Templates", "dateFormat": "DD.MM.YYYY"}"#),
                    ]),
                .directory(".notes", []),
            ]),
        .directory("plain", [.directory(".obsidian", [])]),
    ]

    @Test func anObsidianVaultsFilesGiveTheJournalSettings() throws {
        try Sandbox(tree: Self.obsidianTree).test { root in
            let layered = LayeredSettings(
                user: .init(settings: Settings(), exists: false), vaultRoot: root + "/v")
            let journal = JournalSettings(layered)
            #expect(journal.dailyFolder == "Daily")
            #expect(journal.dailyFormat == "YYYY/MMMM/YYYY-MM-DD")
            #expect(journal.templateFolder == "Templates")
            #expect(journal.dailyTemplate == "Templates/Day")
            for key in [Settings.Key.dailyFolder, .dailyFormat, .templateFolder] {
                #expect(layered.source(of: key) == .obsidian)
            }
            // Without daily-notes.json, Obsidian's own defaults: the vault's top, YYYY-MM-DD.
            let plain = LayeredSettings(
                user: .init(settings: Settings(), exists: false), vaultRoot: root + "/plain")
            #expect(JournalSettings(plain).dailyFolder == "")
            #expect(JournalSettings(plain).dailyFormat == "YYYY-MM-DD")
            #expect(JournalSettings(plain).templateFolder == ".templates")
            #expect(plain.source(of: .templateFolder) == .default)
        }
    }

    @Test func aSettingSomeoneWroteWinsOverObsidiansFiles() throws {
        try Sandbox(tree: Self.obsidianTree).test { root in
            try Settings.encodedFile(#"{"dailyFolder": "log"}"#, to: root + "/v/.notes/settings.json")
            var user = Settings()
            try user.set(.dailyFormat, text: "DD-MM-YYYY")
            let layered = LayeredSettings(user: .init(settings: user, exists: true), vaultRoot: root + "/v")
            let journal = JournalSettings(layered)
            #expect(journal.dailyFolder == "log" && layered.source(of: .dailyFolder) == .vault)
            #expect(journal.dailyFormat == "DD-MM-YYYY" && layered.source(of: .dailyFormat) == .user)
            #expect(journal.templateFolder == "Templates")
        }
    }

    @Test func anObsidianFormatWithAnUnknownLetterIsKeptToBeReported() throws {
        try Sandbox(tree: [
            .directory(
                "v", [.directory(".obsidian", [.file("daily-notes.json", #"{"format": "YYYY-[Q]Q"}"#)])])
        ]).test { root in
            let layered = LayeredSettings(
                user: .init(settings: Settings(), exists: false), vaultRoot: root + "/v")
            let journal = JournalSettings(layered)
            let refusal = JournalError.badSetting(
                "dailyFormat", value: "YYYY-[Q]Q", file: root + "/v/.obsidian/daily-notes.json",
                reason: MomentFormatError.unknownToken("Q", format: "YYYY-[Q]Q").errorDescription ?? "")
            #expect(journal.refusal == refusal)
            #expect(throws: refusal) {
                try store(root + "/v").dailyNotePath(for: Self.day, journal)
            }
        }
    }

    // MARK: Templates

    @Test func listsTheTemplatesAtAnyDepthWithoutHiddenOnesOrOtherFiles() throws {
        try Sandbox(tree: [
            .directory(
                "v",
                [
                    .directory(
                        ".templates",
                        [
                            .file("daily.md", "# {{title}}\n"), .file("meeting.md", "m\n"),
                            .file("notes.txt", "x"),
                            .file(".hidden.md", "h"),
                            .directory("work", [.file("standup.md", "s\n")]),
                            .directory(".git", [.file("x.md", "")]),
                            .symlink("linked.md", to: "daily.md"),
                        ]),
                    .file("note.md", "n\n"),
                ])
        ]).test { root in
            let notes = try store(root + "/v")
            #expect(try notes.templateNames(in: ".templates") == ["daily", "meeting", "work/standup"])
            #expect(try notes.templateNames(in: "missing") == [])
            #expect(try notes.template(named: "work/standup", in: ".templates").text == "s\n")
            #expect(try notes.template(named: "meeting.md", in: ".templates").text == "m\n")
            #expect(
                throws: JournalError.noTemplate(
                    "weekly", folder: ".templates", available: ["daily", "meeting", "work/standup"])
            ) {
                try notes.template(named: "weekly", in: ".templates")
            }
            #expect(throws: JournalError.noTemplate("x", folder: "none", available: [])) {
                try notes.template(named: "x", in: "none")
            }
            for bad in ["../note", "", "a//b", "./daily"] {
                #expect(throws: JournalError.badTemplateName(bad)) {
                    try notes.template(named: bad, in: ".templates")
                }
            }
            #expect(throws: (any Error).self) { try notes.template(named: "linked", in: ".templates") }
        }
    }

    @Test func aTemplateFolderThatLeadsOutOfTheVaultIsRefused() throws {
        try Sandbox(tree: [
            .directory("outside", [.file("t.md", "secret\n")]),
            .directory("v", [.symlink("tpl", to: "../outside")]),
        ]).test { root in
            let notes = try store(root + "/v")
            #expect(throws: JournalError.templateFolderOutside("tpl")) { try notes.templateNames(in: "tpl") }
            #expect(throws: JournalError.templateFolderOutside("tpl")) {
                try notes.template(named: "t", in: "tpl")
            }
        }
    }

    @Test func theErrorForAMissingTemplateNamesTheFolderAndTheTemplates() {
        let some = JournalError.noTemplate("weekly", folder: ".templates", available: ["daily", "meeting"])
        #expect(
            some.errorDescription
                == "no template 'weekly' in '.templates/'; the templates there: daily, meeting")
        let none = JournalError.noTemplate("weekly", folder: ".templates", available: [])
        #expect(none.errorDescription?.contains("there are none yet") == true)
        #expect(none.errorDescription?.contains("'.templates/weekly.md'") == true)
    }

    // MARK: Daily notes

    @Test func namesTheDailyNoteInItsFolderAndFormat() throws {
        try Sandbox(tree: [.directory("v", [.file(".gitignore", "ignored/\n")])]).test { root in
            let notes = try store(root + "/v")
            var journal = Self.journal
            #expect(try notes.dailyNotePath(for: Self.day, journal) == "journal/2026-12-02.md")
            journal.dailyFolder = ""
            #expect(try notes.dailyNotePath(for: Self.day, journal) == "2026-12-02.md")
            journal.dailyFolder = "days/"
            #expect(try notes.dailyNotePath(for: Self.day, journal) == "days/2026-12-02.md")
            journal.dailyFormat = "YYYY/MM-MMMM/dddd Do"
            #expect(
                try notes.dailyNotePath(for: Self.day, journal) == "days/2026/12-December/Wednesday 2nd.md")
            for bad in ["[.]YYYY", "YYYY/[..]/DD", "YYYY//DD", "[../]YYYY", "YYYY/"] {
                journal.dailyFormat = bad
                #expect(throws: JournalError.self) { try notes.dailyNotePath(for: Self.day, journal) }
            }
            journal.dailyFormat = "YYYY-MM-DD"
            journal.dailyFolder = ".hidden"
            #expect(throws: VaultError.hiddenFolder(".hidden")) {
                try notes.dailyNotePath(for: Self.day, journal)
            }
            journal.dailyFolder = "../out"
            #expect(throws: VaultError.outsideVault("../out")) {
                try notes.dailyNotePath(for: Self.day, journal)
            }
            journal.dailyFolder = "ignored"
            #expect(throws: VaultError.self) { try notes.dailyNotePath(for: Self.day, journal) }
        }
    }

    @Test func makingANoteNeverReplacesOne() throws {
        try Sandbox(tree: [.directory("v", [])]).test { root in
            let notes = try store(root + "/v")
            #expect(
                try notes.makeNote(
                    at: "journal/2026-12-02.md", text: "# 2026-12-02\n", created: 1_796_203_800))
            #expect(
                Disk.text(root + "/v/journal/2026-12-02.md")
                    == "---\ncreatedAt: 2026-12-02T09:30:00Z\n---\n# 2026-12-02\n")
            #expect(try !notes.makeNote(at: "journal/2026-12-02.md", text: "other\n", created: 1_796_203_900))
            #expect(Disk.text(root + "/v/journal/2026-12-02.md")?.hasSuffix("# 2026-12-02\n") == true)
            #expect(notes.changes == [.added("journal/2026-12-02.md")])
        }
    }

    @Test func anEntryIsOneItemWithItsLinesIndented() {
        #expect(JournalEntry.text("bought milk", at: Self.day) == "- 09:30 bought milk")
        #expect(
            JournalEntry.text("\n  first\nsecond\r\n\nthird  \n\n", at: Self.day)
                == "- 09:30 first\n  second\n\n  third")
        #expect(JournalEntry.text(" \n\t\n", at: Self.day) == nil)
    }

    @Test(arguments: [
        ("# 2026-12-02\n", "# 2026-12-02\n\n- 09:30 x\n"),
        ("# Day\n\n- 08:00 a\n", "# Day\n\n- 08:00 a\n- 09:30 x\n"),
        ("# Day\n\n- 08:00 a\n  more\n\n", "# Day\n\n- 08:00 a\n  more\n- 09:30 x\n"),
        ("# Day\n\n1. first\n", "# Day\n\n1. first\n- 09:30 x\n"),
        ("Some text.\n", "Some text.\n\n- 09:30 x\n"),
    ])
    func anEntryGoesBelowTheLastLine(body: String, expected: String) throws {
        try Sandbox(tree: [.directory("v", [.file("d.md", body)])]).test { root in
            let notes = try store(root + "/v")
            try notes.appendEntry("- 09:30 x", toNoteAt: "d.md", now: 1_796_203_800)
            let text = Disk.text(root + "/v/d.md") ?? ""
            #expect(text.hasSuffix("---\n" + expected), "\(text)")
            #expect(notes.changes == [.modified("d.md")])
        }
    }

    @Test func anEntryKeepsTheFilesLineEndingsAndFrontMatter() throws {
        let note =
            "---\r\ncreatedAt: 2026-12-01T00:00:00Z\r\ntags: [log]\r\n---\r\n# Day\r\n\r\n- 08:00 a\r\n"
        try Sandbox(tree: [.directory("v", [.file("d.md", note)])]).test { root in
            try store(root + "/v").appendEntry("- 09:30 b\n  c", toNoteAt: "d.md", now: 1_796_203_800)
            #expect(
                Disk.text(root + "/v/d.md")
                    == "---\r\ncreatedAt: 2026-12-01T00:00:00Z\r\nupdatedAt: 2026-12-02T09:30:00Z\r\ntags: [log]\r\n---\r\n"
                    + "# Day\r\n\r\n- 08:00 a\r\n- 09:30 b\r\n  c\r\n")
        }
    }
}

extension Settings {
    /// Writes settings JSON text to `path` (for a vault's file in a test tree).
    static func encodedFile(_ json: String, to path: String) throws {
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
    }
}
