import Foundation
import NotesKit
import Testing

@Suite struct MomentFormatTests {
    /// Wednesday 2 December 2026, 09:05:07.
    static let morning = LocalDateTime(year: 2026, month: 12, day: 2, hour: 9, minute: 5, second: 7)
    /// Sunday 1 March 2026, 00:30:00.
    static let midnight = LocalDateTime(year: 2026, month: 3, day: 1, hour: 0, minute: 30)
    /// Saturday 23 May 2026, 12:00:09.
    static let noon = LocalDateTime(year: 2026, month: 5, day: 23, hour: 12, minute: 0, second: 9)
    /// Tuesday 11 August 2026, 13:45:00.
    static let afternoon = LocalDateTime(year: 2026, month: 8, day: 11, hour: 13, minute: 45)

    /// One token (or format) written for one day.
    struct Case: CustomTestStringConvertible, Sendable {
        var format: String
        var time: LocalDateTime
        var expected: String
        var testDescription: String { "\(format) at \(time.year)-\(time.month)-\(time.day) → \(expected)" }
    }

    static let cases: [Case] = [
        Case(format: "YYYY", time: morning, expected: "2026"),
        Case(format: "YYYY", time: LocalDateTime(year: 987, month: 1, day: 1), expected: "0987"),
        Case(format: "YY", time: morning, expected: "26"),
        Case(format: "YY", time: LocalDateTime(year: 2005, month: 1, day: 1), expected: "05"),
        Case(format: "MMMM", time: morning, expected: "December"),
        Case(format: "MMMM", time: midnight, expected: "March"),
        Case(format: "MMM", time: morning, expected: "Dec"),
        Case(format: "MMM", time: noon, expected: "May"),
        Case(format: "MM", time: midnight, expected: "03"),
        Case(format: "MM", time: morning, expected: "12"),
        Case(format: "M", time: midnight, expected: "3"),
        Case(format: "M", time: morning, expected: "12"),
        Case(format: "DD", time: morning, expected: "02"),
        Case(format: "DD", time: noon, expected: "23"),
        Case(format: "D", time: morning, expected: "2"),
        Case(format: "D", time: afternoon, expected: "11"),
        Case(format: "Do", time: midnight, expected: "1st"),
        Case(format: "Do", time: morning, expected: "2nd"),
        Case(format: "Do", time: LocalDateTime(year: 2026, month: 12, day: 3), expected: "3rd"),
        Case(format: "Do", time: LocalDateTime(year: 2026, month: 12, day: 4), expected: "4th"),
        Case(format: "Do", time: afternoon, expected: "11th"),
        Case(format: "Do", time: LocalDateTime(year: 2026, month: 12, day: 12), expected: "12th"),
        Case(format: "Do", time: LocalDateTime(year: 2026, month: 12, day: 13), expected: "13th"),
        Case(format: "Do", time: LocalDateTime(year: 2026, month: 12, day: 21), expected: "21st"),
        Case(format: "Do", time: LocalDateTime(year: 2026, month: 12, day: 22), expected: "22nd"),
        Case(format: "Do", time: noon, expected: "23rd"),
        Case(format: "Do", time: LocalDateTime(year: 2026, month: 12, day: 31), expected: "31st"),
        Case(format: "dddd", time: morning, expected: "Wednesday"),
        Case(format: "dddd", time: midnight, expected: "Sunday"),
        Case(format: "ddd", time: noon, expected: "Sat"),
        Case(format: "ddd", time: afternoon, expected: "Tue"),
        Case(format: "d", time: midnight, expected: "0"),
        Case(format: "d", time: morning, expected: "3"),
        Case(format: "d", time: noon, expected: "6"),
        Case(format: "HH", time: morning, expected: "09"),
        Case(format: "HH", time: afternoon, expected: "13"),
        Case(format: "H", time: morning, expected: "9"),
        Case(format: "H", time: midnight, expected: "0"),
        Case(format: "hh", time: morning, expected: "09"),
        Case(format: "hh", time: midnight, expected: "12"),
        Case(format: "hh", time: afternoon, expected: "01"),
        Case(format: "h", time: noon, expected: "12"),
        Case(format: "h", time: afternoon, expected: "1"),
        Case(format: "mm", time: morning, expected: "05"),
        Case(format: "mm", time: afternoon, expected: "45"),
        Case(format: "ss", time: morning, expected: "07"),
        Case(format: "ss", time: midnight, expected: "00"),
        Case(format: "A", time: midnight, expected: "AM"),
        Case(format: "A", time: noon, expected: "PM"),
        Case(format: "a", time: morning, expected: "am"),
        Case(format: "a", time: afternoon, expected: "pm"),
        Case(format: "WW", time: morning, expected: "49"),
        Case(format: "WW", time: midnight, expected: "09"),
        Case(format: "W", time: midnight, expected: "9"),
        Case(format: "GGGG", time: morning, expected: "2026"),
        // Formats as daily notes use them.
        Case(format: "YYYY-MM-DD", time: morning, expected: "2026-12-02"),
        Case(format: "dddd, MMMM Do YYYY", time: morning, expected: "Wednesday, December 2nd 2026"),
        Case(format: "YYYY/MM/YYYY-MM-DD", time: morning, expected: "2026/12/2026-12-02"),
        Case(format: "GGGG-[W]WW", time: morning, expected: "2026-W49"),
        Case(format: "h:mm A", time: afternoon, expected: "1:45 PM"),
        Case(format: "[Week] W [of] GGGG, [day] d", time: morning, expected: "Week 49 of 2026, day 3"),
        Case(format: "[[]YYYY]", time: morning, expected: "[2026]"),
        // A `[` that no `]` closes is itself text, as in Moment.
        Case(format: "[ YYYY", time: morning, expected: "[ 2026"),
        // Letters outside ASCII, digits and punctuation are text.
        Case(format: "é – 2026 YYYY", time: morning, expected: "é – 2026 2026"),
    ]

    @Test(arguments: cases)
    func writesEachToken(_ c: Case) throws {
        #expect(try MomentFormat(c.format).string(for: c.time) == c.expected)
    }

    /// ISO weeks start on Monday; week 1 holds the year's first Thursday, so the days around New
    /// Year can belong to the other year's week.
    struct WeekCase: CustomTestStringConvertible, Sendable {
        var day: (Int, Int, Int)
        var week: String
        var testDescription: String { "\(day.0)-\(day.1)-\(day.2) → \(week)" }
    }

    static let weekEdges: [WeekCase] = [
        WeekCase(day: (2027, 1, 1), week: "2026-W53 53"),
        WeekCase(day: (2027, 1, 3), week: "2026-W53 53"),
        WeekCase(day: (2027, 1, 4), week: "2027-W01 1"),
        WeekCase(day: (2024, 12, 30), week: "2025-W01 1"),
        WeekCase(day: (2024, 12, 29), week: "2024-W52 52"),
        WeekCase(day: (2025, 12, 29), week: "2026-W01 1"),
        WeekCase(day: (2026, 1, 1), week: "2026-W01 1"),
        WeekCase(day: (2021, 1, 3), week: "2020-W53 53"),
        WeekCase(day: (2020, 12, 31), week: "2020-W53 53"),
        WeekCase(day: (2010, 1, 3), week: "2009-W53 53"),
        WeekCase(day: (2008, 12, 29), week: "2009-W01 1"),
        WeekCase(day: (2000, 1, 1), week: "1999-W52 52"),
    ]

    @Test(arguments: weekEdges)
    func isoWeekYearAtTheEdgesOfTheYear(_ c: WeekCase) throws {
        let day = LocalDateTime(year: c.day.0, month: c.day.1, day: c.day.2)
        #expect(try MomentFormat("GGGG-[W]WW W").string(for: day) == c.week)
    }

    @Test func yearOfTheIsoWeekIsNotTheCalendarYear() throws {
        let day = LocalDateTime(year: 2027, month: 1, day: 1)
        #expect(try MomentFormat("YYYY GGGG").string(for: day) == "2027 2026")
    }

    @Test(arguments: [
        ("Q", "YYYY-[Q]Q"), ("x", "x"), ("DDD", "YYYY-DDD"), ("Y", "Y-MM"), ("YYYYY", "YYYYY"),
        ("o", "DDo"), ("dd", "dd"), ("m", "H:m"), ("s", "s"), ("GG", "GG"), ("MMMMM", "MMMMM"),
        ("ww", "YYYY-ww"), ("u", "[unclosed YYYY"), ("Z", "HH:mmZ"), ("T", "YYYY-MM-DDTHH"),
    ])
    func refusesLettersThatAreNoToken(token: String, format: String) {
        #expect(throws: MomentFormatError.unknownToken(token, format: format)) { try MomentFormat(format) }
    }

    @Test func theErrorNamesTheLetterAndTheTokens() {
        let message = MomentFormatError.unknownToken("Q", format: "YYYY-Q").errorDescription ?? ""
        #expect(message.contains("'YYYY-Q'"))
        #expect(message.contains("'Q'"))
        #expect(message.contains("GGGG"))
        #expect(message.contains("[brackets]"))
    }

    @Test func readsTheWallClockInATimeZone() throws {
        // 2026-12-01T23:30:00Z is already 2 December in Tokyo, and still 1 December in New York.
        let instant = 1_796_167_800.0
        let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo"))
        let newYork = try #require(TimeZone(identifier: "America/New_York"))
        #expect(
            LocalDateTime(seconds: instant, timeZone: tokyo)
                == LocalDateTime(year: 2026, month: 12, day: 2, hour: 8, minute: 30))
        #expect(
            LocalDateTime(seconds: instant, timeZone: newYork)
                == LocalDateTime(year: 2026, month: 12, day: 1, hour: 18, minute: 30))
    }

    @Test func movesByDaysAcrossMonthsAndYears() {
        let day = LocalDateTime(year: 2026, month: 12, day: 31, hour: 7)
        #expect(day.adding(days: 1) == LocalDateTime(year: 2027, month: 1, day: 1, hour: 7))
        #expect(
            LocalDateTime(year: 2028, month: 3, day: 1).adding(days: -1)
                == LocalDateTime(year: 2028, month: 2, day: 29))
    }
}
