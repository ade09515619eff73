import NotesKit

/// Escape sequences and text measurement for the terminal.
enum ANSI {
    static let reset = "\u{1B}[0m"
    static let bold = "\u{1B}[1m"
    /// Ends bold (and faint) without touching the colours.
    static let normalIntensity = "\u{1B}[22m"
    static let underline = "\u{1B}[4m"
    static let underlineOff = "\u{1B}[24m"
    /// The terminal's own yellow, as git shows commit hashes.
    static let yellow = "\u{1B}[33m"

    /// A foreground colour: truecolor or the nearest xterm-256 entry.
    static func foreground(_ color: RGB, trueColor: Bool) -> String {
        trueColor ? "\u{1B}[38;2;\(color.r);\(color.g);\(color.b)m" : "\u{1B}[38;5;\(color.xterm256)m"
    }

    /// A foreground colour: truecolor, else its palette entry.
    static func foreground(_ paint: Paint, trueColor: Bool) -> String {
        let rgb = paint.rgb
        return trueColor ? "\u{1B}[38;2;\(rgb.r);\(rgb.g);\(rgb.b)m" : "\u{1B}[38;5;\(paint.code)m"
    }

    /// A background colour: truecolor, else its palette entry.
    static func background(_ paint: Paint, trueColor: Bool) -> String {
        background(paint.rgb, code: paint.code, trueColor: trueColor)
    }

    /// A background colour: truecolor, else the given xterm-256 entry (by default the nearest).
    static func background(_ color: RGB, code: Int? = nil, trueColor: Bool) -> String {
        trueColor ? "\u{1B}[48;2;\(color.r);\(color.g);\(color.b)m" : "\u{1B}[48;5;\(code ?? color.xterm256)m"
    }

    /// Whether UTF-8 `bytes` hold no control character (C0, DEL or C1), line feeds aside when
    /// `lineFeeds` allows them.
    static func isPrintable<S: Sequence>(_ bytes: S, lineFeeds: Bool = false) -> Bool
    where S.Element == UInt8 {
        var previous: UInt8 = 0
        return bytes.allSatisfy { byte in
            defer { previous = byte }
            return (byte >= 0x20 || (lineFeeds && byte == 0x0A)) && byte != 0x7F
                && !(previous == 0xC2 && (0x80..<0xA0).contains(byte))
        }
    }

    /// Control characters (tabs, escapes) replaced by spaces, so a title can never move the cursor.
    static func printable(_ text: String) -> String {
        // Almost every title is clean: check the bytes before building anything.
        if isPrintable(text.utf8) { return text }
        return String(
            String.UnicodeScalarView(
                text.unicodeScalars.map {
                    $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) ? " " : $0
                }))
    }
}
