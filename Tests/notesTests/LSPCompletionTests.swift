import Foundation
import NotesKit
import TestSupport
import Testing

/// Completion of `notes lsp`: notes after `[[` (folded, ranked, the shortest target that finds
/// them by file name), headings after `[[note#`, tags after `#`, relative paths after `](`; never
/// inside code.
@Suite struct LSPCompletionTests {
    static func note(_ title: String, day: Int, _ body: String = "") -> String {
        "---\ncreatedAt: 2026-01-0\(day)T00:00:00Z\n---\n# \(title)\n\n\(body)"
    }

    static func vault() throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.write("guide.md", note("Łódź guide", day: 1, "#Work and #travel\n"))
        try sandbox.write("trip-to-lodz.md", note("Trip to Łódź", day: 3, "## Day 1 🌱\n\n## Food\n\n#work\n"))
        try sandbox.write("lodz-old.md", note("Old notes", day: 2, "#work/meetings #Café\n"))
        try sandbox.write("kilodzone.md", note("Kilodzone", day: 4, "#cafe\n"))
        try sandbox.write("places/xlodzx.md", note("Somewhere", day: 5, "#Work\n"))
        try sandbox.write("work/Plan.md", note("Work plan", day: 6))
        try sandbox.write("home/plan.md", note("Home plan", day: 7))
        try sandbox.write("work/standup.md", note("Standup", day: 8))
        try sandbox.write("ideas/Big Plan.md", note("Big Plan", day: 9))
        return sandbox
    }

    /// A client on `sandbox`, initialized.
    static func client(_ sandbox: Sandbox) throws -> LSPClient {
        let client = try LSPClient(sandbox)
        try client.initialize()
        return client
    }

    /// The completion at `|` in `text`, opened as the note `path`: each item as
    /// `label | detail | newText`, whether the list is incomplete, and the items themselves.
    static func complete(
        _ client: LSPClient, _ sandbox: Sandbox, _ text: String, in path: String = "scratch.md"
    )
        throws -> (items: [String], incomplete: Bool?, raw: [JSONValue])?
    {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let line = lines.firstIndex(where: { $0.contains("|") }),
            let bar = lines[line].firstIndex(of: "|")
        else { return nil }
        let column = lines[line].utf16.distance(from: lines[line].startIndex, to: bar)
        let uri = FileURI.uri(sandbox.vault + "/" + path)
        var plain = text
        if let marker = plain.firstIndex(of: "|") { plain.remove(at: marker) }
        client.open(uri, plain)
        let result = try client.request("textDocument/completion", LSPClient.at(uri, line, column))["result"]
        guard let result, result != .null else { return nil }
        let items = result["items"]?.arrayValue ?? []
        return (
            items.map { item in
                [item["label"], item["detail"], item["textEdit"]?["newText"]]
                    .map { $0?.stringValue ?? "-" }.joined(separator: " | ")
            }, result["isIncomplete"]?.boolValue, items
        )
    }

    @Test func notesAfterTwoBracketsAreRankedAndFolded() throws {
        let sandbox = try Self.vault()
        let client = try Self.client(sandbox)
        let found = try Self.complete(client, sandbox, "# Scratch\n\nSee [[lodz|")
        // Title prefix; then a word of the title or the file name, newest first; then the rest.
        #expect(
            found?.items == [
                "Łódź guide | guide | guide]]",
                "Trip to Łódź | trip-to-lodz | trip-to-lodz]]",
                "Old notes | lodz-old | lodz-old]]",
                "Somewhere | places/xlodzx | xlodzx]]",
                "Kilodzone | kilodzone | kilodzone]]",
            ])
        #expect(found?.incomplete == true)
        // The edit covers what was typed since `[[`, and the client may filter on that text.
        let first = found?.raw.first
        #expect(first?["textEdit"]?["range"] == LSPFeatureTests.range(2, 6, 10))
        #expect(first?["filterText"] == .string("lodz"))
        #expect(first?["sortText"] == .string("0000"))
        try client.request("shutdown")
        #expect(client.finish() == 0)
    }

    @Test func theTargetIsTheFileNameWhenUniqueElseTheID() throws {
        let sandbox = try Self.vault()
        let client = try Self.client(sandbox)
        // `Plan` and `plan` are one name ignoring case, as Obsidian compares them.
        #expect(
            try Self.complete(client, sandbox, "[[plan|")?.items == [
                "Big Plan | ideas/Big Plan | Big Plan]]",
                "Home plan | home/plan | home/plan]]",
                "Work plan | work/Plan | work/Plan]]",
            ])
        // A `]]` already there is not doubled, nor one added before a `#heading` or `|text`.
        #expect(
            try Self.complete(client, sandbox, "[[stand|]] and more")?.items == [
                "Standup | work/standup | standup"
            ])
        #expect(
            try Self.complete(client, sandbox, "[[stand|#Part]]")?.items == [
                "Standup | work/standup | standup"
            ])
        #expect(
            try Self.complete(client, sandbox, "[[stand|]")?.items == ["Standup | work/standup | standup]]"])
        try client.request("shutdown")
        #expect(client.finish() == 0)
    }

    @Test func anObsidianVaultGetsFileNames() throws {
        let sandbox = try Sandbox()
        try FileManager.default.createDirectory(
            atPath: sandbox.vault + "/.obsidian", withIntermediateDirectories: true)
        try sandbox.write("Trip to Łódź.md", "We went.\n")
        try sandbox.write("a/Same.md", "One.\n")
        try sandbox.write("b/same.md", "Other.\n")
        let client = try Self.client(sandbox)
        #expect(
            try Self.complete(client, sandbox, "[[lodz|")?.items == [
                "Trip to Łódź | Trip to Łódź | Trip to Łódź]]"
            ])
        #expect(
            Set(try Self.complete(client, sandbox, "[[same|")?.items ?? []) == [
                "Same | a/Same | a/Same]]", "same | b/same | b/same]]",
            ])
        try client.request("shutdown")
        #expect(client.finish() == 0)
    }

    @Test func atMostFiftyNewestFirst() throws {
        let sandbox = try Sandbox()
        for i in 1...60 {
            try sandbox.write(
                "n\(i).md",
                "---\ncreatedAt: 2026-02-01T00:\(String(format: "%02d", i - 1)):00Z\n---\n# Note \(i)\n")
        }
        let client = try Self.client(sandbox)
        let found = try Self.complete(client, sandbox, "[[|")
        #expect(found?.items.count == 50)
        #expect(found?.items.first == "Note 60 | n60 | n60]]")
        #expect(found?.items.last == "Note 11 | n11 | n11]]")
        #expect(found?.incomplete == true)
        try client.request("shutdown")
        #expect(client.finish() == 0)
    }

    @Test func nothingInsideCode() throws {
        let sandbox = try Self.vault()
        let client = try Self.client(sandbox)
        #expect(try Self.complete(client, sandbox, "See `[[lodz|` here") == nil)
        #expect(try Self.complete(client, sandbox, "```\n[[lodz|\n```\n") == nil)
        #expect(try Self.complete(client, sandbox, "```\n[[lodz|") == nil)
        #expect(try Self.complete(client, sandbox, "    ~~~\n#wo|\n") == nil)
        #expect(
            try Self.complete(client, sandbox, "`code` then [[stand|")?.items == [
                "Standup | work/standup | standup]]"
            ])
        // Nor in the front matter.
        #expect(try Self.complete(client, sandbox, "---\ntags: [[lodz|\n---\nBody\n") == nil)
        try client.request("shutdown")
        #expect(client.finish() == 0)
    }

    @Test func headingsOfTheLinkedNote() throws {
        let sandbox = try Self.vault()
        let client = try Self.client(sandbox)
        #expect(
            try Self.complete(client, sandbox, "[[trip-to-lodz#|")?.items == [
                "Trip to Łódź | # | Trip to Łódź]]", "Day 1 🌱 | ## | Day 1 🌱]]", "Food | ## | Food]]",
            ])
        #expect(try Self.complete(client, sandbox, "[[trip-to-lodz#fo|]]")?.items == ["Food | ## | Food"])
        // An open note's buffer counts as typed.
        let trip = FileURI.uri(sandbox.vault + "/trip-to-lodz.md")
        client.open(trip, Self.note("Trip to Łódź", day: 3, "## Day 2\n"))
        #expect(try Self.complete(client, sandbox, "[[trip-to-lodz#day|")?.items == ["Day 2 | ## | Day 2]]"])
        // This note's own headings after `[[#`.
        #expect(
            try Self.complete(client, sandbox, "# Top\n\n## Mine\n\n[[#mi|")?.items == ["Mine | ## | Mine]]"])
        try client.request("shutdown")
        #expect(client.finish() == 0)
    }

    @Test func tagsByFoldedPrefixMostUsedFirst() throws {
        let sandbox = try Self.vault()
        let client = try Self.client(sandbox)
        // `Work` ×3 (spelled as the newest note spells it), `travel`, `work/meetings`.
        #expect(
            try Self.complete(client, sandbox, "Text #wo|")?.items == [
                "Work | 3 | Work", "work/meetings | 1 | work/meetings",
            ])
        #expect(try Self.complete(client, sandbox, "#CAF|")?.items == ["cafe | 2 | cafe"])
        #expect(
            try Self.complete(client, sandbox, "(#work/|")?.items == ["work/meetings | 1 | work/meetings"])
        // No letter typed yet, a heading, a `#` inside a word or a link: nothing.
        #expect(try Self.complete(client, sandbox, "Text #|") == nil)
        #expect(try Self.complete(client, sandbox, "# wo|") == nil)
        #expect(try Self.complete(client, sandbox, "## wo|") == nil)
        #expect(try Self.complete(client, sandbox, "a#wo|") == nil)
        #expect(try Self.complete(client, sandbox, "[x](#wo|") == nil)
        try client.request("shutdown")
        #expect(client.finish() == 0)
    }

    @Test func relativePathsAfterAMarkdownLink() throws {
        let sandbox = try Self.vault()
        let client = try Self.client(sandbox)
        let daily = "work/daily.md"
        #expect(
            try Self.complete(client, sandbox, "See [the plan](big|", in: daily)?.items == [
                "Big Plan | ../ideas/Big%20Plan.md | ../ideas/Big%20Plan.md)"
            ])
        #expect(
            try Self.complete(client, sandbox, "[s](standup|)", in: daily)?.items == [
                "Standup | standup.md | standup.md"
            ])
        // Matched on the ID too, and `%20` typed is a space.
        #expect(
            try Self.complete(client, sandbox, "[p](ideas/big%20p|)")?.items == [
                "Big Plan | ideas/Big%20Plan.md | ideas/Big%20Plan.md"
            ])
        // An image, a URL: nothing.
        #expect(try Self.complete(client, sandbox, "![pic](big|", in: daily) == nil)
        #expect(try Self.complete(client, sandbox, "[w](https://big|", in: daily) == nil)
        try client.request("shutdown")
        #expect(client.finish() == 0)
    }

    @Test func completionIsAnnounced() throws {
        let sandbox = try Self.vault()
        let client = try LSPClient(sandbox)
        let capabilities = try client.initialize()["result"]?["capabilities"]
        #expect(
            capabilities?["completionProvider"]?["triggerCharacters"]
                == .array([.string("["), .string("#"), .string("(")]))
        try client.request("shutdown")
        #expect(client.finish() == 0)
    }
}
