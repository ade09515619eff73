import Foundation
import NotesKit
import TestSupport
import Testing

@testable import notes

/// `list` and `search` output as a pure function: rows, query and style in, text out.
@Suite struct ListViewTests {
    static func style(human: Bool) -> OutputStyle {
        OutputStyle(
            width: 80, color: false, theme: Theme(scheme: .default, dark: false),
            dates: LocalDate(
                locale: Locale(identifier: "en_GB"), timeZone: RenderingTests.utc,
                now: RenderingTests.now),
            human: human)
    }

    @Test func pipedRowsAreTabSeparated() {
        let rows = [RenderingTests.row("a", "Alpha\u{1B}[31m", 0)]
        #expect(
            ListView.render(rows, query: nil, json: false, style: Self.style(human: false))
                == ListView.Text(stdout: "a\t1970-01-01T00:00:00Z\tAlpha [31m\n"))
    }

    /// Piped rows are written as bytes, a day's date part once for a run of rows: the same text
    /// as the strings would make — `NoteDate.format` for dates anywhere in its range and past it
    /// (clamped), before 1970, in fractions of a second, in date order and not; control characters
    /// in IDs and titles as spaces; the marks column.
    @Test func pipedRowsAreWhatTheStringsMake() {
        var rng = SplitMix(seed: 26)
        let pieces = ["a", "Crème", "東京", "\t", "\u{1B}[31m", "\u{85}", "\u{7F}", "\u{0}", " ", "\u{9F}x"]
        func text() -> String {
            (0..<Int.random(in: 0...4, using: &rng)).map { _ in pieces.randomElement(using: &rng) ?? "" }
                .joined()
        }
        for round in 0..<40 {
            var dates = (0..<60).map { _ -> Double in
                switch Int.random(in: 0..<4, using: &rng) {
                case 0: Double.random(in: -70_000_000_000...260_000_000_000, using: &rng)
                case 1:
                    Double(Int.random(in: -3...3, using: &rng)) * 86_400
                        + Double.random(in: -2...2, using: &rng)
                case 2:
                    [NoteDate.representable.lowerBound, NoteDate.representable.upperBound, -0.5, 0, .nan][
                        Int.random(in: 0..<5, using: &rng)]
                default: 1_732_954_140 - Double(Int.random(in: 0..<200_000, using: &rng))
                }
            }
            if round % 2 == 0 { dates.sort(by: >) }
            var rows = dates.map { RenderingTests.row("n" + text(), text(), $0) }
            for i in rows.indices where Bool.random(using: &rng) { rows[i].conflictCopies = ["copy"] }
            for marks in [false, true] {
                let expected = rows.map { row in
                    ANSI.printable(row.note.id) + "\t" + NoteDate.format(row.date) + "\t"
                        + ANSI.printable(row.note.title) + (marks ? "\t" + row.marks : "") + "\n"
                }.joined()
                #expect(NoteRows.piped(rows, marks: marks) == expected)
            }
        }
    }

    @Test func searchJSONCarriesTheSnippetAndListJSONDoesNot() {
        let rows = [RenderingTests.row("a", "Alpha", 0, snippet: "the line")]
        let search = ListView.render(
            rows, query: SearchQuery("line"), json: true, style: Self.style(human: true))
        #expect(search.stdout.contains("\"snippet\": \"the line\""))
        let list = ListView.render(rows, query: nil, json: true, style: Self.style(human: true))
        #expect(!list.stdout.contains("snippet"))
        #expect(list.notice == nil)
    }

    @Test(arguments: [
        (nil, "No notes yet; add one with 'notes add'."), ("", "No notes yet."), ("x", "No notes match."),
    ])
    func nothingFoundOnATerminalIsASentence(query: String?, notice: String) {
        let human = ListView.render(
            [], query: query.map(SearchQuery.init), json: false, style: Self.style(human: true))
        #expect(human == ListView.Text(stdout: "", notice: notice))
        let piped = ListView.render(
            [], query: query.map(SearchQuery.init), json: false, style: Self.style(human: false))
        #expect(piped == ListView.Text(stdout: ""))
    }
}
