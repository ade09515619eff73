/// One note of a listing (`list`, `search`), with what is shown beside it.
public struct ListedNote: Sendable {
    /// The note.
    public var note: Note
    /// The IDs of its conflict copies, in path order.
    public var conflictCopies: [String] = []
    /// Whether git has changes to it that are not committed; nil when not asked.
    public var uncommitted: Bool?
    /// The first line of its searchable text that holds a term of the search; nil when not asked
    /// or when none does.
    public var snippet: String?
}

extension NoteStore {
    /// The notes a query selects, in its order, each with its conflict copies; with `git`, whether
    /// git has uncommitted changes to it (one `git status` for the whole vault, never on the plain
    /// list's path); with a search, the snippet of each note `wantsSnippet` picks, read from its
    /// file for the notes shown only.
    public func listing(
        _ query: NoteQuery, git: Bool = false, wantsSnippet: (Note) -> Bool = { _ in false }
    ) throws(GitError) -> [ListedNote] {
        let uncommitted = git ? try uncommittedPaths() : nil
        var copies: [String: [String]] = [:]
        for copy in catalog.conflictCopies {
            copies[copy.original, default: []].append(Note.id(forPath: copy.path))
        }
        Trace.mark("conflict copies")
        return self.query(query).map { note in
            // Looked up only when there are copies: a lookup hashes the path first.
            var listed = ListedNote(note: note, conflictCopies: copies.isEmpty ? [] : copies[note.path] ?? [])
            listed.uncommitted = uncommitted.map { $0.contains(note.path) }
            if !query.search.isEmpty && wantsSnippet(note) {
                listed.snippet = snippet(for: note, query: query.search)
            }
            return listed
        }
    }
}
