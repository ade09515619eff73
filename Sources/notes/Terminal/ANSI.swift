#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
import NotesKit

/// Escape sequences and text measurement for the terminal.
enum ANSI {
    static let reset = "\u{1B}[0m"
    static let bold = "\u{1B}[1m"

    /// A foreground colour: truecolor or the nearest xterm-256 entry.
    static func foreground(_ color: RGB, trueColor: Bool) -> String {
        trueColor ? "\u{1B}[38;2;\(color.r);\(color.g);\(color.b)m" : "\u{1B}[38;5;\(color.xterm256)m"
    }

    /// A background colour: truecolor or the nearest xterm-256 entry.
    static func background(_ color: RGB, trueColor: Bool) -> String {
        trueColor ? "\u{1B}[48;2;\(color.r);\(color.g);\(color.b)m" : "\u{1B}[48;5;\(color.xterm256)m"
    }

    /// The terminal's width in columns: the tty's size, else `COLUMNS`, else 80.
    static func width(environment: [String: String]) -> Int {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        if let columns = environment["COLUMNS"].flatMap(Int.init), columns > 0 { return columns }
        return 80
    }

    /// Columns a character takes: 0 for combining and zero-width, 2 for wide East Asian and emoji.
    static func columns(_ character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        let v = first.value
        if v < 0x20 || (0x7F..<0xA0).contains(v) { return 0 }
        // Emoji presentation asked for with VARIATION SELECTOR-16 (❤️, 1️⃣) is drawn wide.
        if character.unicodeScalars.contains("\u{FE0F}") { return 2 }
        if v < 0x300 { return 1 }
        switch first.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if first.properties.isEmojiPresentation { return 2 }
        switch v {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
             0xFFE0...0xFFE6, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }

    /// Columns a string takes.
    static func columns(_ text: String) -> Int { text.reduce(0) { $0 + columns($1) } }

    /// The text cut to at most `width` columns, ending in `…` when cut.
    static func truncate(_ text: String, to width: Int) -> String {
        if width <= 0 { return "" }
        if columns(text) <= width { return text }
        var out = ""
        var used = 0
        for character in text {
            let w = columns(character)
            if used + w > width - 1 { break }
            out.append(character)
            used += w
        }
        return out + "…"
    }

    /// The text padded with spaces to `width` columns.
    static func pad(_ text: String, to width: Int) -> String {
        let w = columns(text)
        return w >= width ? text : text + String(repeating: " ", count: width - w)
    }

    /// Control characters (tabs, escapes) replaced by spaces, so a title can never move the cursor.
    static func printable(_ text: String) -> String {
        // Almost every title is clean: check the bytes before building anything.
        var previous: UInt8 = 0
        let clean = text.utf8.allSatisfy { byte in
            defer { previous = byte }
            return byte >= 0x20 && byte != 0x7F && !(previous == 0xC2 && (0x80..<0xA0).contains(byte))
        }
        if clean { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map {
            $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) ? " " : $0
        }))
    }
}
