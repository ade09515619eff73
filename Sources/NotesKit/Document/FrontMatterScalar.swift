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
        var quoted = ""
        JSONValue.quote(text, into: &quoted)
        return quoted
    }

    /// `text` as it is written between double quotes: `"`, `\` and control characters escaped.
    /// A JSON string is a YAML double-quoted scalar, so JSON's quoting serves.
    static func escapedForDoubleQuotes(_ text: String) -> String {
        var quoted = ""
        JSONValue.quote(text, into: &quoted)
        return String(quoted.dropFirst().dropLast())
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
