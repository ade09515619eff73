import Foundation
import NotesKit
import Testing

@Suite struct KeepFormatTests {
    static let folder = ImportFixtures.root + "/keep/Takeout/Keep"

    @Test func takeoutFolderReadsToExactlyTheseEntries() throws {
        let entries = try KeepFormat.read([Self.folder])
        let expected = [
            ImportEntry(
                sourceID: "2025-03-10T10_15_00.000-05_00.json", title: nil,
                body: "Untitled note with a photo\n\n![](17a9c0a6a22.1b2c3d4e.jpg)",
                createdAt: Date(timeIntervalSince1970: 1_741_619_700),
                attachments: [
                    ImportAttachment(
                        path: "17a9c0a6a22.1b2c3d4e.jpg",
                        bytes: ImportFixtures.bytes("keep/Takeout/Keep/17a9c0a6a22.1b2c3d4e.jpg"))
                ]),
            ImportEntry(
                sourceID: "Blank.json", title: nil, body: "",
                createdAt: Date(timeIntervalSince1970: 1_741_601_700),
                updatedAt: Date(timeIntervalSince1970: 1_741_601_700)),
            ImportEntry(
                sourceID: "Ideas.json", title: "Ideas",
                body:
                    "A note-taking CLI\nwith Markdown files.\n\nCafé — ideas\n\n![](17a9c0a6a21.6e7d3f1c.png)",
                createdAt: Date(timeIntervalSince1970: 1_735_603_200),
                updatedAt: Date(timeIntervalSince1970: 1_735_689_599 + 0.999_999),
                tags: ["Work", "archived"],
                attachments: [
                    ImportAttachment(
                        path: "17a9c0a6a21.6e7d3f1c.png",
                        bytes: ImportFixtures.bytes("keep/Takeout/Keep/17a9c0a6a21.6e7d3f1c.png"))
                ]),
            ImportEntry(
                sourceID: "Shopping list.json", title: "Shopping list",
                body: "- [ ] Milk\n- [x] Bread\n- [ ] Eggs\n  free range",
                createdAt: Date(timeIntervalSince1970: 1_741_515_300 + 0.123_456),
                updatedAt: Date(timeIntervalSince1970: 1_741_601_700), tags: ["Home", "Errands", "pinned"]),
        ]
        #expect(entries.count == expected.count)
        for (entry, want) in zip(entries, expected) { #expect(entry == want) }
        #expect(entries.allSatisfy { $0.attachments.allSatisfy { !$0.bytes.isEmpty } })
    }

    @Test func filesMayBeNamedOneByOne() throws {
        let entries = try KeepFormat.read([
            Self.folder + "/Shopping list.json", Self.folder + "/Old draft.json",
        ])
        #expect(entries.map(\.sourceID) == ["Shopping list.json"])
    }

    /// Microseconds kept to the microsecond: 1741601700000000 is 2025-03-10 10:15:00 UTC.
    @Test func timestampsAreExactMicroseconds() throws {
        let entries = try KeepFormat.read([Self.folder])
        let shopping = try #require(entries.last)
        #expect(shopping.updatedAt == Date(timeIntervalSince1970: 1_741_601_700))
        let created = try #require(shopping.createdAt)
        #expect((created.timeIntervalSince1970 * 1_000_000).rounded() == 1_741_515_300_123_456)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        let updated = try #require(shopping.updatedAt)
        #expect(
            calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: updated)
                == DateComponents(year: 2025, month: 3, day: 10, hour: 10, minute: 15, second: 0))
    }

    // MARK: Bad sources

    private func readError(_ text: String, name: String = "Note.json") throws -> ImportSourceError? {
        let path = try ImportFixtures.scratch(name, text)
        defer { ImportFixtures.remove(path) }
        do {
            _ = try KeepFormat.read([(path as NSString).deletingLastPathComponent])
            return nil
        } catch {
            #expect(error.file == path)
            return error
        }
    }

    @Test func truncatedJSONFailsAtItsLineAndColumn() throws {
        let error = try #require(try readError("{\"title\": \"a\",\n \"textContent\": \"b"))
        #expect(error.place == "line 2, column 19")
    }

    @Test(arguments: [
        (#"{"title": "a", "textContent": "b", "createdTimestampUsec": "soon"}"#, "createdTimestampUsec"),
        (#"{"title": "a", "createdTimestampUsec": 1741601700000000}"#, "the top level"),
        (#"{"listContent": [{"isChecked": true}], "createdTimestampUsec": 1}"#, "listContent item 1"),
        (#"["not", "a", "note"]"#, "the top level"),
        (
            #"{"textContent": "", "createdTimestampUsec": 1, "attachments": [{"mimetype": "image/png"}]}"#,
            "attachment 1"
        ),
    ])
    func missingFieldsFailNamingThePlace(text: String, place: String) throws {
        #expect(try readError(text)?.place == place)
    }

    /// An attached file missing from the Takeout folder does not stop the import: the note comes
    /// without it, and a warning names the note's file and the missing one.
    @Test func aMissingAttachmentIsAWarningAndTheNoteComesWithoutIt() throws {
        let path = try ImportFixtures.scratch(
            "Note.json",
            #"{"textContent": "text", "createdTimestampUsec": 1, "attachments": [{"filePath": "gone.png", "mimetype": "image/png"}]}"#
        )
        defer { ImportFixtures.remove(path) }
        let entries = try KeepFormat.read([(path as NSString).deletingLastPathComponent])
        #expect(entries.map(\.body) == ["text"])
        #expect(entries.map(\.attachments) == [[]])
        #expect(
            entries.map(\.warnings) == [
                [
                    "'\(path)': its attached file 'gone.png' is not beside it in the Takeout folder; "
                        + "the note is imported without it"
                ]
            ])
    }

    /// Older exports have no creation time: the last edit stands for it, and without either the
    /// import's time does (`createdAt` nil).
    @Test func aNoteWithoutItsCreationTimeTakesItsLastEdit() throws {
        for (text, created) in [
            (
                #"{"title": "a", "textContent": "b", "userEditedTimestampUsec": 1741515300000000}"#,
                1_741_515_300.0
            ),
            (#"{"title": "a", "textContent": "b"}"#, nil),
        ] {
            let path = try ImportFixtures.scratch("Note.json", text)
            defer { ImportFixtures.remove(path) }
            let entries = try KeepFormat.read([(path as NSString).deletingLastPathComponent])
            #expect(entries.map { $0.createdAt?.timeIntervalSince1970 } == [created], "\(text)")
        }
    }

    /// A folder without a note in it is most likely the wrong one: an error says which to give.
    @Test func aFolderWithoutNotesNamesTheKeepFolder() throws {
        let path = try ImportFixtures.scratch("archive_browser.html", "<html/>")
        defer { ImportFixtures.remove(path) }
        let takeout = (path as NSString).deletingLastPathComponent
        func failure() -> ImportSourceError? {
            do {
                _ = try KeepFormat.read([takeout])
                return nil
            } catch { return error }
        }
        var error = try #require(failure())
        #expect(
            error.reason
                == "it holds no Keep notes (.json files); give the 'Keep' folder of the Takeout export")
        try FileManager.default.createDirectory(atPath: takeout + "/Keep", withIntermediateDirectories: true)
        error = try #require(failure())
        #expect(
            error.reason == "it holds no Keep notes (.json files); give its 'Keep' folder: \(takeout)/Keep")
    }

    /// A trashed note is not read at all, even when it lacks what a note needs.
    @Test func trashedNotesAreLeftOut() throws {
        #expect(try readError(#"{"isTrashed": true}"#) == nil)
    }
}
