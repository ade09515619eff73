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

    /// The conflict copies whose original is a note of this catalog, by position, each with its
    /// original's position. Such a copy is a second version of a note, not a note of its own: it
    /// counts in no tag and is no backlink, no file name or title resolves a link to it, and it
    /// sorts right after its original. A copy whose original is gone is a note like any other.
    /// A pass over a flag of each note; the rest only when there are copies.
    func originalsOfCopies() -> [Int: Int] {
        guard let index else { return [:] }
        var copiesOf: [Int32: [Int]] = [:]
        for position in 0..<count where mayBeConflictCopy(at: position) {
            let copy = withPath(at: position) { ConflictCopy(path: String(decoding: $0, as: UTF8.self)) }
            if let copy, let record = index.find(copy.original) {
                copiesOf[Int32(record), default: []].append(position)
            }
        }
        guard !copiesOf.isEmpty else { return [:] }
        var originals: [Int: Int] = [:]
        for (position, record) in mapped.enumerated() {
            for copy in copiesOf[record] ?? [] { originals[copy] = position }
        }
        return originals
    }

    /// `ordering(order, of: hits, readingDatesOnce:)`, reversed with `reverse`, with each conflict
    /// copy whose original is a note sorted right after it — where the original is or would be,
    /// also when only the copy is a hit, so the order of a search is always that of the whole list
    /// filtered; several copies of a note by ID, in either direction. The one order of `run` and of
    /// the browser's `hits(order:)`.
    func ordering(
        _ order: SortOrder, of hits: [Int]?, readingDatesOnce: Bool, reverse: Bool
    ) -> (Int, Int) -> Bool {
        let originals = originalsOfCopies()
        guard !originals.isEmpty else {
            let precedes = ordering(order, of: hits, readingDatesOnce: readingDatesOnce)
            return reverse ? { a, b in precedes(b, a) } : precedes
        }
        let total = hits?.count ?? count
        func hit(_ p: Int) -> Int { hits?[p] ?? p }
        // The places of the copies and their originals among the hits; the originals that are no
        // hits get places after them, to be sorted by.
        let involved = Set(originals.keys).union(originals.values)
        var places: [Int: Int] = [:]
        for place in 0..<total where involved.contains(hit(place)) { places[hit(place)] = place }
        var sorted = hits
        if var extended = hits {
            for original in Set(originals.values).sorted() where places[original] == nil {
                places[original] = extended.count
                extended.append(original)
            }
            sorted = extended
        }
        let precedes = ordering(order, of: sorted, readingDatesOnce: readingDatesOnce)
        let ordered = reverse ? { a, b in precedes(b, a) } : precedes
        // Where each copy sorts: at its original's place (a copy of a copy, at the note both copy).
        var anchors = Array(0..<total)
        for (copy, place) in places where place < total {
            var current = copy
            var steps = 0
            while let original = originals[current], let at = places[original], steps < originals.count {
                anchors[place] = at
                current = original
                steps += 1
            }
        }
        return { a, b in
            let (x, y) = (anchors[a], anchors[b])
            if x != y { return ordered(x, y) }
            if a == b { return false }
            if a == x { return true }
            if b == y { return false }
            return self.withID(at: hit(a)) { i in self.withID(at: hit(b)) { j in Catalog.precedes(i, j) } }
        }
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
