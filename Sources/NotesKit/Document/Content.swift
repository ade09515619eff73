/// The content rules (those of the iOS app MyNotes grew out of): text is trimmed of white space and
/// newlines and stored with one final newline; text that is empty after trimming is never saved.
public enum Content {
    /// `text` as it is saved; throws `emptyNote` when nothing is left after trimming.
    public static func normalize(_ text: String) throws(VaultError) -> String {
        // New text is stored with LF; a CRLF note gets CRLF back when it is rewritten.
        let text = editable(text)
        // Foundation's trim is slow on Linux: text that starts and ends with a printable ASCII
        // character (most notes) has nothing to trim.
        let trimmed = isTrimmed(text) ? text : text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .emptyNote }
        return trimmed + "\n"
    }

    /// Whether `text`'s first and last bytes are printable ASCII, so that no white space or newline
    /// of any kind is at either end.
    static func isTrimmed(_ text: String) -> Bool {
        let utf8 = text.utf8
        guard let first = utf8.first, let last = utf8.last else { return false }
        return (0x21...0x7E).contains(first) && (0x21...0x7E).contains(last)
    }

    /// A note's body as an editor shows it: LF line endings.
    public static func editable(_ body: String) -> String {
        body.utf8.contains(13) ? body.replacingOccurrences(of: "\r\n", with: "\n") : body
    }
}
