/// The content rules (those of the iOS app MyNotes grew out of): text is trimmed of white space and
/// newlines and stored with one final newline; text that is empty after trimming is never saved.
public enum Content {
    /// `text` as it is saved; throws `emptyNote` when nothing is left after trimming.
    public static func normalize(_ text: String) throws(VaultError) -> String {
        // New text is stored with LF; a CRLF note gets CRLF back when it is rewritten.
        let trimmed = editable(text).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .emptyNote }
        return trimmed + "\n"
    }

    /// A note's body as an editor shows it: LF line endings.
    public static func editable(_ body: String) -> String {
        body.replacingOccurrences(of: "\r\n", with: "\n")
    }
}
