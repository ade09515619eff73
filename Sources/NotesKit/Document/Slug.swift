import Foundation

/// File names for new notes: a slug of the title.
public enum Slug {
    /// The longest slug, in characters.
    public static let maxLength = 60
    /// The longest slug in UTF-8 bytes: file names have 255 bytes at most (NAME_MAX), and the
    /// name also needs room for `-N`, `.conflict-YYYYMMDD-HHMMSS` and `.md`.
    public static let maxBytes = 180

    /// The slug of `title`: lower case, Latin letters folded (`Crème` → `creme`), other scripts
    /// kept in NFC, runs of anything but letters, marks and digits turned into `-`, trimmed of
    /// `-`, cut to 60 characters at a `-` boundary. Empty when nothing is left.
    public static func make(_ title: String) -> String {
        if let ascii = asciiWords(title) { return cut(ascii) }
        return byCharacters(title)
    }

    /// `make`, Character by Character: for every title, and the oracle of the ASCII path.
    static func byCharacters(_ title: String) -> String {
        var folding = TextFolder()
        var out = ""
        var pendingDash = false
        var length = 0
        // A title can be a whole 50 MB line; the slug never needs more than its start.
        for character in String(title.prefix(2000)).precomposedStringWithCanonicalMapping {
            // Past the limit (plus one character, to see whether the cut falls on a `-`): done.
            if length > maxLength { break }
            let piece: String
            if character.unicodeScalars.allSatisfy(isLatin) {
                piece = folding.fold(String(character))
            } else {
                piece = String(character).lowercased()
            }
            for c in piece {
                // A character is of a word by its first scalar: a symbol with a variation selector
                // (`✈️`, U+FE0F a mark) is no letter, and the selectors are left out of a word.
                if let first = c.unicodeScalars.first, isWordScalar(first) {
                    if pendingDash && !out.isEmpty {
                        out.append("-")
                        length += 1
                    }
                    pendingDash = false
                    out.unicodeScalars.append(
                        contentsOf: c.unicodeScalars.filter { !isVariationSelector($0) })
                    length += 1
                } else {
                    pendingDash = true
                }
            }
        }
        return cut(out)
    }

    /// The words of an ASCII `title` of at most 2,000 bytes joined by `-`, in lower case, as the
    /// loop of `make` makes them (one past the limit), without a `String` per character: an ASCII
    /// letter folds to its lower case and only letters and digits are word characters there.
    /// Nil for any other title.
    static func asciiWords(_ title: String) -> String? {
        var title = title
        return title.withUTF8 { b -> String? in
            guard b.count <= 2000 else { return nil }
            var out: [UInt8] = []
            out.reserveCapacity(min(b.count, maxLength + 2))
            var pendingDash = false
            for byte in b {
                guard byte < 0x80 else { return nil }
                if out.count > maxLength { continue }
                let lower = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
                if (lower >= 0x61 && lower <= 0x7A) || (lower >= 0x30 && lower <= 0x39) {
                    if pendingDash && !out.isEmpty { out.append(0x2D) }
                    pendingDash = false
                    out.append(lower)
                } else {
                    pendingDash = true
                }
            }
            return String(decoding: out, as: UTF8.self)
        }
    }

    /// `out` cut to `maxLength` characters and `maxBytes` bytes, at a `-` boundary when there is one.
    private static func cut(_ out: String) -> String {
        var cut = out.prefix(maxLength)
        while cut.utf8.count > maxBytes { cut = cut.dropLast() }
        guard cut.endIndex < out.endIndex else { return out }
        // Cut at a `-` boundary when there is one.
        if out[cut.endIndex...].first == "-" { return String(cut) }
        if let dash = cut.lastIndex(of: "-") { return String(cut[cut.startIndex..<dash]) }
        return String(cut)
    }

    /// The name used when the slug is empty: `note-YYYYMMDD-HHMMSS` in local time.
    public static func fallback(now: Double) -> String { "note-" + NoteDate.stamp(now) }

    static func isWordScalar(_ s: Unicode.Scalar) -> Bool {
        switch s.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber:
            return true
        default:
            return false
        }
    }

    /// U+FE00–FE0F and U+E0100–E01EF, which choose how the character before them is drawn.
    static func isVariationSelector(_ s: Unicode.Scalar) -> Bool {
        (0xFE00...0xFE0F).contains(s.value) || (0xE0100...0xE01EF).contains(s.value)
    }

    static func isLatin(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x00...0x024F, 0x0300...0x036F, 0x1E00...0x1EFF, 0x2C60...0x2C7F, 0xA720...0xA7FF,
            0xAB30...0xAB6F, 0xFB00...0xFB06, 0xFF00...0xFF5E:
            return true
        default:
            return false
        }
    }
}
