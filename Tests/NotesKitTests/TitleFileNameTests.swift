import NotesKit
import Testing

/// File names that keep the title as written (`fileNames: title`).
@Suite struct TitleFileNameTests {
    @Test(arguments: ["/", "\\", ":", "*", "?", "\"", "<", ">", "|", "#", "^", "[", "]"])
    func aCharacterThatCannotBeInANameBecomesADash(character: String) {
        #expect(TitleFileName.make("a" + character + "b") == "a-b")
    }

    @Test(arguments: [
        ("tab", "\t"), ("line feed", "\n"), ("bell", "\u{7}"), ("escape", "\u{1B}"), ("delete", "\u{7F}"),
        ("C1 next line", "\u{85}"), ("C1 CSI", "\u{9B}"),
    ])
    func aControlCharacterBecomesADash(name: String, character: String) {
        #expect(TitleFileName.make("a" + character + "b") == "a-b", "\(name)")
    }

    @Test(arguments: [
        ("kept as written", "Project Plan", "Project Plan"),
        ("case, accents and other scripts kept", "Crème Brûlée à Łódź データ", "Crème Brûlée à Łódź データ"),
        ("each character replaced, runs not merged", "a//b", "a--b"),
        ("a path is not folders", "work/standup notes", "work-standup notes"),
        ("a heading link mark", "C# and F#", "C- and F-"),
        ("a wiki link", "[[Other]] note", "--Other-- note"),
        ("other punctuation kept", "Don't stop, (really) & co.!", "Don't stop, (really) & co.!"),
        ("a hidden name loses its dot", ".hidden", "hidden"),
        ("several leading dots", "...dots", "dots"),
        ("a leading dot and a space", ". spaced", "spaced"),
        ("a dot inside kept", "v1.2 release", "v1.2 release"),
        ("trailing dots dropped", "The end...", "The end"),
        ("trailing dots and spaces dropped", "Plan . . ", "Plan"),
        ("a trailing ideographic space dropped", "東京\u{3000}", "東京"),
        ("an extension in the title kept", "notes.md", "notes.md"),
        ("nothing left: empty", "...", ""),
        ("empty stays empty", "", ""),
        ("only spaces and dots: empty", " . . ", ""),
    ])
    func names(label: String, title: String, expected: String) {
        #expect(TitleFileName.make(title) == expected, "\(label)")
    }

    @Test func aLongTitleIsCutTo200BytesAtACharacterBoundary() {
        // Three bytes each: 66 of them fit.
        #expect(TitleFileName.make(String(repeating: "あ", count: 100)) == String(repeating: "あ", count: 66))
        // An accent is never cut from its letter: `e` and U+0301 are 3 bytes, one character.
        let accented = String(repeating: "e\u{301}", count: 100)
        let cut = TitleFileName.make(accented)
        #expect(cut.utf8.count == 198)
        #expect(cut == String(repeating: "e\u{301}", count: 66))
        // A family emoji is 18 bytes in one character: 11 fit in 198 bytes, a 12th would not.
        let family = "👨‍👩‍👧"
        #expect(family.utf8.count == 18)
        #expect(
            TitleFileName.make(String(repeating: family, count: 20)) == String(repeating: family, count: 11))
        // ASCII: exactly 200 bytes.
        #expect(TitleFileName.make(String(repeating: "x", count: 300)) == String(repeating: "x", count: 200))
    }

    @Test func aCutThatLeavesASpaceOrDotAtTheEndDropsIt() {
        let title = String(repeating: "a", count: 198) + " .b"
        #expect(TitleFileName.make(title) == String(repeating: "a", count: 198))
    }

    @Test func aHugeTitleIsReadOnlyAsFarAsTheNameNeeds() {
        let title = String(repeating: "word ", count: 200_000)
        let name = TitleFileName.make(title)
        #expect(name.utf8.count <= TitleFileName.maxBytes)
        #expect(name.hasPrefix("word word"))
        #expect(!name.hasSuffix(" "))
    }
}
