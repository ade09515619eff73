/// How many terminal columns text takes, measured per grapheme cluster (Swift `Character`), so
/// rows can be cut to the terminal's width and never wrap.
///
/// A cluster's width is the sum of its scalars' widths, as a terminal advances the cursor:
/// marks (Mn, Me), format characters (Cf: ZWJ, ZWSP, variation selectors), controls and the
/// Hangul medial and final jamo take none; spacing marks (Mc, and the Thai and Lao vowels that
/// attach to a cluster) take one; East Asian Wide and Fullwidth characters take two. So `é` is
/// one column, Bengali `বা` two, Thai `ที่` one. An emoji cluster — an Emoji_Presentation base,
/// an emoji followed by U+FE0F, a flag (regional-indicator pair), a skin-tone or ZWJ sequence —
/// is drawn as one wide glyph: two columns in all.
public enum DisplayWidth {
    /// The columns of one grapheme cluster.
    public static func of(_ character: Character) -> Int {
        if character.isASCII {
            // "\r\n" is one ASCII Character; every other ASCII one is a single scalar.
            guard let value = character.asciiValue else { return 0 }
            return value < 0x20 || value == 0x7F ? 0 : 1
        }
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.properties.isEmojiPresentation
            || (first.properties.isEmoji && scalars.contains("\u{FE0F}"))
        {
            return 2
        }
        var total = 0
        for scalar in scalars { total += of(scalar) }
        return total
    }

    /// The columns of one scalar on its own.
    static func of(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v < 0x20 || (0x7F..<0xA0).contains(v) { return 0 }
        if v < 0x300 { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        // Hangul medial vowels and final consonants join the initial consonant's wide cell.
        if (0x1160...0x11FF).contains(v) || (0xD7B0...0xD7FF).contains(v) { return 0 }
        if scalar.properties.isEmojiPresentation || isWide(v) { return 2 }
        return 1
    }

    /// The columns of a string.
    public static func of<Text: StringProtocol>(_ text: Text) -> Int {
        var total = 0
        for character in text { total += of(character) }
        return total
    }

    /// The end of the longest prefix of `text` that fits in `width` columns, cut between
    /// grapheme clusters.
    public static func prefixEnd<Text: StringProtocol>(of text: Text, fitting width: Int) -> Text.Index {
        var used = 0
        var index = text.startIndex
        while index < text.endIndex {
            let w = of(text[index])
            if used + w > width { break }
            used += w
            index = text.index(after: index)
        }
        return index
    }

    /// The text cut to at most `width` columns, ending in `…` when it was cut.
    public static func truncate(_ text: String, to width: Int) -> String {
        if width <= 0 { return "" }
        if of(text) <= width { return text }
        return String(text[..<prefixEnd(of: text, fitting: width - 1)]) + "…"
    }

    /// The text padded with spaces to at least `width` columns.
    public static func pad(_ text: String, to width: Int) -> String {
        let w = of(text)
        return w >= width ? text : text + String(repeating: " ", count: width - w)
    }

    /// East Asian Wide (W) and Fullwidth (F) scalars, from the Unicode Character Database's
    /// EastAsianWidth.txt (ranges joined across unassigned code points). Emoji are found by their
    /// Emoji_Presentation property instead, which the standard library keeps current.
    static func isWide(_ v: UInt32) -> Bool {
        if v < 0x1100 { return false }
        var low = 0
        var high = wideRanges.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let range = wideRanges[middle]
            if v < range.lowerBound {
                high = middle - 1
            } else if v > range.upperBound {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }

    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0,
        0x23F3...0x23F3, 0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F,
        0x2693...0x2693, 0x26A1...0x26A1, 0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5,
        0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA, 0x26F2...0x26F3, 0x26F5...0x26F5,
        0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B, 0x2728...0x2728,
        0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
        0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55,
        0x2E80...0x303E, 0x3041...0x3247, 0x3250...0x4DBF, 0x4E00...0xA4CF, 0xA960...0xA97F,
        0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60,
        0xFFE0...0xFFE6, 0x16FE0...0x1B2FF, 0x1F004...0x1F004, 0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E,
        0x1F191...0x1F19A, 0x1F200...0x1F320, 0x1F32D...0x1F335, 0x1F337...0x1F37C, 0x1F37E...0x1F393,
        0x1F3A0...0x1F3CA, 0x1F3CF...0x1F3D3, 0x1F3E0...0x1F3F0, 0x1F3F4...0x1F3F4, 0x1F3F8...0x1F43E,
        0x1F440...0x1F440, 0x1F442...0x1F4FC, 0x1F4FF...0x1F53D, 0x1F54B...0x1F54E, 0x1F550...0x1F567,
        0x1F57A...0x1F57A, 0x1F595...0x1F596, 0x1F5A4...0x1F5A4, 0x1F5FB...0x1F64F, 0x1F680...0x1F6C5,
        0x1F6CC...0x1F6CC, 0x1F6D0...0x1F6D2, 0x1F6D5...0x1F6DF, 0x1F6EB...0x1F6EC, 0x1F6F4...0x1F6FC,
        0x1F7E0...0x1F7F0, 0x1F90C...0x1F93A, 0x1F93C...0x1F945, 0x1F947...0x1F9FF, 0x1FA70...0x1FAFF,
        0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]
}
