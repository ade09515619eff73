/// The notes of one catalog that match a search, in an order, kept as positions in the catalog:
/// a longer query re-checks only these (`LiveSearch`), and a note's strings are made only when a
/// row shows it. The order is the one `Catalog.run` sorts by, worked out once per catalog and
/// shared by every search of it, so a keystroke filters and never sorts.
public struct SearchHits: Sendable {
    /// The catalog the positions belong to.
    public let catalog: Catalog
    /// The search these are the hits of.
    public let search: SearchQuery
    /// The order of the hits.
    public let order: SortOrder
    /// Every note of the catalog in `order` (the hits of the empty search), shared by all hits of it.
    let ordered: [Int32]
    /// The positions that match, in `order`.
    let positions: [Int32]
    /// How many notes' folded texts were read to find these hits.
    public let checked: Int

    /// The number of hits.
    public var count: Int { positions.count }

    /// The hit at `rank` (0 is the first in the order).
    public func note(at rank: Int) -> Note { catalog.note(at: Int(positions[rank])) }

    /// The rank of the note with this ID among the hits, comparing bytes (no strings are made).
    public func rank(ofID id: String) -> Int? {
        var id = id
        return id.withUTF8 { wanted -> Int? in
            let key = UnsafeRawBufferPointer(wanted)
            return positions.firstIndex { position in
                catalog.withID(at: Int(position)) { $0.count == key.count && !Catalog.precedes($0, key)
                    && !Catalog.precedes(key, $0) }
            }
        }
    }

    /// The hits of `search` among these `candidates` (which must hold every note of the catalog
    /// that matches it), in the same order; only the candidates' texts are read, on all cores.
    func filtered(_ candidates: [Int32], by search: SearchQuery) -> SearchHits {
        guard !search.isEmpty else {
            return SearchHits(catalog: catalog, search: search, order: order, ordered: ordered, positions: ordered,
                              checked: 0)
        }
        let catalog = catalog
        let keep = Parallel.map(count: candidates.count, chunk: 256) { i, _ in
            catalog.folded(at: Int(candidates[i])).withUnsafeBytes { search.matches(folded: $0) }
        }
        var positions: [Int32] = []
        for (i, position) in candidates.enumerated() where keep[i] { positions.append(position) }
        return SearchHits(catalog: catalog, search: search, order: order, ordered: ordered, positions: positions,
                          checked: candidates.count)
    }
}

extension Catalog {
    /// Every note in `order`, sorted as `run` sorts (`updated` and `created` newest first,
    /// `title` in localized standard order; ties by ID in code-point order): the hits of the
    /// empty search, from which any search of this catalog filters.
    public func hits(order: SortOrder) -> SearchHits {
        let dates = (0..<count).map { date(at: $0, order: order) }
        let titles = order == .title ? (0..<count).map { note(at: $0).title } : []
        let sorted = (0..<count).sorted { a, b in
            if order == .title {
                let compared = titles[a].localizedStandardCompare(titles[b])
                if compared != .orderedSame { return compared == .orderedAscending }
            } else if dates[a] != dates[b] {
                return dates[a] > dates[b]
            }
            return withID(at: a) { x in withID(at: b) { y in Catalog.precedes(x, y) } }
        }
        let ordered = sorted.map { Int32($0) }
        return SearchHits(catalog: self, search: SearchQuery(""), order: order, ordered: ordered, positions: ordered,
                          checked: 0)
    }
}

extension SearchQuery {
    /// Whether every note this query matches is sure to match `broader` too: each of `broader`'s
    /// folded terms occurs inside one of this query's folded terms (a term typed on, or a term
    /// added). Compared after folding, so a keystroke that changes how the text before it folds
    /// (`ﾃ` then `ﾞ` makes `デ`) does not count as narrowing.
    public func narrows(_ broader: SearchQuery) -> Bool {
        broader.foldedTerms.allSatisfy { term in foldedTerms.contains { TextFolding.contains($0, term) } }
    }
}
