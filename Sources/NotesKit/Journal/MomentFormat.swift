import Foundation

/// A date format in Moment.js tokens, as Obsidian and its daily notes write them (`YYYY-MM-DD`,
/// `dddd, MMMM Do YYYY`, `GGGG-[W]WW`), parsed once and then written for any day. Only the tokens
/// listed in `MomentFormat.tokens` are known; any other ASCII letter outside `[…]` is refused, since
/// copying it as it is would name another file than Obsidian does. Names are English.
public struct MomentFormat: Equatable, Sendable {
    /// One token of a format.
    enum Token: String, CaseIterable, Sendable {
        case year4 = "YYYY"
        case year2 = "YY"
        case monthName = "MMMM"
        case monthShort = "MMM"
        case month2 = "MM"
        case month = "M"
        case day2 = "DD"
        case day = "D"
        case dayOrdinal = "Do"
        case weekdayName = "dddd"
        case weekdayShort = "ddd"
        case weekdayNumber = "d"
        case hour2 = "HH"
        case hour = "H"
        case hour12Padded = "hh"
        case hour12 = "h"
        case minute2 = "mm"
        case second2 = "ss"
        case meridiemUpper = "A"
        case meridiemLower = "a"
        case isoWeek2 = "WW"
        case isoWeek = "W"
        case isoWeekYear = "GGGG"
    }

    /// A piece of a format: text written as it is, or a token.
    enum Piece: Equatable, Sendable {
        case literal(String)
        case token(Token)
    }

    /// The format as written.
    public let text: String
    let pieces: [Piece]

    /// Every token, in the order help lists them.
    public static let tokens: [String] = Token.allCases.map(\.rawValue)

    /// Parses `text`; throws `unknownToken` for an ASCII letter (or a run of one) that is not a token.
    public init(_ text: String) throws(MomentFormatError) {
        self.text = text
        var pieces: [Piece] = []
        var literal = ""
        func flush() {
            if !literal.isEmpty { pieces.append(.literal(literal)) }
            literal = ""
        }
        let characters = Array(text)
        var i = 0
        while i < characters.count {
            let c = characters[i]
            if c == "[", let close = characters[(i + 1)...].firstIndex(of: "]") {
                literal += String(characters[(i + 1)..<close])
                i = close + 1
                continue
            }
            guard c.isASCII, c.isLetter else {
                literal.append(c)
                i += 1
                continue
            }
            // Moment's tokens are runs of one letter (`Do` aside), so a run is read whole: `DDD`
            // (Moment's day of the year) is refused rather than written as `DD` then `D`.
            var end = i + 1
            while end < characters.count, characters[end] == c { end += 1 }
            var run = String(characters[i..<end])
            if run == "D", end < characters.count, characters[end] == "o" {
                run = "Do"
                end += 1
            }
            guard let token = Token(rawValue: run) else { throw .unknownToken(run, format: text) }
            flush()
            pieces.append(.token(token))
            i = end
        }
        flush()
        self.pieces = pieces
    }

    /// The format written for `time`.
    public func string(for time: LocalDateTime) -> String {
        var out = ""
        for piece in pieces {
            switch piece {
            case .literal(let text): out += text
            case .token(let token): out += Self.write(token, time)
            }
        }
        return out
    }

    static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ]
    static let weekdayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    private static func write(_ token: Token, _ t: LocalDateTime) -> String {
        let hour12 = t.hour % 12 == 0 ? 12 : t.hour % 12
        switch token {
        case .year4: return padded(t.year, 4)
        case .year2: return padded(((t.year % 100) + 100) % 100, 2)
        case .monthName: return monthNames[(t.month - 1 + 12) % 12]
        case .monthShort: return String(monthNames[(t.month - 1 + 12) % 12].prefix(3))
        case .month2: return padded(t.month, 2)
        case .month: return String(t.month)
        case .day2: return padded(t.day, 2)
        case .day: return String(t.day)
        case .dayOrdinal: return String(t.day) + ordinalSuffix(t.day)
        case .weekdayName: return weekdayNames[t.weekday]
        case .weekdayShort: return String(weekdayNames[t.weekday].prefix(3))
        case .weekdayNumber: return String(t.weekday)
        case .hour2: return padded(t.hour, 2)
        case .hour: return String(t.hour)
        case .hour12Padded: return padded(hour12, 2)
        case .hour12: return String(hour12)
        case .minute2: return padded(t.minute, 2)
        case .second2: return padded(t.second, 2)
        case .meridiemUpper: return t.hour < 12 ? "AM" : "PM"
        case .meridiemLower: return t.hour < 12 ? "am" : "pm"
        case .isoWeek2: return padded(t.isoWeek.week, 2)
        case .isoWeek: return String(t.isoWeek.week)
        case .isoWeekYear: return padded(t.isoWeek.year, 4)
        }
    }

    /// English ordinal suffixes: 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st.
    private static func ordinalSuffix(_ n: Int) -> String {
        if (11...13).contains(n % 100) { return "th" }
        switch n % 10 {
        case 1: return "st"
        case 2: return "nd"
        case 3: return "rd"
        default: return "th"
        }
    }

    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(abs(value))
        let zeros = String(repeating: "0", count: max(0, width - digits.count))
        return (value < 0 ? "-" : "") + zeros + digits
    }
}

/// A date format that cannot be used.
public enum MomentFormatError: LocalizedError, Equatable, Sendable {
    /// The format holds letters that are not a date token (`Q`, `DDD`, `x`); text to keep as it is
    /// goes in `[…]`.
    case unknownToken(String, format: String)

    public var errorDescription: String? {
        switch self {
        case .unknownToken(let token, let format):
            return "the date format '\(format)' holds '\(token)', which is not a date token; use "
                + MomentFormat.tokens.joined(separator: " ") + ", and put text to keep as it is in [brackets]"
        }
    }
}
