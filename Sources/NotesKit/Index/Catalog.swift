import Foundation

/// The notes of a vault as the index cache knows them: records of the mapped index,
/// read in place. A note's strings are made only when it is shown or asked for, and its folded
/// text is only paged in when a search reads it. Notes read from their files this time are in
/// the index just written (or, when it could not be written, in one encoded in memory), so every
/// note is read the same way. Built by `NoteStore`.
public struct Catalog: Sendable {
    /// The index (base and delta).
    let index: IndexView?
    /// The records of `index` that are notes and current.
    let mapped: [Int32]
    /// The records of `index` that are the vault's other files (attachment targets), current.
    let files: [Int32]
    /// Problems with the vault's folders, and with the files read this time (new or changed since
    /// the index last saw them): a file's warnings are reported once per change, not on every command.
    public let diagnostics: [Diagnostic]
    /// How many files had to be read because the index did not know them as they are.
    public let filesRead: Int
    /// Whether the index file was written.
    public let indexWritten: Bool
    /// Why the index could not be written when it had to be; nil when it was written or was current.
    public let indexError: VaultError?
    /// Which steps resolve a link in this vault.
    let linkRules: LinkRules
    /// The vault-relative paths of the symlinks to folders that the walk did not follow.
    public internal(set) var symlinkedFolders: [String] = []
    /// The index file the catalog was read from, beside which it keeps what it works out once for
    /// the index as it is (`LinkedNotes`); nil for an index in memory.
    var indexPath: String?
    /// Which records' texts match a search, found as the notes were read (`Vault.catalog`).
    var textHits: TextHits?

    /// The number of notes.
    public var count: Int { mapped.count }

    /// Of the live records `live` of `index`, the notes and the vault's other files, in order.
    static func notesAndFiles(_ live: [Int], of index: IndexView) -> (notes: [Int32], files: [Int32]) {
        var notes: [Int32] = []
        var files: [Int32] = []
        notes.reserveCapacity(live.count)
        // The base's records read straight from it: a view's `flags` locates the file each time.
        let base = index.base
        for number in live {
            let flags = number < base.count ? base.flags(number) : index.flags(number)
            if flags & IndexLayout.isNote != 0 {
                notes.append(Int32(number))
            } else if flags & IndexLayout.isFile != 0 {
                files.append(Int32(number))
            }
        }
        return (notes, files)
    }

    /// Every note, in no particular order (this makes the strings of all of them).
    public var notes: [Note] { (0..<count).map { note(at: $0) } }

    /// The note at position `i` (see `MappedIndex.note(at:viaPread:)` for `viaPread`).
    func note(at i: Int, viaPread: Bool = false) -> Note {
        guard let index else { preconditionFailure("a catalog with notes has an index") }
        return index.note(at: Int(mapped[i]), viaPread: viaPread)
    }

    /// The `importedFrom` of every note that has one (`notes import` skips those entries).
    public var importedFrom: Set<String> {
        guard let index else { return [] }
        var sources = Set<String>()
        for number in mapped {
            let source = index.importedFrom(at: Int(number))
            if !source.isEmpty { sources.insert(source) }
        }
        return sources
    }

    /// The folded title and tags of the note at position `i`, in place.
    func tags(at i: Int) -> TagsChunk {
        guard let index else { preconditionFailure("a catalog with notes has an index") }
        return index.tagsChunk(Int(mapped[i]))
    }

    /// Every note's folded aliases, by position.
    var foldedAliases: [[String]] {
        (0..<count).map { i in
            var aliases: [String] = []
            tags(at: i).forEachFoldedAlias { alias in
                aliases.append(String(decoding: alias, as: UTF8.self))
                return true
            }
            return aliases
        }
    }

    /// The keys of the links of the note at position `i`, in place.
    func linkKeys(at i: Int) -> LinkKeysChunk {
        guard let index else { preconditionFailure("a catalog with notes has an index") }
        return index.linksChunk(Int(mapped[i]))
    }

    /// The links of the note at position `i`, made whole (see `MappedIndex.note(at:viaPread:)` for
    /// `viaPread`).
    func links(at i: Int, viaPread: Bool = false) -> [IndexedLink] {
        guard let index else { preconditionFailure("a catalog with notes has an index") }
        return index.links(at: Int(mapped[i]), viaPread: viaPread)
    }

    /// Whether the note at position `i` matches `search` — its folded text holds every text term —
    /// and has every tag of the tag terms and of `tags` (folded), or one nested below it.
    func matches(_ search: SearchQuery, tags: [[UInt8]], at i: Int) -> Bool {
        guard let index else { preconditionFailure("a catalog with notes has an index") }
        return Catalog.matches(search, tags: tags, record: Int(mapped[i]), of: index)
    }

    /// `matches(_:tags:at:)` of record `number` of `index`: for a loop over many notes, which
    /// takes the index once rather than a copy of it per note.
    /// `textHit`: whether the record's text matches `search` (a plain one), where that is known.
    /// `firstTerm`: the probes of a plain search's first text term (`withFirstTermProbes`), for the
    /// text to be checked and searched for it in one pass.
    static func matches(
        _ search: SearchQuery, tags: [[UInt8]], record number: Int, of index: IndexView, textHit: Bool? = nil,
        firstTerm: TextFolding.Probes? = nil
    ) -> Bool {
        if search.isPlain {
            if !search.textTerms.isEmpty
                && !(textHit ?? textMatches(search, record: number, of: index, firstTerm))
            {
                return false
            }
            if search.tagTerms.isEmpty && tags.isEmpty { return true }
            let chunk = index.tagsChunk(number)
            return chunk.hasTags(search.tagTerms) && chunk.hasTags(tags)
        }
        let chunk = index.tagsChunk(number)
        guard chunk.hasTags(search.tagTerms) && chunk.hasTags(tags) else { return false }
        let text = search.readsText ? index.textBytes(number) : UnsafeRawBufferPointer(start: nil, count: 0)
        return search.matches(folded: text, hasTag: { chunk.hasTags([$0]) })
    }

    /// Whether the text of record `number` holds every text term of the plain `search`, the first
    /// found through `firstTerm` where given.
    private static func textMatches(
        _ search: SearchQuery, record number: Int, of index: IndexView, _ firstTerm: TextFolding.Probes?
    ) -> Bool {
        guard let firstTerm else { return search.matches(folded: index.textBytes(number)) }
        let (text, found) = index.textBytes(number, finding: firstTerm)
        return found
            && search.textTerms.dropFirst().allSatisfy { TextFolding.firstIndex(of: $0, in: text) != nil }
    }

    /// How the title of the note at position `i` answers `search` (see `SearchQuery.titleRank`).
    func titleRank(_ search: SearchQuery, at i: Int) -> UInt8 {
        guard let index else { preconditionFailure("a catalog with notes has an index") }
        guard let title = index.tagsChunk(Int(mapped[i])).foldedTitle else { return 2 }
        return search.titleRank(title)
    }

    /// How many of the notes have a part (text, strings, tags, links) that fails its checksum in
    /// the index: what `notes index` checks, reading every part (commands check only what they read).
    public var damagedNotes: Int {
        guard let index else { return 0 }
        return Parallel.map(count: count, chunk: 1024) { i in
            let (file, number) = index.locate(Int(mapped[i]))
            return file.isSound(number) ? 0 : 1
        }.reduce(0, +)
    }

    /// Whether the name of the note at position `i` may be that of a conflict copy.
    func mayBeConflictCopy(at i: Int) -> Bool {
        guard let index else { preconditionFailure("a catalog with notes has an index") }
        return index.flags(Int(mapped[i])) & IndexLayout.mayBeConflictCopy != 0
    }

    /// The date `order` sorts the note at position `i` by.
    func date(at i: Int, order: SortOrder) -> Double {
        guard let index else { preconditionFailure("a catalog with notes has an index") }
        return index.date(at: Int(mapped[i]), order: order)
    }

    /// Calls `body` with the UTF-8 bytes of the vault path of the note at position `i`.
    func withPath<R>(at i: Int, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        guard let index else { preconditionFailure("a catalog with notes has an index") }
        let (file, n) = index.locate(Int(mapped[i]))
        return body(file.pathBytes(n))
    }

    /// The position of the note at the vault path `path`, if the catalog has it.
    func position(ofPath path: String) -> Int? {
        guard let record = index?.find(path) else { return nil }
        return mapped.firstIndex(of: Int32(record))
    }

    /// Calls `body` with the UTF-8 bytes of the ID of the note at position `i`.
    func withID<R>(at i: Int, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        guard let index else { preconditionFailure("a catalog with notes has an index") }
        return index.withID(at: Int(mapped[i]), body)
    }

    /// The notes a query selects (`selected(_:)`), in its order, made into `Note`s: the search
    /// path of ID completion, and of `list` and `search` but for their plain piped rows (those
    /// come from `renderRows`, which selects the same notes).
    public func run(_ query: NoteQuery) -> [Note] {
        let positions = selected(query)
        defer { Trace.mark("sort+notes") }
        // The few notes a one-off command shows are read with `pread`: through the mapping, the
        // kernel would map whole runs of the page cache around each (megabytes for 20 notes).
        let viaPread = query.oneOff && positions.count <= 64
        // Thousands of hits (a search) are made into notes on all cores.
        if positions.count > 2048 {
            return Parallel.map(count: positions.count, chunk: 512) { i in note(at: positions[i]) }
        }
        return positions.map { note(at: $0, viaPread: viaPread) }
    }

    /// Appends a plain row to the bytes in `out`, given the note's ID and title as UTF-8 bytes and
    /// the date its order shows (`renderRows`).
    public typealias RowRenderer =
        @Sendable (
            _ id: UnsafeRawBufferPointer, _ title: UnsafeRawBufferPointer, _ date: Double,
            _ out: inout [UInt8]
        ) -> Void

    /// Plain rows of `run(query)`'s notes, read from the index without making the notes: `render`
    /// appends each note's row to a buffer, given its ID and title as UTF-8 bytes (those of
    /// `Note.id` and `Note.title`) and its date in `order` (`SortOrder.date(of:)`); the rows come
    /// back joined, in order. Thousands of rows (a search) are rendered on all cores, and no
    /// string is made of them but where a title needs repair or an ID is not cut by bytes.
    public func renderRows(
        _ query: NoteQuery, order: SortOrder, _ render: RowRenderer
    ) -> [UInt8] {
        guard let index else { return [] }
        let positions = selected(query)
        defer { Trace.mark("sort+notes") }
        // As `run` reads them.
        let viaPread = query.oneOff && positions.count <= 64
        @Sendable func rows(_ range: Range<Int>) -> [UInt8] {
            var out: [UInt8] = []
            out.reserveCapacity(range.count * 80)
            for position in positions[range] {
                let date = date(at: position, order: order)
                index.withTitle(at: Int(mapped[position]), viaPread: viaPread) { title in
                    // Repaired as `Note.title` is, where the stored bytes are not UTF-8 (damage).
                    guard UTF8Bytes.isValid(title.assumingMemoryBound(to: UInt8.self)) else {
                        var repaired = String(decoding: title, as: UTF8.self)
                        return repaired.withUTF8 { repaired in
                            withNoteID(at: position) {
                                render($0, UnsafeRawBufferPointer(repaired), date, &out)
                            }
                        }
                    }
                    withNoteID(at: position) { render($0, title, date, &out) }
                }
            }
            return out
        }
        guard positions.count > 2048 else { return rows(0..<positions.count) }
        return Parallel.map(count: positions.count, runsOf: 512, rows).flatMap { $0 }
    }

    /// Calls `body` with the bytes of the ID `Note.id(forPath:)` makes of the path of the note at
    /// position `i`: the path without `.md`, cut by bytes unless a byte outside ASCII stands
    /// before the dot (a letter that may take the dot into its Character, which `hasSuffix` then
    /// does not see) or the path is shorter than `x.md`, where the string is made.
    private func withNoteID<R>(at i: Int, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        let plain = withPath(at: i) { path in path.count >= 4 && path[path.count - 4] < 0x80 }
        if plain { return withID(at: i, body) }
        var id = Note.id(forPath: withPath(at: i) { String(decoding: $0, as: UTF8.self) })
        return id.withUTF8 { body(UnsafeRawBufferPointer($0)) }
    }

    /// The positions of the notes a query selects — every term in the searchable text, every tag
    /// among the note's tags, kept by its filter, on all cores — sorted in its order (a conflict
    /// copy right after its original) and cut to its limit: those `run` makes notes of.
    func selected(_ query: NoteQuery) -> [Int] {
        // The positions of the hits; nil when every note is one (no search).
        var hits: [Int]?
        let tags = Catalog.foldedTags(query.tags)
        let selection = self.selection(query.filter, order: query.order)
        if !query.search.isEmpty || !tags.isEmpty || selection != nil {
            // Large enough that releasing the texts read (one `madvise` a chunk, whose TLB
            // flush interrupts the other cores) is rare (25 times at 100,000 notes: a quarter of
            // the calls of chunks of 1,024, 3 to 6 % off a search), small enough to share the work
            // out; a core keeps a chunk's texts mapped (about 7 MB) until it lets go of them.
            let chunk = 4096
            // Known already when every note was just read (no index yet) for this very search.
            let known = textHits.flatMap { $0.search == query.search ? $0.byRecord : nil }
            let readsText = query.search.readsText && known == nil
            let (index, mapped) = (self.index, self.mapped)
            let found = Parallel.map(count: count, runsOf: chunk) { positions -> [Int] in
                guard let index else { return [] }
                let found = query.search.withFirstTermProbes { firstTerm in
                    positions.filter { i in
                        selection?.keeps(i, record: Int(mapped[i]), of: index) != false
                            && Catalog.matches(
                                query.search, tags: tags, record: Int(mapped[i]), of: index,
                                textHit: known.map { $0[Int(mapped[i])] }, firstTerm: firstTerm)
                    }
                }
                if query.oneOff && readsText { index.releaseText(of: mapped[positions]) }
                return found
            }
            hits = found.flatMap { $0 }
        }
        Trace.mark("scan")
        let total = hits?.count ?? count
        // A few of many (`list --limit 20`) are selected in one pass rather than sorted.
        let selecting = query.limit.map { $0 < total / 8 } ?? false
        var positions: [Int]
        if !selecting, let sorted = sortedByDate(query, of: hits) {
            positions = sorted
            if let limit = query.limit, positions.count > limit { positions.removeSubrange(limit...) }
        } else {
            // `reverse` flips the groups of relevance and the list order within them (a conflict
            // copy still right after its original).
            let listed = ordering(query.order, of: hits, readingDatesOnce: !selecting, reverse: query.reverse)
            let first =
                query.ranked ? ranking(query.search, of: hits, then: listed, reverse: query.reverse) : listed
            if selecting, let limit = query.limit {
                positions = []
                positions.reserveCapacity(limit + 1)
                for position in 0..<total {
                    guard positions.count < limit || first(position, positions[positions.count - 1]) else {
                        continue
                    }
                    var low = 0
                    var high = positions.count
                    while low < high {
                        let middle = (low + high) / 2
                        if first(positions[middle], position) { low = middle + 1 } else { high = middle }
                    }
                    positions.insert(position, at: low)
                    if positions.count > limit { positions.removeLast() }
                }
            } else {
                positions = (0..<total).sorted(by: first)
                if let limit = query.limit, positions.count > limit { positions.removeSubrange(limit...) }
            }
        }
        return hits.map { hits in positions.map { hits[$0] } } ?? positions
    }

    /// Whether the note at position `hits[a]` comes before the one at `hits[b]` in `order`
    /// (`updated` and `created` newest first, `title` in localized standard order; ties — dates
    /// are kept to the second — by the file modified last, then by ID in code-point order, which
    /// UTF-8 byte order is). IDs are unique, so the order is total and a
    /// reversed order is the same list backwards. `hits` nil means every position. A sort reads
    /// each date many times, so `readingDatesOnce` reads them all first; a selection reads them
    /// in place. Conflict copies are placed by `ordering(_:of:readingDatesOnce:reverse:)`.
    func ordering(_ order: SortOrder, of hits: [Int]?, readingDatesOnce: Bool) -> (Int, Int) -> Bool {
        let total = hits?.count ?? count
        func hit(_ p: Int) -> Int { hits?[p] ?? p }
        // Dates to the second, as they are shown and kept in front matter: a file without one
        // (its mtime for a date) does not outrank a note written after it that second. Read once
        // with each mtime, side by side, for a sort.
        let keys =
            readingDatesOnce && order != .title
            ? (0..<total).map { sortKey(at: hit($0), order: order, position: $0) } : []
        let titles = order == .title ? (0..<total).map { note(at: hit($0)).title } : []
        return { a, b in
            if order == .title {
                let compared = titles[a].localizedStandardCompare(titles[b])
                if compared != .orderedSame { return compared == .orderedAscending }
            } else if !keys.isEmpty {
                return keys[a].precedes(keys[b]) ?? idPrecedes(hit(a), hit(b))
            } else {
                let (x, y) = (date(at: hit(a), order: order), date(at: hit(b), order: order))
                if x.rounded(.down) != y.rounded(.down) { return x > y }
            }
            let (x, y) = (status(at: hit(a)).mtime, status(at: hit(b)).mtime)
            if x != y { return x > y }
            return idPrecedes(hit(a), hit(b))
        }
    }

    /// What a sort by date compares first: the date to the second, then the file's mtime (newest
    /// first); the ID breaks a tie of both.
    private struct SortKey {
        var second: Double
        var mtime: Int64
        /// The position among the hits.
        var position: Int

        /// Whether this comes first; nil when only the IDs can tell.
        func precedes(_ other: SortKey) -> Bool? {
            if second != other.second { return second > other.second }
            if mtime != other.mtime { return mtime > other.mtime }
            return nil
        }
    }

    /// The sort key of the note at position `i`, which is `position` among the hits.
    private func sortKey(at i: Int, order: SortOrder, position: Int) -> SortKey {
        guard let index else { preconditionFailure("a catalog with notes has an index") }
        let (file, n) = index.locate(Int(mapped[i]))
        return SortKey(
            second: file.date(at: n, order: order).rounded(.down), mtime: file.mtime(n), position: position)
    }

    /// Whether the ID of the note at position `i` comes before that of the note at `j`.
    private func idPrecedes(_ i: Int, _ j: Int) -> Bool {
        withID(at: i) { x in withID(at: j) { y in Catalog.precedes(x, y) } }
    }

    /// The positions of `hits` (nil: every note) sorted in `query`'s order, when that order is
    /// by date alone — not by title or relevance, and no conflict copy among the notes to place
    /// after its original: the keys read once and sorted in place, without a comparison closure
    /// per pair, for a search of thousands of hits. The order `ordering(_:of:readingDatesOnce:)`
    /// gives, reversed with `reverse` (a total order, so the same list backwards).
    private func sortedByDate(_ query: NoteQuery, of hits: [Int]?) -> [Int]? {
        guard query.order != .title, !query.ranked, originalsOfCopies().isEmpty else { return nil }
        let total = hits?.count ?? count
        var keys = (0..<total).map { sortKey(at: hits?[$0] ?? $0, order: query.order, position: $0) }
        // By the dates alone, a comparison that captures nothing (thousands of hits sort in a
        // fraction of the time a closure reading the IDs takes); then each run of equal dates,
        // rare, by ID.
        keys.sort { a, b in a.precedes(b) == true }
        var start = 0
        while start < keys.count {
            var end = start + 1
            while end < keys.count && keys[start].precedes(keys[end]) == nil { end += 1 }
            if end - start > 1 {
                keys[start..<end].sort { a, b in
                    idPrecedes(hits?[a.position] ?? a.position, hits?[b.position] ?? b.position)
                }
            }
            start = end
        }
        return query.reverse ? keys.reversed().map(\.position) : keys.map(\.position)
    }

    /// `listed` with the notes whose title answers `search` best first (`titleRank`, read once per
    /// hit, from the folded titles the index keeps apart): the order of `relevance`, which costs
    /// only on the hits. With `reverse`, the best group comes last.
    func ranking(
        _ search: SearchQuery, of hits: [Int]?, then listed: @escaping (Int, Int) -> Bool,
        reverse: Bool = false
    ) -> (Int, Int) -> Bool {
        guard search.ranksTitles else { return listed }
        let total = hits?.count ?? count
        let ranks = (0..<total).map { titleRank(search, at: hits?[$0] ?? $0) }
        return { a, b in ranks[a] != ranks[b] ? (ranks[a] < ranks[b]) != reverse : listed(a, b) }
    }

    /// Whether bytes `x` come before `y` in lexicographic byte order.
    static func precedes(_ x: UnsafeRawBufferPointer, _ y: UnsafeRawBufferPointer) -> Bool {
        let common = min(x.count, y.count)
        if common > 0, let a = x.baseAddress, let b = y.baseAddress {
            let compared = memcmp(a, b, common)
            if compared != 0 { return compared < 0 }
        }
        return x.count < y.count
    }
}

/// Whether the text of each record of a new index matches a search, found as the notes were read
/// (`Vault.catalog(search:)`): the search then reads no text again.
struct TextHits: Sendable {
    let search: SearchQuery
    /// By record number.
    let byRecord: [Bool]
}
