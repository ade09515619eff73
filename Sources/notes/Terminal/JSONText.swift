import NotesKit

/// A JSON value written with its keys in a fixed order (the schema the README documents), which
/// `JSONSerialization` cannot do.
enum JSONText {
    case string(String)
    case number(Int)
    case bool(Bool)
    case null
    case object([(String, JSONText)])
    case array([JSONText])

    /// A string, or null when nil.
    static func optional(_ value: String?) -> JSONText { value.map { .string($0) } ?? .null }

    /// The text, indented by two spaces per level, with a final newline.
    var rendered: String {
        var out = ""
        write(to: &out, indent: "")
        return out + "\n"
    }

    private func write(to out: inout String, indent: String) {
        switch self {
        case .string(let s): JSONValue.quote(s, into: &out)
        case .number(let n): out += String(n)
        case .bool(let b): out += b ? "true" : "false"
        case .null: out += "null"
        case .array(let items):
            if items.isEmpty {
                out += "[]"
                return
            }
            out += "[\n"
            for (i, item) in items.enumerated() {
                out += indent + "  "
                item.write(to: &out, indent: indent + "  ")
                out += i == items.count - 1 ? "\n" : ",\n"
            }
            out += indent + "]"
        case .object(let pairs):
            if pairs.isEmpty {
                out += "{}"
                return
            }
            out += "{\n"
            for (i, (key, value)) in pairs.enumerated() {
                out += indent + "  "
                JSONValue.quote(key, into: &out)
                out += ": "
                value.write(to: &out, indent: indent + "  ")
                out += i == pairs.count - 1 ? "\n" : ",\n"
            }
            out += indent + "}"
        }
    }

    /// The fields of a note: id, path, title, createdAt, updatedAt, preview, tags.
    static func noteFields(_ note: Note) -> [(String, JSONText)] {
        [
            ("id", .string(note.id)),
            ("path", .string(note.path)),
            ("title", .string(note.title)),
            ("createdAt", .string(NoteDate.format(note.createdAt))),
            ("updatedAt", optional(note.updatedAt.map(NoteDate.format))),
            ("preview", .string(note.preview)),
            ("tags", .array(note.tags.map { .string($0) })),
        ]
    }

    /// The fields that say which note something is in or goes to: id, path, title.
    static func noteIdentity(_ note: Note?) -> [(String, JSONText)] {
        [("id", optional(note?.id)), ("path", optional(note?.path)), ("title", optional(note?.title))]
    }
}
