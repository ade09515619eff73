/// The search of a list that re-filters on every keystroke: each query reads the texts
/// of as few notes as it can, and no more than the screen needs before it is drawn. A query that
/// narrows a recent one (a term typed on, a term added) re-checks only what that one left — its
/// hits, and the notes it had not checked yet —, the fewest there are; a query seen a moment ago
/// (Backspace back to it) starts where it was; anything else checks every note. The order is
/// sorted once, when the live search is made for a catalog.
public struct LiveSearch: Sendable {
    /// The hits of the last query (found as far as it was asked to go).
    public private(set) var hits: SearchHits
    /// Every note in order: the hits of the empty query.
    private let all: SearchHits
    /// Recent queries' hits, the latest last.
    private var recent: [SearchHits] = []

    /// How many recent queries are kept (each costs four bytes per hit).
    static let memory = 16

    /// What every hit must be besides matching the query (the browser's `--tag`, `--since`…).
    public let filter: NoteFilter

    /// A live search over the notes of `catalog` that `filter` keeps, in `order`, showing them all.
    public init(catalog: Catalog, order: SortOrder, filter: NoteFilter = NoteFilter()) {
        all = catalog.hits(order: order, filter: filter)
        hits = all
        self.filter = filter
    }

    /// How many notes the filter keeps: the hits of the empty query.
    public var total: Int { all.count }

    /// The catalog searched.
    public var catalog: Catalog { all.catalog }

    /// The order of the hits.
    public var order: SortOrder { all.order }

    /// Runs `query`, making its hits the current ones; it checks notes until `wanted` hits are
    /// found or `deadline` passes (by default, all of them). `advance` goes on.
    public mutating func search(
        _ query: SearchQuery, toFind wanted: Int = .max, before deadline: ContinuousClock.Instant? = nil
    ) {
        if !query.findsTheSame(as: hits.search) {
            remember(hits)
            if let seen = recent.lastIndex(where: { $0.search.findsTheSame(as: query) }) {
                hits = recent.remove(at: seen).reused(as: query)
            } else {
                var candidates = all
                for earlier in recent where earlier.potential < candidates.potential {
                    if query.narrows(earlier.search) { candidates = earlier }
                }
                hits = candidates.narrowed(to: query)
            }
        } else {
            hits = hits.reused(as: query)
        }
        hits.advance(toFind: wanted, before: deadline)
    }

    /// Goes on finding the current query's hits (see `search`).
    public mutating func advance(toFind wanted: Int = .max, before deadline: ContinuousClock.Instant? = nil) {
        hits.advance(toFind: wanted, before: deadline)
    }

    /// Keeps `hits` among the recent ones, in place of older hits of the same query.
    private mutating func remember(_ hits: SearchHits) {
        guard !hits.search.isEmpty else { return }
        recent.removeAll { $0.search.findsTheSame(as: hits.search) }
        recent.append(hits)
        if recent.count > LiveSearch.memory { recent.removeFirst() }
    }
}
