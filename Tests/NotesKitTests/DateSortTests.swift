import Foundation
import TestSupport
import Testing

@testable import NotesKit

/// The sort of a search's hits by date, on keys read once, against the comparison it stands for.
@Suite struct DateSortTests {
    /// A search sorts its hits by date on keys read once; that order must be the one the
    /// comparison of `ordering` gives (the browser's, and a small limit's), with dates tied to
    /// the second, mtimes tied, and the ID left to decide, reversed or not, for hits and for a
    /// whole list.
    @Test func aSortByDateIsTheOrderOfTheComparison() throws {
        let files: [Sandbox.Item] =
            [.directory(".notes", [])]
            + (0..<120).map { n in
                let updated = n % 4 == 0 ? "updatedAt: 2026-01-0\(n % 3 + 1)T00:00:0\(n % 2)Z\n" : ""
                return .file(
                    "n\((n * 53) % 120).md",
                    "---\ncreatedAt: 2026-01-0\(n % 5 + 1)T00:00:00Z\n\(updated)---\n\(n % 3 == 0 ? "Fizz" : "Buzz")\n"
                )
            }
        try Sandbox(tree: files).test { root in
            for n in 0..<120 {
                var times = [
                    timespec(tv_sec: 1_700_000_000, tv_nsec: 0),
                    timespec(tv_sec: 1_700_000_000 + n % 3, tv_nsec: n % 2 * 500),
                ]
                #expect(utimensat(AT_FDCWD, root + "/n\(n).md", &times, 0) == 0)
            }
            let catalog = store(try Vault(root: root)).refresh()
            for search in ["fizz", ""] {
                let query = SearchQuery(search)
                let hits: [Int]? =
                    search.isEmpty
                    ? nil : (0..<catalog.count).filter { catalog.matches(query, tags: [], at: $0) }
                for order in [NotesKit.SortOrder.updated, .created] {
                    for reverse in [false, true] {
                        let precedes = catalog.ordering(
                            order, of: hits, readingDatesOnce: false, reverse: reverse)
                        let expected = (0..<(hits?.count ?? catalog.count)).sorted(by: precedes).map {
                            catalog.note(at: hits?[$0] ?? $0).id
                        }
                        let ids = catalog.run(NoteQuery(search: query, order: order, reverse: reverse)).map(
                            \.id)
                        #expect(ids == expected, "\(search) \(order) reverse \(reverse)")
                        #expect(ids.count == (search.isEmpty ? 120 : 40))
                    }
                }
            }
        }
    }
}
