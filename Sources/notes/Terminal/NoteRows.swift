import Foundation
import NotesKit

/// One row of `list`, `search` or `trash`.
struct NoteRow {
    var note: Note
    /// The date shown (the one the order uses, or the deletion date in the trash).
    var date: Double
    /// The first matching line, for search; shown only when set.
    var snippet: String?
    /// The IDs of the note's conflict copies.
    var conflictCopies: [String] = []
    /// Whether git has uncommitted changes to it; nil when not asked (`--git`).
    var dirty: Bool?

    /// The marks before the title in human rows: `!` conflict markers in the note, `=` conflict
    /// copies beside it, `*` uncommitted changes.
    var marks: String {
        (note.conflicted ? "!" : "") + (conflictCopies.isEmpty ? "" : "=") + (dirty == true ? "*" : "")
    }
}

/// Renders rows for a TTY (tinted capsules) or for pipes (`ID<TAB>DATE<TAB>TITLE`).
enum NoteRows {
    /// Rows as the style wants them: human lines or tab-separated ones (with `marks`, a fourth
    /// column holding them).
    static func render(
        _ rows: [NoteRow], query: SearchQuery? = nil, marks: Bool = false, style: OutputStyle
    ) -> String {
        guard style.human else { return piped(rows, marks: marks) }
        return human(rows, query: query, style: style).map { $0 + "\n" }.joined()
    }

    /// `ID<TAB>DATE<TAB>TITLE` lines with ISO 8601 UTC dates, no colour, no truncation; with
    /// `marks`, `<TAB>MARKS` after the title (empty when the note has none), so that scripts
    /// reading three columns never see a fourth unless they ask for it. Made as bytes: a search
    /// prints thousands of these.
    static func piped(_ rows: [NoteRow], marks: Bool = false) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(rows.count * 80)
        // By index, each field read in place: a copy of a row would retain all its strings.
        for i in rows.indices {
            appendPrintable(rows[i].note.id, to: &out)
            out.append(UInt8(ascii: "\t"))
            PipedDates.append(rows[i].date, to: &out)
            out.append(UInt8(ascii: "\t"))
            appendPrintable(rows[i].note.title, to: &out)
            if marks {
                out.append(UInt8(ascii: "\t"))
                out.append(contentsOf: rows[i].marks.utf8)
            }
            out.append(UInt8(ascii: "\n"))
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The piped rows (`ID<TAB>DATE<TAB>TITLE`, no marks) of the notes `query` selects, with the
    /// dates of `order`: what `piped(_:marks:)` makes of their listing, from the index's bytes.
    static func piped(_ store: NoteStore, query: NoteQuery, order: NotesKit.SortOrder) -> String {
        let out = store.renderRows(query, order: order) { id, title, date, out in
            appendPrintable(id, to: &out)
            out.append(UInt8(ascii: "\t"))
            PipedDates.append(date, to: &out)
            out.append(UInt8(ascii: "\t"))
            appendPrintable(title, to: &out)
            out.append(UInt8(ascii: "\n"))
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the bytes of `ANSI.printable(text)`: those of `text` itself when it has no control
    /// character, as almost every ID and title (a byte below a space, DEL, or the lead byte of
    /// the C1 block and every other `U+0080…U+00BF` sends it the long way).
    static func appendPrintable(_ text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { appendPrintable(UnsafeRawBufferPointer($0), to: &out) }
    }

    /// `appendPrintable(_:to:)` of a text's UTF-8 bytes (the rows `renderRows` hands over).
    private static func appendPrintable(_ bytes: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        for byte in bytes where byte < 0x20 || byte == 0x7F || byte == 0xC2 {
            guard byte == 0xC2, ANSI.isPrintable(bytes) else {
                return out.append(contentsOf: ANSI.printable(String(decoding: bytes, as: UTF8.self)).utf8)
            }
            break
        }
        out.append(contentsOf: bytes)
    }

    /// One line per note, never wider than the terminal: the title, a dimmer local date and the
    /// whole ID when it fits, tinted when colour is on, matched terms marked; and under a note
    /// with a snippet, the snippet indented, cut to the width. The row at index `selected` (the
    /// browser's selection) is tinted more strongly.
    static func human(
        _ rows: [NoteRow], query: SearchQuery?, style: OutputStyle, selected: Int? = nil
    ) -> [String] {
        // A title can be a whole 20 MB line: only what can show is looked at.
        let titles = rows.map { ANSI.printable(bounded($0.note.title, to: style.width)) }
        let ids = rows.map { ANSI.printable($0.note.id) }
        // Too narrow for columns and padding: the start of each ID, the handle users type.
        if style.width < RowLayout.narrowest { return ids.map { DisplayWidth.truncate($0, to: style.width) } }
        // A column of marks (`!`, `=`, `*`) before the titles, when a row has any.
        let rowMarks = rows.map(\.marks)
        let markWidth = rowMarks.map(\.count).max() ?? 0
        let markColumn = markWidth == 0 ? 0 : markWidth + 1
        let fullDates = rows.map { style.dates.full($0.date) }
        let compactDates = rows.map { style.dates.compact($0.date) }
        let layout = RowLayout(
            width: style.width - markColumn, title: titles.map(DisplayWidth.of).max() ?? 0,
            fullDate: fullDates.map(DisplayWidth.of).max() ?? 0,
            compactDate: compactDates.map(DisplayWidth.of).max() ?? 0,
            id: ids.map(DisplayWidth.of).max() ?? 0)
        let plainCodes = RowCodes(style)
        let selectedCodes = RowCodes(style, selected: true)
        var lines: [String] = []
        for (i, row) in rows.enumerated() {
            let codes = i == selected ? selectedCodes : plainCodes
            let marks = query.map { merged($0.highlights(in: titles[i])) } ?? []
            var date: String? =
                switch layout.date {
                case .full: fullDates[i]
                case .compact: compactDates[i]
                case .none: nil
                }
            // An ID longer than the column (a longer ID elsewhere set the layout) is still shown
            // whole when this row's title, and if need be its date, can make room for all of it
            // and keep a few columns; otherwise the row keeps the layout and the ID's start.
            var titleWidth = layout.titleWidth
            var idWidth = layout.idWidth
            let extra = DisplayWidth.of(ids[i]) - idWidth
            let dateRoom = date == nil ? 0 : layout.dateWidth + 2
            let keptTitle = min(DisplayWidth.of(titles[i]), RowLayout.shortestTitle)
            if extra > 0 && extra <= titleWidth + dateRoom - keptTitle {
                if extra > titleWidth {
                    titleWidth += dateRoom
                    date = nil
                }
                titleWidth -= extra
                idWidth += extra
            }
            let mark =
                markColumn == 0
                ? "" : rowMarks[i].padding(toLength: markWidth, withPad: " ", startingAt: 0) + " "
            var line =
                codes.tint + codes.text + codes.bold + " " + mark
                + cell(titles[i], width: titleWidth, marks: marks, on: codes.mark, off: codes.markOff)
                + codes.boldOff
            let titleShowsMatch = marks.contains { shows($0, of: titles[i], width: titleWidth) }
            if let date {
                line += "  " + codes.dim + DisplayWidth.pad(date, to: layout.dateWidth) + codes.text
            }
            line += "  " + cell(ids[i], width: idWidth) + " " + codes.reset
            // Without colour the padding after the ID shows nothing; leave it out.
            lines.append(style.color ? line : String(line.reversed().drop { $0 == " " }.reversed()))
            if let snippet = row.snippet, style.width > 4, !titleShowsMatch {
                let (text, marks) = fitted(ANSI.printable(snippet), query: query, width: style.width - 4)
                lines.append(
                    "    "
                        + cell(
                            text, width: style.width - 4, marks: marks, on: codes.snippetMark,
                            off: codes.snippetMarkOff, padded: false))
            }
        }
        return lines
    }

    /// At most the first `count` Characters of `text` (with `…` after them when it is longer):
    /// more than a row of `count` columns shows.
    static func bounded(_ text: String, to count: Int) -> String {
        let count = max(count, 1) + 8
        let start = text.prefix(count + 1)
        return start.count <= count ? text : String(start.prefix(count)) + "…"
    }

    /// Whether a mark is at least partly shown when `text` is cut to `width` columns.
    static func shows(_ mark: Range<String.Index>, of text: String, width: Int) -> Bool {
        let fits = DisplayWidth.of(text) <= width
        let end = fits ? text.endIndex : DisplayWidth.prefixEnd(of: text, fitting: max(0, width - 1))
        return mark.lowerBound < end
    }

    /// A snippet and its marks, its start cut (to `…`) when its first match would not show in
    /// `width` columns, so that the match is always on screen.
    static func fitted(_ text: String, query: SearchQuery?, width: Int) -> (String, [Range<String.Index>]) {
        let marks = query.map { merged($0.highlights(in: text)) } ?? []
        guard let first = marks.first, DisplayWidth.of(text) > width,
            DisplayWidth.of(text[..<first.upperBound]) > width - 1
        else { return (text, marks) }
        // The match starts a third of the way in, or as far in as it fits before the `…`.
        let before = max(0, min(width / 3, width - 2 - DisplayWidth.of(text[first])))
        var start = first.lowerBound
        var used = 0
        while start > text.startIndex {
            let previous = text.index(before: start)
            let w = DisplayWidth.of(text[previous])
            if used + w > before { break }
            used += w
            start = previous
        }
        let cut = "…" + text[start...]
        return (cut, query.map { merged($0.highlights(in: cut)) } ?? [])
    }

    /// `text` cut to `width` columns (ending in `…` when cut) and padded to it, with the
    /// characters in `marks` (sorted, disjoint) between `on` and `off`.
    static func cell(
        _ text: String, width: Int, marks: [Range<String.Index>] = [], on: String = "",
        off: String = "", padded: Bool = true
    ) -> String {
        let fits = DisplayWidth.of(text) <= width
        let end = fits ? text.endIndex : DisplayWidth.prefixEnd(of: text, fitting: max(0, width - 1))
        var out = ""
        var cursor = text.startIndex
        for mark in marks where mark.lowerBound >= cursor && mark.lowerBound < end {
            let upper = min(mark.upperBound, end)
            out += text[cursor..<mark.lowerBound] + on + text[mark.lowerBound..<upper] + off
            cursor = upper
        }
        out += text[cursor..<end]
        var used = DisplayWidth.of(text[..<end])
        if !fits && width > 0 {
            out += "…"
            used += 1
        }
        if padded && used < width { out += String(repeating: " ", count: width - used) }
        return out
    }

    /// Ranges sorted and joined where they overlap or touch, so each character is marked once.
    static func merged(_ ranges: [Range<String.Index>]) -> [Range<String.Index>] {
        var out: [Range<String.Index>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = out.last, range.lowerBound <= last.upperBound {
                out[out.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                out.append(range)
            }
        }
        return out
    }
}

/// The dates of piped rows, as `NoteDate.format` writes them (`2026-12-02T09:30:00Z`), appended
/// as bytes, digit by digit: a search prints thousands of them.
enum PipedDates {
    /// Appends the date of `seconds` to `out`.
    static func append(_ seconds: Double, to out: inout [UInt8]) {
        let total = Int(NoteDate.clamped(seconds).rounded(.down))
        var days = total / 86400
        var rest = total % 86400
        if rest < 0 {
            rest += 86400
            days -= 1
        }
        let (year, month, day) = NoteDate.civilFromDays(days)
        // `YYYY-MM-DDTHH:MM:SSZ`, two digits at a time, appended at once.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { date in
            func two(_ value: Int, at offset: Int, then separator: UInt8?) {
                date[offset] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value / 10)
                date[offset + 1] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value % 10)
                if let separator { date[offset + 2] = separator }
            }
            two(year / 100, at: 0, then: nil)
            two(year % 100, at: 2, then: UInt8(ascii: "-"))
            two(month, at: 5, then: UInt8(ascii: "-"))
            two(day, at: 8, then: UInt8(ascii: "T"))
            two(rest / 3600, at: 11, then: UInt8(ascii: ":"))
            two(rest / 60 % 60, at: 14, then: UInt8(ascii: ":"))
            two(rest % 60, at: 17, then: UInt8(ascii: "Z"))
            out.append(contentsOf: UnsafeBufferPointer(date))
        }
    }
}

/// The columns of a human row: `" title  date  id "`. The ID is what users type, so it is shown
/// whole whenever it fits; the title gets the rest; the date turns compact, then goes, when the
/// title would otherwise get too little room.
struct RowLayout: Equatable {
    enum DateForm: Equatable { case full, compact, none }

    var titleWidth: Int
    var date: DateForm
    var dateWidth: Int
    var idWidth: Int

    /// The full date stays while the title gets this many columns (or all it needs).
    static let roomyTitle = 30
    /// A compact date stays while the title gets this many columns (or all it needs).
    static let readableTitle = 12
    /// With no date, the ID stays whole while the title gets this many columns (or all it needs).
    static let shortestTitle = 6
    /// Below this width rows are IDs alone.
    static let narrowest = 8

    /// The layout for the widest title, dates and ID of the rows in `width` columns.
    init(width: Int, title: Int, fullDate: Int, compactDate: Int, id: Int) {
        // One space of padding each side, two between columns.
        let withDate = width - 6 - id
        let withoutDate = width - 4 - id
        if withDate - fullDate >= min(title, RowLayout.roomyTitle) {
            self.init(
                titleWidth: min(title, withDate - fullDate), date: .full, dateWidth: fullDate,
                idWidth: id)
        } else if withDate - compactDate >= min(title, RowLayout.readableTitle) {
            self.init(
                titleWidth: min(title, withDate - compactDate), date: .compact, dateWidth: compactDate,
                idWidth: id)
        } else if withoutDate >= min(title, RowLayout.shortestTitle) {
            self.init(titleWidth: min(title, withoutDate), date: .none, dateWidth: 0, idWidth: id)
        } else {
            // Not even the ID fits beside a short title: a third for the title, the rest for
            // the start of the ID (a unique prefix still finds the note).
            let room = max(0, width - 4)
            let titleWidth = min(title, room / 3)
            self.init(titleWidth: titleWidth, date: .none, dateWidth: 0, idWidth: room - titleWidth)
        }
    }

    init(titleWidth: Int, date: DateForm, dateWidth: Int, idWidth: Int) {
        self.titleWidth = titleWidth
        self.date = date
        self.dateWidth = dateWidth
        self.idWidth = idWidth
    }
}

/// The escape codes of a style; all empty when colour is off.
struct RowCodes {
    var tint = "", text = "", dim = "", bold = "", boldOff = "", reset = ""
    /// A match inside a tinted row: the stronger tint under text readable on it, underlined; then
    /// back to the row's tint and text.
    var mark = "", markOff = ""
    /// A match in an untinted snippet line.
    var snippetMark = "", snippetMarkOff = ""

    /// The codes of `style`; a `selected` row is tinted more strongly (`RowColors`).
    init(_ style: OutputStyle, selected: Bool = false) {
        guard style.color else { return }
        let theme = style.theme
        let colors = RowColors(theme, trueColor: style.trueColor)
        let row = selected ? colors.selected : colors.plain
        tint = ANSI.background(row.background, trueColor: style.trueColor)
        text = ANSI.foreground(row.text, trueColor: style.trueColor)
        dim = ANSI.foreground(row.date, trueColor: style.trueColor)
        bold = ANSI.bold
        boldOff = ANSI.normalIntensity
        reset = ANSI.reset
        let highlight =
            ANSI.background(colors.match.background, trueColor: style.trueColor)
            + ANSI.foreground(colors.match.text, trueColor: style.trueColor)
        mark = highlight + ANSI.underline
        markOff = tint + text + ANSI.underlineOff
        snippetMark = ANSI.bold + highlight + ANSI.underline
        snippetMarkOff = ANSI.reset
    }
}
