extension Catalog {
    /// The conflict copies among the notes (SPEC §11), in path order. Only IDs that may be copies
    /// become strings, so this costs a pass over the IDs even at 100,000 notes.
    public var conflictCopies: [ConflictCopy] {
        (0..<count).filter { withID(at: $0) { ConflictCopy.mayBeCopy($0) } }
            .compactMap { ConflictCopy(path: index?.path(at: Int(mapped[$0])) ?? "") }
            .sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
    }
}
