import Foundation
import NotesKit
import TestSupport
import Testing

@testable import notes

/// `notes search` with exclusions, `OR`, `--sort relevance`, and snippets that show the match.
@Suite struct SearchOperatorsCommandTests {
    /// A vault of four notes, the newest last written.
    static func kitchen() throws -> Sandbox {
        let s = try Sandbox()
        for (offset, (id, text)) in [
            ("brulee", "# Crème brûlée\n\nA custard.\n"), ("caramel", "# Crème caramel\n\nAlso a custard.\n"),
            ("pie", "# Apple pie\n"), ("tart", "# Lemon tart\n"),
        ].enumerated() {
            let created = NoteDate.format(1_793_228_400 - Double(offset) * 86_400)
            try s.write(id + ".md", "---\ncreatedAt: \(created)\n---\n" + text)
        }
        return s
    }

    /// The IDs a piped run prints.
    static func ids(_ r: RunResult) -> [String] {
        r.stdout.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
    }

    @Test func aDashWordIsAnExclusionNotAnOption() throws {
        let s = try Self.kitchen()
        let r = try s.run(["search", "creme", "-brulee"])
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r)")
        #expect(Self.ids(r) == ["caramel"])
        #expect(Self.ids(try s.run(["search", "custard", "-\"creme brulee\""])) == ["caramel"])
        // After `--`, a word that looks like a bundle of short flags is a term too.
        #expect(Self.ids(try s.run(["search", "creme", "--", "-r"])) == [])
        #expect(Self.ids(try s.run(["search", "creme", "--", "-n"])) == ["brulee", "caramel"])
    }

    @Test func shortFlagBundlesStayOptionsAndUnknownLongOptionsStayErrors() throws {
        let s = try Self.kitchen()
        #expect(Self.ids(try s.run(["search", "-r", "creme"])) == ["caramel", "brulee"])
        #expect(Self.ids(try s.run(["search", "-rn", "1", "creme"])) == ["caramel"])
        #expect(Self.ids(try s.run(["search", "-n1", "creme"])) == ["brulee"])
        let unknown = try s.run(["search", "--brulee", "creme"])
        #expect(unknown.status == 64 && unknown.stdout.isEmpty)
        #expect(unknown.stderr.hasPrefix("Error: Unknown option '--brulee'."))
        // Other commands keep refusing unknown dash words.
        let list = try s.run(["list", "-brulee"])
        #expect(list.status == 64 && list.stderr.hasPrefix("Error: Unknown option '-b'."), "\(list)")
    }

    @Test func orTakesEitherAndBindsTighterThanAnd() throws {
        let s = try Self.kitchen()
        #expect(Self.ids(try s.run(["search", "pie", "OR", "tart"])) == ["pie", "tart"])
        #expect(
            Self.ids(try s.run(["search", "custard", "brulee", "OR", "caramel"])) == ["brulee", "caramel"])
        #expect(Self.ids(try s.run(["search", "crème", "OR", "pie", "-caramel"])) == ["brulee", "pie"])
        #expect(Self.ids(try s.run(["search", "OR", "tart", "OR"])) == ["tart"])
    }

    @Test func relevanceListsTitleMatchesFirstAndListRefusesIt() throws {
        let s = try Sandbox()
        for (offset, (id, text)) in [
            ("mention", "# Plugins\n\nSee backlinks.\n"), ("using", "# Using backlinks\n"),
            ("backlinks", "# Backlinks\n"),
        ].enumerated() {
            let created = NoteDate.format(1_793_228_400 - Double(offset) * 86_400)
            try s.write(id + ".md", "---\ncreatedAt: \(created)\n---\n" + text)
        }
        #expect(Self.ids(try s.run(["search", "backlinks"])) == ["mention", "using", "backlinks"])
        let ranked = try s.run(["search", "--sort", "relevance", "backlinks"])
        #expect(ranked.status == 0, "\(ranked)")
        #expect(Self.ids(ranked) == ["backlinks", "using", "mention"])
        #expect(
            Self.ids(try s.run(["search", "--sort=relevance", "-r", "backlinks"])) == [
                "mention", "using", "backlinks",
            ])
        let list = try s.run(["list", "--sort", "relevance"])
        #expect(list.status == 64 && list.stdout.isEmpty)
        #expect(list.stderr.hasPrefix("Error: 'relevance' orders search results only"), "\(list)")
        let typo = try s.run(["search", "--sort", "relevanse", "x"])
        #expect(typo.status == 64 && typo.stderr.contains("Did you mean 'relevance'?"), "\(typo)")
    }

    /// A note whose only line is 120 words, then the term.
    static let words = (0..<120).map { "word\($0)" }.joined(separator: " ") + " zanzibar"

    @Test func theJSONSnippetOfALongLineIsAWindowAroundTheMatch() throws {
        let s = try Sandbox()
        try s.write("long.md", "# Island\n\n" + Self.words + "\n")
        let r = try s.run(["search", "--json", "zanzibar"])
        #expect(r.status == 0, "\(r)")
        let notes = try #require(
            try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        let snippet = try #require(notes.first?["snippet"] as? String)
        #expect(snippet.hasSuffix("word119 zanzibar") && snippet.hasPrefix("…"))
        #expect(snippet.count <= 200)
        #expect(snippet.count - "zanzibar".count <= 60)
    }

    @Test func aTerminalRowShowsTheMatchOfALongLineFittedToTheWidth() throws {
        let s = try Sandbox()
        try s.write("long.md", "# Island\n\n" + Self.words + "\n")
        let r = try s.run(["search", "--color", "always", "zanzibar"], env: ["COLUMNS": "80"])
        #expect(r.status == 0, "\(r)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(r.stdout)")
        let snippet = lines.last ?? ""
        #expect(snippet.contains("zanzibar" + ANSI.reset), "\(snippet.debugDescription)")
        #expect(lines.allSatisfy { BrowserScreen.visibleWidth($0) <= 80 })
        // The match is on screen even when the line is its title, cut to the row.
        try s.write("long.md", Self.words + "\n")
        let titled = try s.run(["search", "--color", "always", "zanzibar"], env: ["COLUMNS": "80"])
        let rows = titled.stdout.split(separator: "\n").map(String.init)
        #expect(rows.count == 2 && rows.last?.contains("zanzibar" + ANSI.reset) == true, "\(titled.stdout)")
        #expect(rows.allSatisfy { BrowserScreen.visibleWidth($0) <= 80 })
    }

    @Test(.tags(.heavy), .skippedInQuickLoop) func aNoteThatIsOneTwentyMegabyteLineGivesAWindowedSnippet()
        throws
    {
        let s = try Sandbox()
        let line = String(repeating: "word ", count: 4 << 20) + "needle"
        try s.write("huge.md", line + "\n")
        try s.write("small.md", "# Small\n\nA needle.\n")
        let json = try s.run(["search", "--json", "needle"])
        #expect(json.status == 0)
        let notes = try #require(
            try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        let snippets = notes.compactMap { $0["snippet"] as? String }
        #expect(snippets.count == 2)
        #expect(snippets.allSatisfy { $0.contains("needle") && $0.count <= 200 })
        #expect(snippets.contains { $0.hasPrefix("…") && $0.hasSuffix("word needle") })
        let human = try s.run(["search", "--color", "always", "needle"], env: ["COLUMNS": "100"])
        #expect(human.status == 0)
        let lines = human.stdout.split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { BrowserScreen.visibleWidth($0) <= 100 })
        #expect(lines.filter { $0.contains("needle" + ANSI.reset) }.count == 2, "\(lines)")
    }

    /// The browser ranks as `--sort relevance` does: typing a note's name selects it, however old.
    @Test func theBrowserSelectsTheNoteNamedAsTyped() throws {
        let notes =
            [("plugins", "Plugins")] + (0..<30).map { ("mention\($0)", "Mention \($0) of backlinks") }
            + [("old", "Something"), ("backlinks", "Backlinks")]
        var state = try BrowserStateTests.browser(notes, 80, 12)
        BrowserStateTests.type(&state, "backlinks")
        #expect(state.selectedNote?.id == "backlinks")
        // Title matches come first: the mentions follow in date order.
        #expect(state.hits.count == 31)
        #expect((1..<4).map { state.hits.note(at: $0).id } == ["mention0", "mention1", "mention2"])
    }
}
