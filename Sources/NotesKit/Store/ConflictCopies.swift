extension Catalog {
    /// The conflict copies among the notes, in path order. Only IDs that may be copies
    /// become strings, so this costs a pass over a flag of each note even at 100,000 notes.
    public var conflictCopies: [ConflictCopy] {
        // The index marks the names that may be copies (`ConflictCopy.mayBeCopy`): a flag read
        // per note, rather than every name searched on every listing.
        (0..<count).filter { mayBeConflictCopy(at: $0) }
            .compactMap { ConflictCopy(path: index?.path(at: Int(mapped[$0])) ?? "") }
            .sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
    }
}

/// A conflict copy and the note it is a copy of, each as read from its file now.
public struct ConflictPair: Sendable {
    /// The copy, by its name.
    public var copy: ConflictCopy
    /// The copy as a note; nil when its file can no longer be read.
    public var copyNote: Note?
    /// The original; nil when it is gone or cannot be read.
    public var originalNote: Note?
    /// Whether the original's file is there.
    public var originalExists: Bool
}

extension NoteStore {
    /// The conflict copies in the vault, in path order, each with its original (`notes conflicts`).
    public func conflictPairs() -> [ConflictPair] {
        catalog.conflictCopies.map { copy in
            ConflictPair(
                copy: copy, copyNote: try? vault.load(path: copy.path).note,
                originalNote: try? vault.load(path: copy.original).note,
                originalExists: FileSystem.status(vault.fullPath(copy.original)) != nil)
        }
    }
}
