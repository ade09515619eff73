import Foundation
import NotesKit
import Testing

@Suite struct DateFormsTests {
    static func zone(_ identifier: String) -> TimeZone {
        TimeZone(identifier: identifier) ?? TimeZone(secondsFromGMT: 0)!
    }

    static let berlin = zone("Europe/Berlin")

    /// A time written with its offset, in seconds since 1970.
    static func at(_ text: String) -> Double { NoteDate.parse(text) ?? .nan }

    /// Wednesday 2026-12-02, 09:30 in Berlin.
    static let now = at("2026-12-02T09:30:00+01:00")

    /// A form that names a whole day, read at a fixed now.
    struct DayCase: CustomTestStringConvertible, Sendable {
        var text: String
        var now: String = "2026-12-02T09:30:00+01:00"
        var zone: String = "Europe/Berlin"
        var day: String

        var testDescription: String { "\(text) at \(now) is \(day)" }
    }

    static let days: [DayCase] = [
        DayCase(text: "2026-11-29", day: "2026-11-29"),
        DayCase(text: "2024-02-29", day: "2024-02-29"),
        DayCase(text: "today", day: "2026-12-02"),
        DayCase(text: "Today", day: "2026-12-02"),
        DayCase(text: "  today ", day: "2026-12-02"),
        DayCase(text: "yesterday", day: "2026-12-01"),
        DayCase(text: "1 day ago", day: "2026-12-01"),
        DayCase(text: "3 days ago", day: "2026-11-29"),
        DayCase(text: "0 days ago", day: "2026-12-02"),
        DayCase(text: "1 week ago", day: "2026-11-25"),
        DayCase(text: "2 weeks ago", day: "2026-11-18"),
        DayCase(text: "1 month ago", day: "2026-11-02"),
        DayCase(text: "12 months ago", day: "2025-12-02"),
        DayCase(text: "1 year ago", day: "2025-12-02"),
        DayCase(text: "3 YEARS AGO", day: "2023-12-02"),
        DayCase(text: "last week", day: "2026-11-25"),
        DayCase(text: "wednesday", day: "2026-11-25"),
        DayCase(text: "tuesday", day: "2026-12-01"),
        DayCase(text: "Monday", day: "2026-11-30"),
        DayCase(text: "sunday", day: "2026-11-29"),
        DayCase(text: "thursday", day: "2026-11-26"),
        DayCase(text: "7d", day: "2026-11-25"),
        DayCase(text: "1d", day: "2026-12-01"),
        DayCase(text: "2w", day: "2026-11-18"),
        DayCase(text: "400d", day: "2025-10-28"),
        // Just after midnight in Berlin, still the day before in UTC.
        DayCase(text: "today", now: "2026-12-02T00:30:00+01:00", day: "2026-12-02"),
        DayCase(text: "yesterday", now: "2026-12-02T00:30:00+01:00", day: "2026-12-01"),
        DayCase(text: "today", now: "2026-12-02T00:30:00+01:00", zone: "UTC", day: "2026-12-01"),
        // Calendar months, clamped to the month's last day.
        DayCase(text: "1 month ago", now: "2026-03-31T12:00:00+02:00", day: "2026-02-28"),
        DayCase(text: "1 month ago", now: "2024-03-31T12:00:00+02:00", day: "2024-02-29"),
        DayCase(text: "13 months ago", now: "2025-03-31T12:00:00+02:00", day: "2024-02-29"),
        DayCase(text: "2 months ago", now: "2026-01-15T12:00:00+01:00", day: "2025-11-15"),
        DayCase(text: "1 month ago", now: "2026-05-31T12:00:00+02:00", day: "2026-04-30"),
        DayCase(text: "1 year ago", now: "2024-02-29T12:00:00+01:00", day: "2023-02-28"),
        DayCase(text: "4 years ago", now: "2024-02-29T12:00:00+01:00", day: "2020-02-29"),
        // Leap days counted back over.
        DayCase(text: "1 day ago", now: "2024-03-01T12:00:00+01:00", day: "2024-02-29"),
        DayCase(text: "1 day ago", now: "2025-03-01T12:00:00+01:00", day: "2025-02-28"),
        // Across a change of clocks a day is still a day.
        DayCase(text: "1 day ago", now: "2026-03-30T00:30:00+02:00", day: "2026-03-29"),
        DayCase(text: "2d", now: "2026-03-30T00:30:00+02:00", day: "2026-03-28"),
        DayCase(text: "1 day ago", now: "2026-10-26T00:30:00+01:00", day: "2026-10-25"),
    ]

    @Test(arguments: days)
    func namesADay(_ c: DayCase) throws {
        let zone = Self.zone(c.zone)
        let span = try #require(DateForms.parse(c.text, now: Self.at(c.now), timeZone: zone))
        #expect(span.day.description == c.day)
        #expect(span.isWholeDay)
        let day = try #require(NoteDate.parse(c.day, timeZone: zone))
        #expect(span.start == day)
    }

    @Test func aWholeDayRunsFromItsFirstSecondToTheNextDay() throws {
        let span = try #require(DateForms.parse("2026-11-29", now: Self.now, timeZone: Self.berlin))
        #expect(span.start == Self.at("2026-11-29T00:00:00+01:00"))
        #expect(span.end == Self.at("2026-11-30T00:00:00+01:00"))
    }

    @Test func theDaysClocksChangeOnAreTwentyThreeAndTwentyFiveHoursLong() throws {
        let spring = try #require(DateForms.parse("2026-03-29", now: Self.now, timeZone: Self.berlin))
        #expect(spring.start == Self.at("2026-03-29T00:00:00+01:00"))
        #expect(spring.end - spring.start == 23 * 3600)
        let autumn = try #require(DateForms.parse("2026-10-25", now: Self.now, timeZone: Self.berlin))
        #expect(autumn.end - autumn.start == 25 * 3600)
    }

    @Test func aDayWhoseMidnightIsSkippedStartsAtItsFirstHour() throws {
        // Brazil moved its clocks from 00:00 to 01:00 on 2018-11-04.
        let span = try #require(
            DateForms.parse("2018-11-04", now: Self.now, timeZone: Self.zone("America/Sao_Paulo")))
        #expect(span.start == Self.at("2018-11-04T01:00:00-02:00"))
        #expect(span.end == Self.at("2018-11-05T00:00:00-02:00"))
    }

    /// A form with a time: an instant.
    struct InstantCase: CustomTestStringConvertible, Sendable {
        var text: String
        var instant: String

        var testDescription: String { text }
    }

    static let instants: [InstantCase] = [
        InstantCase(text: "2026-11-29T10:15", instant: "2026-11-29T10:15:00+01:00"),
        InstantCase(text: "2026-11-29T10:15:30", instant: "2026-11-29T10:15:30+01:00"),
        InstantCase(text: "2026-11-29T10:15:30Z", instant: "2026-11-29T10:15:30Z"),
        InstantCase(text: "2026-11-29T10:15Z", instant: "2026-11-29T10:15:00Z"),
        InstantCase(text: "2026-11-29T10:15+05:30", instant: "2026-11-29T10:15:00+05:30"),
        InstantCase(text: "2026-07-01T10:15", instant: "2026-07-01T10:15:00+02:00"),
    ]

    @Test(arguments: instants)
    func namesAnInstant(_ c: InstantCase) throws {
        let span = try #require(DateForms.parse(c.text, now: Self.now, timeZone: Self.berlin))
        #expect(!span.isWholeDay)
        #expect(span.start == Self.at(c.instant))
        #expect(span.end == span.start + 1)
    }

    static let rejected = [
        "", " ", "tomorrow", "2026-02-30", "2025-02-29", "2026-13-01", "2026-1-01", "0000-01-01",
        "7x", "d", "w", "-3d", "3.5d", "days ago", "3 days", "3 fortnights ago", "ago", "last month",
        "2026-11-29T25:00", "2026-11-29T10", "1234567d", "last", "mon", "next monday", "3 days ago now",
    ]

    @Test(arguments: rejected)
    func rejects(_ text: String) {
        #expect(DateForms.parse(text, now: Self.now, timeZone: Self.berlin) == nil)
    }

    @Test func addingMonthsClampsToTheMonthsLastDay() throws {
        let march31 = try #require(CalendarDay(year: 2026, month: 3, day: 31))
        #expect(march31.adding(months: -1).description == "2026-02-28")
        #expect(march31.adding(months: 1).description == "2026-04-30")
        #expect(march31.adding(months: -13).description == "2025-02-28")
        #expect(march31.adding(months: -25).description == "2024-02-29")
        #expect(march31.adding(months: 10).description == "2027-01-31")
    }

    @Test func weekdaysAreNumberedAsFoundationNumbersThem() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        for offset in 0..<14 {
            let day = try #require(CalendarDay(year: 2026, month: 12, day: 1)).adding(days: offset)
            let date = try #require(NoteDate.parse(day.description, timeZone: calendar.timeZone))
            #expect(day.weekday == calendar.component(.weekday, from: Date(timeIntervalSince1970: date)))
        }
    }
}
