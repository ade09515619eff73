import NotesKit
import TestSupport
import Testing

/// One rewrite: a file, the new body, and the whole file expected afterwards.
struct RewriteCase: CustomTestStringConvertible, Sendable {
    var name: String
    var original: String
    var content: String = "new body\n"
    var expected: String

    var testDescription: String { name }
}

@Suite struct NoteDocumentTests {
    /// The `updated` time every case writes: 2026-12-01T09:30:00Z.
    static let updated = 1_796_117_400.0
    static let u = "updatedAt: 2026-12-01T09:30:00Z"
    /// The fallback creation time (the file's mtime): 2026-01-02T03:04:05Z.
    static let fallback = 1_767_323_045.0
    static let f = "createdAt: 2026-01-02T03:04:05Z"

    static let cases: [RewriteCase] = [
        RewriteCase(
            name: "updatedAt is replaced in place; every other line stays byte for byte",
            original: """
                ---
                title:   'Shopping  list'   # kept as typed
                createdAt: 2026-11-29T12:38:16Z
                # a comment
                updatedAt: 2026-11-30 08:00
                tags: [groceries,home]
                x-custom:
                  nested: map
                summary: |
                  a block scalar
                ---
                old body

                """,
            expected: """
                ---
                title:   'Shopping  list'   # kept as typed
                createdAt: 2026-11-29T12:38:16Z
                # a comment
                \(u)
                tags: [groceries,home]
                x-custom:
                  nested: map
                summary: |
                  a block scalar
                ---
                new body

                """),
        RewriteCase(
            name: "a quoted updatedAt is replaced in place",
            original: "---\nupdatedAt: \"2020-01-01T00:00:00Z\"\ncreatedAt: 2019-01-01\n---\nold\n",
            expected: "---\n\(u)\ncreatedAt: 2019-01-01\n---\nnew body\n"),
        RewriteCase(
            name: "an unparsable updatedAt is replaced in place",
            original: "---\ncreatedAt: 2026-11-29T12:38:16Z\ntitle: T\nupdatedAt: never\n---\nold\n",
            expected: "---\ncreatedAt: 2026-11-29T12:38:16Z\ntitle: T\n\(u)\n---\nnew body\n"),
        RewriteCase(
            name: "no updatedAt: inserted right after createdAt, not at the end",
            original: "---\n# comment\ncreatedAt: 2026-11-29T12:38:16Z\ntitle: T\ntags: [a]\n---\nold\n",
            expected: "---\n# comment\ncreatedAt: 2026-11-29T12:38:16Z\n\(u)\ntitle: T\ntags: [a]\n---\n"
                + "new body\n"),
        RewriteCase(
            name: "no updatedAt: inserted right after created",
            original: "---\ntitle: T\ncreated: 2026-11-29\naliases:\n  - x\n---\nold\n",
            expected: "---\ntitle: T\ncreated: 2026-11-29\n\(u)\naliases:\n  - x\n---\nnew body\n"),
        RewriteCase(
            name: "no updatedAt: inserted right after date",
            original: "---\nlayout: post\ndate: 2026-11-29 12:38\ncategories: [x]\n---\nold\n",
            expected: "---\nlayout: post\ndate: 2026-11-29 12:38\n\(u)\ncategories: [x]\n---\nnew body\n"),
        RewriteCase(
            name: "inserted after the key the date came from, not an earlier unparsable one",
            original: "---\ncreatedAt: someday\ntitle: T\ndate: 2026-11-29T12:38:16Z\nx: y\n---\nold\n",
            expected: "---\ncreatedAt: someday\ntitle: T\ndate: 2026-11-29T12:38:16Z\n\(u)\nx: y\n---\n"
                + "new body\n"),
        RewriteCase(
            name: "an unparsable creation key is left as written and updatedAt goes right after it",
            original: "---\ntitle: T\ncreated: someday # sometime\nx: y\n---\nold\n",
            expected: "---\ntitle: T\ncreated: someday # sometime\n\(u)\nx: y\n---\nnew body\n"),
        RewriteCase(
            name: "no creation key: createdAt (fallback) and updatedAt at the end of the front matter",
            original: "---\ntitle: T\ntags:\n  - a\n# trailing comment\n---\nold\n",
            expected: "---\ntitle: T\ntags:\n  - a\n# trailing comment\n\(f)\n\(u)\n---\nnew body\n"),
        RewriteCase(
            name: "updatedAt but no creation key: updatedAt in place, createdAt (fallback) added at the end",
            original: "---\nupdatedAt: 2020-01-01T00:00:00Z\ntitle: T\n---\nold\n",
            expected: "---\n\(u)\ntitle: T\n\(f)\n---\nnew body\n"),
        RewriteCase(
            name: "empty front matter gets the two lines",
            original: "---\n---\nold\n",
            expected: "---\n\(f)\n\(u)\n---\nnew body\n"),
        RewriteCase(
            name: "no front matter: a new one holding the two lines",
            original: "# Old title\n\nold text\n",
            expected: "---\n\(f)\n\(u)\n---\nnew body\n"),
        RewriteCase(
            name: "empty file",
            original: "",
            expected: "---\n\(f)\n\(u)\n---\nnew body\n"),
        RewriteCase(
            name: "unclosed front matter is body, so it is replaced and a front matter is added",
            original: "---\ntitle: T\nold\n",
            expected: "---\n\(f)\n\(u)\n---\nnew body\n"),
        RewriteCase(
            name: "... closing line is kept",
            original: "---\ncreatedAt: 2026-11-29T12:38:16Z\n...\nold\n",
            expected: "---\ncreatedAt: 2026-11-29T12:38:16Z\n\(u)\n...\nnew body\n"),
        RewriteCase(
            name: "closing line at the end of the file gets a line ending",
            original: "---\ncreatedAt: 2026-11-29T12:38:16Z\n---",
            expected: "---\ncreatedAt: 2026-11-29T12:38:16Z\n\(u)\n---\nnew body\n"),
        RewriteCase(
            name: "CRLF is kept, in the front matter and in the new body",
            original: "---\r\ntitle: T\r\ncreatedAt: 2026-11-29T12:38:16Z\r\nx: y\r\n---\r\nold\r\n",
            content: "line one\n\nline two\n",
            expected: "---\r\ntitle: T\r\ncreatedAt: 2026-11-29T12:38:16Z\r\n\(u)\r\nx: y\r\n---\r\n"
                + "line one\r\n\r\nline two\r\n"),
        RewriteCase(
            name: "CRLF content is not doubled",
            original: "---\r\ncreatedAt: 2026-11-29T12:38:16Z\r\nupdatedAt: 2020-01-01\r\n---\r\nold\r\n",
            content: "a\r\nb\n",
            expected: "---\r\ncreatedAt: 2026-11-29T12:38:16Z\r\n\(u)\r\n---\r\na\r\nb\r\n"),
        RewriteCase(
            name: "CRLF with no creation key",
            original: "---\r\ntitle: T\r\n---\r\nold\r\n",
            expected: "---\r\ntitle: T\r\n\(f)\r\n\(u)\r\n---\r\nnew body\r\n"),
        RewriteCase(
            name: "CRLF with no front matter",
            original: "old\r\ntext\r\n",
            expected: "---\r\n\(f)\r\n\(u)\r\n---\r\nnew body\r\n"),
        RewriteCase(
            name: "LF front matter, CRLF body: new body lines take the body's CRLF",
            original: "---\ncreatedAt: 2026-11-29T12:38:16Z\n---\nold\r\ntext\r\n",
            content: "a\nb\n",
            expected: "---\ncreatedAt: 2026-11-29T12:38:16Z\n\(u)\n---\na\r\nb\r\n"),
        RewriteCase(
            name: "CRLF front matter, LF body: new body lines take the body's LF",
            original: "---\r\ncreatedAt: 2026-11-29T12:38:16Z\r\n---\r\nold\ntext\n",
            content: "a\nb\n",
            expected: "---\r\ncreatedAt: 2026-11-29T12:38:16Z\r\n\(u)\r\n---\r\na\nb\n"),
        RewriteCase(
            name: "a body of one unterminated line takes the front matter's ending",
            original: "---\r\ncreatedAt: 2026-11-29T12:38:16Z\r\n---\r\nold",
            content: "a\n",
            expected: "---\r\ncreatedAt: 2026-11-29T12:38:16Z\r\n\(u)\r\n---\r\na\r\n"),
        RewriteCase(
            name: "BOM is kept",
            original: "\u{FEFF}---\ncreatedAt: 2026-11-29T12:38:16Z\n---\nold\n",
            expected: "\u{FEFF}---\ncreatedAt: 2026-11-29T12:38:16Z\n\(u)\n---\nnew body\n"),
        RewriteCase(
            name: "BOM is kept before a new front matter",
            original: "\u{FEFF}old\n",
            expected: "\u{FEFF}---\n\(f)\n\(u)\n---\nnew body\n"),
        RewriteCase(
            name: "BOM and CRLF together",
            original: "\u{FEFF}---\r\ndate: 2026-11-29\r\n---\r\nold\r\n",
            expected: "\u{FEFF}---\r\ndate: 2026-11-29\r\n\(u)\r\n---\r\nnew body\r\n"),
        RewriteCase(
            name: "malformed lines are kept as they are",
            original: "---\ncreatedAt: 2026-11-29T12:38:16Z\nnot a key value line\n  - stray\n---\nold\n",
            expected: "---\ncreatedAt: 2026-11-29T12:38:16Z\n\(u)\nnot a key value line\n  - stray\n---\n"
                + "new body\n"),
        RewriteCase(
            name: "a body that looks like front matter stays body",
            original: "---\ncreatedAt: 2026-11-29T12:38:16Z\n---\nold\n",
            content: "---\nnot: front matter\n---\n",
            expected: "---\ncreatedAt: 2026-11-29T12:38:16Z\n\(u)\n---\n---\nnot: front matter\n---\n"),
    ]

    @Test(arguments: cases)
    func rewriteChangesOnlyTheBodyAndUpdatedAt(_ c: RewriteCase) {
        var document = NoteDocument(parsing: c.original)
        document.rewrite(content: c.content, updated: Self.updated, fallbackCreation: Self.fallback)
        #expect(document.text == c.expected)
        #expect(Array(document.text.utf8) == Array(c.expected.utf8))
        #expect(document.updatedDate() == Self.updated)
    }

    @Test(arguments: cases)
    func rewrittenFileReadsBackTheSame(_ c: RewriteCase) {
        var document = NoteDocument(parsing: c.original)
        document.rewrite(content: c.content, updated: Self.updated, fallbackCreation: Self.fallback)
        let reread = NoteDocument(parsing: document.text)
        #expect(reread.text == document.text)
        #expect(reread.body == document.body)
        #expect(reread.hasBOM == document.hasBOM)
        #expect(reread.frontMatter == document.frontMatter)
        #expect(reread.updatedDate() == Self.updated)
        // A creation date that parsed before still parses, from the same key.
        let before = NoteDocument(parsing: c.original).creationDate()
        if let before {
            #expect(reread.creationDate()?.key == before.key)
            #expect(reread.creationDate()?.seconds == before.seconds)
        }
    }

    /// Pieces that stress the parser: delimiters, keys, quotes, escapes, line endings, marks.
    static let pieces = [
        "---\n", "---\r\n", "...\n", "\n", "\r\n", "\r", "title: ", "createdAt: ", "created: ", "date: ",
        "updatedAt: ", "2026-11-29T12:38:16Z", "2026-11-29", "tags:", " - ", "- ", "[", "]", ",", "'", "''",
        "\"",
        "\\", "\\u00e9", "\\u12", "#", " # ", "  ", "\t", "|", ">", "{a: 1}", ":", "x", "é", "e\u{301}",
        "\u{FEFF}", "データ", "😀", "\u{0}",
    ]

    static func randomText(_ rng: inout SplitMix) -> String {
        var text = Bool.random(using: &rng) ? "---\n" : ""
        for _ in 0..<Int.random(in: 0...30, using: &rng) {
            text += pieces[Int.random(in: 0..<pieces.count, using: &rng)]
        }
        return text
    }

    @Test func parsingAnyTextLosesNothing() {
        var rng = SplitMix(seed: 20_261_129)
        for _ in 0..<3000 {
            let text = Self.randomText(&rng)
            let document = NoteDocument(parsing: text)
            #expect(Array(document.text.utf8) == Array(text.utf8), "\(text.debugDescription)")
            for warning in document.warnings + document.dateWarnings() {
                #expect(warning.line >= 1, "\(text.debugDescription)")
            }
        }
    }

    @Test func rewritingAnyTextKeepsEveryOtherFrontMatterLine() {
        var rng = SplitMix(seed: 42)
        for _ in 0..<3000 {
            let text = Self.randomText(&rng)
            let original = NoteDocument(parsing: text)
            var document = original
            document.rewrite(content: "new body\n", updated: Self.updated, fallbackCreation: Self.fallback)
            let reread = NoteDocument(parsing: document.text)
            // The new body takes the ending of the old body's first line, else the file's.
            let oldBody = Array(original.body.utf8)
            let eol =
                oldBody.firstIndex(of: 0x0A).map { $0 > 0 && oldBody[$0 - 1] == 0x0D ? "\r\n" : "\n" }
                ?? original.lineEnding
            #expect(
                reread.body == (eol == "\r\n" ? "new body\r\n" : "new body\n"), "\(text.debugDescription)")
            #expect(reread.updatedDate() == Self.updated, "\(text.debugDescription)")
            #expect(reread.hasBOM == original.hasBOM)
            guard let after = reread.frontMatter else {
                Issue.record("no front matter after a rewrite of \(text.debugDescription)")
                continue
            }
            guard let before = original.frontMatter else {
                // A new front matter: createdAt and updatedAt.
                #expect(after.lines.count == 2, "\(text.debugDescription)")
                #expect(reread.creationDate()?.seconds == Self.fallback)
                continue
            }
            #expect(after.opening == before.opening)
            // The old lines, but for the updatedAt line, appear in the new front matter in order.
            let replaced = before.entry("updatedAt")?.lineIndex
            var remaining = after.lines[...]
            for (index, line) in before.lines.enumerated() where index != replaced {
                guard let at = remaining.firstIndex(of: line) else {
                    Issue.record("lost line \(line.debugDescription) of \(text.debugDescription)")
                    break
                }
                remaining = remaining[(at + 1)...]
            }
            #expect(after.lines.count - before.lines.count <= 2)
        }
    }

    @Test func rewritingAgainOnlyMovesUpdatedAt() {
        var document = NoteDocument(parsing: "---\ntitle: T\n---\nold\n")
        document.rewrite(content: "one\n", updated: Self.updated, fallbackCreation: Self.fallback)
        let first = document.text
        document.rewrite(content: "two\n", updated: Self.updated + 60, fallbackCreation: Self.updated)
        #expect(first == "---\ntitle: T\n\(Self.f)\n\(Self.u)\n---\none\n")
        #expect(document.text == "---\ntitle: T\n\(Self.f)\nupdatedAt: 2026-12-01T09:31:00Z\n---\ntwo\n")
        #expect(document.creationDate()?.seconds == Self.fallback)
    }

    @Test func lineEndingComesFromTheFirstLine() {
        #expect(NoteDocument(parsing: "a\r\nb\n").lineEnding == "\r\n")
        #expect(NoteDocument(parsing: "a\nb\r\n").lineEnding == "\n")
        #expect(NoteDocument(parsing: "a").lineEnding == "\n")
        #expect(NoteDocument(parsing: "\u{FEFF}---\r\n---\r\n").lineEnding == "\r\n")
    }

    @Test func newFileHasACreatedAtFrontMatter() {
        let text = NoteDocument.newFile(NoteDocument(parsing: "# Hello\n"), created: 1_795_955_896)
        #expect(text == "---\ncreatedAt: 2026-11-29T12:38:16Z\n---\n# Hello\n")
        let document = NoteDocument(parsing: text)
        #expect(document.creationDate()?.key == "createdAt")
        #expect(document.creationDate()?.seconds == 1_795_955_896)
        #expect(document.body == "# Hello\n")
        #expect(document.warnings.isEmpty)
    }
}
