import Foundation
import TestSupport
import Testing

@testable import NotesKit

/// One named input and its folded form. Every expected value here was cross-checked against
/// the `fold` of the reference search script (`fixtures/README.md` says where it lives).
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

/// A term, a text, and whether searching the text for the term finds it.
struct MatchCase: CustomTestStringConvertible, Sendable {
    var name: String
    var term: String
    var text: String
    var found: Bool

    init(_ name: String, _ term: String, _ text: String, _ found: Bool) {
        self.name = name
        self.term = term
        self.text = text
        self.found = found
    }

    var testDescription: String { name }
}

@Suite struct TextFoldingTests {
    static let cases: [FoldCase] = [
        // The letter table (ø→o, ł→l, æ→ae, …), lower and upper case.
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
        FoldCase("emoji unchanged", "😀", "😀"),
        FoldCase("emoji with skin tone unchanged", "👍🏽", "👍🏽"),
        FoldCase("emoji variation selector kept (not a diacritic)", "❤\u{FE0F}", "❤\u{FE0F}"),
        // Korean: a Hangul syllable stays whole (recomposed), decomposed jamo are joined into one.
        FoldCase("Hangul syllables stay whole", "등산", "등산"),
        FoldCase("Hangul LV syllable", "사", "사"),
        FoldCase("decomposed jamo recomposed", "\u{1109}\u{1161}\u{11AB}", "산"),
        FoldCase("LV syllable and a final jamo recomposed", "\u{C0AC}\u{11A8}", "삭"),
        // U+11C3 is past the finals NFC composes (Foundation's NFC wrongly joins it: 찀 + ᇃ → 쒜).
        FoldCase("an old final jamo stays apart", "\u{C480}\u{11C3}", "\u{C480}\u{11C3}"),
        // Japanese: the kana voiced marks are part of the letter.
        FoldCase("katakana voiced mark kept", "データ", "データ"),
        FoldCase("hiragana semi-voiced mark kept", "ぱん", "ぱん"),
        FoldCase("halfwidth katakana recomposed to full width", "ﾃﾞｰﾀ", "データ"),
        FoldCase("decomposed kana recomposed", "\u{30C6}\u{3099}\u{30FC}\u{30BF}", "データ"),
        FoldCase("an accent between kana and voiced mark goes", "\u{30C6}\u{301}\u{3099}", "デ"),
        // Thai: vowel signs and tone marks are part of the syllable.
        FoldCase("Thai vowel and tone marks kept", "สวัสดี", "สวัสดี"),
        FoldCase("Thai mai ek kept", "ไม่", "ไม่"),
        FoldCase("Thai mai tho kept", "ไม้", "ไม้"),
        FoldCase("Thai marks put in canonical order", "ม\u{E48}\u{E38}", "ม\u{E38}\u{E48}"),
        // Indic: vowel signs, virama and nukta stay.
        FoldCase("Devanagari vowel sign i kept", "कि", "कि"),
        FoldCase("Devanagari vowel sign u kept", "कु", "कु"),
        FoldCase("Devanagari virama kept", "नमस्ते", "नमस्ते"),
        FoldCase("Devanagari qa decomposes, nukta kept", "\u{958}", "\u{915}\u{93C}"),
        FoldCase("Bengali two-part vowel kept", "কো", "কো"),
        FoldCase("Bengali decomposed two-part vowel recomposed", "\u{995}\u{9C7}\u{9BE}", "কো"),
        FoldCase("Bengali vowel sign u kept", "কু", "কু"),
        // Right-to-left: Hebrew points and Arabic harakat go, letters stay.
        FoldCase("Hebrew niqqud removed", "שָׁלוֹם", "שלום"),
        FoldCase("Hebrew cantillation removed", "בְּרֵאשִׁ֖ית", "בראשית"),
        FoldCase("Arabic harakat removed", "مَرْحَبًا", "مرحبا"),
        FoldCase("Arabic hamza above removed", "أ", "ا"),
        FoldCase("Arabic superscript alef removed", "هٰذا", "هذا"),
        FoldCase("Arabic presentation form lam-alef", "\u{FEFB}", "لا"),
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

    /// Every two-byte scalar (U+0080–U+07FF, where `fold` takes a shortcut for a letter that
    /// stands alone) folds as the definition does: alone, after letters and marks it might join,
    /// and before marks that might join it or be put before it (canonical order), bytes and
    /// strings alike. The shortcut's conditions (no vanishing, a starter, at most four bytes)
    /// each fail some of these.
    @Test func twoByteScalarsFoldAsTheDefinitionSays() {
        var folder = TextFolder()
        let before = ["", "e", "\u{05D0}", "\u{0627}", "\u{0301}"]
        // Marks of class 220 and 230 that stay (Syriac, Cyrillic): canonical order swaps them.
        let after = [
            "", "b", "\u{0301}", "\u{0327}", "\u{0654}", "\u{05B0}", "\u{0591}", "é", "\u{0731}", "\u{0483}",
        ]
        var checked = 0
        for value in UInt32(0x80)...0x7FF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let letter = String(String.UnicodeScalarView([scalar]))
            for p in before {
                for q in after {
                    let text = p + letter + q
                    let bytes = Array(text.utf8)
                    let folded = bytes.withUnsafeBufferPointer { folder.foldedBytes(utf8: $0) }
                    if folded != TextFolder.fold(text).bytes {
                        Issue.record(
                            "U+\(String(value, radix: 16)) in \(text.unicodeScalars.map { $0.value })")
                    }
                    checked += 1
                }
            }
        }
        #expect(checked == 1920 * 50)
        // None of them joins the scalar before it or may be joined by a later mark: the
        // shortcut's two conditions on that cannot fail here (they keep it exact whatever the
        // Unicode data says), so no context above can tell them apart.
        var store: [UInt8] = []
        let joining = (UInt32(0x80)...0x7FF).compactMap(Unicode.Scalar.init).filter {
            let entry = TextFolder.Entry($0, store: &store)
            return entry.firstJoins || entry.laterJoins
        }
        #expect(joining.isEmpty)
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
        ("東京", "京都", false),
        ("ザ", "サ", false),
    ])
    func foldedContainment(_ needle: String, _ haystack: String, _ expected: Bool) {
        let h = Array(TextFolding.fold(haystack).utf8)
        let n = Array(TextFolding.fold(needle).utf8)
        #expect(TextFolding.contains(h, n) == expected)
    }

    /// Matches that folding must neither make nor miss: a mark that is part of
    /// a letter is not a diacritic, and a Hangul syllable never matches inside another one.
    static let scriptMatches: [MatchCase] = [
        MatchCase("사 is not inside 등산", "사", "등산", false),
        MatchCase("산 is inside 등산", "산", "등산", true),
        MatchCase("ᄉ (a jamo) is not inside 산", "\u{1109}", "산", false),
        MatchCase("decomposed 산 finds 등산", "\u{1109}\u{1161}\u{11AB}", "등산", true),
        MatchCase("テータ does not find データ", "テータ", "データ", false),
        MatchCase("データ does not find テータ", "データ", "テータ", false),
        MatchCase("halfwidth ﾃﾞｰﾀ finds データ", "ﾃﾞｰﾀ", "データ", true),
        MatchCase("データ finds halfwidth ﾃﾞｰﾀ", "データ", "ﾃﾞｰﾀ", true),
        MatchCase("decomposed データ finds データ", "\u{30C6}\u{3099}\u{30FC}\u{30BF}", "データ", true),
        MatchCase("はん does not find ぱん", "はん", "ぱん", false),
        MatchCase("ไม่ does not find ไม้", "ไม่", "ไม้", false),
        MatchCase("ไม้ does not find ไม่", "ไม้", "ไม่", false),
        MatchCase("สวสด does not find สวัสดี", "สวสด", "สวัสดี", false),
        MatchCase("สวัสดี finds itself", "สวัสดี", "สวัสดีครับ", true),
        MatchCase("Hindi कि is not क", "कि", "क", false),
        MatchCase("Hindi कु does not find क", "कु", "क", false),
        MatchCase("Hindi नमसत does not find नमस्ते", "नमसत", "नमस्ते", false),
        MatchCase("Bengali কু does not find ক", "কু", "ক", false),
        MatchCase("Bengali decomposed কো finds কো", "\u{995}\u{9C7}\u{9BE}", "কো", true),
        MatchCase("Hebrew שלום finds pointed שָׁלוֹם", "שלום", "שָׁלוֹם", true),
        MatchCase("Arabic مرحبا finds مَرْحَبًا", "مرحبا", "مَرْحَبًا", true),
        MatchCase("Latin creme brulee finds Crème Brûlée", "creme brulee", "Crème Brûlée", true),
        MatchCase("Latin lodz finds Łódź", "lodz", "Łódź", true),
        MatchCase("ß → ss", "STRASSE", "Straße", true),
        MatchCase("ﬁ → fi", "file", "ﬁle", true),
        MatchCase("ｆｕｌｌ → full", "full", "ｆｕｌｌ", true),
    ]

    @Test(arguments: scriptMatches)
    func scriptMatch(_ c: MatchCase) {
        let text = Array(TextFolding.fold(c.text).utf8)
        #expect(TextFolding.contains(text, Array(TextFolding.fold(c.term).utf8)) == c.found)
        // The path `notes search` takes: a parsed query against the folded text.
        #expect(SearchQuery(c.term).matches(folded: text) == c.found)
    }

    /// Scalars whose folding depends on their neighbours: marks that reorder or recompose, jamo,
    /// halfwidth kana, letters that compose with them, diacritics between them.
    static let trickyScalars: [Unicode.Scalar] = [
        "aeAEoO ﾃﾞﾊﾟｰﾀテデタハパ\u{3099}\u{309A}", "가각사산등\u{1100}\u{1161}\u{11A8}\u{1109}\u{1173}",
        "ไม่ม้\u{E48}\u{E38}\u{E49}\u{E34}\u{E33}", "कि\u{93C}\u{93F}ड़क़\u{915}", "বো\u{9C7}\u{9BE}\u{9D7}",
        "שָׁלוֹם\u{5B8}\u{5C1}", "مَرْحَبًا\u{64E}", "éè\u{301}\u{300}\u{323}\u{308}", "ØøßẞﬁİıΣςΑ\u{345}ᾳ",
        "\u{338}=≠ǖ\u{1E9B}ｆＡ①ŉǅ", "\u{F71}\u{F72}\u{F80}\u{F73}\u{F75}\u{F77}",
        "\u{B47}\u{B3E}\u{B57}\u{BC6}\u{BBE}\u{CC6}\u{CC2}\u{CD5}\u{D46}\u{D3E}\u{DD9}\u{DCA}\u{DCF}",
        "\u{1025}\u{102E}\u{1B05}\u{1B35}\u{EB3}",
        "\u{11099}\u{110BA}\u{11131}\u{11127}\u{11347}\u{1133E}\u{11357}",
        "\u{2126}\u{212B}\u{C5}A\u{30A}\n",
    ].flatMap { (piece: String) in Array(piece.unicodeScalars) }

    @Test func theFastPathAgreesWithFoldingTheWholeText() {
        var rng = SplitMix(seed: 7)
        var folder = TextFolder()
        for _ in 0..<3000 {
            var text = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...14, using: &rng) {
                text.append(Self.trickyScalars[Int.random(in: 0..<Self.trickyScalars.count, using: &rng)])
            }
            let input = String(text)
            let fast = folder.foldedBytes(input)
            let exact = TextFolder.fold(input).bytes
            #expect(fast == exact, "\(input.unicodeScalars.map { String($0.value, radix: 16) })")
            if fast != exact { break }
        }
    }

    /// Long runs of every ASCII byte (the sixteen-at-a-time path, its edges around `A` and `Z`),
    /// cut by the tricky scalars and by ones that fold far longer than they are (`ﷺ` is 3 bytes
    /// and folds to 33, `㍿` to 12), so that a fold runs out of room and resumes; appended after
    /// what `out` held, which must stay.
    @Test func longASCIIRunsAndTextThatFoldsLongerAgreeWithTheExactFold() {
        var rng = SplitMix(seed: 11)
        var folder = TextFolder()
        let ascii = (0..<128).map { Unicode.Scalar(UInt8($0)) }
        let growing: [Unicode.Scalar] = ["\u{FDFA}", "\u{337F}", "¼", "ß", "ﬃ", "\u{1F1}"]
        for round in 0..<400 {
            var text = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...6, using: &rng) {
                for _ in 0..<Int.random(in: 0...40, using: &rng) {
                    text.append(ascii[Int.random(in: 0..<ascii.count, using: &rng)])
                }
                let pool = round % 2 == 0 ? growing : Self.trickyScalars
                for _ in 0..<Int.random(in: 0...(round % 3 == 0 ? 30 : 3), using: &rng) {
                    text.append(pool[Int.random(in: 0..<pool.count, using: &rng)])
                }
            }
            let input = String(text)
            var out: [UInt8] = Array("kept:".utf8)
            var bytes = input
            bytes.withUTF8 { folder.appendFolded(utf8: $0, to: &out) }
            let exact = Array("kept:".utf8) + TextFolder.fold(input).bytes
            #expect(out == exact, "\(input.unicodeScalars.map { String($0.value, radix: 16) })")
            if out != exact { break }
        }
    }

    @Test func everyScalarThatComposesWithThePreviousOneIsKnown() {
        // A scalar NFC may join to the one before it, missing from `mayComposeWithPrevious`, would
        // let the fast path keep apart what recomposition joins. Find them all from the decompositions.
        var missing: [String] = []
        for value in UInt32(0x80)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value), scalar.properties.generalCategory != .unassigned,
                scalar.properties.generalCategory != .privateUse
            else { continue }
            let decomposed = Array(String(scalar).decomposedStringWithCanonicalMapping.unicodeScalars)
            guard decomposed.count >= 2, let second = decomposed.last,
                String(String.UnicodeScalarView(decomposed)).precomposedStringWithCanonicalMapping
                    .unicodeScalars.elementsEqual([scalar])
            else { continue }
            if !TextFolder.isDiacritic(second) && !TextFolder.mayComposeWithPrevious(second) {
                missing.append(String(second.value, radix: 16))
            }
        }
        #expect(missing.isEmpty)
    }

    @Test(
        arguments: [
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

@Suite struct SubstringSearchTests {
    /// The rare-byte search against the obvious one, on seeded random texts over a small alphabet
    /// (so matches, near misses and overlaps are common) and needles anchored anywhere.
    @Test func findsWhatANaiveSearchFinds() {
        var rng = SplitMix(seed: 77)
        let alphabet = Array("eeeaz q\nç".utf8)
        for _ in 0..<3000 {
            let text = (0..<Int.random(in: 0...80, using: &rng)).map { _ in
                alphabet.randomElement(using: &rng) ?? 0
            }
            let needle = (0..<Int.random(in: 1...(Bool.random(using: &rng) ? 4 : 20), using: &rng)).map { _ in
                alphabet.randomElement(using: &rng) ?? 0
            }
            let naive =
                text.count < needle.count
                ? nil
                : (0...(text.count - needle.count)).first { Array(text[$0..<($0 + needle.count)]) == needle }
            #expect(TextFolding.firstIndex(of: needle, in: text) == naive, "\(text) \(needle)")
        }
    }
}

extension SubstringSearchTests {
    /// A seeded text of up to `longest` bytes and a needle of two bytes or more, often cut from the
    /// text itself (so that it is found at every offset, the very end included).
    static func textAndNeedle(longest: Int, using rng: inout SplitMix) -> (text: [UInt8], needle: [UInt8]) {
        let alphabet = Array("eeacrmz \n".utf8)
        let text = (0..<Int.random(in: 0...longest, using: &rng)).map { _ in
            alphabet.randomElement(using: &rng) ?? 0
        }
        let length = Int.random(in: 2...(Bool.random(using: &rng) ? 5 : 40), using: &rng)
        guard text.count >= length && Bool.random(using: &rng) else {
            return (text, (0..<length).map { _ in alphabet.randomElement(using: &rng) ?? 0 })
        }
        let start = Int.random(in: 0...(text.count - length), using: &rng)
        return (text, Array(text[start..<(start + length)]))
    }

    /// The first place at or after `from` where `needle` is in `text`, found the obvious way.
    static func naiveIndex(of needle: [UInt8], in text: [UInt8], from: Int = 0) -> Int? {
        guard text.count - needle.count >= from else { return nil }
        return (from...(text.count - needle.count)).first { Array(text[$0..<($0 + needle.count)]) == needle }
    }

    /// Texts long enough for the scan's 32-byte steps, its last 16-byte step and its byte-by-byte
    /// tail, against the obvious search.
    @Test func findsWhatANaiveSearchFindsInLongTexts() {
        var rng = SplitMix(seed: 91)
        for _ in 0..<3000 {
            let (text, needle) = Self.textAndNeedle(longest: 300, using: &rng)
            #expect(TextFolding.firstIndex(of: needle, in: text) == Self.naiveIndex(of: needle, in: text))
        }
    }

    /// A search's scan checks each note's text and looks for the first term in one pass
    /// (`IndexChecksum.of(_:finding:)`): the checksum is the one `IndexChecksum.of` gives, byte for
    /// byte, and the needle is found where the search alone finds it — at every length of text
    /// around the 32-byte steps of both, with the needle at every place; and a search that starts
    /// further on (`Probes.firstIndex(in:from:)`) finds the first match from there.
    @Test func checkingAndSearchingInOnePassIsBoth() {
        var rng = SplitMix(seed: 26)
        for _ in 0..<4000 {
            let (text, needle) = Self.textAndNeedle(longest: 200, using: &rng)
            let from = Int.random(in: 0...text.count, using: &rng)
            needle.withUnsafeBytes { needleBytes in
                guard let base = needleBytes.baseAddress else { return }
                let probes = TextFolding.Probes(base, count: needle.count)
                text.withUnsafeBytes { bytes in
                    let (sum, found) = IndexChecksum.of(bytes, finding: probes)
                    #expect(sum == IndexChecksum.of(bytes))
                    #expect(found == (Self.naiveIndex(of: needle, in: text) != nil))
                    #expect(
                        probes.firstIndex(in: bytes, from: from)
                            == Self.naiveIndex(of: needle, in: text, from: from))
                }
            }
        }
    }
}

@Suite struct TrimmingTests {
    /// Trimming skips its grapheme loop when neither end is a space or tab byte; that must never
    /// change the result, here on seeded strings of spaces, tabs, letters, a combining accent
    /// (which joins the space before it) and a prepended mark (which joins the space after it).
    @Test func theFastPathTrimsAsTheGraphemeLoopDoes() {
        func reference(_ text: String) -> Substring {
            var s = text[...]
            while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
            while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
            return s
        }
        var rng = SplitMix(seed: 5)
        let pieces = [" ", "\t", "a", "\u{0301}", "\u{0600}", "é", "\u{200D}"]
        for _ in 0..<5000 {
            let text = (0..<Int.random(in: 0...6, using: &rng)).map { _ in
                pieces.randomElement(using: &rng) ?? ""
            }.joined()
            #expect(text.trimmingWhitespace() == reference(text), "\(Array(text.unicodeScalars))")
        }
    }
}
