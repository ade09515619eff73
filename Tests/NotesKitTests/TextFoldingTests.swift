import NotesKit
import Testing

/// One named input and its folded form. Every expected value here was cross-checked against
/// the `fold` of `shared/bench/ref-search.py`, the reference implementation of SPEC §5.
struct FoldCase: CustomTestStringConvertible, Sendable {
    var name: String
    var input: String
    var folded: String

    init(_ name: String, _ input: String, _ folded: String) {
        self.name = name
        self.input = input
        self.folded = folded
    }

    var testDescription: String { name }
}

@Suite struct TextFoldingTests {
    static let cases: [FoldCase] = [
        // The letter table of SPEC §5, lower and upper case.
        FoldCase("ø", "ø", "o"), FoldCase("Ø", "Ø", "o"),
        FoldCase("ł", "ł", "l"), FoldCase("Ł", "Ł", "l"),
        FoldCase("đ", "đ", "d"), FoldCase("Đ", "Đ", "d"),
        FoldCase("ð", "ð", "d"), FoldCase("Ð", "Ð", "d"),
        FoldCase("ħ", "ħ", "h"), FoldCase("Ħ", "Ħ", "h"),
        FoldCase("dotless ı", "ı", "i"), FoldCase("I (upper case of ı)", "I", "i"),
        FoldCase("ŧ", "ŧ", "t"), FoldCase("Ŧ", "Ŧ", "t"),
        FoldCase("æ", "æ", "ae"), FoldCase("Æ", "Æ", "ae"),
        FoldCase("œ", "œ", "oe"), FoldCase("Œ", "Œ", "oe"),
        FoldCase("þ", "þ", "th"), FoldCase("Þ", "Þ", "th"),
        FoldCase("letters in words", "Ærøskøbing Þórður Đorđe Ħamrun", "aeroskobing thordur dorde hamrun"),
        // Turkish.
        FoldCase("Turkish dotted capital İ", "İstanbul", "istanbul"),
        FoldCase("Turkish dotless ı in a word", "ıspanak", "ispanak"),
        // German.
        FoldCase("ß → ss", "Straße", "strasse"),
        FoldCase("capital ẞ → ss", "STRAẞE", "strasse"),
        // Compatibility forms.
        FoldCase("ligature ﬁ", "ﬁle", "file"),
        FoldCase("ligature ﬂ", "ﬂow", "flow"),
        FoldCase("ligature ﬀ", "ﬀ", "ff"),
        FoldCase("full-width letters", "ｆｕｌｌ", "full"),
        FoldCase("full-width capitals and digits", "ＡＢＣ１２３", "abc123"),
        FoldCase("superscript two", "x²", "x2"),
        FoldCase("circled digit", "①", "1"),
        FoldCase("roman numeral", "Ⅻ", "xii"),
        FoldCase("Kelvin sign", "\u{212A}", "k"),
        FoldCase("Ohm sign", "\u{2126}", "ω"),
        FoldCase("Angstrom sign", "\u{212B}", "a"),
        FoldCase("title-case digraph ǅ", "ǅ", "dz"),
        FoldCase("ŉ", "ŉ", "\u{2BC}n"),
        // Combining marks.
        FoldCase("e + U+0301", "e\u{301}", "e"),
        FoldCase("precomposed é", "\u{E9}", "e"),
        FoldCase("stacked marks", "a\u{301}\u{308}\u{323}", "a"),
        FoldCase("French phrase", "Crème Brûlée", "creme brulee"),
        FoldCase("Polish city", "Łódź", "lodz"),
        // Greek.
        FoldCase("final sigma ς → σ", "ς", "σ"),
        FoldCase("capital sigma", "Σ", "σ"),
        FoldCase("Greek word with final sigma", "ΣΊΣΥΦΟΣ", "σισυφοσ"),
        FoldCase("Greek tonos", "ά", "α"),
        FoldCase("Greek breathing and perispomeni", "Ἀθῆναι", "αθηναι"),
        FoldCase("Greek dialytika and tonos", "ΐ", "ι"),
        // Cyrillic.
        FoldCase("Cyrillic ё → е", "ёлка", "елка"),
        FoldCase("Cyrillic Ё upper case", "Ёж", "еж"),
        FoldCase("Cyrillic й loses its breve", "Й", "и"),
        // Scripts left alone.
        FoldCase("CJK unchanged", "東京", "東京"),
        FoldCase("katakana voicing mark is a non-spacing mark", "データ", "テータ"),
        FoldCase("emoji unchanged", "😀", "😀"),
        FoldCase("emoji with skin tone unchanged", "👍🏽", "👍🏽"),
        FoldCase("emoji variation selector removed", "❤\u{FE0F}", "❤"),
        // Right-to-left and Thai: vowel points and tone marks (Mn) go, letters stay.
        FoldCase("Hebrew niqqud removed", "שָׁלוֹם", "שלום"),
        FoldCase("Arabic harakat removed", "مَرْحَبًا", "مرحبا"),
        FoldCase("Arabic presentation form lam-alef", "\u{FEFB}", "لا"),
        FoldCase("Thai marks removed", "สวัสดี", "สวสด"),
        // Cherokee folds to its upper-case letters.
        FoldCase("Cherokee small letter", "\u{AB70}", "\u{13A0}"),
        FoldCase("Cherokee capital letter", "\u{13A0}", "\u{13A0}"),
        // ASCII.
        FoldCase("ASCII lower-cased", "HeLLo, World! 123", "hello, world! 123"),
        FoldCase("empty", "", ""),
    ]

    @Test(arguments: cases)
    func folds(_ c: FoldCase) {
        let folded = TextFolding.fold(c.input)
        #expect(folded == c.folded)
        // Compare scalars too: String == is canonical equivalence, which would hide a leftover mark.
        #expect(Array(folded.unicodeScalars) == Array(c.folded.unicodeScalars))
    }

    @Test(arguments: cases)
    func foldIsIdempotent(_ c: FoldCase) {
        let once = TextFolding.fold(c.input)
        #expect(Array(TextFolding.fold(once).unicodeScalars) == Array(once.unicodeScalars))
    }

    @Test(arguments: [
        ("café", "cafe\u{301}"),
        ("Crème Brûlée", "Cre\u{300}me Bru\u{302}le\u{301}e"),
        ("Åström", "A\u{30A}stro\u{308}m"),
        ("ǖ", "u\u{308}\u{304}"),
        ("Ếch", "E\u{302}\u{301}ch"),
        ("한국어", "\u{1112}\u{1161}\u{11AB}\u{1100}\u{116E}\u{11A8}\u{110B}\u{1165}"),
    ])
    func nfcAndNfdFoldTheSame(_ composed: String, _ decomposed: String) {
        #expect(Array(composed.unicodeScalars) != Array(decomposed.unicodeScalars))
        #expect(Array(TextFolding.fold(composed).utf8) == Array(TextFolding.fold(decomposed).utf8))
    }

    @Test func aReusedFolderGivesTheSameAnswers() {
        var folder = TextFolder()
        let inputs = ["Crème", "ẞ", "ｆｕｌｌ", "Crème", "ẞ", "plain ASCII", "ｆｕｌｌ"]
        for input in inputs {
            #expect(folder.fold(input) == TextFolding.fold(input))
            #expect(folder.foldedBytes(input) == Array(TextFolding.fold(input).utf8))
        }
    }

    @Test func foldingValidUTF8BytesMatchesFoldingTheString() {
        let text = "Ærøskøbing — Straße, データ 😀 ｆｕｌｌ"
        var folder = TextFolder()
        let bytes = Array(text.utf8)
        let folded = bytes.withUnsafeBufferPointer { folder.foldedBytes(utf8: $0) }
        #expect(folded == Array(TextFolding.fold(text).utf8))
        var appended: [UInt8] = Array("prefix:".utf8)
        bytes.withUnsafeBufferPointer { folder.appendFolded(utf8: $0, to: &appended) }
        #expect(appended == Array("prefix:".utf8) + folded)
    }

    @Test func invalidBytesDoNotCrash() {
        var folder = TextFolder()
        let folded = [UInt8]([0x61, 0xFF, 0x62]).withUnsafeBufferPointer { folder.foldedBytes(utf8: $0) }
        #expect(String(decoding: folded, as: UTF8.self) == "a\u{FFFD}b")
        let truncated = [UInt8]([0x41, 0xE6]).withUnsafeBufferPointer { folder.foldedBytes(utf8: $0) }
        #expect(String(decoding: truncated, as: UTF8.self) == "a\u{FFFD}")
    }

    @Test(arguments: [
        ("creme brulee", "Crème Brûlée", true),
        ("STRASSE", "Straße", true),
        ("lodz", "Łódź", true),
        ("full", "ｆｕｌｌ", true),
        ("istanbul", "İSTANBUL", true),
        ("σισυφος", "ΣΊΣΥΦΟΣ", true),
        ("елка", "Ёлка", true),
        ("Crème", "creme", true),
        ("ss", "ß", true),
        ("east", "Ærøskøbing", false),
        ("データ", "テータ", true),
        ("東京", "京都", false),
    ])
    func foldedContainment(_ needle: String, _ haystack: String, _ expected: Bool) {
        let h = Array(TextFolding.fold(haystack).utf8)
        let n = Array(TextFolding.fold(needle).utf8)
        #expect(TextFolding.contains(h, n) == expected)
    }

    @Test(arguments: [
        ("abc", "", 0),
        ("abcabc", "ca", 2),
        ("abc", "abc", 0),
        ("abc", "abcd", nil),
        ("", "a", nil),
        ("aaab", "aab", 1),
        ("xyz", "q", nil),
        ("hello world", "d", 10),
    ] as [(String, String, Int?)])
    func firstIndex(_ haystack: String, _ needle: String, _ expected: Int?) {
        #expect(TextFolding.firstIndex(of: Array(needle.utf8), in: Array(haystack.utf8)) == expected)
    }
}
