/// A note read from its file: its summary plus everything needed to show or rewrite it.
public struct LoadedNote: Sendable {
    /// What the index would know of it.
    public var note: Note
    /// The parsed file.
    public var document: NoteDocument
    /// The file's bytes as read (an edit is refused when the file no longer holds them).
    public var bytes: [UInt8]
    /// The file's status as read.
    public var status: FileStatus
    /// Problems found in the file.
    public var diagnostics: [Diagnostic]

    /// The body, as written in the file.
    public var body: String { document.body }

    /// What `edit` replaces (and shows in the editor): the body, or the whole file after its
    /// byte order mark when its front matter holds conflict markers.
    public var editableText: String {
        document.frontMatterHasMarkers ? (document.frontMatter?.text ?? "") + body : body
    }

    /// The lines search looks in before the body: the title when it is not a body line (front
    /// matter or file name), then the front-matter aliases, one a line.
    public var searchableHead: [String] { (note.titleIsOutsideBody ? [note.title] : []) + document.aliases }

    /// The text search looks in: `searchableHead`, a line each, then the body. A match only in an
    /// alias has that alias as its snippet, since it is the first line holding the term.
    public var searchableText: String { searchableHead.map { $0 + "\n" }.joined() + body }
}
