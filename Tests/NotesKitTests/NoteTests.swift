import NotesKit
import TestSupport
import Testing

/// A note file and the title and preview it must have.
struct TitleCase: CustomTestStringConvertible, Sendable {
    var name: String
    var text: String
    var title: String
    var preview: String
    var fromFrontMatter = false

    var testDescription: String { name }
}

@Suite struct NoteTests {
    static let titleCases: [TitleCase] = [
        TitleCase(
            name: "front-matter title wins over the body",
            text: "---\ntitle: My Title\n---\n# Heading\nText\n",
            title: "My Title", preview: "Heading", fromFrontMatter: true),
        TitleCase(
            name: "front-matter title is trimmed",
            text: "---\ntitle: \"  Spaced  \"\n---\nbody\n", title: "Spaced", preview: "body",
            fromFrontMatter: true),
        TitleCase(
            name: "quoted front-matter title is unescaped",
            text: "---\ntitle: 'It''s \"here\"'\n---\n", title: "It's \"here\"", preview: "",
            fromFrontMatter: true),
        TitleCase(
            name: "an empty front-matter title falls back to the body",
            text: "---\ntitle: \"\"\n---\n# From body\nnext\n", title: "From body", preview: "next"),
        TitleCase(
            name: "a list title falls back to the body",
            text: "---\ntitle: [a, b]\n---\nPlain\n", title: "Plain", preview: ""),
        TitleCase(
            name: "ATX heading level 1",
            text: "# Shopping list\n\n- milk\n", title: "Shopping list", preview: "- milk"),
        TitleCase(name: "ATX heading level 6", text: "###### Deep\n", title: "Deep", preview: ""),
        TitleCase(
            name: "seven hashes are not a heading", text: "####### Seven\n", title: "####### Seven",
            preview: ""),
        TitleCase(name: "closing hashes are dropped", text: "## Title ##\n", title: "Title", preview: ""),
        TitleCase(
            name: "closing hashes and trailing blanks are dropped", text: "# Title ###   \nx\n",
            title: "Title", preview: "x"),
        TitleCase(name: "a hash glued to the text is kept", text: "# C#\n", title: "C#", preview: ""),
        TitleCase(
            name: "a hash inside the text is kept", text: "# Issue #42 fixed\n", title: "Issue #42 fixed",
            preview: ""),
        TitleCase(
            name: "#hashtag is not a heading", text: "#hashtag and more\nsecond\n",
            title: "#hashtag and more", preview: "second"),
        TitleCase(name: "a tab after the marks", text: "#\tTabbed\n", title: "Tabbed", preview: ""),
        TitleCase(name: "indented heading", text: "  ## Indented\n", title: "Indented", preview: ""),
        TitleCase(
            name: "blank lines before the first line are skipped",
            text: "\n\n   \n\t\nFirst line\n\nSecond\n", title: "First line", preview: "Second"),
        TitleCase(
            name: "a plain first line is trimmed", text: "  plain text  \nmore\n", title: "plain text",
            preview: "more"),
        TitleCase(
            name: "other Markdown is kept as typed", text: "# **Bold** and `code` [link](x)\n",
            title: "**Bold** and `code` [link](x)", preview: ""),
        TitleCase(name: "empty body is Untitled", text: "", title: "Untitled", preview: ""),
        TitleCase(name: "white space only is Untitled", text: "\n \n\t\n", title: "Untitled", preview: ""),
        TitleCase(
            name: "front matter only is Untitled", text: "---\ncreatedAt: 2026-11-29T12:38:16Z\n---\n",
            title: "Untitled", preview: ""),
        TitleCase(
            name: "front-matter keys other than title do not make a title",
            text: "---\nname: Not a title\n---\nBody title\n", title: "Body title", preview: ""),
        TitleCase(
            name: "CRLF lines", text: "# Title\r\n\r\nNext line  \r\n", title: "Title",
            preview: "Next line"),
        TitleCase(
            name: "preview strips heading marks", text: "Intro\n\n## Section ##\ntext\n", title: "Intro",
            preview: "Section"),
        TitleCase(
            name: "preview is the first non-empty line after the title line",
            text: "# T\n\n   \n  indented text  \nlast\n", title: "T", preview: "indented text"),
        TitleCase(
            name: "preview keeps a #hashtag", text: "# T\n#tag line\n", title: "T", preview: "#tag line"),
        TitleCase(
            name: "unclosed front matter is body", text: "---\ntitle: T\n", title: "---",
            preview: "title: T"),
    ]

    @Test(arguments: titleCases)
    func titleAndPreview(_ c: TitleCase) {
        let note = Note(path: "n.md", document: NoteDocument(parsing: c.text), mtime: 0)
        #expect(note.title == c.title)
        #expect(note.preview == c.preview)
        #expect(note.titleIsOutsideBody == c.fromFrontMatter)
    }

    @Test(arguments: [
        ("shopping-list.md", "shopping-list"),
        ("work/standup.md", "work/standup"),
        ("a/b/c/deep.md", "a/b/c/deep"),
        ("old.markdown", "old.markdown"),
        ("work/old.markdown", "work/old.markdown"),
        ("notes.md.md", "notes.md"),
        ("v1.2.md", "v1.2"),
        ("データ.md", "データ"),
    ])
    func idFromPath(_ path: String, _ id: String) {
        #expect(Note.id(forPath: path) == id)
        let note = Note(path: path, document: NoteDocument(parsing: "x\n"), mtime: 0)
        #expect(note.id == id)
        #expect(note.path == path)
    }

    @Test func creationDateFallsBackToModificationTime() {
        let dated = makeNote("a", "---\ncreatedAt: 2026-11-29T12:38:16Z\n---\n", mtime: 5)
        #expect(dated.createdAt == 1_795_955_896)
        #expect(dated.updatedAt == nil)
        #expect(dated.modifiedAt == 1_795_955_896)

        let undated = makeNote("b", "---\ncreatedAt: nope\n---\n", mtime: 5)
        #expect(undated.createdAt == 5)

        let updated = makeNote(
            "c", "---\ncreatedAt: 2026-11-29T12:38:16Z\nupdatedAt: 2026-11-30T00:00:00Z\n---\n", mtime: 5)
        #expect(updated.updatedAt == 1_795_996_800)
        #expect(updated.modifiedAt == updated.updatedAt)
    }

    @Test func searchableTextIsTheFrontMatterTitleAndTheBody() throws {
        try Sandbox(tree: [
            .file("a.md", "---\ntitle: Hidden\ntags: [x]\n---\nBody\n"),
            .file("b.md", "---\ntags: [x]\n---\n# Head\nBody\n"),
        ]).test { root in
            let vault = try Vault(root: root)
            #expect(try vault.load(path: "a.md").searchableText == "Hidden\nBody\n")
            #expect(try vault.load(path: "b.md").searchableText == "# Head\nBody\n")
        }
    }

    @Test(arguments: [
        ("a\nb\nc", ["a", "b", "c"]),
        ("a\r\nb\r\nc", ["a", "b", "c"]),
        ("a\n\n\r\nb", ["a", "", "", "b"]),
        ("a\rb", ["a\rb"]),
        ("a\r\r\nb", ["a\r", "b"]),
        ("e\u{301}\nx", ["e\u{301}", "x"]),
    ])
    func linesSplitOnLFOnly(_ text: String, _ lines: [String]) {
        #expect(Note.lines(of: text).map(String.init) == lines)
    }
}
