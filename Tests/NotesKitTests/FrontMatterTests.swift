import Foundation
import NotesKit
import Testing

/// A key and its parsed value, comparable as a whole.
struct KeyValue: Equatable, Sendable, CustomStringConvertible {
    var key: String
    var value: FrontMatter.Value

    init(_ key: String, _ value: FrontMatter.Value) {
        self.key = key
        self.value = value
    }

    var description: String { "\(key): \(value)" }
}

/// An expected warning: its 1-based line and a fragment of its message.
struct ExpectedWarning: Equatable, Sendable, CustomStringConvertible {
    var line: Int
    var fragment: String

    init(_ line: Int, _ fragment: String) {
        self.line = line
        self.fragment = fragment
    }

    func matches(_ warning: ParseWarning) -> Bool {
        warning.line == line && warning.message.contains(fragment)
    }

    var description: String { "\(line): …\(fragment)…" }
}

/// One named front-matter input and what the parser must make of it.
struct FrontMatterCase: CustomTestStringConvertible, Sendable {
    var name: String
    var text: String
    /// nil: the file has no front matter.
    var entries: [KeyValue]?
    var body: String
    var warnings: [ExpectedWarning] = []
    var hasBOM = false
    var lineEnding = "\n"
    var closing: String?

    var testDescription: String { name }
}

@Suite struct FrontMatterTests {
    static let cases: [FrontMatterCase] = [
        FrontMatterCase(
            name: "plain scalars keep their order and lose surrounding blanks",
            text: "---\ntitle: Shopping list\nauthor:    Ann   \nempty:\n---\n# Body\n",
            entries: [
                KeyValue("title", .scalar("Shopping list")), KeyValue("author", .scalar("Ann")),
                KeyValue("empty", .scalar("")),
            ],
            body: "# Body\n", closing: "---\n"),
        FrontMatterCase(
            name: "plain value may contain colons and hashes not after a blank",
            text: "---\ntitle: Re: meeting\nlang: C#\nurl: https://example.com/a#frag\n---\n",
            entries: [
                KeyValue("title", .scalar("Re: meeting")), KeyValue("lang", .scalar("C#")),
                KeyValue("url", .scalar("https://example.com/a#frag")),
            ],
            body: ""),
        FrontMatterCase(
            name: "a comment after a plain value",
            text: "---\ntitle: Hello   # a comment\nother: x\t# tab comment\n---\nb\n",
            entries: [KeyValue("title", .scalar("Hello")), KeyValue("other", .scalar("x"))],
            body: "b\n"),
        FrontMatterCase(
            name: "single quotes with '' escape and a hash inside",
            text: "---\ntitle: 'It''s # not a comment'\nempty: ''\n---\n",
            entries: [KeyValue("title", .scalar("It's # not a comment")), KeyValue("empty", .scalar(""))],
            body: ""),
        FrontMatterCase(
            name: "double quotes with \\\" \\\\ \\n \\t \\uXXXX escapes",
            text: "---\ntitle: \"say \\\"hi\\\" \\\\ back\\nline\\ttab \\u00e9\\u263A\" # c\n---\n",
            entries: [KeyValue("title", .scalar("say \"hi\" \\ back\nline\ttab é\u{263A}"))],
            body: ""),
        FrontMatterCase(
            name: "double-quoted value keeps a colon and a hash",
            text: "---\ntitle: \"a: b # c\"\n---\n",
            entries: [KeyValue("title", .scalar("a: b # c"))],
            body: ""),
        FrontMatterCase(
            name: "inline list with quoted items",
            text: "---\ntags: [groceries, \"home, sweet\", 'it''s',plain ]\n---\n",
            entries: [KeyValue("tags", .list(["groceries", "home, sweet", "it's", "plain"]))],
            body: ""),
        FrontMatterCase(
            name: "empty inline list",
            text: "---\ntags: []\n---\n",
            entries: [KeyValue("tags", .list([]))],
            body: ""),
        FrontMatterCase(
            name: "block list, indented or not, then another key",
            text: "---\ntags:\n  - one\n  - \"two\"\n- three\ntitle: T\n---\n",
            entries: [KeyValue("tags", .list(["one", "two", "three"])), KeyValue("title", .scalar("T"))],
            body: ""),
        FrontMatterCase(
            name: "comments and blank lines are skipped",
            text: "---\n# leading comment\n\ntitle: T   # trailing\n\n   # indented comment\n\t\n---\nbody\n",
            entries: [KeyValue("title", .scalar("T"))],
            body: "body\n"),
        FrontMatterCase(
            name: "nested map is kept verbatim without a warning",
            text: "---\nauthor:\n  name: Ann\n  email: ann@example.com\ntitle: T\n---\n",
            entries: [KeyValue("author", .unmodelled), KeyValue("title", .scalar("T"))],
            body: ""),
        FrontMatterCase(
            name: "literal block scalar is kept verbatim without a warning",
            text: "---\nsummary: |\n  line one\n  - not an item\n  key: not a key\n\n  # not a comment\n"
                + "title: T\n---\n",
            entries: [KeyValue("summary", .unmodelled), KeyValue("title", .scalar("T"))],
            body: ""),
        FrontMatterCase(
            name: "folded block scalar with chomping indicator",
            text: "---\nsummary: >-\n  folded\n  text\ntitle: T\n---\n",
            entries: [KeyValue("summary", .unmodelled), KeyValue("title", .scalar("T"))],
            body: ""),
        FrontMatterCase(
            name: "flow map is kept verbatim without a warning",
            text: "---\nmeta: {a: 1, b: [x, y]}\ntitle: T\n---\n",
            entries: [KeyValue("meta", .unmodelled), KeyValue("title", .scalar("T"))],
            body: ""),
        FrontMatterCase(
            name: "malformed lines are warned about with 1-based file line numbers",
            text: "---\ntitle: T\njust some words\n  indented\n- stray item\nkey:value\ntags: [a, b\n"
                + "quote: \"unclosed\nsingle: 'unclosed\nok: yes\n---\nbody\n",
            entries: [
                KeyValue("title", .scalar("T")), KeyValue("tags", .unmodelled),
                KeyValue("quote", .unmodelled), KeyValue("single", .unmodelled),
                KeyValue("ok", .scalar("yes")),
            ],
            body: "body\n",
            warnings: [
                ExpectedWarning(3, "key: value"), ExpectedWarning(4, "indented"),
                ExpectedWarning(5, "list item"), ExpectedWarning(6, "key: value"),
                ExpectedWarning(7, "]"), ExpectedWarning(8, "closing quote"),
                ExpectedWarning(9, "closing quote"),
            ]),
        FrontMatterCase(
            name: "text after a quoted value is warned about",
            text: "---\n\n\ntitle: \"T\" extra\n---\n",
            entries: [KeyValue("title", .scalar("T"))],
            body: "",
            warnings: [ExpectedWarning(4, "after a quoted value")]),
        FrontMatterCase(
            name: "no closing line: the whole file is the body, with a warning",
            text: "---\ntitle: T\n\nSome text\n",
            entries: nil,
            body: "---\ntitle: T\n\nSome text\n",
            warnings: [ExpectedWarning(1, "no closing")]),
        FrontMatterCase(
            name: "only an opening line",
            text: "---",
            entries: nil,
            body: "---",
            warnings: [ExpectedWarning(1, "no closing")]),
        FrontMatterCase(
            name: "BOM before the opening line",
            text: "\u{FEFF}---\ntitle: T\noops\n---\nbody\n",
            entries: [KeyValue("title", .scalar("T"))],
            body: "body\n",
            warnings: [ExpectedWarning(3, "key: value")],
            hasBOM: true),
        FrontMatterCase(
            name: "BOM without front matter",
            text: "\u{FEFF}# Title\n",
            entries: nil,
            body: "# Title\n",
            hasBOM: true),
        FrontMatterCase(
            name: "CRLF line endings",
            text: "---\r\ntitle: T\r\ntags: [a, b]\r\nlist:\r\n  - x\r\n---\r\nbody\r\nmore\r\n",
            entries: [
                KeyValue("title", .scalar("T")), KeyValue("tags", .list(["a", "b"])),
                KeyValue("list", .list(["x"])),
            ],
            body: "body\r\nmore\r\n",
            lineEnding: "\r\n", closing: "---\r\n"),
        FrontMatterCase(
            name: "CRLF malformed lines are numbered like LF ones",
            text: "---\r\n# c\r\ntitle: T\r\nnot a pair\r\n---\r\nbody\r\n",
            entries: [KeyValue("title", .scalar("T"))],
            body: "body\r\n",
            warnings: [ExpectedWarning(4, "key: value")],
            lineEnding: "\r\n"),
        FrontMatterCase(
            name: "a lone CR does not end a line",
            text: "---\ntitle: a\rb\n---\n",
            entries: [KeyValue("title", .scalar("a\rb"))],
            body: ""),
        FrontMatterCase(
            name: "... closes the front matter",
            text: "---\ntitle: T\n...\nbody\n",
            entries: [KeyValue("title", .scalar("T"))],
            body: "body\n", closing: "...\n"),
        FrontMatterCase(
            name: "empty body",
            text: "---\ntitle: T\n---\n",
            entries: [KeyValue("title", .scalar("T"))],
            body: ""),
        FrontMatterCase(
            name: "closing line at the end of the file without a newline",
            text: "---\ntitle: T\n---",
            entries: [KeyValue("title", .scalar("T"))],
            body: "", closing: "---"),
        FrontMatterCase(
            name: "empty front matter",
            text: "---\n---\nbody",
            entries: [],
            body: "body"),
        FrontMatterCase(
            name: "a later --- is a thematic break of the body",
            text: "---\ntitle: T\n---\nabove\n---\nbelow\n",
            entries: [KeyValue("title", .scalar("T"))],
            body: "above\n---\nbelow\n"),
        FrontMatterCase(
            name: "--- not on the first line is not front matter",
            text: "\n---\ntitle: T\n---\n",
            entries: nil,
            body: "\n---\ntitle: T\n---\n"),
        FrontMatterCase(
            name: "no front matter at all",
            text: "# Shopping list\n\n- milk\n",
            entries: nil,
            body: "# Shopping list\n\n- milk\n"),
        FrontMatterCase(
            name: "empty file",
            text: "",
            entries: nil,
            body: ""),
    ]

    @Test(arguments: cases)
    func parses(_ c: FrontMatterCase) {
        let document = NoteDocument(parsing: c.text)
        #expect(document.frontMatter?.entries.map { KeyValue($0.key, $0.value) } == c.entries)
        #expect(document.body == c.body)
        #expect(document.hasBOM == c.hasBOM)
        #expect(document.lineEnding == c.lineEnding)
        if let closing = c.closing {
            #expect(document.frontMatter?.closing == closing)
        }
        // Parsing loses nothing: the parts put back together are the file.
        #expect(document.text == c.text)
        #expect(Array(document.text.utf8) == Array(c.text.utf8))
        let warnings = document.warnings + document.dateWarnings()
        #expect(warnings.count == c.warnings.count, "\(warnings)")
        for (expected, actual) in zip(c.warnings, warnings) {
            #expect(expected.matches(actual), "expected \(expected), got \(actual)")
        }
    }

    @Test func frontMatterKeepsRawLines() throws {
        let text = "---\r\ntitle:   'Quoted'   # c\r\n# comment\r\n---\r\nbody\r\n"
        let fm = try #require(NoteDocument(parsing: text).frontMatter)
        #expect(fm.opening == "---\r\n")
        #expect(fm.lines == ["title:   'Quoted'   # c\r\n", "# comment\r\n"])
        #expect(fm.closing == "---\r\n")
        #expect(fm.text == "---\r\ntitle:   'Quoted'   # c\r\n# comment\r\n---\r\n")
        #expect(fm.entry("title")?.lineIndex == 0)
        #expect(fm.scalar("title") == "Quoted")
        #expect(fm.scalar("missing") == nil)
    }

    @Test func scalarOfAListIsNil() throws {
        let fm = try #require(NoteDocument(parsing: "---\ntags: [a]\ntags: b\n---\n").frontMatter)
        // The first entry for a key counts.
        #expect(fm.scalar("tags") == nil)
        #expect(fm.entry("tags")?.value == .list(["a"]))
    }

    // MARK: Dates in front matter

    /// One creation-date layout and which key and time it must yield.
    struct DateCase: CustomTestStringConvertible, Sendable {
        var name: String
        var lines: String
        /// nil: no usable creation date.
        var key: String?
        var seconds: Double?
        /// 1-based lines of expected date warnings.
        var warningLines: [Int] = []

        var testDescription: String { name }
    }

    /// 2026-11-29T12:38:16Z.
    static let t0 = 1_795_955_896.0

    static let dateCases: [DateCase] = [
        DateCase(
            name: "UTC with Z", lines: "createdAt: 2026-11-29T12:38:16Z\n", key: "createdAt", seconds: t0),
        DateCase(
            name: "fractional seconds", lines: "createdAt: 2026-11-29T12:38:16.5Z\n",
            key: "createdAt", seconds: t0 + 0.5),
        DateCase(
            name: "offset +02:00", lines: "createdAt: 2026-11-29T12:38:16+02:00\n",
            key: "createdAt", seconds: t0 - 7200),
        DateCase(
            name: "quoted date", lines: "createdAt: \"2026-11-29T12:38:16Z\"\n",
            key: "createdAt", seconds: t0),
        DateCase(
            name: "date with a trailing comment",
            lines: "createdAt: 2026-11-29T12:38:16Z # from the app\n",
            key: "createdAt", seconds: t0),
        DateCase(
            name: "createdAt wins over created and date",
            lines: "date: 2026-01-01T00:00:00Z\ncreated: 2025-01-01T00:00:00Z\n"
                + "createdAt: 2026-11-29T12:38:16Z\n",
            key: "createdAt", seconds: t0),
        DateCase(
            name: "created when there is no createdAt",
            lines: "date: 2026-01-01T00:00:00Z\ncreated: 2026-11-29T12:38:16Z\n",
            key: "created", seconds: t0),
        DateCase(
            name: "date when it is the only key", lines: "title: T\ndate: 2026-11-29T12:38:16Z\n",
            key: "date", seconds: t0),
        DateCase(
            name: "an unparsable createdAt falls through to created, with a warning",
            lines: "createdAt: yesterday\ncreated: 2026-11-29T12:38:16Z\n",
            key: "created", seconds: t0, warningLines: [2]),
        DateCase(
            name: "unparsable created and date give no date, with warnings",
            lines: "title: T\ncreated: soon\ndate: 2026-02-30\n", key: nil, seconds: nil,
            warningLines: [3, 4]),
        DateCase(
            name: "an empty createdAt falls through to date",
            lines: "createdAt:\ndate: 2026-11-29T12:38:16Z\n", key: "date", seconds: t0,
            warningLines: [2]),
        DateCase(
            name: "a list is not a date", lines: "createdAt: [2026-11-29]\n", key: nil, seconds: nil,
            warningLines: [2]),
        DateCase(
            name: "a bad updatedAt is warned about",
            lines: "createdAt: 2026-11-29T12:38:16Z\nupdatedAt: 2026-13-01\n",
            key: "createdAt", seconds: t0, warningLines: [3]),
        DateCase(name: "no date keys", lines: "title: T\n", key: nil, seconds: nil),
    ]

    @Test(arguments: dateCases)
    func creationDate(_ c: DateCase) {
        let document = NoteDocument(parsing: "---\n" + c.lines + "---\nbody\n")
        let found = document.creationDate()
        #expect(found?.key == c.key)
        #expect(found?.seconds == c.seconds)
        let warnings = document.dateWarnings()
        #expect(warnings.map(\.line) == c.warningLines, "\(warnings)")
        #expect(document.warnings.isEmpty)
    }

    /// The wall time's seconds as if it were UTC, shifted by the process zone's offset (`TZ`) at
    /// that time; none of these instants is near a change of summer time.
    @Test(arguments: [
        ("local date and minutes", "2026-11-29 12:38", 1_795_955_880.0),
        ("local date and seconds", "2026-11-29 12:38:16", 1_795_955_896.0),
        ("local midnight", "2026-11-29", 1_795_910_400.0),
        ("local summer time", "2026-07-01 12:00", 1_782_907_200.0),
    ])
    func localCreationDatesUseTheLocalTimeZone(_ name: String, _ value: String, _ wallAsUTC: Double) {
        let document = NoteDocument(parsing: "---\ncreated: \(value)\n---\n")
        let offset = TimeZone.current.secondsFromGMT(for: Date(timeIntervalSince1970: wallAsUTC))
        #expect(document.creationDate()?.key == "created")
        #expect(document.creationDate()?.seconds == wallAsUTC - Double(offset), "\(name)")
    }

    @Test func updatedDate() {
        #expect(NoteDocument(parsing: "---\nupdatedAt: 2026-11-29T12:38:16Z\n---\n").updatedDate() == Self.t0)
        #expect(NoteDocument(parsing: "---\nupdatedAt: later\n---\n").updatedDate() == nil)
        #expect(NoteDocument(parsing: "no front matter\n").updatedDate() == nil)
    }

    @Test func badDateMessageNamesTheKeyAndValue() throws {
        let document = NoteDocument(parsing: "---\ntitle: T\ncreatedAt: yesterday\n---\n")
        let warning = try #require(document.dateWarnings().first)
        #expect(warning.line == 3)
        #expect(warning.message.contains("createdAt"))
        #expect(warning.message.contains("yesterday"))
    }
}

@Suite struct MultiLineValueTests {
    @Test(arguments: [
        "title: \"a long\n  title\"\n",
        "tags: [a,\n  b]\n",
        "title: 'single\n  quoted'\n",
    ])
    func valuesOverIndentedLinesAreUnmodelledWithoutWarning(_ lines: String) {
        let document = NoteDocument(parsing: "---\n" + lines + "createdAt: 2026-01-01T00:00:00Z\n---\nbody\n")
        #expect(document.warnings.isEmpty)
        #expect(document.frontMatter?.entries.first?.value == .unmodelled)
        #expect(document.creationDate() != nil)
    }

    @Test func anUnclosedQuoteOnItsOwnStillWarns() {
        let document = NoteDocument(
            parsing: "---\ntitle: \"oops\ncreatedAt: 2026-01-01T00:00:00Z\n---\nbody\n")
        #expect(document.warnings.map(\.line) == [2])
    }
}

@Suite struct FrontMatterItemsTests {
    @Test(arguments: [
        ("aliases: [Crème, \"B, c\"]", ["Crème", "B, c"]),
        ("aliases:\n  - One\n  - 'Two'", ["One", "Two"]),
        ("aliases: Just one, with a comma", ["Just one, with a comma"]),
        ("aliases: []", []),
        ("aliases: [ , x]", ["x"]),
        ("other: x", []),
    ])
    func aliasesAreAListOrOneString(_ lines: String, _ expected: [String]) {
        let document = NoteDocument(parsing: "---\n" + lines + "\n---\nbody\n")
        #expect(document.aliases == expected)
    }
}
