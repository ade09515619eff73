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

    init(width: Int, color: Bool, trueColor: Bool = false, theme: Theme, dates: LocalDate, human: Bool = true) {
        self.width = width
        self.color = color
        self.trueColor = trueColor
        self.theme = theme
        self.dates = dates
        self.human = human
    }

    /// The style SPEC §4 asks for: colour with `--color always`, or with `auto` on a terminal
    /// without `NO_COLOR` and with `TERM` not `dumb`; human rows on a terminal or with `always`;
    /// truecolor when `COLORTERM` says so.
    init(color mode: ColorMode, stdoutIsTTY: Bool, width: Int, settings: Settings,
         environment: [String: String], now: Double) {
        let color = switch mode {
        case .always: true
        case .never: false
        case .auto: stdoutIsTTY && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
        }
        self.init(
            width: width, color: color, trueColor: ["truecolor", "24bit"].contains(environment["COLORTERM"] ?? ""),
            theme: Theme(scheme: settings.theme, dark: settings.darkMode),
            dates: LocalDate(environment: environment, now: now), human: stdoutIsTTY || mode == .always)
    }
}

/// Dates in the user's locale and time zone, for human output: in full, or compact — the time
/// for today, the day and month for this year, else `yyyy-MM-dd`.
struct LocalDate {
    private let fullFormatter = DateFormatter()
    private let timeFormatter = DateFormatter()
    private let dayMonthFormatter = DateFormatter()
    private let dayFormatter = DateFormatter()
    private var calendar = Calendar(identifier: .gregorian)
    private let now: Date

    /// Dates as of `now` in `locale` and `timeZone`.
    init(locale: Locale, timeZone: TimeZone, now: Double) {
        self.now = Date(timeIntervalSince1970: now)
        calendar.timeZone = timeZone
        for formatter in [fullFormatter, timeFormatter, dayMonthFormatter, dayFormatter] {
            formatter.locale = locale
            formatter.timeZone = timeZone
        }
        fullFormatter.dateStyle = .medium
        fullFormatter.timeStyle = .short
        timeFormatter.dateStyle = .none
        timeFormatter.timeStyle = .short
        dayMonthFormatter.setLocalizedDateFormatFromTemplate("dMMM")
        dayFormatter.locale = Locale(identifier: "en_US_POSIX")
        dayFormatter.dateFormat = "yyyy-MM-dd"
    }

    /// The locale comes from `LC_ALL`, `LC_TIME` or `LANG` (Foundation's `Locale.current` ignores
    /// them on Linux); `C`, `POSIX` or nothing means Foundation's default. The time zone is the
    /// process's (`TZ`).
    init(environment: [String: String], now: Double) {
        var locale = Locale.current
        for name in ["LC_ALL", "LC_TIME", "LANG"] {
            guard let value = environment[name], !value.isEmpty else { continue }
            let identifier = String(value.prefix { $0 != "." && $0 != "@" })
            if identifier != "C" && identifier != "POSIX" { locale = Locale(identifier: identifier) }
            break
        }
        self.init(locale: locale, timeZone: TimeZone.current, now: now)
    }

    /// The date and time, e.g. `30 Nov 2024 at 8:09 AM`.
    func full(_ seconds: Double) -> String {
        fullFormatter.string(from: Date(timeIntervalSince1970: seconds))
    }

    /// The time if on the same day as now, the day and month if in the same year, else the date.
    func compact(_ seconds: Double) -> String {
        let date = Date(timeIntervalSince1970: seconds)
        if calendar.isDate(date, inSameDayAs: now) { return timeFormatter.string(from: date) }
        if calendar.component(.year, from: date) == calendar.component(.year, from: now) {
            return dayMonthFormatter.string(from: date)
        }
        return dayFormatter.string(from: date)
    }
}
