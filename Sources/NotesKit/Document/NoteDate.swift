import Foundation

/// Reads and writes the date forms notes are read in (`2026-11-29T12:38:16Z`, with fractions or an
/// offset, `2026-11-29 12:38[:16]` and `2026-11-29` in local time). Times are seconds since 1970
/// (UTC).
public enum NoteDate {
    /// Parses `2026-11-29T12:38:16Z`, fractional seconds, offsets (`+02:00`, `+0200`, `+02`),
    /// `2026-11-29 12:38[:16]` and `2026-11-29T12:38[:16]` (local time) and `2026-11-29`
    /// (local midnight). Returns nil for anything else, including impossible dates.
    public static func parse(_ text: String, timeZone: TimeZone = .current) -> Double? {
        // Read in place (every note's dates are parsed as it is read: no copy of the bytes).
        var text = text
        return text.withUTF8 { parse(bytes: $0, timeZone: timeZone) }
    }

    /// `parse(_:timeZone:)` of UTF-8 bytes.
    static func parse(bytes b: UnsafeBufferPointer<UInt8>, timeZone: TimeZone) -> Double? {
        // A cursor value, not a variable the helpers capture: a captured variable is checked for
        // exclusive access at every use.
        var c = DateCursor(b: b)
        guard let year = c.digits(4), c.take(0x2D), let month = c.digits(2), c.take(0x2D),
            let day = c.digits(2),
            (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year)
        else { return nil }
        if c.i == b.count {
            return localSeconds(year, month, day, 0, 0, 0, 0, timeZone)
        }
        guard c.i < b.count, b[c.i] == UInt8(ascii: "T") || b[c.i] == UInt8(ascii: "t") || b[c.i] == 0x20
        else { return nil }
        c.i += 1
        guard let hour = c.digits(2), hour < 24, c.take(0x3A), let minute = c.digits(2), minute < 60
        else { return nil }
        var second = 0
        var fraction = 0.0
        if c.take(0x3A) {
            guard let s = c.digits(2), s < 60 else { return nil }
            second = s
            if c.take(0x2E) || c.take(0x2C) {
                var scale = 0.1
                let start = c.i
                while c.i < b.count, b[c.i] &- 0x30 < 10 {
                    fraction += Double(b[c.i] - 0x30) * scale
                    scale /= 10
                    c.i += 1
                }
                guard c.i > start else { return nil }
            }
        }
        if c.i == b.count {
            return localSeconds(year, month, day, hour, minute, second, fraction, timeZone)
        }
        var offset = 0
        // Jekyll writes `2015-11-17 16:16:01 -0600`: one blank may stand before the zone.
        if c.i + 1 < b.count, b[c.i] == 0x20,
            b[c.i + 1] == UInt8(ascii: "Z") || b[c.i + 1] == UInt8(ascii: "z") || b[c.i + 1] == 0x2B
                || b[c.i + 1] == 0x2D
        {
            c.i += 1
        }
        if c.take(UInt8(ascii: "Z")) || c.take(UInt8(ascii: "z")) {
            offset = 0
        } else if c.i < b.count, b[c.i] == 0x2B || b[c.i] == 0x2D {
            let sign = b[c.i] == 0x2D ? -1 : 1
            c.i += 1
            guard let oh = c.digits(2), oh < 24 else { return nil }
            var om = 0
            if c.take(0x3A) {
                guard let m = c.digits(2), m < 60 else { return nil }
                om = m
            } else if c.i < b.count {
                guard let m = c.digits(2), m < 60 else { return nil }
                om = m
            }
            offset = sign * (oh * 3600 + om * 60)
        } else {
            return nil
        }
        guard c.i == b.count else { return nil }
        let days = daysFromCivil(year, month, day)
        let utc = days * 86400 + hour * 3600 + minute * 60 + second - offset
        return Double(utc) + fraction
    }

    /// Where `parse(bytes:timeZone:)` is in the bytes it reads.
    private struct DateCursor {
        let b: UnsafeBufferPointer<UInt8>
        var i = 0

        /// The number `count` digits at the cursor make, moving past them; nil when they are not.
        mutating func digits(_ count: Int) -> Int? {
            guard i + count <= b.count else { return nil }
            var v = 0
            for k in i..<(i + count) {
                let d = b[k] &- 0x30
                guard d < 10 else { return nil }
                v = v * 10 + Int(d)
            }
            i += count
            return v
        }

        /// Whether byte `c` is at the cursor, moving past it when it is.
        mutating func take(_ c: UInt8) -> Bool {
            if i < b.count, b[i] == c {
                i += 1
                return true
            }
            return false
        }
    }

    /// The times the tool shows and stores: years 1 to 9999.
    public static let representable: ClosedRange<Double> = -62_135_596_800...253_402_300_799

    /// `seconds` brought into `representable` (a file's mtime can be anything a filesystem takes,
    /// e.g. `touch -d @9223372036854775807`); not a number becomes 0.
    public static func clamped(_ seconds: Double) -> Double {
        seconds.isNaN ? 0 : min(max(seconds, representable.lowerBound), representable.upperBound)
    }

    /// Formats a time as UTC ISO 8601 with whole seconds, e.g. `2026-11-29T12:38:16Z`.
    public static func format(_ seconds: Double) -> String {
        let total = Int(clamped(seconds).rounded(.down))
        var days = total / 86400
        var rest = total % 86400
        if rest < 0 {
            rest += 86400
            days -= 1
        }
        let (y, m, d) = civilFromDays(days)
        // Written digit by digit: lists print one of these per row.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(20)
        func put(_ value: Int, _ width: Int, then separator: Character?) {
            var divisor = 1
            for _ in 1..<width { divisor *= 10 }
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
                divisor /= 10
            }
            if let separator, let ascii = separator.asciiValue { bytes.append(ascii) }
        }
        put(y, 4, then: "-")
        put(m, 2, then: "-")
        put(d, 2, then: "T")
        put(rest / 3600, 2, then: ":")
        put(rest / 60 % 60, 2, then: ":")
        put(rest % 60, 2, then: "Z")
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Formats a time in the local time zone as `YYYYMMDD-HHMMSS` (file-name stamps).
    public static func stamp(_ seconds: Double, timeZone: TimeZone = .current) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let c = calendar.dateComponents(
            [.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: seconds))
        func pad(_ v: Int?, _ w: Int) -> String {
            let s = String(v ?? 0)
            return s.count >= w ? s : String(repeating: "0", count: w - s.count) + s
        }
        return pad(c.year, 4) + pad(c.month, 2) + pad(c.day, 2) + "-" + pad(c.hour, 2) + pad(c.minute, 2)
            + pad(c.second, 2)
    }

    static func isLeap(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    static func localSeconds(
        _ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int, _ s: Int, _ fraction: Double, _ tz: TimeZone
    ) -> Double? {
        // Foundation's Gregorian calendar is Julian before the reform of 15 October 1582; ISO 8601
        // dates, the other forms and `format` are proleptic Gregorian. There, the wall-clock time
        // less the zone's offset at that moment (local mean time, in most zones, that long ago).
        if (y, mo, d) < (1582, 10, 15) {
            let wall = Double(daysFromCivil(y, mo, d) * 86400 + h * 3600 + mi * 60 + s)
            let guess = wall - Double(tz.secondsFromGMT(for: Date(timeIntervalSince1970: wall)))
            return wall - Double(tz.secondsFromGMT(for: Date(timeIntervalSince1970: guess))) + fraction
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = tz
        let components = DateComponents(year: y, month: mo, day: d, hour: h, minute: mi, second: s)
        guard let date = calendar.date(from: components) else { return nil }
        return date.timeIntervalSince1970 + fraction
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    /// The proleptic Gregorian (year, month, day) of `days` days since 1970-01-01 (Howard
    /// Hinnant's `civil_from_days`).
    public static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}
