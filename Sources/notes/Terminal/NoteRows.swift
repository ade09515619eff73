import Foundation
import NotesKit

/// One row of `list`, `search` or `trash`.
struct NoteRow {
    var note: Note
    /// The date shown (the one the order uses, or the deletion date in the trash).
    var date: Double
    /// The first matching line, for search.
    var snippet: String?
}

/// Renders rows for a TTY (tinted capsules, SPEC §7), for pipes (`ID<TAB>DATE<TAB>TITLE`) and as JSON.
struct NoteRows {
    let context: Context

    /// Rows as the output mode wants them.
    func render(_ rows: [NoteRow], query: SearchQuery? = nil) -> String {
        context.humanOutput ? human(rows, query: query) : piped(rows)
    }

    /// `ID<TAB>DATE<TAB>TITLE` lines with ISO 8601 UTC dates, no colour, no truncation.
    func piped(_ rows: [NoteRow]) -> String {
        var out = ""
        for row in rows {
            out += ANSI.printable(row.note.id) + "\t" + NoteDate.format(row.date) + "\t"
                + ANSI.printable(row.note.title) + "\n"
        }
        return out
    }

    /// One line per note, never wrapped: title, a dimmer local date, the ID; tinted when colour is on.
    func human(_ rows: [NoteRow], query: SearchQuery?) -> String {
        let width = context.width
        let color = context.colorEnabled
        let theme = context.theme
        let trueColor = context.trueColor
        let formatter = LocalDate(environment: context.environment)
        let dates = rows.map { formatter.format($0.date) }
        let dateWidth = dates.map(DisplayWidth.of).max() ?? 0
        let titles = rows.map { ANSI.printable($0.note.title) }
        let ids = rows.map { ANSI.printable($0.note.id) }
        let maxTitle = titles.map(DisplayWidth.of).max() ?? 0
        let maxID = ids.map(DisplayWidth.of).max() ?? 0
        // Padding and gaps: " title  date  id ".
        let fixed = 6
        // The ID is what the user types: it gets at least half the room, and whatever the
        // titles leave unused.
        let room = max(0, width - fixed - dateWidth)
        let idWidth = min(maxID, max(room / 2, room - maxTitle))
        let titleWidth = min(maxTitle, room - idWidth)
        let tint = ANSI.background(theme.tint, code: theme.tintCode, trueColor: trueColor)
        let text = ANSI.foreground(theme.text, trueColor: trueColor)
        let dim = ANSI.foreground(theme.dim, trueColor: trueColor)
        var out = ""
        for (i, row) in rows.enumerated() {
            if room < 8 {
                // Too narrow for columns: the title alone, cut to the width.
                let cell = DisplayWidth.truncate(titles[i], to: max(0, width - 2))
                out += color ? tint + text + " " + cell + " " + ANSI.reset + "\n" : " " + cell + "\n"
            } else {
                let title = DisplayWidth.pad(DisplayWidth.truncate(titles[i], to: titleWidth), to: titleWidth)
                let date = DisplayWidth.pad(dates[i], to: dateWidth)
                let id = DisplayWidth.pad(DisplayWidth.truncate(ids[i], to: idWidth), to: idWidth)
                if color {
                    out += tint + text + ANSI.bold + " " + title + ANSI.reset + tint + "  " + dim + date + "  "
                        + text + id + " " + ANSI.reset + "\n"
                } else {
                    out += " " + title + "  " + date + "  " + id + "\n"
                }
            }
            if let snippet = row.snippet {
                out += "    " + highlighted(DisplayWidth.truncate(ANSI.printable(snippet), to: max(1, width - 4)),
                                            query: query, color: color) + "\n"
            }
        }
        return out
    }

    /// A snippet with the query's matches in bold on the theme's stronger tint.
    func highlighted(_ line: String, query: SearchQuery?, color: Bool) -> String {
        guard color, let query else { return line }
        let theme = context.theme
        let on = ANSI.bold + ANSI.background(theme.highlight, trueColor: context.trueColor)
            + ANSI.foreground(theme.text, trueColor: context.trueColor)
        var out = ""
        var cursor = line.startIndex
        for range in query.highlights(in: line) where range.lowerBound >= cursor {
            out += line[cursor..<range.lowerBound] + on + line[range] + ANSI.reset
            cursor = range.upperBound
        }
        return out + line[cursor...]
    }
}

/// Dates in the user's locale and time zone, for human output.
struct LocalDate {
    private let formatter = DateFormatter()

    /// The locale comes from `LC_ALL`, `LC_TIME` or `LANG` (Foundation's `Locale.current` ignores
    /// them on Linux); `C`, `POSIX` or nothing means Foundation's default.
    init(environment: [String: String]) {
        formatter.locale = Locale.current
        for name in ["LC_ALL", "LC_TIME", "LANG"] {
            guard let value = environment[name], !value.isEmpty else { continue }
            let identifier = String(value.prefix { $0 != "." && $0 != "@" })
            if identifier != "C" && identifier != "POSIX" { formatter.locale = Locale(identifier: identifier) }
            break
        }
        formatter.timeZone = TimeZone.current
        formatter.dateStyle = .medium
        formatter.timeStyle = .short
    }

    func format(_ seconds: Double) -> String {
        formatter.string(from: Date(timeIntervalSince1970: seconds))
    }
}
