import Foundation
import TestSupport
import Testing

/// Piped `list` and `search` rows are rendered straight from the index, without making the notes
/// (`Catalog.renderRows`): they must be the rows the notes themselves give, which `--json` shows.
@Suite struct PipedRowsTests {
    /// The piped row `--json`'s note makes: ID, the date the order shows, and the title, with
    /// control characters as spaces.
    static func row(of note: [String: Any], order: String) -> String {
        let created = note["createdAt"] as? String ?? "?"
        let date = order == "created" ? created : (note["updatedAt"] as? String) ?? created
        return printable(note["id"] as? String ?? "?") + "\t" + date + "\t"
            + printable(note["title"] as? String ?? "?")
    }

    /// `text` with control characters as spaces, as rows show it.
    static func printable(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) ? " " : $0 }))
    }

    /// A vault of more notes than are rendered on one core, with the IDs and titles that are not
    /// plain bytes: a letter outside ASCII that takes the dot of `.md` into its Character (so the
    /// ID keeps `.md`), a `.markdown` note, control characters and C1 controls in titles, a tab in
    /// a file name, a front matter title and `updatedAt`, a conflict copy beside its original,
    /// accents in folders; queried with orders, filters, few hits (read with `pread`) and none.
    @Test func pipedRowsAreTheRowsOfTheNotes() throws {
        let s = try Sandbox()
        for i in 0..<2100 {
            try s.write(
                "bulk/n\(i).md",
                "---\ncreatedAt: 20\(10 + i % 15)-0\(1 + i % 9)-1\(i % 10)T0\(i % 10):00:0\(i % 7)Z\n---\n"
                    + "# Note \(i) crème\n\nbody \(i % 3 == 0 ? "Crème" : "plain")\n")
        }
        try s.write("x\u{0600}.md", "# Arabic number sign\n\ncrème\n")
        try s.write("long.markdown", "# Long extension\n\ncrème\n")
        try s.write("ctl.md", "# Tab\there \u{1B}[31m red \u{85} C1\n\ncrème\n")
        try s.write(
            "Dossier été/fm.md",
            "---\ntitle: Front \"title\"\ncreatedAt: 2020-02-02T02:02:02Z\nupdatedAt: 2025-05-05T10:00:00Z\n---\ncrème\n"
        )
        try s.write("tab\tin name.md", "---\ntags: [piped]\n---\n# Tab in its name\n\ncrème [[note]]\n")
        try s.write("note.md", "# Original\n\ncrème\n")
        try s.write("note (conflicted copy).md", "# Original, a copy\n\ncrème\n")
        let queries: [[String]] = [
            ["list"], ["search", "crème"], ["search", "crème", "--sort", "created"],
            ["search", "crème", "--sort", "title", "--reverse"], ["list", "--limit", "3"],
            ["search", "crème -plain", "--sort", "relevance"], ["search", "original"],
            ["search", "original", "--sort", "title"], ["list", "--tag", "piped"],
            ["search", "crème", "--since", "2020-01-01", "--until", "2022-12-31"],
            ["list", "--orphan", "--limit", "5"], ["search", "nothing-is-called-this"],
        ]
        for query in queries {
            let piped = try s.run(query)
            let json = try s.run(query + ["--json"])
            #expect(piped.status == 0 && json.status == 0, "\(piped) \(json)")
            let notes =
                try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]] ?? []
            let order = query.firstIndex(of: "--sort").map { query[$0 + 1] } ?? "updated"
            let expected = notes.map { Self.row(of: $0, order: order) + "\n" }.joined()
            #expect(piped.stdout == expected, "\(query)")
            #expect(notes.count > 0 || query.contains("nothing-is-called-this"), "\(query)")
        }
        // The IDs as the notes have them, not cut by bytes.
        let list = try s.run(["list"]).stdout
        #expect(list.contains("x\u{0600}.md\t") && list.contains("long.markdown\t"))
        #expect(list.contains("tab in name\t"))
        #expect(try s.run(["search", "crème"]).stdout.split(separator: "\n").count == 2107)
    }
}
