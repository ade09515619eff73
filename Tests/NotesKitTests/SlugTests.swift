import NotesKit
import Testing

@Suite struct SlugTests {
    @Test(arguments: [
        ("Latin accents folded", "Crème Brûlée à Łódź", "creme-brulee-a-lodz"),
        ("Japanese kept in NFC, voicing mark not dropped", "データ", "データ"),
        ("NFD Japanese composed to NFC", "\u{30C6}\u{3099}\u{30FC}\u{30BF}", "データ"),
        ("CJK words joined by a dash", "東京 メモ", "東京-メモ"),
        ("Japanese words keep their voiced marks", "データ メモ", "データ-メモ"),
        ("halfwidth kana kept as written", "ﾃﾞｰﾀ ﾒﾓ", "ﾃﾞｰﾀ-ﾒﾓ"),
        ("Korean syllables kept whole", "등산 계획", "등산-계획"),
        ("NFD Korean jamo composed to syllables", "\u{1103}\u{1173}\u{11BC}\u{1109}\u{1161}\u{11AB}", "등산"),
        ("Thai tone marks kept", "ไม้ บรรทัด", "ไม้-บรรทัด"),
        ("Thai mai ek kept", "ไม่ ใช่", "ไม่-ใช่"),
        ("Bengali vowel signs kept", "বাংলা কুকুর", "বাংলা-কুকুর"),
        ("Hebrew points kept (slugs fold Latin only)", "שָׁלוֹם", "שָׁלוֹם"),
        ("Latin folded beside Korean", "Café 등산", "cafe-등산"),
        ("ideographic space is a separator", "東京\u{3000}メモ", "東京-メモ"),
        ("ASCII lower-cased", "Shopping List", "shopping-list"),
        ("punctuation runs become one dash", "Hello, World!!", "hello-world"),
        ("leading and trailing dashes trimmed", "--- Hi ---", "hi"),
        ("digits kept", "2026 Plans: Q1", "2026-plans-q1"),
        ("underscores become dashes", "snake_case_name", "snake-case-name"),
        ("apostrophe splits a word", "Don't stop", "don-t-stop"),
        ("German sharp s", "Straße", "strasse"),
        ("capital sharp s", "STRAẞE", "strasse"),
        ("æ and œ", "Æsir Œuvre", "aesir-oeuvre"),
        ("Scandinavian and Icelandic letters", "Ærøskøbing Þórður", "aeroskobing-thordur"),
        ("Turkish dotted capital I", "İstanbul", "istanbul"),
        ("ligature and full-width Latin", "ﬁle ＡＢＣ", "file-abc"),
        ("combining accent on a Latin letter", "Cre\u{300}me", "creme"),
        ("Greek lower-cased, accents kept", "Ωμέγα Λόγος", "ωμέγα-λόγος"),
        ("Cyrillic lower-cased", "Привет Мир", "привет-мир"),
        ("Devanagari marks kept", "नमस्ते दुनिया", "नमस्ते-दुनिया"),
        ("Arabic kept", "مرحبا بالعالم", "مرحبا-بالعالم"),
        ("Latin and Japanese mixed", "Café データ", "cafe-データ"),
        ("emoji dropped", "🎉 Party time 🎉", "party-time"),
        ("slashes are not folders", "work/standup notes", "work-standup-notes"),
        ("dots are separators", "v1.2 release", "v1-2-release"),
        ("Markdown heading marks", "# Title #", "title"),
        ("empty", "", ""),
        ("only punctuation", "!!! ??? ---", ""),
        ("only emoji", "🎉🎉", ""),
        ("a symbol with a variation selector is dropped", "Trip: Paris / Lyon ✈️", "trip-paris-lyon"),
        ("an emoji heart is dropped", "Heart ❤️ love", "heart-love"),
        ("a keycap digit keeps its digit", "Step 1️⃣", "step-1⃣"),
        ("a letter's variation selector is left out", "Ma\u{FE0E}p", "map"),
        ("white space only", " \t\n ", ""),
    ])
    func slug(_ name: String, _ title: String, _ expected: String) {
        #expect(Slug.make(title) == expected, "\(name)")
    }

    @Test func cutAtADashBoundary() {
        let title = String(repeating: "abcd ", count: 20)
        let slug = Slug.make(title)
        #expect(slug == Array(repeating: "abcd", count: 12).joined(separator: "-"))
        #expect(slug.count == 59)
    }

    @Test func wordEndingExactlyAtTheLimitIsKept() {
        let word = String(repeating: "x", count: 55)
        #expect(Slug.make(word + " abcd more") == word + "-abcd")
        #expect(Slug.make(word + " abcd") == word + "-abcd")
    }

    @Test func exactlySixtyCharactersIsKept() {
        let title = String(repeating: "a", count: 60)
        #expect(Slug.make(title) == title)
    }

    @Test func aLongWordWithoutDashesIsCutAtSixty() {
        #expect(Slug.make(String(repeating: "a", count: 80)) == String(repeating: "a", count: 60))
    }

    @Test func longCJKTitleIsCutAtADashBoundary() {
        let slug = Slug.make(String(repeating: "東京 ", count: 30))
        #expect(slug == Array(repeating: "東京", count: 20).joined(separator: "-"))
    }

    @Test(arguments: [
        String(repeating: "abcd ", count: 20),
        String(repeating: "Crème brûlée ", count: 10),
        String(repeating: "東京 メモ ", count: 15),
        String(repeating: "x", count: 59) + " yz",
        String(repeating: "ab ", count: 40),
        "A title that is rather long, with punctuation; and a few more words to go past sixty",
        String(repeating: "ÿ", count: 30) + " " + String(repeating: "ÿ", count: 40),
    ])
    func longSlugsAreWellFormed(_ title: String) {
        let slug = Slug.make(title)
        #expect(!slug.isEmpty)
        #expect(slug.count <= Slug.maxLength)
        #expect(!slug.hasPrefix("-") && !slug.hasSuffix("-"))
        #expect(!slug.contains("--"))
        // It is a prefix of the uncut slug (each word here slugs on its own), ending at a word boundary.
        let full = title.split(whereSeparator: \.isWhitespace).map { Slug.make(String($0)) }
            .filter { !$0.isEmpty }.joined(separator: "-")
        #expect(full.count > Slug.maxLength)
        #expect(full.hasPrefix(slug))
        let next = full[full.index(full.startIndex, offsetBy: slug.count)]
        #expect(next == "-", "cut inside a word: \(slug)")
    }

    @Test func fallbackIsATimestamp() {
        let now = 1_795_955_896.0
        let name = Slug.fallback(now: now)
        #expect(name == "note-" + NoteDate.stamp(now))
        #expect(name.count == "note-YYYYMMDD-HHMMSS".count)
        #expect(name.hasPrefix("note-2026112"))
    }
}
