import Foundation
import Testing

@testable import NotesKit

/// One note text and the tags it has.
struct TagCase: CustomTestStringConvertible, Sendable {
    var name: String
    var text: String
    var tags: [String]
    var testDescription: String { name }
}

/// One body and the links it has: each as (text as written, target, heading).
struct LinkCase: CustomTestStringConvertible, Sendable {
    var name: String
    var body: String
    var links: [ExpectedLink]
    var testDescription: String { name }
}

struct ExpectedLink: Equatable, Sendable, CustomStringConvertible {
    var text: String
    var target: String
    var heading: String?
    var line: Int

    init(_ text: String, _ target: String, heading: String? = nil, line: Int = 1) {
        self.text = text
        self.target = target
        self.heading = heading
        self.line = line
    }

    init(_ link: NoteLink) {
        self.init(link.text, link.target, heading: link.heading, line: link.line)
    }

    var description: String { "\(line): \(text) → \(target)" + (heading.map { "#" + $0 } ?? "") }
}

@Suite struct TagExtractionTests {
    static let cases: [TagCase] = [
        TagCase(
            name: "front matter flow list", text: "---\ntags: [groceries, home]\n---\nx\n",
            tags: ["groceries", "home"]),
        TagCase(
            name: "front matter block list", text: "---\ntags:\n  - groceries\n  - home\n---\nx\n",
            tags: ["groceries", "home"]),
        TagCase(
            name: "front matter string, commas and blanks", text: "---\ntags: a, b c\n---\n",
            tags: ["a", "b", "c"]),
        TagCase(
            name: "front matter leading # dropped, quoted items",
            text: "---\ntags: ['#one', \"two\"]\n---\n", tags: ["one", "two"]),
        TagCase(
            name: "front matter first, then body in order",
            text: "---\ntags: [z]\n---\nhello #b and #a\n", tags: ["z", "b", "a"]),
        TagCase(
            name: "repeats count once, first spelling kept, folded",
            text: "#Café then #cafe and #CAFE\n", tags: ["Café"]),
        TagCase(
            name: "at the start of a line, after a blank or a (", text: "#one x #two (#three)\n",
            tags: ["one", "two", "three"]),
        TagCase(
            name: "not inside a word or after other punctuation", text: "a#b c,#d e.#f https://x.org/#g\n",
            tags: []),
        TagCase(name: "a heading is not a tag", text: "# Title\n## Sub #real\n###### Six\n", tags: ["real"]),
        TagCase(name: "digits only is not a tag", text: "#123 #2024 #1a #a1 #_\n", tags: ["1a", "a1", "_"]),
        TagCase(
            name: "nested with /, a trailing / dropped", text: "#work/meetings #a/ #b//c\n",
            tags: ["work/meetings", "a", "b//c"]),
        TagCase(
            name: "letters, digits, _ and - and nothing else", text: "#a_b-c.d #e!f #g?h\n",
            tags: ["a_b-c", "e", "g"]),
        TagCase(
            name: "CJK, accented and decomposed tags", text: "#日本語 #東京/メモ #café #cafe\u{301}x #한국\n",
            tags: ["日本語", "東京/メモ", "café", "cafe\u{301}x", "한국"]),
        TagCase(name: "not in inline code", text: "`#code` and ``x #two ` y`` and #real\n", tags: ["real"]),
        TagCase(
            name: "inline code across lines of one paragraph", text: "a `b\n#no` c\n\n#yes\n", tags: ["yes"]),
        TagCase(name: "an unmatched backtick is plain text", text: "a ` b #yes\n", tags: ["yes"]),
        TagCase(
            name: "not in a fenced code block", text: "```\n#no\n```\n#yes\n~~~sh\n#no\n~~~\n", tags: ["yes"]),
        TagCase(name: "an unclosed fence runs to the end", text: "#yes\n```\n#no\n", tags: ["yes"]),
        TagCase(
            name: "an indented fence (in a list) is code",
            text: "- item\n    ```\n    #no\n    ```\n- #yes\n",
            tags: ["yes"]),
        TagCase(
            name: "a fence closes only with as many of the same", text: "````\n```\n#no\n````\n#yes\n",
            tags: ["yes"]),
        TagCase(
            name: "not in a fence in a block quote", text: "> ~~~\n> #no\n> ~~~\n> #yes\n", tags: ["yes"]),
        TagCase(name: "escaped # is not a tag", text: "\\#no #yes\n", tags: ["yes"]),
        TagCase(
            name: "a link's #anchor is not a tag", text: "[x](#anchor) [[Note#Heading]] (#yes)\n",
            tags: ["yes"]),
        TagCase(name: "CRLF lines", text: "#one\r\n#two\r\n", tags: ["one", "two"]),
    ]

    @Test(arguments: cases)
    func tagsAreExactly(_ c: TagCase) {
        #expect(NoteTags.of(NoteDocument(parsing: c.text)) == c.tags)
    }

    @Test func aNoteCarriesItsTags() {
        let note = Note(
            path: "n.md", document: NoteDocument(parsing: "---\ntags: [Work]\n---\n#work #idea\n"), mtime: 0)
        #expect(note.tags == ["Work", "idea"])
    }

    /// A backslash at the end of a line escapes nothing on the next: a link is on one line.
    @Test func aBackslashAtTheEndOfALineDoesNotCarryALinkOntoTheNext() {
        #expect(NoteLinks.of(body: "[x\\\n](other.md)\n").isEmpty)
        #expect(NoteLinks.of(body: "[x](<other\\\n.md>)\n").isEmpty)
        #expect(NoteLinks.of(body: "[x](other\\\n.md)\n").isEmpty)
        let escaped = NoteLinks.of(body: "\n[x\\]](other.md)\n")
        #expect(escaped.map(\.target) == ["other.md"] && escaped.map(\.line) == [2])
    }

    /// A tag that folds to nothing is no tag, on its own too (`show --json` once listed it while
    /// the index, and so `list --json`, did not).
    @Test func aLoneTagThatFoldsToNothingIsNoTag() {
        let lone = Note(
            path: "n.md", document: NoteDocument(parsing: "---\ntags: \"\\u0301\"\n---\nbody\n"), mtime: 0)
        #expect(lone.tags == [])
        let accented = Note(
            path: "c.md", document: NoteDocument(parsing: "---\ntags: [Café]\n---\nbody\n"), mtime: 0)
        #expect(accented.tags == ["Café"])
    }

    @Test(arguments: [
        ("work", "work", true), ("work/meetings", "work", true), ("workshop", "work", false),
        ("work", "work/meetings", false), ("a/b/c", "a/b", true), ("café", "cafe", false),
    ])
    func nestedTagsMatchTheirParents(_ tag: String, _ wanted: String, _ expected: Bool) {
        #expect(Array(tag.utf8).withUnsafeBytes { NoteTags.matches($0, Array(wanted.utf8)) } == expected)
    }

    @Test func aSearchTermWithHashIsATag() {
        let query = SearchQuery("#Work/Meetings plain \"#quoted\" # #123")
        #expect(query.tagTerms == [Array("work/meetings".utf8)])
        #expect(
            query.textTerms == [
                Array("plain".utf8), Array("#quoted".utf8), Array("#".utf8), Array("#123".utf8),
            ])
        #expect(SearchQuery("#work/meetings").narrows(SearchQuery("#work")))
        #expect(!SearchQuery("#work").narrows(SearchQuery("#wor")))
        #expect(!SearchQuery("#work").narrows(SearchQuery("work")))
    }
}

@Suite struct LinkExtractionTests {
    static let cases: [LinkCase] = [
        LinkCase(
            name: "the four wiki forms", body: "[[A]] [[B|shown]] [[C#Part]] [[D#Part|shown]]\n",
            links: [
                ExpectedLink("[[A]]", "A"), ExpectedLink("[[B|shown]]", "B"),
                ExpectedLink("[[C#Part]]", "C", heading: "Part"),
                ExpectedLink("[[D#Part|shown]]", "D", heading: "Part"),
            ]),
        LinkCase(
            name: "blanks around the target are not part of it", body: "[[  My note  | x ]]\n",
            links: [ExpectedLink("[[  My note  | x ]]", "My note")]),
        LinkCase(
            name: "a path and an extension", body: "[[work/standup]] [[idea.md]]\n",
            links: [ExpectedLink("[[work/standup]]", "work/standup"), ExpectedLink("[[idea.md]]", "idea.md")]),
        LinkCase(
            name: "an alias escaped in a table", body: "| [[Target\\|text]] |\n",
            links: [ExpectedLink("[[Target\\|text]]", "Target")]),
        LinkCase(
            name: "an embed is a link", body: "![[Other note]]\n",
            links: [ExpectedLink("![[Other note]]", "Other note")]),
        LinkCase(
            name: "attachments are not notes",
            body: "![[photo.png]] [[paper.PDF]] [[board.canvas]] [[v1.2 notes]]\n",
            links: [ExpectedLink("[[v1.2 notes]]", "v1.2 notes")]),
        LinkCase(
            name: "a heading in the same note is no link to another", body: "[[#Part]] [[ |x]]\n", links: []),
        LinkCase(
            name: "one line each, line numbers counted", body: "a\n[[A\nB]]\n\n[[C]]\n",
            links: [ExpectedLink("[[C]]", "C", line: 5)]),
        LinkCase(
            name: "the inner of nested openings", body: "[[a [[b]] c]]\n", links: [ExpectedLink("[[b]]", "b")]
        ),
        LinkCase(
            name: "escaped brackets are not links", body: "\\[[no]] \\[x](no.md) [[yes]]\n",
            links: [ExpectedLink("[[yes]]", "yes")]),
        LinkCase(
            name: "not in inline code or fences",
            body: "`[[no]]` [x](`no.md`)\n```\n[[no]]\n[y](no.md)\n```\n[[yes]]\n",
            links: [ExpectedLink("[[yes]]", "yes", line: 6)]),
        LinkCase(
            name: "code inside a wiki link is part of it; code across its brackets is not",
            body: "[[Note#`code`|x]] [[a `b]] c`\n",
            links: [ExpectedLink("[[Note#`code`|x]]", "Note", heading: "`code`")]),
        LinkCase(
            name: "a fence in a block quote", body: "> ```\n> [[no]]\n> ```\n> [[yes]]\n",
            links: [ExpectedLink("[[yes]]", "yes", line: 4)]),
        LinkCase(
            name: "relative Markdown links to notes",
            body: "[a](b.md) [c](../d/e.markdown) [f](./g.md#Top)\n",
            links: [
                ExpectedLink("[a](b.md)", "b.md"), ExpectedLink("[c](../d/e.markdown)", "../d/e.markdown"),
                ExpectedLink("[f](./g.md#Top)", "./g.md", heading: "Top"),
            ]),
        LinkCase(
            name: "percent-encoding, <…> and a title",
            body: "[a](My%20Note.md#Big%20Part) [b](<Other note.md>) [c](x.md \"T\")\n",
            links: [
                ExpectedLink("[a](My%20Note.md#Big%20Part)", "My%20Note.md", heading: "Big Part"),
                ExpectedLink("[b](<Other note.md>)", "Other note.md"),
                ExpectedLink("[c](x.md \"T\")", "x.md"),
            ]),
        LinkCase(
            name: "URLs, other schemes, anchors and other files are not links",
            body:
                "[a](https://x.org/n.md) [b](mailto:x@y.md) [c](#part) [d](//host/n.md) [e](photo.png) [f](notes.txt)\n",
            links: []),
        LinkCase(
            name: "a path from the vault's top is a link (Obsidian's absolute path in vault)",
            body: "[d](/etc/n.md) [e](/)\n", links: [ExpectedLink("[d](/etc/n.md)", "/etc/n.md")]),
        LinkCase(name: "images are not links, even to .md", body: "![alt](n.md) ![[pic.jpg]]\n", links: []),
        LinkCase(
            name: "brackets nest in the text; an image inside a link",
            body: "[a [b] c](n.md) [![i](p.png)](m.md)\n",
            links: [
                ExpectedLink("[a [b] c](n.md)", "n.md"), ExpectedLink("[![i](p.png)](m.md)", "m.md"),
            ]),
        LinkCase(
            name: "parentheses in a destination", body: "[a](notes (old).md)\n[b](x(1).md)\n",
            links: [ExpectedLink("[b](x(1).md)", "x(1).md", line: 2)]),
        LinkCase(
            name: "a link's text may hold a wiki link only when it is not a link to a note",
            body: "[see [[A]]](https://x.org)\n", links: [ExpectedLink("[[A]]", "A")]),
        LinkCase(
            name: "CJK targets", body: "[[東京 メモ]] [メモ](東京-メモ.md)\n",
            links: [
                ExpectedLink("[[東京 メモ]]", "東京 メモ"), ExpectedLink("[メモ](東京-メモ.md)", "東京-メモ.md"),
            ]),
        LinkCase(
            name: "each occurrence is one link", body: "[[A]] [[A]]\n",
            links: [ExpectedLink("[[A]]", "A"), ExpectedLink("[[A]]", "A")]),
    ]

    @Test(arguments: cases)
    func linksAreExactly(_ c: LinkCase) {
        #expect(NoteLinks.of(body: c.body).map(ExpectedLink.init) == c.links)
    }

    @Test func lineNumbersCountTheFrontMatter() {
        let document = NoteDocument(parsing: "---\ncreatedAt: 2026-01-01\ntags: [a]\n---\n# T\n\n[[X]]\n")
        #expect(NoteLinks.of(document).map(\.line) == [7])
        #expect(NoteLinks.of(NoteDocument(parsing: "[[X]]\n")).map(\.line) == [1])
    }

    @Test func targetRangesPointAtTheTargetOnly() {
        let body = "x [[ Note#H|alias ]] [t](<a b.md#h>) [u](c%20d.md)\n"
        let bytes = Array(body.utf8)
        let targets = NoteLinks.of(body: body).map { String(decoding: bytes[$0.targetRange], as: UTF8.self) }
        #expect(targets == ["Note", "a b.md", "c%20d.md"])
    }
}
