import Foundation
import NotesKit
import TestSupport
import Testing

@testable import notes

/// Text stays readable on every tint: the WCAG contrast ratios of what is actually drawn — the
/// colours read back from the escape codes of rendered rows, 256-colour entries through the
/// xterm table — are at least 4.5:1 for titles and IDs and 3:1 for dates against their row's
/// background, in every theme, mode and palette (24 combinations), in the list and on the
/// browser's selected row, which also stands apart from the other rows (1.3:1).
@Suite struct ContrastTests {
    /// One drawn character: what it is, its colours and whether it is bold.
    struct Cell {
        var character: Character
        var foreground: RGB?
        var background: RGB?
        var bold: Bool
    }

    /// The cells of a rendered line, following its SGR codes (`38/48;2;r;g;b`, `38/48;5;n`, bold).
    static func cells(_ line: String) -> [Cell] {
        var (foreground, background, bold): (RGB?, RGB?, Bool) = (nil, nil, false)
        var cells: [Cell] = []
        let scalars = Array(line)
        var i = 0
        while i < scalars.count {
            guard scalars[i] == "\u{1B}", i + 1 < scalars.count, scalars[i + 1] == "[" else {
                cells.append(
                    Cell(character: scalars[i], foreground: foreground, background: background, bold: bold))
                i += 1
                continue
            }
            var j = i + 2
            while j < scalars.count, !scalars[j].isLetter { j += 1 }
            guard j < scalars.count else { break }
            if scalars[j] == "m" {
                let numbers = String(scalars[(i + 2)..<j]).split(
                    separator: ";", omittingEmptySubsequences: false
                )
                .map { Int($0) ?? 0 }
                var k = 0
                while k < numbers.count {
                    switch numbers[k] {
                    case 0: (foreground, background, bold) = (nil, nil, false)
                    case 1: bold = true
                    case 22: bold = false
                    case 39: foreground = nil
                    case 49: background = nil
                    case 38, 48:
                        let which = numbers[k]
                        var color: RGB?
                        if k + 4 < numbers.count, numbers[k + 1] == 2 {
                            color = RGB(numbers[k + 2], numbers[k + 3], numbers[k + 4])
                            k += 4
                        } else if k + 2 < numbers.count, numbers[k + 1] == 5 {
                            #expect(numbers[k + 2] >= 16, "a palette entry users may redefine")
                            color = XtermPalette.color(of: numbers[k + 2])
                            k += 2
                        }
                        if which == 38 { foreground = color } else { background = color }
                    default: break
                    }
                    k += 1
                }
            }
            i = j + 1
        }
        return cells
    }

    static let now = RenderingTests.now

    static func rows() -> [NoteRow] {
        [("plan", "Plan"), ("work/standup", "Standup"), ("recipes", "Recipes")].enumerated().map {
            offset, note in
            NoteRow(
                note: Note(
                    id: note.0, path: note.0 + ".md", title: note.1, titleIsOutsideBody: false,
                    createdAt: now - Double(offset) * 90_000, updatedAt: nil, preview: ""),
                date: now - Double(offset) * 90_000, snippet: nil)
        }
    }

    /// Checks every character of a row against its background; returns the row's background.
    @discardableResult
    static func checkRow(_ line: String, _ what: String, from start: Int = 0) -> RGB? {
        // The browser's `> ` gutter is drawn in the terminal's own colours, outside the row.
        let cells = Array(Self.cells(line).dropFirst(start))
        let text = String(cells.map(\.character))
        // The ID is the last word; the title is bold; the rest (the date) is dimmer.
        let idStart =
            (text.trimmingCharacters(in: .whitespaces).lastIndex(of: " ").map {
                text.distance(from: text.startIndex, to: $0)
            } ?? 0)
        // The lowest ratio of the title and ID characters, and of the date's.
        var worst = (title: Double.infinity, date: Double.infinity)
        for (offset, cell) in cells.enumerated() where cell.character != " " {
            guard let foreground = cell.foreground, let background = cell.background else {
                Issue.record(
                    "\(what): '\(cell.character)' is drawn without both colours: \(line.debugDescription)")
                return nil
            }
            let ratio = RGB.contrast(foreground, background)
            if cell.bold || offset > idStart {
                worst.title = min(worst.title, ratio)
            } else {
                worst.date = min(worst.date, ratio)
            }
        }
        #expect(worst.title >= RowColors.titleContrast, "\(what): a title or ID at \(worst.title):1")
        #expect(worst.date >= RowColors.dateContrast, "\(what): a date at \(worst.date):1")
        return cells.first?.background
    }

    static let combinations: [(Scheme, Bool, Bool)] = Scheme.allCases.flatMap { scheme in
        [false, true].flatMap { dark in [false, true].map { (scheme, dark, $0) } }
    }

    /// Each combination's theme, its name for messages, and the style of 80 columns that draws it.
    static func styles() -> [(Theme, String, OutputStyle)] {
        combinations.map { scheme, dark, trueColor in
            let theme = Theme(scheme: scheme, dark: dark)
            let what = "\(scheme) \(dark ? "dark" : "light") \(trueColor ? "truecolor" : "256")"
            let style = OutputStyle(
                width: 80, color: true, trueColor: trueColor, theme: theme,
                dates: LocalDate(
                    locale: Locale(identifier: "en_GB"), timeZone: RenderingTests.utc, now: Self.now))
            return (theme, what, style)
        }
    }

    /// A search match, drawn on the stronger tint, stays as readable as a title: in a row's
    /// title and in a snippet line, in every theme, mode and palette.
    @Test func searchMatchesAreReadable() throws {
        for (_, what, style) in Self.styles() {
            var rows = Self.rows()
            rows[2].snippet = "a plan for the recipes"
            rows[1].snippet = "the plan of the standup"
            var marked = 0
            for line in NoteRows.human(rows, query: SearchQuery("plan"), style: style) {
                if line.hasPrefix("    ") {
                    // A snippet line: untinted, but for its matches.
                    for cell in Self.cells(line) where cell.background != nil {
                        marked += 1
                        let ratio = cell.foreground.map { RGB.contrast($0, cell.background ?? $0) } ?? 1
                        #expect(
                            ratio >= RowColors.titleContrast,
                            "\(what) snippet: '\(cell.character)' at \(ratio):1")
                    }
                } else {
                    let tint = Self.cells(line).first?.background
                    marked += Self.cells(line).filter { $0.background != tint && $0.character != " " }.count
                    Self.checkRow(line, what + " matched row")
                }
            }
            #expect(marked >= 12, "\(what): the matches are drawn apart")
        }
    }

    @Test func everyThemeModeAndPaletteIsReadable() throws {
        #expect(Self.combinations.count == 24)
        for (theme, what, style) in Self.styles() {
            let list = NoteRows.human(Self.rows(), query: nil, style: style)
            for line in list { Self.checkRow(line, what + " list") }
            // The browser: its selected row (the first) and another.
            var state = try BrowserStateTests.browser(BrowserStateTests.kitchen, 80, 10)
            state.theme = theme
            let frame = BrowserScreen.render(state, style: style).lines
            let selected = Self.checkRow(frame[2], what + " selected", from: 2)
            let other = Self.checkRow(frame[3], what + " browser row", from: 2)
            if let selected, let other {
                let apart = RGB.contrast(selected, other)
                #expect(
                    apart >= RowColors.selectionContrast,
                    "\(what): the selected row is \(apart):1 from the others")
            }
        }
    }
}
