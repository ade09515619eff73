import Foundation
import NotesKit
import Testing

@testable import notes

/// The human row renderer on its own: rows and a style in, lines out.
@Suite struct RenderingTests {
    /// 2026-11-30 09:00 UTC.
    static let now = 1_796_029_200.0
    static let utc = TimeZone(identifier: "UTC") ?? .current

    static func row(_ id: String, _ title: String, _ date: Double, snippet: String? = nil) -> NoteRow {
        NoteRow(
            note: Note(
                id: id, path: id + ".md", title: title, titleIsOutsideBody: false, createdAt: date,
                updatedAt: nil, preview: ""),
            date: date, snippet: snippet)
    }

    /// Today 08:09, a month ago, and 30 Nov 2024.
    static let rows = [
        row("groceries", "Groceries for the week", now - 51 * 60),
        row("work/standup-meeting-notes", "Standup meeting notes for the platform team", now - 31 * 86_400),
        row("creme", "Crème brûlée recipe", 1_732_954_140),
    ]

    static func style(
        _ width: Int, color: Bool = false, trueColor: Bool = false,
        locale: String = "en_GB", timeZone: TimeZone = utc
    ) -> OutputStyle {
        OutputStyle(
            width: width, color: color, trueColor: trueColor, theme: Theme(scheme: .default, dark: false),
            dates: LocalDate(locale: Locale(identifier: locale), timeZone: timeZone, now: now))
    }

    static func lines(_ rows: [NoteRow], _ width: Int, query: String? = nil, color: Bool = false) -> [String]
    {
        NoteRows.human(rows, query: query.map(SearchQuery.init), style: style(width, color: color))
    }

    static func visible(_ line: String) -> String {
        line.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    }

    /// One very long ID sets a layout that cuts IDs; the rows whose own ID fits once their title
    /// (and date) give way still show it whole — the ID is what users type.
    @Test func aLongIDElsewhereDoesNotCutAnIDThatFitsItsRow() {
        let rows = [
            Self.row("tiny", "Tiny", Self.now),
            Self.row(
                "projects/2026/clients/very-long-client-name-incorporated/meetings/weekly-sync-notes",
                "Weekly sync notes", Self.now),
            Self.row("deeply/nested/folder/with/a/very/long/path/and/more/levels/short", "Short", Self.now),
            Self.row(
                "a-very-long-title-that-goes-on-and-on-and-on-to-exceed-any",
                "A very long title that goes on and on and on to exceed any reasonable width", Self.now),
        ]
        #expect(
            Self.lines(rows, 80).map(Self.visible) == [
                " Tiny                       tiny",
                " Weekly sync notes          projects/2026/clients/very-long-client-name-incorp…",
                " Short         deeply/nested/folder/with/a/very/long/path/and/more/levels/short",
                " A very long title…  a-very-long-title-that-goes-on-and-on-and-on-to-exceed-any",
            ])
        for line in Self.lines(rows, 80, color: true) { #expect(DisplayWidth.of(Self.visible(line)) == 80) }
    }

    // MARK: Layout at several widths

    @Test(
        arguments: [
            (
                120,
                [
                    " Groceries for the week                       30 Nov 2026 at 08:09  groceries",
                    " Standup meeting notes for the platform team  30 Oct 2026 at 09:00  work/standup-meeting-notes",
                    " Crème brûlée recipe                          30 Nov 2024 at 08:09  creme",
                ]
            ),
            // The full date would leave the title under 30 columns: the date turns compact.
            (
                80,
                [
                    " Groceries for the week                  08:09       groceries",
                    " Standup meeting notes for the platfor…  30 Oct      work/standup-meeting-notes",
                    " Crème brûlée recipe                     2024-11-30  creme",
                ]
            ),
            (
                60,
                [
                    " Groceries for the…  08:09       groceries",
                    " Standup meeting n…  30 Oct      work/standup-meeting-notes",
                    " Crème brûlée reci…  2024-11-30  creme",
                ]
            ),
            // No room for a date beside a readable title: the ID stays whole, the title gets the rest.
            (
                40,
                [
                    " Groceries…  groceries",
                    " Standup m…  work/standup-meeting-notes",
                    " Crème brû…  creme",
                ]
            ),
            // Not even the ID fits: its start stays (a unique prefix finds the note).
            (
                30,
                [
                    " Groceri…  groceries",
                    " Standup…  work/standup-meet…",
                    " Crème b…  creme",
                ]
            ),
        ] as [(Int, [String])])
    func goldenRows(width: Int, expected: [String]) {
        #expect(Self.lines(Self.rows, width) == expected)
    }

    @Test(arguments: [30, 40, 60, 80, 120])
    func colouredRowsAreTheSameTextAsCapsules(width: Int) {
        let plain = Self.lines(Self.rows, width)
        let coloured = Self.lines(Self.rows, width, color: true).map(Self.visible)
        // A capsule is padded to one width for every row; without colour the padding is left out.
        #expect(coloured.map { String($0.reversed().drop { $0 == " " }.reversed()) } == plain)
        #expect(Set(coloured.map(DisplayWidth.of)).count == 1)
        #expect(coloured.allSatisfy { DisplayWidth.of($0) <= width })
    }

    @Test func aLongIDIsShownWholeWhenItFits() {
        let id = "projects/2026/platform/standup-meeting-notes-and-decisions"
        #expect(id.count == 58)
        let rows = [Self.row(id, "Standup", Self.now - 86_400 * 400)]
        #expect(Self.lines(rows, 120) == [" Standup  26 Oct 2025 at 09:00  " + id])
        #expect(Self.lines(rows, 81) == [" Standup  2025-10-26  " + id])
        #expect(Self.lines(rows, 80) == [" Standup  " + id])
        #expect(Self.lines(rows, 69) == [" Standup  " + id])
        #expect(Self.lines(rows, 60) == [" Standup  projects/2026/platform/standup-meeting-notes-and…"])
    }

    @Test(
        arguments: [
            // width, title, full date, compact date, ID → title width, date form, ID width
            (120, 43, 20, 10, 26, 43, RowLayout.DateForm.full, 26),
            (80, 43, 20, 10, 26, 38, .compact, 26),
            (80, 20, 20, 10, 26, 20, .full, 26),
            (48, 12, 20, 10, 20, 12, .compact, 20),
            (47, 12, 20, 10, 20, 12, .none, 20),
            (47, 30, 20, 10, 20, 23, .none, 20),
            (20, 40, 20, 10, 30, 5, .none, 11),
        ] as [(Int, Int, Int, Int, Int, Int, RowLayout.DateForm, Int)])
    func layout(
        width: Int, title: Int, full: Int, compact: Int, id: Int,
        titleWidth: Int, date: RowLayout.DateForm, idWidth: Int
    ) {
        let layout = RowLayout(width: width, title: title, fullDate: full, compactDate: compact, id: id)
        #expect(layout.titleWidth == titleWidth)
        #expect(layout.date == date)
        #expect(layout.idWidth == idWidth)
    }

    // MARK: Dates

    @Test func compactDatesInTheLocaleAndTimeZone() {
        let gb = LocalDate(locale: Locale(identifier: "en_GB"), timeZone: Self.utc, now: Self.now)
        #expect(gb.compact(Self.now - 51 * 60) == "08:09")
        #expect(gb.compact(Self.now - 31 * 86_400) == "30 Oct")
        #expect(gb.compact(1_732_954_140) == "2024-11-30")
        let us = LocalDate(locale: Locale(identifier: "en_US"), timeZone: Self.utc, now: Self.now)
        #expect(us.compact(Self.now - 51 * 60).hasPrefix("8:09"))
        #expect(us.compact(Self.now - 31 * 86_400) == "Oct 30")
        // 2026-11-29 16:00 UTC is already 30 Nov, 01:00 in Tokyo, where it is now 18:00.
        let tokyo = LocalDate(
            locale: Locale(identifier: "en_GB"),
            timeZone: TimeZone(identifier: "Asia/Tokyo") ?? .current, now: Self.now)
        #expect(tokyo.compact(Self.now - 17 * 3600) == "01:00")
        #expect(gb.compact(Self.now - 17 * 3600) == "29 Nov")
    }

    // MARK: Scripts

    static let scripts = [
        "ภาษาไทย ที่ไม่ ภาษาไทย ที่ไม่ ภาษาไทย ที่ไม่", "ភាសាខ្មែរ ភាសាខ្មែរ ភាសាខ្មែរ ភាសាខ្មែរ ភាសាខ្មែរ",
        "বাংলা ভাষা বাংলা ভাষা বাংলা ভাষা বাংলা ভাষা", "हिन्दी क्षत्रिय हिन्दी क्षत्रिय हिन्दी",
        "東京 メモ 東京 メモ 東京 メモ 東京", "👍🏽 👨‍👩‍👧 🇫🇷 ❤️ 👍🏽 👨‍👩‍👧 🇫🇷 ❤️ 👍🏽 👨‍👩‍👧",
        "Cre\u{300}me bru\u{302}le\u{301}e cre\u{300}me bru\u{302}le\u{301}e",
    ]

    @Test(arguments: scripts)
    func rowsInEveryScriptFitTheWidth(title: String) {
        let rows = [
            Self.row("a", title, Self.now, snippet: title + " " + title),
            Self.row("東京-メモ", "short", 1_732_954_140),
        ]
        for width in 1...130 {
            for color in [false, true] {
                for line in NoteRows.human(
                    rows, query: SearchQuery("zzz"), style: Self.style(width, color: color))
                {
                    #expect(DisplayWidth.of(Self.visible(line)) <= width, "\(width): \(line)")
                }
            }
        }
    }

    @Test func khmerAndBengaliRowsAtEightyColumns() {
        let rows = [
            Self.row("khmer", "ភាសាខ្មែរ ភាសាខ្មែរ ភាសាខ្មែរ ភាសាខ្មែរ ភាសាខ្មែរ ភាសាខ្មែរ ភាសាខ្មែរ ភាសាខ្មែរ", 1_732_954_140),
            Self.row("bengali", "বাংলা ভাষা বাংলা ভাষা বাংলা ভাষা বাংলা ভাষা বাংলা ভাষা বাংলা ভাষা", 1_732_954_140),
        ]
        // 44 columns of Khmer and a space; the next cluster (two columns) would leave no room for `…`.
        // Bengali: `বাং` is one cluster of three columns.
        #expect(
            Self.lines(rows, 80) == [
                " " + String(repeating: "ភាសាខ្មែរ ", count: 5) + "…   30 Nov 2024 at 08:09  khmer",
                " " + String(repeating: "বাংলা ভাষা ", count: 4) + "…    30 Nov 2024 at 08:09  bengali",
            ])
    }

    // MARK: Search

    @Test func aMatchInTheTitleIsMarkedInsideTheTint() {
        let rows = [Self.row("creme", "Crème brûlée recipe", 1_732_954_140)]
        let line = Self.lines(rows, 60, query: "creme", color: true)
        let tint = "\u{1B}[48;5;253m"
        let text = "\u{1B}[38;5;234m"
        // The stronger tint under text readable on it, then the row's tint and text again.
        let mark = "\u{1B}[48;5;250m" + text + "\u{1B}[4m"
        #expect(
            line == [
                tint + text + "\u{1B}[1m " + mark + "Crème" + tint + text
                    + "\u{1B}[24m brûlée recipe\u{1B}[22m"
                    + "  \u{1B}[38;5;242m30 Nov 2024 at 08:09\u{1B}[38;5;234m  creme \u{1B}[0m"
            ])
    }

    @Test func aSnippetLineIsIndentedMarkedAndCut() {
        let rows = [
            Self.row("s", "Standup", 1_732_954_140, snippet: "Discussed the roadmap and the Crème budget")
        ]
        #expect(
            Self.lines(rows, 40, query: "creme") == [
                " Standup  30 Nov 2024 at 08:09  s", "    Discussed the roadmap and the Crème…",
            ])
        let coloured = Self.lines(rows, 40, query: "creme", color: true)
        #expect(coloured.count == 2)
        #expect(
            coloured[1]
                == "    Discussed the roadmap and the \u{1B}[1m\u{1B}[48;5;250m\u{1B}[38;5;234m\u{1B}[4mCrème\u{1B}[0m…"
        )
    }

    @Test func withoutColourThereAreNoEscapes() {
        let rows = [Self.row("creme", "Crème brûlée", Self.now, snippet: "more crème")]
        for width in [20, 40, 80] {
            let lines = Self.lines(rows, width, query: "creme brulee")
            #expect(!lines.joined().contains("\u{1B}"))
        }
    }

    @Test func overlappingMatchesAreMarkedOnce() {
        let rows = [Self.row("m", "milk and eggs", Self.now)]
        let line = Self.lines(rows, 80, query: "\"milk and\" \"and eggs\"", color: true)[0]
        #expect(line.components(separatedBy: "\u{1B}[4m").count == 2)
        #expect(Self.visible(line).hasPrefix(" milk and eggs  "))
    }

    @Test func cellsCutBetweenClustersAndKeepMarksInside() {
        let text = "東京 Crème"
        let marks = NoteRows.merged(SearchQuery("creme").highlights(in: text))
        #expect(NoteRows.cell(text, width: 7, marks: marks, on: "<", off: ">") == "東京 <C>…")
        // The wide 京 does not fit beside the ellipsis: a space pads the cell to its width.
        #expect(NoteRows.cell(text, width: 4, marks: marks, on: "<", off: ">") == "東… ")
        #expect(NoteRows.cell(text, width: 12, marks: marks, on: "<", off: ">") == "東京 <Crème>  ")
        #expect(
            NoteRows.cell(text, width: 12, marks: marks, on: "<", off: ">", padded: false) == "東京 <Crème>")
    }
}
