import Foundation
import Testing

@testable import NotesKit

@Suite struct JrnlFormatTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin") ?? .current

    @Test func exportReadsToExactlyTheseEntries() throws {
        let entries = try JrnlFormat.read([ImportFixtures.root + "/jrnl/journal.json"], timeZone: Self.berlin)
        let expected = [
            ImportEntry(
                sourceID: "2025-03-10T10:15-8e09b3590c7a", title: "Standup notes.",
                body: "Talked with @work folks about the release; @Release-2 is next.",
                createdAt: Date(timeIntervalSince1970: 1_741_598_100), tags: ["release-2", "work"]),
            ImportEntry(
                sourceID: "2025-03-11T08:05-ce46b87da595", title: "Café morning — a long one.",
                body:
                    "First paragraph of the body.\n\nSecond paragraph, with a list:\n- one\n- two\n@personal",
                createdAt: Date(timeIntervalSince1970: 1_741_676_700), tags: ["personal", "starred"]),
            ImportEntry(
                sourceID: "2025-03-12T21:40-e8b17cbbc01b", title: "Title only", body: "",
                createdAt: Date(timeIntervalSince1970: 1_741_812_000)),
            // 02:30 does not exist in Berlin that night: it is taken as 03:30 summer time.
            ImportEntry(
                sourceID: "2025-03-30T02:30-f0d64c60fc89", title: "In the spring gap.",
                body: "Berlin skipped 02:00-03:00 that night.",
                createdAt: Date(timeIntervalSince1970: 1_743_298_200)),
            ImportEntry(
                sourceID: "2025-12-31T23:59-7aa1ab358003",
                title: "Year end? Sure: \"quotes\", back\\slash & <angle> brackets.", body: "indented line",
                createdAt: Date(timeIntervalSince1970: 1_767_221_940)),
        ]
        #expect(entries.count == expected.count)
        for (entry, want) in zip(entries, expected) { #expect(entry == want) }
    }

    /// A Day One journal's entries have a `uuid`, which is their id.
    @Test func uuidIsTheId() throws {
        let entries = try JrnlFormat.read([ImportFixtures.root + "/jrnl/dayone.json"], timeZone: Self.berlin)
        #expect(
            entries.map(\.sourceID) == [
                "7A143D3AEDFA11F1BD6602FC00000001", "7A6DED80EDFA11F1B7BA02FC00000001",
            ])
        #expect(entries.first?.tags == ["work"])
        #expect(entries.first?.createdAt == Date(timeIntervalSince1970: 1_741_598_100))
        #expect(entries.last?.createdAt == Date(timeIntervalSince1970: 1_741_845_600))
    }

    /// The same date and time is another instant in another zone: the local one is used.
    @Test(arguments: [
        ("UTC", 1_741_601_700.0), ("Europe/Berlin", 1_741_598_100.0), ("America/New_York", 1_741_616_100.0),
        ("Asia/Kolkata", 1_741_581_900.0),
    ])
    func dateAndTimeAreLocal(zone: String, seconds: Double) throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: zone))
        #expect(
            JrnlFormat.date("2025-03-10", "10:15", calendar: calendar) == Date(timeIntervalSince1970: seconds)
        )
    }

    @Test func readUsesTheCurrentZone() throws {
        let path = try ImportFixtures.scratch(
            "j.json",
            #"{"entries": [{"date": "2025-03-10", "time": "10:15", "title": "t", "body": "", "tags": []}]}"#)
        defer { ImportFixtures.remove(path) }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let local = calendar.date(from: DateComponents(year: 2025, month: 3, day: 10, hour: 10, minute: 15))
        #expect(try JrnlFormat.read([path]).first?.createdAt == local)
    }

    // MARK: Bad sources

    private func readError(_ text: String) throws -> ImportSourceError? {
        let path = try ImportFixtures.scratch("journal.json", text)
        defer { ImportFixtures.remove(path) }
        do {
            _ = try JrnlFormat.read([path], timeZone: Self.berlin)
            return nil
        } catch {
            #expect(error.file == path)
            return error
        }
    }

    @Test func truncatedJSONFailsAtItsLineAndColumn() throws {
        let whole = String(decoding: ImportFixtures.bytes("jrnl/journal.json"), as: UTF8.self)
        let lines = whole.split(separator: "\n", omittingEmptySubsequences: false)
        let cut = lines.prefix(12).joined(separator: "\n") + "\n      \"da"
        let error = try #require(try readError(cut))
        #expect(error.place == "line 13, column 10")
        #expect(!error.reason.isEmpty)
    }

    @Test func noEntriesFails() throws {
        let error = try #require(try readError(#"{"tags": {}}"#))
        #expect(error.reason == "it has no 'entries' list: is it the output of 'jrnl --export json'?")
    }

    @Test(arguments: [
        (
            #"{"entries": [{"date": "2025-03-10", "time": "10:15", "title": "a", "body": ""}, {"time": "1"}]}"#,
            "entry 2"
        ),
        (#"{"entries": [{"date": "2025-13-10", "time": "10:15", "title": "a", "body": ""}]}"#, "entry 1"),
        (#"{"entries": [{"date": "2025-03-10", "time": "10:15", "body": ""}]}"#, "entry 1"),
        (#"{"entries": [3]}"#, "entry 1"),
    ])
    func badEntryFailsNamingIt(text: String, place: String) throws {
        #expect(try readError(text)?.place == place)
    }
}
