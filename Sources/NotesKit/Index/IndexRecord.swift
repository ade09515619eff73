/// One file as the index records it: how it looked on disk, and what it held.
struct IndexRecord: Sendable {
    var path: String
    var size: Int64
    /// Nanoseconds since 1970 (`FileStatus.mtime`).
    var mtime: Int64
    var inode: UInt64
    /// Nanoseconds since 1970 (`FileStatus.ctime`).
    var ctime: Int64 = 0
    /// Nil when the file is not a readable note (not UTF-8, unreadable): it is skipped, with a warning.
    var note: Note?
    var warnings: [ParseWarning]
    var folded: FoldedText
    /// The note's tags and links as the index keeps them (`NoteRefs`); none for no note.
    var refs = NoteRefs.Encoded()
    /// A delta's note that the file is gone.
    var removed = false
}
