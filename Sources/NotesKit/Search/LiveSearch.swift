/// The search of a list that re-filters on every keystroke (SPEC §7): each query reads the texts
/// of as few notes as it can. A query that narrows a recent one (a term typed on, a term added)
/// re-checks only that one's hits, the fewest there are; a query seen a moment ago (Backspace
/// back to it) costs nothing; anything else checks every note. The order is sorted once, when
/// the live search is made for a catalog.
public struct LiveSearch: Sendable {
    /// The hits of the last query.
    public private(set) var hits: SearchHits
    /// Every note in order: the hits of the empty query.
    private let all: SearchHits
    /// Recent queries' hits, the latest last.
    private var recent: [SearchHits] = []

    /// How many recent queries are kept (each costs four bytes per hit).
    static let memory = 16

    /// A live search over `catalog` in `order`, showing every note.
    public init(catalog: Catalog, order: SortOrder) {
        all = catalog.hits(order: order)
        hits = all
    }

    /// The catalog searched.
    public var catalog: Catalog { all.catalog }

    /// The order of the hits.
    public var order: SortOrder { all.order }

    /// Runs `query`, making its hits the current ones.
    public mutating func search(_ query: SearchQuery) {
        if query.foldedTerms == hits.search.foldedTerms { return }
        if let seen = recent.lastIndex(where: { $0.search.foldedTerms == query.foldedTerms }) {
            let again = recent.remove(at: seen)
            recent.append(again)
            hits = SearchHits(catalog: again.catalog, search: query, order: again.order, ordered: again.ordered,
                              positions: again.positions, checked: 0)
            return
        }
        var candidates = all
        for earlier in recent + [hits] where earlier.count < candidates.count && query.narrows(earlier.search) {
            candidates = earlier
        }
        hits = candidates.filtered(candidates.positions, by: query)
        if !query.isEmpty {
            recent.append(hits)
            if recent.count > LiveSearch.memory { recent.removeFirst() }
        }
    }
}
