/// Commands shown to the user for copying into a shell: every argument quoted so that pasting it
/// into sh, bash or zsh passes it unchanged.
public enum Shell {
    /// `word` as one shell word: unchanged when it holds only characters no shell treats
    /// specially, else in single quotes (a `'` inside becomes `'\''`). A leading `~/` stays outside
    /// the quotes so that the shell still expands it.
    public static func quote(_ word: String) -> String {
        if word.hasPrefix("~/") { return "~/" + quote(String(word.dropFirst(2))) }
        if !word.isEmpty && word.unicodeScalars.allSatisfy(isPlain) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    /// ASCII letters, digits and `_-./:@%+=,`, and any non-ASCII character that is not a blank or
    /// a control character (shells give no meaning to `é` or `東`).
    private static func isPlain(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            let c = UInt8(scalar.value)
            return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
                || "_-./:@%+=,".utf8.contains(c)
        }
        switch scalar.properties.generalCategory {
        case .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator,
            .unassigned, .privateUse, .surrogate:
            return false
        default:
            return true
        }
    }
}
