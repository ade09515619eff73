import NotesKit
import Testing

@Suite struct DisplayWidthTests {
    /// Widths as a terminal draws them (checked in tmux for the scripts; emoji as the issue asks:
    /// one wide glyph per emoji cluster).
    @Test(
        arguments: [
            ("ASCII", "abc", 3),
            ("Thai: vowel and tone marks sit on their consonant", "ภาษาไทย ที่ไม่", 11),
            ("Thai sara am is a spacing vowel in the cluster", "ทำ", 2),
            ("Khmer: spacing vowels count, the coeng does not", "ភាសាខ្មែរ", 8),
            ("Bengali: spacing vowel signs and anusvara count", "বাংলা ভাষা", 10),
            ("Devanagari: conjuncts are one cluster of two cells", "हिन्दी क्षत्रिय", 12),
            ("CJK", "東京メモ", 8),
            ("Hangul syllables", "한국어", 6),
            ("Hangul from conjoining jamo", "\u{1112}\u{1161}\u{11AB}", 2),
            ("fullwidth Latin", "ｆｕｌｌ", 8),
            ("emoji with a skin tone", "👍🏽", 2),
            ("emoji ZWJ family", "👨‍👩‍👧", 2),
            ("flag", "🇫🇷", 2),
            ("text-style heart asked to be emoji", "❤️", 2),
            ("keycap", "1️⃣", 2),
            ("heart without the selector", "❤", 1),
            ("combining acute", "e\u{301}", 1),
            ("several combining marks", "a\u{301}\u{302}\u{303}", 1),
            ("zero-width space and joiner", "a\u{200B}b\u{200D}", 2),
            ("controls", "a\u{7}\u{1B}b\u{85}", 2),
            ("CRLF", "\r\n", 0),
            ("empty", "", 0),
        ] as [(String, String, Int)])
    func width(_ name: String, _ text: String, _ expected: Int) {
        #expect(DisplayWidth.of(text) == expected, "\(name)")
    }

    @Test(arguments: [
        ("Thai", "ภาษาไทย ที่ไม่"), ("Khmer", "ភាសាខ្មែរ ភាសាខ្មែរ"), ("Bengali", "বাংলা ভাষা বাংলা"),
        ("Devanagari", "हिन्दी क्षत्रिय हिन्दी"), ("CJK", "東京 メモ 東京 メモ"),
        ("emoji", "👍🏽👨‍👩‍👧🇫🇷👍🏽👨‍👩‍👧🇫🇷"), ("combining Latin", "e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}"),
    ])
    func truncationNeverExceedsTheWidthAndCutsBetweenClusters(_ name: String, _ text: String) {
        let full = DisplayWidth.of(text)
        for width in 0...(full + 1) {
            let cut = DisplayWidth.truncate(text, to: width)
            #expect(DisplayWidth.of(cut) <= width, "\(name) at \(width): \(cut)")
            if width >= full {
                #expect(cut == text, "\(name) at \(width)")
            } else if width > 0 {
                #expect(cut.hasSuffix("…"), "\(name) at \(width)")
                // Every cluster kept is a whole cluster of the original.
                let kept = Array(cut.dropLast())
                #expect(kept == Array(text.prefix(kept.count)), "\(name) at \(width): \(cut)")
                // Nothing more would have fitted.
                if kept.count < text.count {
                    #expect(
                        DisplayWidth.of(String(kept))
                            + DisplayWidth.of(text[text.index(text.startIndex, offsetBy: kept.count)]) > width
                            - 1)
                }
            }
        }
    }

    @Test func truncationGoldens() {
        #expect(DisplayWidth.truncate("東京メモ", to: 4) == "東…")
        #expect(DisplayWidth.truncate("東京メモ", to: 5) == "東京…")
        #expect(DisplayWidth.truncate("👍🏽👍🏽", to: 3) == "👍🏽…")
        #expect(DisplayWidth.truncate("e\u{301}e\u{301}e\u{301}", to: 2) == "e\u{301}…")
        #expect(DisplayWidth.truncate("ভাষা", to: 3) == "ভা…")
        #expect(DisplayWidth.truncate("abc", to: 0) == "")
        #expect(DisplayWidth.truncate("abc", to: 1) == "…")
    }

    @Test func padding() {
        #expect(DisplayWidth.pad("東京", to: 6) == "東京  ")
        #expect(DisplayWidth.pad("ভাষা", to: 5) == "ভাষা ")
        #expect(DisplayWidth.pad("long", to: 2) == "long")
    }
}
