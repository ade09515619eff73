import Foundation
import Testing

@testable import NotesKit

/// Bugs the fuzz targets (`FuzzTests`) found, each kept as a plain test of the input that showed it.
@Suite struct FuzzRegressionTests {
    /// Foundation's Gregorian calendar is Julian before 15 October 1582, so `created: 1500-01-01`
    /// (local time) read as 1500-01-10 while `1500-01-01T00:00Z` read as 1500-01-01: dates are
    /// ISO 8601's proleptic Gregorian ones, whatever their form.
    @Test(arguments: ["0957-01-25", "1500-01-01", "1582-10-04", "1582-10-10", "1582-10-14", "0001-01-01"])
    func aLocalDateBeforeTheGregorianReformIsTheDateWritten(_ date: String) throws {
        let utc = try #require(TimeZone(identifier: "UTC"))
        let local = try #require(NoteDate.parse(date, timeZone: utc))
        #expect(NoteDate.parse(date + "T00:00:00Z") == local)
        #expect(NoteDate.format(local) == date + "T00:00:00Z")
        let paris = try #require(TimeZone(identifier: "Europe/Paris"))
        let parisTime = try #require(NoteDate.parse(date + " 12:00", timeZone: paris))
        // Paris kept local mean time then: 9 minutes 21 seconds ahead of UTC.
        #expect(NoteDate.format(parisTime) == date + "T11:50:39Z")
    }

    @Test func theReformItselfStillReadsAsTheCalendarSaysAfterIt() throws {
        let utc = try #require(TimeZone(identifier: "UTC"))
        #expect(NoteDate.parse("1582-10-15", timeZone: utc) == -12_219_292_800)
        #expect(NoteDate.parse("2026-11-29 12:38", timeZone: utc) == 1_795_955_880)
    }
}

/// Foundation's NFC composes a Hangul LV syllable with the jamo just past the final consonants
/// (U+11A7, a vowel, and U+11C3, an archaic final): ᄋ ᅥ ᇃ became 에, another syllable, and ᄀ ᅡ
/// U+11A7 lost its last letter. Folding recomposes Hangul itself, as Unicode defines it.
@Suite struct HangulFoldingRegressionTests {
    @Test(arguments: [
        ("\u{110B}\u{1165}\u{11C3}", "\u{C5B4}\u{11C3}"),
        ("\u{1100}\u{1161}\u{11A7}", "\u{AC00}\u{11A7}"),
        ("\u{C5B4}\u{11C3}\u{357}", "\u{C5B4}\u{11C3}"),
        ("\u{C5B4}\u{1DD1}\u{20EF}\u{11A7}", "\u{C5B4}\u{11A7}"),
        ("\u{110B}\u{1165}\u{11A8}", "\u{C5B5}"),
        ("\u{110B}\u{1165}\u{11C2}", "\u{C5CF}"),
        ("\u{C5B4}\u{11A8}", "\u{C5B5}"),
        ("\u{1100}\u{1100}\u{1161}\u{1161}", "\u{1100}\u{AC00}\u{1161}"),
        ("\u{110D}\u{1176}", "\u{110D}\u{1176}"),
        ("\u{FFB9}\u{1176}", "\u{110D}\u{1176}"),
        ("\u{1100}\u{1161}\u{1176}", "\u{AC00}\u{1176}"),
    ])
    func hangulRecomposesAsUnicodeSays(_ input: String, _ folded: String) {
        #expect(Array(TextFolder.fold(input).bytes) == Array(folded.utf8))
        var folder = TextFolder()
        #expect(folder.foldedBytes(input) == Array(folded.utf8))
    }

    @Test func aSyllableIsNotFoundInsideAnother() {
        let text = TextFolding.fold("\u{110B}\u{1165}\u{11C3}")
        #expect(!SearchQuery("\u{C5D0}").matches(folded: Array(text.utf8)))
    }
}

/// `updatedAt` was put right after the creation key's line even when the key's value goes on
/// over the lines below (a block list, an indented or quoted scalar, a flow list): the rewrite
/// cut the value in two, so the key read differently and a warning appeared. It now goes after them.
@Suite struct RewriteAfterAValueOverSeveralLinesTests {
    static let u = "updatedAt: 2026-12-01T09:30:00Z"

    @Test(arguments: [
        (
            "---\ncreatedAt:\n 2026-11-29T12:38:16Z\n---\nold\n",
            "---\ncreatedAt:\n 2026-11-29T12:38:16Z\n\(u)\n---\nnew\n"
        ),
        (
            "---\ndate:\n  - 2026-11-29\ntitle: x\n---\nold\n",
            "---\ndate:\n  - 2026-11-29\n\(u)\ntitle: x\n---\nnew\n"
        ),
        (
            "---\ndate:\n- 2026-11-29\n- b\ntitle: x\n---\nold\n",
            "---\ndate:\n- 2026-11-29\n- b\n\(u)\ntitle: x\n---\nnew\n"
        ),
        (
            "---\ncreated: \"2026-11-29\n  12:38\"\ntitle: x\n---\nold\n",
            "---\ncreated: \"2026-11-29\n  12:38\"\n\(u)\ntitle: x\n---\nnew\n"
        ),
        (
            "---\ndate: [2026-11-29,\n  2026-11-30]\n---\nold\n",
            "---\ndate: [2026-11-29,\n  2026-11-30]\n\(u)\n---\nnew\n"
        ),
        (
            "---\ndate:\n  - a\n\n  - b\n# c\ntitle: t\n---\nold\n",
            "---\ndate:\n  - a\n\n  - b\n\(u)\n# c\ntitle: t\n---\nnew\n"
        ),
        (
            "---\ncreatedAt: 2026-11-29T12:38:16Z\n\ntitle: x\n---\nold\n",
            "---\ncreatedAt: 2026-11-29T12:38:16Z\n\(u)\n\ntitle: x\n---\nnew\n"
        ),
    ])
    func updatedAtGoesAfterTheWholeValue(_ original: String, _ expected: String) {
        var document = NoteDocument(parsing: original)
        document.rewrite(content: "new\n", updated: 1_796_117_400, fallbackCreation: 0)
        #expect(document.text == expected)
        let before = NoteDocument(parsing: original).frontMatter?.entries.map { [$0.key: "\($0.value)"] }
        let after = NoteDocument(parsing: document.text).frontMatter?.entries.filter { $0.key != "updatedAt" }
            .map { [$0.key: "\($0.value)"] }
        #expect(before == after)
    }
}
