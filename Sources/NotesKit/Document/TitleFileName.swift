import Foundation

/// File names for new notes that keep the title as written (`fileNames: title`), as Obsidian
/// names notes, so that a `[[Project Plan]]` link finds `Project Plan.md` by its file name.
public enum TitleFileName {
    /// The longest name in UTF-8 bytes: file names have 255 bytes at most (NAME_MAX), and the
    /// name also needs room for `-N`, `.conflict-YYYYMMDD-HHMMSS` and `.md`.
    public static let maxBytes = 200

    /// The file name (without extension) for a note titled `title`: the title as written, with
    /// `/ \ : * ? " < > |` (which file systems refuse), `# ^ [ ]` (which break links) and control
    /// characters each turned into `-`; leading dots (a hidden file) and spaces dropped, and
    /// trailing dots and spaces (which Windows drops); cut to 200 bytes at a character boundary.
    /// Empty when nothing is left.
    public static func make(_ title: String) -> String {
        var scalars = String.UnicodeScalarView()
        var bytes = 0
        for scalar in title.unicodeScalars {
            if scalars.isEmpty && (scalar == "." || scalar.properties.isWhitespace) { continue }
            scalars.append(isReplaced(scalar) ? "-" : scalar)
            bytes += UTF8.width(scalar)
            // A title can be a whole 50 MB line; past the limit, a few more scalars are enough to
            // finish the character the cut falls in.
            if bytes > maxBytes + 64 { break }
        }
        var name = ""
        bytes = 0
        for character in String(scalars) {
            bytes += character.utf8.count
            if bytes > maxBytes { break }
            name.append(character)
        }
        while let last = name.unicodeScalars.last, last == "." || last.properties.isWhitespace {
            name.unicodeScalars.removeLast()
        }
        return name
    }

    /// Whether a character cannot be in a new file name: it cannot be in a file name on some system,
    /// or a link that names the file breaks at it, or it is a control character.
    static func isReplaced(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "/", "\\", ":", "*", "?", "\"", "<", ">", "|", "#", "^", "[", "]": true
        default: scalar.properties.generalCategory == .control
        }
    }
}
