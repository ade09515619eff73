/// The notes of one catalog that match a search, in an order, kept as positions in the catalog:
/// those whose title answers the search best first (as `relevance` ranks them), each group in the
/// order.
/// A longer query re-checks only these (`LiveSearch`), and a note's strings are made only when a
/// row shows it. The order is the one `Catalog.run` sorts by, worked out once per catalog and
/// shared by every search of it, so a keystroke filters and never sorts.
///
/// The hits are found in order, as far as they are needed: `advance` checks the candidates from
/// the first, a chunk at a time, and can stop once enough hits are found to fill a screen or a
/// deadline passes; it is called again to go on. The hits found so far are always the first ones
/// in the order.
public struct SearchHits: Sendable {
    /// The catalog the positions belong to.
    public let catalog: Catalog
    /// The search these are the hits of.
    public let search: SearchQuery
    /// The order of the hits.
    public let order: SortOrder
    /// Every note of the catalog in `order` (the hits of the empty search), shared by all hits of it.
    let ordered: [Int32]
    /// The notes that may match, in `order`: every note, or what a broader query left.
    let pool: [Int32]
    /// The folded titles of the catalog's notes, in one buffer, shared by every hits of it.
    let titles: FoldedTitles
    /// The pool ranked: the notes whose title answers the search best first, each group in order.
    let candidates: [Int32]
    /// How many candidates have been checked, from the first.
    private(set) var scanned: Int
    /// The positions of the checked candidates that match, in `order`.
    private(set) var positions: [Int32]
    /// How many notes' folded texts were read for this search since it was made or taken again.
    public private(set) var checked = 0

    /// The hits of `search` among `pool`, none checked yet (an empty search matches all). Ranking
    /// reads the folded title of each note of the pool, a few bytes apart in the index.
    /// `ranked` is the pool already ranked for this search, when known.
    init(
        catalog: Catalog, search: SearchQuery, order: SortOrder, ordered: [Int32], pool: [Int32],
        titles: FoldedTitles, ranked: [Int32]? = nil
    ) {
        self.catalog = catalog
        self.titles = titles
        self.search = search
        self.order = order
        self.ordered = ordered
        self.pool = pool
        if let ranked {
            candidates = ranked
        } else if search.ranksTitles {
            let ranks = Parallel.map(count: pool.count, chunk: 8192) { i in
                titles.rank(search, at: Int(pool[i]))
            }
            candidates = (0...2).flatMap { rank in
                pool.indices.lazy.filter { ranks[$0] == rank }.map { pool[$0] }
            }
        } else {
            candidates = pool
        }
        (scanned, positions) = search.isEmpty ? (candidates.count, candidates) : (0, [])
    }

    /// The number of hits found so far (all of them once `isComplete`).
    public var count: Int { positions.count }

    /// Whether every candidate has been checked.
    public var isComplete: Bool { scanned == candidates.count }

    /// How many notes might still be hits: the hits found and the candidates not checked yet.
    var potential: Int { positions.count + candidates.count - scanned }

    /// The hit at `rank` (0 is the first in the order), among those found.
    public func note(at rank: Int) -> Note { catalog.note(at: Int(positions[rank])) }

    /// The rank of the note with this ID among the hits found, comparing bytes (no strings are made).
    public func rank(ofID id: String) -> Int? {
        var id = id
        return id.withUTF8 { wanted -> Int? in
            let key = UnsafeRawBufferPointer(wanted)
            return positions.firstIndex { position in
                catalog.withID(at: Int(position)) {
                    $0.count == key.count && !Catalog.precedes($0, key)
                        && !Catalog.precedes(key, $0)
                }
            }
        }
    }

    /// Checks candidates, in order and on all cores, until at least `wanted` hits are found, all
    /// are checked, or `deadline` has passed (after one chunk at least). Chunks start small when
    /// few hits are wanted, so that a screenful of common hits costs little, and grow.
    public mutating func advance(toFind wanted: Int = .max, before deadline: ContinuousClock.Instant? = nil) {
        var chunk = wanted >= 128 ? 512 : max(16, wanted * 4)
        while scanned < candidates.count && positions.count < wanted {
            let slice = Array(candidates[scanned..<min(candidates.count, scanned + chunk)])
            let (catalog, search) = (self.catalog, self.search)
            let keep = Parallel.map(count: slice.count, chunk: 256) { i in
                catalog.matches(search, tags: [], at: Int(slice[i]))
            }
            for (i, position) in slice.enumerated() where keep[i] { positions.append(position) }
            scanned += slice.count
            checked += slice.count
            if let deadline, ContinuousClock.now >= deadline { break }
            chunk = min(chunk * 2, 16_384)
        }
    }

    /// The hits of `narrower`, a search whose every hit is one of these (see `SearchQuery.narrows`):
    /// its candidates are the hits found so far and the candidates not checked yet, in order.
    func narrowed(to narrower: SearchQuery) -> SearchHits {
        var left: [Int32]
        if candidates == pool {
            left = isComplete ? positions : positions + candidates[scanned...]
        } else {
            // Ranked, the hits are not in order: keep the pool's notes that are still in play.
            var kept = [Bool](repeating: false, count: catalog.count)
            for position in positions { kept[Int(position)] = true }
            for position in candidates[scanned...] { kept[Int(position)] = true }
            left = pool.filter { kept[Int($0)] }
        }
        return SearchHits(
            catalog: catalog, search: narrower, order: order, ordered: ordered, pool: left, titles: titles)
    }

    /// These hits, counted as found without reading anything (a query taken up again).
    func reused(as search: SearchQuery) -> SearchHits {
        var again = SearchHits(
            catalog: catalog, search: search, order: order, ordered: ordered, pool: pool, titles: titles,
            ranked: candidates)
        (again.scanned, again.positions) = (scanned, positions)
        return again
    }
}

extension Catalog {
    /// Every note `filter` keeps, in `order`, sorted as `run` sorts (see `ordering`): the hits of
    /// the empty search, from which any search of this catalog filters.
    public func hits(order: SortOrder, filter: NoteFilter = NoteFilter()) -> SearchHits {
        let precedes = ordering(order, of: nil, readingDatesOnce: true, reverse: false)
        var ordered = (0..<count).sorted(by: precedes).map { Int32($0) }
        if !filter.isEmpty {
            let kept = self.kept(by: filter, order: order)
            ordered.removeAll { !kept[Int($0)] }
        }
        return SearchHits(
            catalog: self, search: SearchQuery(""), order: order, ordered: ordered, pool: ordered,
            titles: FoldedTitles(self))
    }
}

/// The folded titles of a catalog's notes, by position, side by side in one buffer: what ranking
/// reads for every note of the pool on a keystroke, read there in a few milliseconds at 100,000
/// notes, where reading each from its index record (and checking it) took tens. Made once, with
/// the order, when the browser opens.
struct FoldedTitles: Sendable {
    private var bytes: [UInt8] = []
    /// Where each title starts in `bytes`; the next one's start is its end. -1: the index has none.
    private var starts: [Int32] = []
    private var ends: [Int32] = []

    init(_ catalog: Catalog) {
        starts.reserveCapacity(catalog.count)
        ends.reserveCapacity(catalog.count)
        bytes.reserveCapacity(catalog.count * 32)
        for position in 0..<catalog.count {
            if let title = catalog.tags(at: position).foldedTitle {
                starts.append(Int32(truncatingIfNeeded: bytes.count))
                bytes.append(contentsOf: title)
            } else {
                starts.append(-1)
            }
            ends.append(Int32(truncatingIfNeeded: bytes.count))
        }
    }

    /// `Catalog.titleRank`, from the buffer.
    func rank(_ search: SearchQuery, at position: Int) -> UInt8 {
        let start = Int(starts[position])
        guard start >= 0 else { return 2 }
        return bytes.withUnsafeBytes {
            search.titleRank(UnsafeRawBufferPointer(rebasing: $0[start..<Int(ends[position])]))
        }
    }
}

extension SearchQuery {
    /// Whether every note this query matches is sure to match `broader` too: each of `broader`'s
    /// folded text terms occurs inside one of this query's folded text terms (a term typed on, or a
    /// term added), and each of its tag terms is one of this query's or holds one nested below it
    /// (a tag is not matched inside a longer one: `#work` does not narrow `#wor`). Compared after
    /// folding, so a keystroke that changes how the text before it folds (`ﾃ` then `ﾞ` makes `デ`)
    /// does not count as narrowing. A query with `OR` or an excluded term narrows nothing and is
    /// narrowed by nothing: `a -br` finds more than `a -b`.
    public func narrows(_ broader: SearchQuery) -> Bool {
        guard isPlain && broader.isPlain else { return false }
        return broader.textTerms.allSatisfy { term in textTerms.contains { TextFolding.contains($0, term) } }
            && broader.tagTerms.allSatisfy { tag in
                tagTerms.contains { mine in mine.withUnsafeBytes { NoteTags.matches($0, tag) } }
            }
    }
}
