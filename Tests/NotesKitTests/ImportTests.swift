import Foundation
import TestSupport
import Testing

@testable import NotesKit

/// The importer's rules on entries made by hand, and the formats' dates at known instants.
@Suite struct ImportTests {
    /// A store over a fresh vault with `.notes/` in `root`.
    static func store(_ root: String) throws -> NoteStore {
        try FileManager.default.createDirectory(atPath: root + "/v/.notes", withIntermediateDirectories: true)
        return NoteStore(vault: try Vault(root: root + "/v"), cacheDirectory: root + "/cache")
    }

    static func entry(_ id: String, _ title: String?, _ body: String, attachments: [ImportAttachment] = [])
        -> ImportEntry
    {
        ImportEntry(
            sourceID: id, title: title, body: body, createdAt: Date(timeIntervalSince1970: 1_741_601_700),
            attachments: attachments)
    }

    // MARK: Dates

    @Test(arguments: [
        (JSONValue.number(0), ImportSourceFile.epoch2001, 978_307_200.0),
        (.number(757_382_400), ImportSourceFile.epoch2001, 1_735_689_600),
        (.number(-31_622_400), ImportSourceFile.epoch2001, 946_684_800),
        (.string("2025-03-10T10:15:00Z"), 0, 1_741_601_700),
        (.string("2025-03-10T10:15:00.250Z"), 0, 1_741_601_700.25),
        (.string("2025-03-10T12:15:00+02:00"), 0, 1_741_601_700),
    ])
    func datesAreReadAtTheirInstant(_ value: JSONValue, _ epoch: Double, _ seconds: Double) throws {
        let date = try ImportSourceFile.date(value, since: epoch, file: "f", place: "p")
        #expect(date?.timeIntervalSince1970 == seconds)
    }

    @Test func aNoteTakerDateIsSecondsSince2001AsJSONEncoderWritesThem() throws {
        let encoded = try JSONEncoder().encode([Date(timeIntervalSince1970: 1_741_601_700)])
        let text = String(decoding: encoded, as: UTF8.self)
        let json = #"[{"id":"x","title":"T","content":"c","date":"# + text.dropFirst().dropLast() + "}]"
        let entries = try NoteTakerFormat.entries(of: Array(json.utf8), file: "f", within: "")
        #expect(entries.first?.createdAt == Date(timeIntervalSince1970: 1_741_601_700))
    }

    @Test func aDateOfAnotherTypeIsAnErrorAtItsPlace() {
        #expect(
            throws: ImportSourceError(
                file: "f", place: "p", reason: "a date that is neither a number nor ISO 8601")
        ) {
            try ImportSourceFile.date(.bool(true), since: 0, file: "f", place: "p")
        }
    }

    @Test func aJSONErrorNamesItsLineAndColumnInCharacters() {
        let bytes = Array("[\n  {\"é\": 1,\n  }".utf8)
        #expect(throws: ImportSourceError(file: "f", place: "line 3, column 3", reason: "expected a key")) {
            try ImportSourceFile.json(bytes, file: "f")
        }
    }

    // MARK: The note file

    @Test(arguments: [
        "plain", "two words", "a,b", "[x]", "#hash", "quote\"d", "back\\slash", "colon:", "élan", "-dash",
        "tab\there", "line\nbreak", "'single'", "x: y",
    ])
    func frontMatterValuesReadBackAsWritten(_ value: String) throws {
        let text =
            "---\nkey: \(FrontMatter.written(value))\nlist: [\(FrontMatter.written(value)), other]\n---\n"
        let document = NoteDocument(parsing: text)
        #expect(document.frontMatter?.scalar("key") == value)
        #expect(document.frontMatter?.items("list") == [value, "other"])
    }

    @Test func anEntryBecomesFrontMatterThenTheTitleAndBody() throws {
        var entry = Self.entry("id 1", "My\ntitle", "body\n  indented\n\n")
        entry.updatedAt = Date(timeIntervalSince1970: 1_741_688_100)
        entry.tags = ["b", "a b", "b", " "]
        let item = try #require(
            ImportNoteText.item(for: entry, importedFrom: "fmt:id 1", now: 0, naming: try Vault(root: "/")))
        #expect(
            item.text == """
                ---
                createdAt: 2025-03-10T10:15:00Z
                updatedAt: 2025-03-11T10:15:00Z
                tags: [b, "a b"]
                importedFrom: "fmt:id 1"
                ---
                # My title

                body
                  indented

                """)
        #expect(item.baseName == "my-title")
    }

    @Test func emptyEntriesAndOnesAlreadyThereAreSkippedAndCounted() throws {
        try Sandbox(tree: []).test { root in
            let store = try Self.store(root)
            let entries = [
                Self.entry("1", "One", ""), Self.entry("2", " ", " \n\t"), Self.entry("3", nil, "Three"),
                Self.entry("1", "One again", "the same id twice in a source"),
            ]
            let plan = try store.plan(entries, format: "f", folder: "", now: 0, existing: ["f:3"])
            #expect(plan.items.map(\.importedFrom) == ["f:1"])
            #expect(plan.alreadyThere == 2 && plan.empty == 1)
        }
    }

    // MARK: Attachments

    @Test(arguments: [
        "../outside.png", "/etc/outside.png", "a/../../outside.png", ".hidden/a.png", "a//b.png", "",
    ])
    func anAttachmentThatWouldLeaveTheFolderIsRefused(_ path: String) throws {
        try Sandbox(tree: []).test { root in
            let store = try Self.store(root)
            let entry = Self.entry(
                "1", "One", "![](x)", attachments: [ImportAttachment(path: path, bytes: [1])])
            #expect(throws: ImportError.attachmentOutside(path)) {
                try store.plan([entry], format: "f", folder: "in", now: 0, existing: [])
            }
        }
    }

    @Test func anAttachmentThroughASymlinkedFolderIsRefused() throws {
        try Sandbox(tree: []).test { root in
            let store = try Self.store(root)
            try FileManager.default.createDirectory(
                atPath: root + "/elsewhere", withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(
                atPath: root + "/v/res", withDestinationPath: root + "/elsewhere")
            let entry = Self.entry(
                "1", "One", "", attachments: [ImportAttachment(path: "res/a.png", bytes: [1])])
            #expect(throws: ImportError.attachmentOutside("res/a.png")) {
                try store.plan([entry], format: "f", folder: "", now: 0, existing: [])
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/elsewhere").isEmpty)
        }
    }

    /// The rule: a file already there with the same bytes is kept (an import cut short left it);
    /// one with other bytes is never overwritten: the file gets the first free `name 2.ext` …
    /// and the note's links follow it, as do two entries that bring different files under one
    /// name; two that bring the same file write it once.
    @Test func anAttachmentNeverOverwritesOtherBytes() throws {
        try Sandbox(tree: []).test { root in
            let store = try Self.store(root)
            try FileManager.default.createDirectory(
                atPath: root + "/v/in/res", withIntermediateDirectories: true)
            try Data([1, 2]).write(to: URL(fileURLWithPath: root + "/v/in/res/same.png"))
            try Data([9]).write(to: URL(fileURLWithPath: root + "/v/in/res/other.png"))
            try Data([8]).write(to: URL(fileURLWithPath: root + "/v/in/res/other 2.png"))
            func plan(_ attachments: [[ImportAttachment]], body: String = "body") throws -> ImportPlan {
                let entries = attachments.enumerated().map {
                    Self.entry("\($0.offset)", "Note \($0.offset)", body, attachments: $0.element)
                }
                return try store.plan(entries, format: "f", folder: "in", now: 0, existing: [])
            }
            let taken = try plan(
                [
                    [
                        ImportAttachment(path: "res/other.png", bytes: [1, 2]),
                        ImportAttachment(path: "res/other 3.png", bytes: [7]),
                    ]
                ], body: "![](res/other.png) [x](<res/other 3.png>) ![](res/other.png) ![](res/other.pngx)")
            #expect(
                taken.items.map { $0.attachments.map(\.path) } == [
                    ["in/res/other 3.png", "in/res/other 3 2.png"]
                ])
            #expect(
                taken.items[0].text.hasSuffix(
                    "![](<res/other 3.png>) [x](<res/other 3 2.png>) ![](<res/other 3.png>) ![](res/other.pngx)\n"
                ),
                "\(taken.items[0].text)")
            let twice = try plan([
                [ImportAttachment(path: "res/new.png", bytes: [1])],
                [ImportAttachment(path: "res/new.png", bytes: [2])],
                [ImportAttachment(path: "res/new.png", bytes: [2])],
            ])
            #expect(
                twice.items.map { $0.attachments.map(\.path) } == [
                    ["in/res/new.png"], ["in/res/new 2.png"], [],
                ])
            let good = try plan([
                [
                    ImportAttachment(path: "res/same.png", bytes: [1, 2]),
                    ImportAttachment(path: "res/new.png", bytes: [3]),
                ],
                [ImportAttachment(path: "res/new.png", bytes: [3])],
            ])
            #expect(
                good.items.map { $0.attachments.map(\.path) } == [["in/res/same.png", "in/res/new.png"], []])
            let ids = try store.runImport(good)
            #expect(ids == ["in/note-0", "in/note-1"])
            #expect(try Data(contentsOf: URL(fileURLWithPath: root + "/v/in/res/new.png")) == Data([3]))
            #expect(try Data(contentsOf: URL(fileURLWithPath: root + "/v/in/res/other.png")) == Data([9]))
            #expect(
                store.changes.filter { if case .imported = $0 { true } else { false } } == [
                    .imported("in/res/new.png"), .imported("in/note-0.md"), .imported("in/note-1.md"),
                ])
            // Found again in the index.
            #expect(store.catalog.importedFrom == ["f:0", "f:1"])
        }
    }

    /// Notes of one name take the first free names in turn, past files already there and past
    /// a gap, across groups of writes: the names an import took are not tried again, and a name
    /// freed before the import is still taken first.
    @Test func notesOfOneNameTakeTheFreeNamesInTurn() throws {
        try Sandbox(tree: []).test { root in
            let store = try Self.store(root)
            for name in ["same.md", "same-3.md", "same-700.md"] {
                try Data("# Same\n\nthere before\n".utf8).write(to: URL(fileURLWithPath: root + "/v/" + name))
            }
            let entries = (0..<1000).map { Self.entry("\($0)", "Same", "body \($0)") }
            let plan = try store.plan(entries, format: "f", folder: "", now: 0, existing: [])
            let expected = ["same-2"] + (4..<700).map { "same-\($0)" } + (701..<1004).map { "same-\($0)" }
            #expect(plan.predictedPaths(in: store.vault) == expected.map { $0 + ".md" })
            let ids = try store.runImport(plan)
            #expect(ids == expected)
            let text = try String(contentsOfFile: root + "/v/same-1003.md", encoding: .utf8)
            #expect(text.contains("body 999") && text.contains("importedFrom: f:999"))
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: root + "/v").filter {
                $0.hasPrefix(".notes-tmp-")
            }
            #expect(leftovers.isEmpty)
        }
    }

    /// Keep's `textContent` is the note's plain text, as typed: Takeout escapes it only as JSON
    /// (`\u0026`, `\/`, surrogate pairs), and an entity in it is text the user wrote (Takeout's
    /// `textContentHtml` beside it is the one with markup and entities, and is not read).
    @Test func keepTextIsPlainTextUnderJSONEscapesOnly() throws {
        try Sandbox(tree: []).test { root in
            let json = #"""
                {"color": "DEFAULT", "isTrashed": false, "isPinned": false, "isArchived": false,
                 "title": "Fish \u0026 chips", "userEditedTimestampUsec": 0,
                 "createdTimestampUsec": 1380575747483000,
                 "textContent": "Fish \u0026 chips \u003c3 1\/2 \ud83d\ude00\nI typed &amp; and &lt;b&gt;\r\nend",
                 "textContentHtml": "<p dir=\"ltr\"><span>Fish &amp; chips &lt;3 1/2<\/span><\/p>"}
                """#
            try Data(json.utf8).write(to: URL(fileURLWithPath: root + "/Note.json"))
            let entries = try KeepFormat.read([root + "/Note.json"])
            #expect(entries.map(\.title) == ["Fish & chips"])
            #expect(
                entries.map(\.body) == ["Fish & chips <3 1/2 \u{1F600}\nI typed &amp; and &lt;b&gt;\nend"])
        }
    }
}
