import NotesKit

/// Renders the notes of `list` and `search`: rows, query and style in, text out.
enum ListView {
    /// What to print: stdout's text, and a sentence for stderr (when nothing was found).
    struct Text: Equatable {
        var stdout: String
        var notice: String?
    }

    /// A JSON array (with `snippet` for a search), human rows or piped ones; with no rows on a
    /// terminal, a sentence instead. With `marks`, piped rows get a fourth column with the marks.
    static func render(
        _ rows: [NoteRow], query: SearchQuery?, json: Bool, marks: Bool = false, style: OutputStyle
    ) -> Text {
        if json {
            let items = rows.map { row -> JSONText in
                var fields = JSONText.noteFields(row.note)
                if query != nil { fields.append(("snippet", .optional(row.snippet))) }
                fields.append(("conflicted", .bool(row.note.conflicted)))
                fields.append(("conflictCopies", .array(row.conflictCopies.map { .string($0) })))
                if let dirty = row.dirty { fields.append(("dirty", .bool(dirty))) }
                return .object(fields)
            }
            return Text(stdout: JSONText.array(items).rendered)
        }
        if rows.isEmpty && style.human {
            let notice =
                query.map { $0.isEmpty ? "No notes yet." : "No notes match." }
                ?? "No notes yet; add one with 'notes add'."
            return Text(stdout: "", notice: notice)
        }
        return Text(stdout: NoteRows.render(rows, query: query, marks: marks, style: style))
    }
}
