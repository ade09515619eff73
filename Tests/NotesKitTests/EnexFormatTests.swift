import Foundation
import Testing

@testable import NotesKit

/// The fixture folders of the import formats, and a scratch folder for broken sources.
enum ImportFixtures {
    static let root =
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path + "/fixtures/import"

    static func bytes(_ path: String) -> [UInt8] {
        (FileManager.default.contents(atPath: root + "/" + path)).map { [UInt8]($0) } ?? []
    }

    /// Writes `text` to a new file in a temporary folder, and returns its path.
    static func scratch(_ name: String, _ bytes: [UInt8]) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func scratch(_ name: String, _ text: String) throws -> String {
        try scratch(name, Array(text.utf8))
    }

    static func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
    }
}

@Suite struct EnexFormatTests {
    static let file = ImportFixtures.root + "/enex/export.enex"

    @Test func fixtureReadsToExactlyTheseEntries() throws {
        let entries = try EnexFormat.read([Self.file])
        let expected = [
            ImportEntry(
                sourceID: "20250310T101500Z-2e44b072eb9b", title: "Meeting notes",
                body: """
                    # Weekly sync

                    Present: Ada, Grace
                    Room **4.2**, *as usual*.

                    We agreed on ***three*** things and a [plan](https://example.com/plan); see <https://example.com>.
                    A second line of the same paragraph.

                    ## Actions

                    - Ship **1.2**
                      - write notes
                      - tag the release
                    - Review the budget

                    1. First
                    2. Second

                    - [x] Book the room
                    - [ ] Send the minutes
                    - [ ] Order coffee

                    The whiteboard:
                    ![](_resources/whiteboard.png)
                    Agenda: [Agenda (draft).pdf](<_resources/Agenda (draft).pdf>)
                    """,
                createdAt: Date(timeIntervalSince1970: 1_741_601_700),
                updatedAt: Date(timeIntervalSince1970: 1_741_711_502), tags: ["work", "meetings"],
                attachments: [
                    ImportAttachment(
                        path: "_resources/whiteboard.png",
                        bytes: ImportFixtures.bytes("enex/resources/whiteboard.png")),
                    ImportAttachment(
                        path: "_resources/Agenda (draft).pdf",
                        bytes: ImportFixtures.bytes("enex/resources/agenda.pdf")),
                ]),
            ImportEntry(
                sourceID: "20241231T235959Z-e550e1ab5f86", title: "Café & crème — entities",
                body: """
                    Café crème — naïve résumé …
                    “Quotes” and ‘single’ «guillemets»
                    © 2025 ® ™ €5 £3 ¥1 §2 ¶ °C ±1 × ÷ ½
                    αβγ Ω π ∑ ∞ ≠ ≤ ≥ → ← ♥
                    XML's own: & \\<tag\\> "q" 'a'; numeric: ’ ☃ ©
                    two  spaces
                    Straße, Ångström, Ñandú, œuvre, þorn
                    """,
                createdAt: Date(timeIntervalSince1970: 1_735_689_599),
                updatedAt: Date(timeIntervalSince1970: 1_735_689_601), tags: ["français"]),
            ImportEntry(
                sourceID: "20250301T090000Z-962df8c53227", title: "Code, tables and more",
                body: """
                    Inline `let x = 1` code.

                    ```
                    func greet() {
                        print("hi & bye")
                    }
                    ```

                    ```
                    swift build
                    swift test --filter Enex
                    ```

                    ---

                    | Name | Qty |
                    | --- | --- |
                    | Apples | 3 |
                    | Pipes \\| bars | **2** |

                    > Quoted line one
                    > Quoted line two

                    ### Checklist

                    - [x] Done item
                    - [ ] Open item

                    Red text and blue and unknown element text.
                    ~~struck~~ and **strong** and *em* and **spaced bold** end.
                    """,
                createdAt: Date(timeIntervalSince1970: 1_740_819_600)),
            ImportEntry(
                sourceID: "20250302T120000Z-076257c33b0d", title: nil, body: "",
                createdAt: Date(timeIntervalSince1970: 1_740_916_800)),
            ImportEntry(
                sourceID: "20250303T070809Z-028c88c85b0d", title: "Two clipboard images",
                body: """
                    Red: ![](_resources/image.png)
                    Blue: ![](<_resources/image 2.png>)

                    ![](_resources/8e6dfb1a2a28996dc8a33409fb8fc772.png)
                    """,
                createdAt: Date(timeIntervalSince1970: 1_740_985_689),
                updatedAt: Date(timeIntervalSince1970: 1_740_985_689), tags: ["work"],
                attachments: [
                    ImportAttachment(
                        path: "_resources/image.png", bytes: ImportFixtures.bytes("enex/resources/red.png")),
                    ImportAttachment(
                        path: "_resources/image 2.png", bytes: ImportFixtures.bytes("enex/resources/blue.png")
                    ),
                    ImportAttachment(
                        path: "_resources/8e6dfb1a2a28996dc8a33409fb8fc772.png",
                        bytes: ImportFixtures.bytes("enex/resources/nameless.png")),
                ]),
        ]
        #expect(entries.count == expected.count)
        for (entry, want) in zip(entries, expected) { #expect(entry == want) }
    }

    /// Each resource's `en-media` hash is the MD5 of its decoded bytes.
    @Test func resourceHashesAreTheMD5OfTheirBytes() throws {
        #expect(
            MD5.hex(ImportFixtures.bytes("enex/resources/whiteboard.png"))
                == "7b8a70c6721ea1568c92b444599441ee")
        #expect(
            MD5.hex(ImportFixtures.bytes("enex/resources/agenda.pdf")) == "c8d386435713dface4d3cbef5698fd76")
    }

    /// The id: `created`, and the first 12 digits of the MD5 of the title, a line feed and the
    /// content as written; Python's hashlib gave these for the fixture's notes.
    @Test func idsAreCreatedAndAShortMD5() throws {
        let ids = try EnexFormat.read([Self.file]).map(\.sourceID)
        #expect(ids.first == "20250310T101500Z-2e44b072eb9b")
        #expect(Set(ids).count == ids.count)
    }

    @Test(arguments: [
        ("20250310T101500Z", 1_741_601_700.0),
        ("19700101T000000Z", 0.0),
        ("20240229T235959Z", 1_709_251_199.0),
        ("20001231T120000Z", 978_264_000.0),
    ])
    func datesAreUTC(text: String, seconds: Double) throws {
        #expect(
            try EnexFormat.date(text, field: "created", file: "f", place: "entry 1")
                == Date(timeIntervalSince1970: seconds))
    }

    @Test(arguments: ["2025-03-10T10:15:00Z", "20250310T101500", "20251310T101500Z", "20250230T101500Z", "x"])
    func badDatesFail(text: String) {
        #expect(throws: ImportSourceError.self) {
            try EnexFormat.date(text, field: "created", file: "f", place: "entry 1")
        }
    }

    // MARK: Bad sources

    private func readError(_ text: String) throws -> ImportSourceError? {
        let path = try ImportFixtures.scratch("bad.enex", text)
        defer { ImportFixtures.remove(path) }
        do {
            _ = try EnexFormat.read([path])
            return nil
        } catch {
            #expect(error.file == path)
            return error
        }
    }

    private func note(_ enml: String, resources: String = "") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE en-export SYSTEM "http://xml.evernote.com/pub/evernote-export3.dtd">
        <en-export><note><title>T</title><created>20250310T101500Z</created>
        <content><![CDATA[<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE en-note SYSTEM "http://xml.evernote.com/pub/enml2.dtd">
        <en-note>\(enml)</en-note>]]></content>\(resources)</note></en-export>
        """
    }

    /// The fixture cut in the middle of an element fails, naming the line and column.
    @Test func exportCutMidElementFails() throws {
        let whole = String(decoding: ImportFixtures.bytes("enex/export.enex"), as: UTF8.self)
        let title = try #require(whole.range(of: "<title>Code, tables"))
        let cut = String(whole[..<title.upperBound])
        let error = try #require(try readError(cut))
        #expect(error.place.hasPrefix("line "))
        #expect(error.place.contains(", column "))
        #expect(error.reason == "the text ends inside an element: the file is cut short")
    }

    @Test func outerErrorsNameTheLineAndColumnOfTheFile() throws {
        let error = try #require(try readError("<en-export>\n  <note><title>a</titel></note>\n</en-export>"))
        #expect(error.place == "line 2, column 25")
        #expect(error.reason == "an end tag there does not match the element it closes")
    }

    /// A replaced entity before the error on its line does not move the column reported.
    @Test func columnsCountTheEntitiesAsWritten() throws {
        let error = try #require(
            try readError("<en-export>\n<note><title>&eacute;&mdash;</titel></note>\n</en-export>"))
        #expect(error.place == "line 2, column 37")
    }

    @Test func contentErrorsNameTheEntryAndThePlaceInTheContent() throws {
        let error = try #require(try readError(note("<div>a</span>")))
        #expect(error.place.hasPrefix("entry 1, content line 2, column "))
        #expect(error.reason == "an end tag there does not match the element it closes")
    }

    /// An entity neither XML nor XHTML declares fails the import: the parser would drop it silently.
    @Test func unknownEntityFails() throws {
        let error = try #require(try readError(note("<div>a &bogus; b</div>")))
        #expect(error.place.hasPrefix("entry 1, content line 2"))
        #expect(error.reason == "an entity there is neither XML's nor HTML's")
    }

    @Test func badBase64Fails() throws {
        let resource =
            "<resource><data encoding=\"base64\">iVBOR*w0KGgo=</data><mime>image/png</mime></resource>"
        let error = try #require(try readError(note("<div/>", resources: resource)))
        #expect(error.place == "entry 1, resource 1")
        #expect(error.reason == "its data is not valid base64")
    }

    /// Real exports show resources they do not hold: the note comes without them, with a
    /// warning naming the entry and the hash, and the other notes as ever.
    @Test func mediaWithoutItsResourceIsAWarningAndTheNoteComesWithoutIt() throws {
        let enml =
            "<div>Photo: <en-media hash=\"00112233445566778899aabbccddeeff\" type=\"image/png\"/></div>"
        let path = try ImportFixtures.scratch("one.enex", note(enml))
        defer { ImportFixtures.remove(path) }
        let entries = try EnexFormat.read([path])
        #expect(entries.map(\.body) == ["Photo:"])
        #expect(
            entries.map(\.warnings) == [
                [
                    "'\(path)': entry 1 shows the resource with hash 00112233445566778899aabbccddeeff, "
                        + "which the file does not hold; the note is imported without it"
                ]
            ])
    }

    @Test func notAnExportFails() throws {
        let error = try #require(try readError("<html><body/></html>"))
        #expect(error.reason == "it is not an Evernote export: its root is not 'en-export'")
    }

    @Test func missingFileFails() {
        #expect(throws: ImportSourceError.self) { try EnexFormat.read(["/nonexistent/export.enex"]) }
    }

    // MARK: ENML

    private func markdown(_ enml: String) throws -> String {
        let path = try ImportFixtures.scratch("one.enex", note(enml))
        defer { ImportFixtures.remove(path) }
        return try EnexFormat.read([path]).first?.body ?? ""
    }

    @Test(arguments: [
        ("<div>one</div><div>two</div>", "one\ntwo"),
        ("<p>one</p><p>two</p>", "one\n\ntwo"),
        ("<div>a</div><div><br/></div><div><br/></div><div>b</div>", "a\n\nb"),
        ("<div>a<br/>b<br/></div>", "a\nb"),
        ("<ol start=\"3\"><li>c</li><li>d</li></ol>", "3. c\n4. d"),
        ("<ul><li>a</li><ul><li>b</li></ul></ul>", "- a\n  - b"),
        ("<ul><li><en-todo checked=\"true\"/>done</li></ul>", "- [x] done"),
        ("<div>see <a href=\"https://x.org/a b\">this</a></div>", "see [this](<https://x.org/a b>)"),
        ("<div><b>a<br/>b</b></div>", "**a**\n**b**"),
        ("<h4>  Four  </h4>", "#### Four"),
        ("<pre>a ``` b</pre>", "````\na ``` b\n````"),
        (
            "<table><tr><td>only</td></tr><tr><td>x</td><td>y</td></tr></table>",
            "| only |  |\n| --- | --- |\n| x | y |"
        ),
        ("<div>x</div><hr/><div>y</div>", "x\n\n---\n\ny"),
        ("<div>a&nbsp;&nbsp;b &amp;amp;</div>", "a  b \\&amp;"),
    ])
    func enmlToMarkdown(enml: String, expected: String) throws {
        #expect(try markdown(enml) == expected)
    }

    /// Text shows as Evernote shows it: what Markdown would read as markup is escaped, and only that.
    @Test(arguments: [
        ("<div># looks like heading</div>", "\\# looks like heading"),
        ("<div>## two</div><div>#tag stays a tag</div>", "\\## two\n#tag stays a tag"),
        ("<div>- looks like item</div><div>+ plus</div>", "\\- looks like item\n\\+ plus"),
        ("<div>&gt; not a quote</div>", "\\> not a quote"),
        ("<div>&lt;script&gt;alert(1)&lt;/script&gt;</div>", "\\<script\\>alert(1)\\</script\\>"),
        ("<div>a [[wiki]] b</div>", "a \\[\\[wiki\\]\\] b"),
        ("<div>*not em* and _not em_ but snake_case</div>", "\\*not em\\* and \\_not em\\_ but snake_case"),
        ("<div>1. x</div><div>2) y</div><div>10 items. 3.5</div>", "1\\. x\n2\\) y\n10 items. 3.5"),
        ("<div>Title</div><div>===</div>", "Title\n\\==="),
        ("<div>a `tick` ~~s~~ C:\\dir</div>", "a \\`tick\\` \\~\\~s\\~\\~ C:\\\\dir"),
        ("<div>Wow! Done.</div>", "Wow! Done."),
        ("<div><b># bold</b> <i>1. it</i></div>", "**# bold** *1. it*"),
        ("<div><a href=\"https://x.org/a_b\">https://x.org/a_b</a></div>", "<https://x.org/a_b>"),
        ("<div>x <a href=\"https://x.org\">[1]</a></div>", "x [\\[1\\]](https://x.org)"),
        ("<ul><li># in item</li></ul><blockquote>- in quote</blockquote>", "- \\# in item\n\n> \\- in quote"),
        ("<div>see <code>a*b_[c]</code></div>", "see `a*b_[c]`"),
        ("<div><code>a `` b</code> <code>`x</code></div>", "```a `` b``` `` `x ``"),
        ("<pre># not escaped *here*</pre>", "```\n# not escaped *here*\n```"),
        ("<table><tr><td>a|b\\</td></tr></table>", "| a\\|b\\\\ |\n| --- |"),
    ])
    func textIsEscaped(enml: String, expected: String) throws {
        #expect(try markdown(enml) == expected)
    }

    /// A checkbox line, then a text line: a blank line between, or the text would be more of the item.
    @Test(arguments: [
        (
            "<div><en-todo/>Order coffee</div><div>The whiteboard:</div>",
            "- [ ] Order coffee\n\nThe whiteboard:"
        ),
        ("<div><en-todo/>a</div><div><en-todo checked=\"true\"/>b</div>", "- [ ] a\n- [x] b"),
        ("<div><en-todo/>a<br/>more</div>", "- [ ] a\n\nmore"),
        ("<ul><li>a</li></ul><div>after</div>", "- a\n\nafter"),
        ("<div>before</div><div><en-todo/>a</div>", "before\n- [ ] a"),
    ])
    func textAfterAListIsItsOwnParagraph(enml: String, expected: String) throws {
        #expect(try markdown(enml) == expected)
    }
}
