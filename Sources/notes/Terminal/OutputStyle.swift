import Foundation
import NotesKit

/// How output looks on this run: human rows or piped ones, the width, colour, the theme, and dates
/// in the user's locale and time zone. Renderers take it instead of reading the environment.
struct OutputStyle {
    var width: Int
    var color: Bool
    var trueColor: Bool
    var theme: Theme
    var dates: LocalDate
    /// Human rows (a TTY or `--color always`) rather than tab-separated ones.
    var human: Bool

    init(width: Int, color: Bool, trueColor: Bool = false, theme: Theme, dates: LocalDate, human: Bool = true)
    {
        self.width = width
        self.color = color
        self.trueColor = trueColor
        self.theme = theme
        self.dates = dates
        self.human = human
    }

    /// The style the options and the terminal ask for: colour with `--color always`, or with `auto`
    /// on a terminal without `NO_COLOR` and with `TERM` not `dumb`; human rows on a terminal or
    /// with `always`; truecolor when `COLORTERM` says so.
    init(
        color mode: ColorMode, stdoutIsTTY: Bool, width: Int, settings: Settings,
        environment: [String: String], now: Double
    ) {
        let color =
            switch mode {
            case .always: true
            case .never: false
            case .auto:
                stdoutIsTTY && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
            }
        self.init(
            width: width, color: color,
            trueColor: ["truecolor", "24bit"].contains(environment["COLORTERM"] ?? ""),
            theme: Theme(scheme: settings.theme, dark: settings.darkMode),
            dates: LocalDate(environment: environment, now: now), human: stdoutIsTTY || mode == .always)
    }
}

/// Dates in the user's locale and time zone, for human output: in full, or compact — the time
/// for today, the day and month for this year, else `yyyy-MM-dd`. The formatters are made on first
/// use: piped output never needs them, and making them loads the locale data (megabytes).
struct LocalDate {
    private final class Formatters {
        let full = DateFormatter()
        let time = DateFormatter()
        let dayMonth = DateFormatter()
        let day = DateFormatter()
        var calendar = Calendar(identifier: .gregorian)

        init(locale: Locale, timeZone: TimeZone) {
            calendar.timeZone = timeZone
            for formatter in [full, time, dayMonth, day] {
                formatter.locale = locale
                formatter.timeZone = timeZone
            }
            full.dateStyle = .medium
            full.timeStyle = .short
            time.dateStyle = .none
            time.timeStyle = .short
            dayMonth.setLocalizedDateFormatFromTemplate("dMMM")
            day.locale = Locale(identifier: "en_US_POSIX")
            day.dateFormat = "yyyy-MM-dd"
        }
    }

    private final class Lazy {
        let make: () -> Formatters
        lazy var formatters = make()
        init(_ make: @escaping () -> Formatters) { self.make = make }
    }

    private let lazy: Lazy
    private let now: Date
    private var formatters: Formatters { lazy.formatters }

    /// Dates as of `now` in `locale` and `timeZone`.
    init(locale: Locale, timeZone: TimeZone, now: Double) {
        self.now = Date(timeIntervalSince1970: now)
        lazy = Lazy { Formatters(locale: locale, timeZone: timeZone) }
    }

    /// The locale comes from `LC_ALL`, `LC_TIME` or `LANG` (Foundation's `Locale.current` ignores
    /// them on Linux); `C`, `POSIX` or nothing means Foundation's default. The time zone is the
    /// process's (`TZ`).
    init(environment: [String: String], now: Double) {
        self.now = Date(timeIntervalSince1970: now)
        lazy = Lazy {
            var locale = Locale.current
            for name in ["LC_ALL", "LC_TIME", "LANG"] {
                guard let value = environment[name], !value.isEmpty else { continue }
                let identifier = String(value.prefix { $0 != "." && $0 != "@" })
                if identifier != "C" && identifier != "POSIX" { locale = Locale(identifier: identifier) }
                break
            }
            return Formatters(locale: locale, timeZone: TimeZone.current)
        }
    }

    /// The date and time, e.g. `30 Nov 2024 at 8:09 AM`.
    func full(_ seconds: Double) -> String {
        formatters.full.string(from: Date(timeIntervalSince1970: seconds))
    }

    /// The time if on the same day as now, the day and month if in the same year, else the date.
    func compact(_ seconds: Double) -> String {
        let date = Date(timeIntervalSince1970: seconds)
        let formatters = formatters
        let calendar = formatters.calendar
        if calendar.isDate(date, inSameDayAs: now) { return formatters.time.string(from: date) }
        if calendar.component(.year, from: date) == calendar.component(.year, from: now) {
            return formatters.dayMonth.string(from: date)
        }
        return formatters.day.string(from: date)
    }
}
