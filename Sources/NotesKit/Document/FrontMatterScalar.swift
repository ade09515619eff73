import Foundation

extension FrontMatter {
    private static let plainPunctuation: Set<Character> = ["-", "_", ".", "/", "@", "+", ":"]

    /// `text` as a front-matter scalar that reads back as itself, alone or in an inline list:
    /// plain when it is letters, digits and `-_./@+:` (not ending in `:`), else double-quoted.
    static func written(_ text: String) -> String {
        if let first = text.first, first.isLetter || first.isNumber, text.last != ":",
            text.allSatisfy({ $0.isLetter || $0.isNumber || plainPunctuation.contains($0) })
        {
            return text
        }
        return "\"" + escapedForDoubleQuotes(text) + "\""
    }

    /// `text` as it is written between double quotes: `"` and `\` escaped, and the characters that
    /// may not stand there as they are (a line feed, a tab, other controls).
    static func escapedForDoubleQuotes(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                out += String(format: "\\u%04X", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Whether `text` reads back as itself written as a plain scalar (in an inline list when
    /// `inList`): not empty, no blank at either end, not opening with an indicator, no `: ` or
    /// ` #` (a key, a comment), no line break or control, and in a list no `,[]{}`.
    static func readsBackPlain(_ text: String, inList: Bool) -> Bool {
        guard let first = text.first, let last = text.last, !first.isWhitespace, !last.isWhitespace,
            !"-?:,[]{}#&*!|>'\"%@`".contains(first)
                || (first == "-" && text.count > 1 && !text.hasPrefix("- ")),
            last != ":", !text.contains(": "), !text.contains(" #"), !text.contains("\t"),
            !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
        else { return false }
        return !inList || !text.contains(where: { ",[]{}".contains($0) })
    }
}
