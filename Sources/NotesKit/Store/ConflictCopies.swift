extension Catalog {
    /// The conflict copies among the notes (SPEC §11), in path order. Only IDs that may be copies
    /// become strings, so this costs a pass over a flag of each note even at 100,000 notes.
    public var conflictCopies: [ConflictCopy] {
        // The index marks the names that may be copies (`ConflictCopy.mayBeCopy`): a flag read
        // per note, rather than every name searched on every listing.
        (0..<count).filter { mayBeConflictCopy(at: $0) }
            .compactMap { ConflictCopy(path: index?.path(at: Int(mapped[$0])) ?? "") }
            .sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
    }
}
