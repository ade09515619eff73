import Foundation

/// A day of the proleptic Gregorian calendar, as `YYYY-MM-DD` writes it.
public struct CalendarDay: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// The year.
    public var year: Int
    /// The month, 1 to 12.
    public var month: Int
    /// The day of the month, 1 to 31.
    public var day: Int

    /// The day `year`-`month`-`day`; nil when there is no such day (February 30, month 13).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= NoteDate.daysIn(month: month, year: year) else {
            return nil
        }
        (self.year, self.month, self.day) = (year, month, day)
    }

    /// The day `number` days after 1970-01-01.
    init(dayNumber number: Int) {
        (year, month, day) = NoteDate.civilFromDays(number)
    }

    /// The days since 1970-01-01.
    var dayNumber: Int { NoteDate.daysFromCivil(year, month, day) }

    /// The day that is `count` days later (earlier for a negative count).
    public func adding(days count: Int) -> CalendarDay { CalendarDay(dayNumber: dayNumber + count) }

    /// The same day of the month `count` calendar months later (earlier for a negative count),
    /// clamped to that month's last day: March 31 less one month is February 28 (29 in a leap year).
    public func adding(months count: Int) -> CalendarDay {
        let months = year * 12 + (month - 1) + count
        let (y, m) = (months >= 0 ? months / 12 : (months - 11) / 12, (months % 12 + 12) % 12 + 1)
        var result = self
        (result.year, result.month, result.day) = (y, m, min(day, NoteDate.daysIn(month: m, year: y)))
        return result
    }

    /// The weekday, 1 (Sunday) to 7 (Saturday), as Foundation numbers them.
    public var weekday: Int { ((dayNumber + 4) % 7 + 7) % 7 + 1 }

    /// The day in the local calendar of `timeZone` that holds the instant `seconds` (since 1970).
    public static func holding(_ seconds: Double, timeZone: TimeZone) -> CalendarDay {
        let offset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: seconds))
        let local = Int((seconds + Double(offset)).rounded(.down))
        return CalendarDay(dayNumber: local >= 0 ? local / 86400 : (local - 86399) / 86400)
    }

    /// The first second of the day in `timeZone` (where midnight is skipped by a change of clocks,
    /// the first time the day has).
    public func start(in timeZone: TimeZone) -> Double {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let noon = DateComponents(year: year, month: month, day: day, hour: 12)
        guard (1583...9999).contains(year), let date = calendar.date(from: noon) else {
            let wall = Double(dayNumber) * 86400
            return wall - Double(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: wall)))
        }
        return calendar.startOfDay(for: date).timeIntervalSince1970
    }

    /// Whether `a` is an earlier day than `b`.
    public static func < (a: CalendarDay, b: CalendarDay) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }
}

/// What a DATE names: a whole local day, or an instant (the form with a time). A `--since` bound
/// starts at `start`; an `--until` bound takes every time before `end`.
public struct DateSpan: Equatable, Sendable {
    /// The local day named, or the one the instant falls on.
    public var day: CalendarDay
    /// The first second, in seconds since 1970.
    public var start: Double
    /// The first second after it: the next day's start, or one second after the instant (times
    /// are kept to the second).
    public var end: Double
    /// Whether it names a whole day (every form but the one with a time).
    public var isWholeDay: Bool
}

/// The DATE forms of `--since`, `--until` and `--date`: `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM[:SS]` with
/// an optional `Z` or offset, `today`, `yesterday`, `N days ago` (`weeks`, `months`, `years`),
/// `last week`, a weekday name (the most recent one before today), `Nd` and `Nw`. Words are
/// read ignoring case. Relative forms count from `now` in the local calendar of the time zone,
/// so a day across a change of clocks is still one day.
public enum DateForms {
    /// The forms, one per line, for a message about a DATE that does not parse.
    public static let summary: [String] = [
        "YYYY-MM-DD (a whole day, local time)",
        "YYYY-MM-DDTHH:MM[:SS] with an optional Z or offset such as +01:00",
        "today, yesterday",
        "N days ago (also weeks, months, years; 1 day ago)",
        "last week (7 days ago)",
        "a weekday name such as monday (the most recent one before today)",
        "Nd, Nw (7d = 7 days ago)",
    ]

    private static let weekdays = [
        "sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
    ]

    /// What `text` names, counted from `now` (seconds since 1970) in `timeZone`; nil when it is
    /// none of the forms.
    public static func parse(_ text: String, now: Double, timeZone: TimeZone) -> DateSpan? {
        let words = text.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard !words.isEmpty else { return nil }
        let today = CalendarDay.holding(now, timeZone: timeZone)
        func whole(_ day: CalendarDay) -> DateSpan {
            DateSpan(
                day: day, start: day.start(in: timeZone), end: day.adding(days: 1).start(in: timeZone),
                isWholeDay: true)
        }
        if words.count == 1, let day = absoluteDay(words[0]) { return whole(day) }
        if words.count == 1, words[0].count > 10, let instant = NoteDate.parse(words[0], timeZone: timeZone),
            NoteDate.representable.contains(instant)
        {
            return DateSpan(
                day: CalendarDay.holding(instant, timeZone: timeZone), start: instant, end: instant + 1,
                isWholeDay: false)
        }
        return relativeDay(words, today: today).map(whole)
    }

    /// `YYYY-MM-DD` exactly.
    private static func absoluteDay(_ word: String) -> CalendarDay? {
        let bytes = Array(word.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else {
            return nil
        }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard byte &- UInt8(ascii: "0") < 10 else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), year >= 1, let month = number(5..<7), let day = number(8..<10) else {
            return nil
        }
        return CalendarDay(year: year, month: month, day: day)
    }

    /// The forms counted back from `today`.
    private static func relativeDay(_ words: [String], today: CalendarDay) -> CalendarDay? {
        switch words {
        case ["today"]: return today
        case ["yesterday"]: return today.adding(days: -1)
        case ["last", "week"]: return today.adding(days: -7)
        default: break
        }
        if words.count == 1, let weekday = weekdays.firstIndex(of: words[0]) {
            let back = (today.weekday - 1 - weekday + 7) % 7
            return today.adding(days: back == 0 ? -7 : -back)
        }
        if words.count == 1, let unit = words[0].last, unit == "d" || unit == "w",
            let count = count(words[0].dropLast())
        {
            return today.adding(days: -(unit == "w" ? count * 7 : count))
        }
        guard words.count == 3, words[2] == "ago", let count = count(Substring(words[0])) else { return nil }
        let unit = words[1].hasSuffix("s") ? String(words[1].dropLast()) : words[1]
        switch unit {
        case "day": return today.adding(days: -count)
        case "week": return today.adding(days: -count * 7)
        case "month": return today.adding(months: -count)
        case "year": return today.adding(months: -count * 12)
        default: return nil
        }
    }

    /// A count of at most six digits: more would leave the years the tool can show.
    private static func count(_ digits: Substring) -> Int? {
        guard !digits.isEmpty, digits.count <= 6, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            return nil
        }
        return Int(digits)
    }
}
