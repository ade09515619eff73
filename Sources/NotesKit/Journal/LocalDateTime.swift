import Foundation

/// A day of the proleptic Gregorian calendar and a time of that day, as a wall clock shows them:
/// what a date format writes and what a daily note is named after. No time zone: it was read in
/// one already.
public struct LocalDateTime: Equatable, Hashable, Sendable {
    /// The year (2026).
    public var year: Int
    /// The month, 1 to 12.
    public var month: Int
    /// The day of the month, 1 to 31.
    public var day: Int
    /// The hour, 0 to 23.
    public var hour: Int
    /// The minute, 0 to 59.
    public var minute: Int
    /// The second, 0 to 59.
    public var second: Int

    /// A day and time as given; the values are not checked.
    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// The wall-clock day and time of the moment `seconds` (since 1970) in `timeZone`.
    public init(seconds: Double, timeZone: TimeZone = .current) {
        let clamped = NoteDate.clamped(seconds)
        let offset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: clamped))
        let total = Int(clamped.rounded(.down)) + offset
        let days = Int((Double(total) / 86400).rounded(.down))
        let rest = total - days * 86400
        (year, month, day) = NoteDate.civilFromDays(days)
        hour = rest / 3600
        minute = rest / 60 % 60
        second = rest % 60
    }

    /// The day `day` at the time of day of `time`.
    public init(_ day: CalendarDay, at time: LocalDateTime) {
        self.init(
            year: day.year, month: day.month, day: day.day, hour: time.hour, minute: time.minute,
            second: time.second)
    }

    /// The moment (seconds since 1970) this wall-clock day and time names in `timeZone`. A time
    /// that happens twice (the clocks set back) is its first; a time the clocks skipped (set
    /// forward) is read in the offset before the change, so 02:30 on such a night is 03:30.
    public func seconds(in timeZone: TimeZone = .current) -> Double {
        let wall = Double(dayNumber * 86400 + hour * 3600 + minute * 60 + second)
        // The offsets a day either side: every change of the clocks around the time is between them.
        let before = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: wall - 86400))
        let after = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: wall + 86400))
        for offset in [max(before, after), min(before, after)] {
            let moment = wall - Double(offset)
            if LocalDateTime(seconds: moment, timeZone: timeZone) == self { return moment }
        }
        return wall - Double(before)
    }

    /// Days since 1970-01-01 of the day.
    var dayNumber: Int { NoteDate.daysFromCivil(year, month, day) }

    /// The same time of the day `days` later (earlier when negative).
    public func adding(days: Int) -> LocalDateTime {
        var moved = self
        (moved.year, moved.month, moved.day) = NoteDate.civilFromDays(dayNumber + days)
        return moved
    }

    /// The day of the week, 0 for Sunday to 6 for Saturday.
    public var weekday: Int {
        // 1970-01-01 was a Thursday.
        let remainder = (dayNumber + 4) % 7
        return remainder < 0 ? remainder + 7 : remainder
    }

    /// The ISO 8601 week and the year it belongs to: weeks start on Monday, and week 1 is the one
    /// with the year's first Thursday, so 2027-01-01 is in week 53 of 2026.
    public var isoWeek: (week: Int, year: Int) {
        let isoWeekday = weekday == 0 ? 7 : weekday
        let thursday = dayNumber - isoWeekday + 4
        let (thursdayYear, _, _) = NoteDate.civilFromDays(thursday)
        let ordinal = thursday - NoteDate.daysFromCivil(thursdayYear, 1, 1)
        return (ordinal / 7 + 1, thursdayYear)
    }
}
