import NotesKit
import Testing

/// What `CompletionSite` finds at the cursor (`‸`): the kind, the text typed, and whether the
/// link is closed already; nothing in code, front matter or where no tag can start.
@Suite struct CompletionSiteTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var text: String
        var site: String?
        var testDescription: String { text }
    }

    static let cases: [Case] = [
        Case(text: "[[‸", site: "note '' open"),
        Case(text: "See [[Łódź‸", site: "note 'Łódź' open"),
        Case(text: "[[trip‸]]", site: "note 'trip' closed"),
        Case(text: "[[trip‸#Day]]", site: "note 'trip' closed"),
        Case(text: "[[trip‸|shown]]", site: "note 'trip' closed"),
        Case(text: "[[trip#Da‸", site: "heading 'trip' 'Da' open"),
        Case(text: "[[#Da‸]]", site: "heading '' 'Da' closed"),
        Case(text: "[[trip#^blo‸", site: nil),
        Case(text: "[[a]] then ‸", site: nil),
        Case(text: "[[a|b‸", site: nil),
        Case(text: "\\[[esc‸", site: nil),
        Case(text: "[t](../wo‸", site: "path '../wo' open"),
        Case(text: "[t](wo‸)", site: "path 'wo' closed"),
        Case(text: "![i](wo‸", site: nil),
        Case(text: "[t](http://wo‸", site: nil),
        Case(text: "[t](#wo‸", site: nil),
        Case(text: "#wo‸", site: "tag 'wo'"),
        Case(text: "text #café/‸", site: "tag 'café/'"),
        Case(text: "(#wo‸", site: "tag 'wo'"),
        Case(text: "#‸", site: nil),
        Case(text: "#12‸", site: nil),
        Case(text: "# Head‸", site: nil),
        Case(text: "## wo‸", site: nil),
        Case(text: "a#wo‸", site: nil),
        Case(text: "`#wo‸`", site: nil),
        Case(text: "``[[a‸``", site: nil),
        Case(text: "```\n[[a‸\n```", site: nil),
        Case(text: "~~~\n#wo‸", site: nil),
        Case(text: "```\ncode\n```\n[[a‸", site: "note 'a' open"),
        Case(text: "`x` [[a‸", site: "note 'a' open"),
        Case(text: "---\ntags: [#wo‸]\n---\n", site: nil),
    ]

    @Test(arguments: cases) func site(_ c: Case) throws {
        let bar = try #require(c.text.firstIndex(of: "‸"))
        let offset = c.text.utf8.distance(from: c.text.startIndex, to: bar)
        var text = c.text
        text.remove(at: bar)
        let found = CompletionSite.at(offset, in: text)
        let described: String? =
            switch found {
            case .note(let typed, let range, let closed):
                range.upperBound == offset ? "note '\(typed)' \(closed ? "closed" : "open")" : "bad range"
            case .heading(let target, let typed, _, let closed):
                "heading '\(target)' '\(typed)' \(closed ? "closed" : "open")"
            case .tag(let typed, let range):
                range.count == typed.utf8.count ? "tag '\(typed)'" : "bad range"
            case .path(let typed, _, let closed): "path '\(typed)' \(closed ? "closed" : "open")"
            case nil: nil
            }
        #expect(described == c.site)
    }
}
