import Foundation
import NotesKit
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
