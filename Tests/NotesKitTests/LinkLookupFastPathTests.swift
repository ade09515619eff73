import Foundation
import TestSupport
import Testing

@testable import NotesKit

/// Resolving every link of a vault (`--orphan`) takes shortcuts: caseless names of Latin text
/// lower-cased scalar by scalar with no normalizing, their hashes made without a copy, and hash
/// tables entered through a directory of their hashes' top bits. Each must give what the long
/// way gives.
@Suite struct LinkLookupFastPathTests {
    /// Every scalar the shortcut takes, alone and between ASCII letters of both cases.
    @Test func everyScalarBeforeTheCombiningMarksLowerCasesAsWithNormalizing() {
        for value in UInt32(0x80)..<0x300 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            for text in [String(scalar), "A\(scalar)b", "\(scalar)\(scalar)Z"] {
                let bytes = Array(text.utf8)
                bytes.withUnsafeBytes { raw in
                    let fast = CaselessName.belowCombiningMarks(raw)
                    #expect(fast == CaselessName.keyByNormalizing(raw), "U+\(String(value, radix: 16))")
                    #expect(CaselessName.key(raw) == CaselessName.keyByNormalizing(raw))
                }
            }
        }
    }

    /// Random names, some with scalars the shortcut leaves to the long way (combining marks,
    /// Greek with its final sigma, decomposed accents, Hangul, the Kelvin sign).
    @Test func namesLowerCaseByTheShortcutAsTheLongWay() {
        var rng = SplitMix(seed: 57)
        let pieces = [
            "a", "Z", "Note", " ", "-", "/", "é", "É", "ß", "İ", "Ǆ", "ǅ", "Ÿ", "Ω", "Σ", "ΟΔΟΣ", "e\u{0301}",
            "\u{0301}", "\u{212A}", "한", "Å", "ÿ", "Ĳ", "ſ", "ɐ", "ʰ", "1",
        ]
        var shortcuts = 0
        for _ in 0..<3000 {
            let text = (0..<Int.random(in: 1...6, using: &rng)).map { _ in
                pieces.randomElement(using: &rng) ?? ""
            }.joined()
            let bytes = Array(text.utf8)
            bytes.withUnsafeBytes { raw in
                let slow = CaselessName.keyByNormalizing(raw)
                if let fast = CaselessName.belowCombiningMarks(raw) {
                    shortcuts += 1
                    #expect(fast == slow, "\(text)")
                }
                #expect(CaselessName.key(raw) == slow, "\(text)")
                #expect(CaselessName.hash(raw) == slow.withUnsafeBytes { MappedIndex.hash($0) }, "\(text)")
            }
        }
        #expect(shortcuts > 100)
        #expect(CaselessName.key("Crème BRÛLÉE") == Array("crème brûlée".utf8))
        #expect(CaselessName.key("ΟΔΟΣ") == Array("οδος".utf8))
    }

    /// Lookups give what a search of every pair gives, in the order of the positions: tables
    /// empty, of one pair, with shared hashes, with hashes at both ends of the range, and with
    /// many hashes sharing their top bits (a run placed in order by insertion).
    @Test func hashTablesFindWhatASearchOfEveryPairFinds() {
        var rng = SplitMix(seed: 59)
        for count in [0, 1, 2, 3, 7, 64, 1000, 5000] {
            let crowded = (0..<8).map { _ in UInt64.random(in: 0..<(1 << 20), using: &rng) }
            let pool: [UInt64] =
                [0, 1, .max, .max - 1, 1 << 63] + crowded
                + (0..<max(1, count / 3)).map { _ in UInt64.random(in: 0 ... .max, using: &rng) }
            let hashes = (0..<count).map { _ in pool.randomElement(using: &rng) ?? 0 }
            let table = HashTable(count: count) { hashes[$0] }
            for hash in pool + [2, 12345] {
                let expected = hashes.indices.filter { hashes[$0] == hash }
                #expect(table.positions(for: hash).map(Int.init) == expected, "\(count) \(hash)")
            }
        }
    }
}
