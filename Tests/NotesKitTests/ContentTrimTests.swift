import Foundation
import TestSupport
import Testing

@testable import NotesKit

/// `Content.normalize` skips Foundation's trim when the text cannot need one: what it saves must be
/// what the trim makes, for every kind of white space and newline at either end.
@Suite struct ContentTrimTests {
    @Test func normalizeIsWhatFoundationsTrimMakes() {
        let pieces = [
            "a", "Z", "~", "!", "é", "東", "😀", " ", "\t", "\n", "\r\n", "\r", "\u{00A0}", "\u{0085}",
            "\u{2028}", "\u{2029}", "\u{3000}", "\u{200B}", "\u{FEFF}", "\u{0301}", "x y", "#",
        ]
        var rng = SplitMix(seed: 11)
        for _ in 0..<5000 {
            var text = ""
            for _ in 0..<rng.within(0...6) { text += rng.pick(pieces) }
            let expected = Content.editable(text).trimmingCharacters(in: .whitespacesAndNewlines)
            let saved = try? Content.normalize(text)
            #expect(saved == (expected.isEmpty ? nil : expected + "\n"), "\(Array(text.unicodeScalars))")
        }
    }
}
