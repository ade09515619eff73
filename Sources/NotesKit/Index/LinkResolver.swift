import Foundation

/// Resolves links to the notes of a catalog, from the keys the index keeps, comparing
/// bytes. A wiki link goes, first that applies, to the note whose ID is its target; the note whose
/// file name (without extension) is its target — exactly, else ignoring case but not accents
/// (`CaselessName`) — the nearest to the linking note when several are (fewest folder steps, then
/// the smaller ID); a target with folders (`[[Plugins/Backlinks]]`) names the notes whose ID ends
/// with it, as a file name names them. Then, outside a vault with `.obsidian/` (`LinkRules`), the
/// note that lists the folded target among its folded aliases, and the note whose folded title it
/// is (the nearest too); else it is broken. A wiki target that starts with `./`, `../` or `/` is a
/// path (Obsidian's "relative path" link format): from the linking note's folder, or from the
/// vault's top with `/`; it goes to the note at that path or nowhere (`position(ofWikiPath:from:)`).
/// A Markdown link goes to the note at its path from the linking note's folder, else (Obsidian's
/// absolute-in-vault links) from the top of the vault (only from there with a leading `/`); one
/// without an extension (`[p](Plan)`, an attachment link by its form) goes to the note at its path
/// with `.md`, as Obsidian reads it, unless a file of the vault is its target (`note(ofBare:from:)`).
///
/// With `moving`, it resolves as the vault will be once that note is at its new path: the one
/// place a move asks "where will this link go?".
final class LinkResolver {
    let catalog: Catalog
    private let index: IndexView?
    /// The catalog position of each record of the index (-1 for none), and the notes by name and
    /// title: shared with the resolvers `moving(_:to:foldedTitle:)` makes.
    private let tables: Tables
    /// The note being moved, its new path and its new folded title (when titles are file names).
    private let moving: (position: Int, path: [UInt8], foldedTitle: [UInt8]?)?

    init(catalog: Catalog) {
        self.catalog = catalog
        index = catalog.index
        tables = Tables(catalog: catalog)
        moving = nil
    }

    private init(_ other: LinkResolver, moving: (position: Int, path: [UInt8], foldedTitle: [UInt8]?)) {
        catalog = other.catalog
        index = other.index
        tables = other.tables
        self.moving = moving
    }

    /// A resolver of the vault as it will be once the note at `position` is at `path` (its title
    /// then folded to `foldedTitle`, when titles are file names), sharing this one's tables.
    func moving(_ position: Int, to path: String, foldedTitle: [UInt8]?) -> LinkResolver {
        LinkResolver(self, moving: (position, Array(path.utf8), foldedTitle))
    }

    /// Notes by the hashes of their file names, titles, caseless file names and aliases, as the
    /// catalog has them (a moving resolver corrects for its note when it looks them up), made when
    /// first asked.
    private final class Tables {
        let catalog: Catalog
        let positions: [Int32]
        lazy var byName = HashTable(count: catalog.count) { position in
            self.catalog.withPath(at: position) { MappedIndex.hash(LinkResolver.name(ofPath: $0)) }
        }
        lazy var byTitle = HashTable(count: catalog.count) { position in
            self.catalog.tags(at: position).foldedTitle.map { MappedIndex.hash($0) }
        }
        /// The conflict copies beside their originals, which no name or title resolves a link to.
        lazy var copies = catalog.originalsOfCopies()
        /// The vault's other files, which take a Markdown link without an extension before a note.
        let files: VaultFiles
        lazy var byCaselessName = HashTable(count: catalog.count) { position in
            self.catalog.withPath(at: position) { CaselessName.hash(LinkResolver.name(ofPath: $0)) }
        }
        lazy var byAlias = HashTable(count: catalog.count) { (position: Int, file: (UInt64) -> Void) in
            self.catalog.tags(at: position).forEachFoldedAlias { alias in
                file(MappedIndex.hash(alias))
                return true
            }
        }

        /// How many tables there are, and the one `make` makes (the list of them all, for
        /// `makeTables`: a table added above is added here too).
        static let count = 5
        func make(_ table: Int) {
            switch table {
            case 0: _ = byName
            case 1: _ = byTitle
            case 2: _ = copies
            case 3: _ = byCaselessName
            default: _ = byAlias
            }
        }

        init(catalog: Catalog) {
            self.catalog = catalog
            files = VaultFiles(catalog: catalog)
            let index = catalog.index
            var positions = [Int32](
                repeating: -1, count: (index?.base.count ?? 0) + (index?.delta?.count ?? 0))
            for (position, record) in catalog.mapped.enumerated() { positions[Int(record)] = Int32(position) }
            self.positions = positions
        }
    }

    /// Makes every table now, side by side, so that threads can then resolve with this resolver
    /// at once (each only reads it). Each table is a property of its own, made by one thread.
    func makeTables() {
        let tables = UnsafeSendable(self.tables)
        _ = Parallel.map(count: Tables.count, chunk: 1) { tables.value.make($0) }
    }

    /// The vault's other files (attachment targets), shared by the resolvers `moving` makes.
    var files: VaultFiles { tables.files }

    // MARK: Notes by path, name and title

    /// The vault path of the note at `position` (its new one, for the note being moved).
    func path(_ position: Int) -> [UInt8] {
        if let moving, moving.position == position { return moving.path }
        return catalog.withPath(at: position) { Array($0) }
    }

    /// The note at a vault path, if there is one.
    func position(ofPath path: [UInt8]) -> Int? {
        if let moving, path == moving.path { return moving.position }
        guard let index,
            let record = path.withUnsafeBytes({ index.find($0, UnsafeRawBufferPointer(start: nil, count: 0)) }
            )
        else { return nil }
        let position = Int(tables.positions[record])
        if position < 0 || position == moving?.position { return nil }
        return position
    }

    /// The note whose ID is `id`.
    func position(ofID id: UnsafeRawBufferPointer) -> Int? {
        guard !id.isEmpty else { return nil }
        if moving == nil, let index {
            // The path looked up in place, with no copy: `id` is a path, else `id` and `.md`.
            let found =
                LinkResolver.hasSuffix(id, ".markdown")
                ? index.find(id, UnsafeRawBufferPointer(start: nil, count: 0)) : nil
            guard let record = found ?? LinkResolver.withMD({ index.find(id, $0) }) else { return nil }
            let position = Int(tables.positions[record])
            return position < 0 ? nil : position
        }
        if LinkResolver.hasSuffix(id, ".markdown"), let found = position(ofPath: Array(id)) { return found }
        return position(ofPath: Array(id) + Array(".md".utf8))
    }

    /// The positions `table` files under the hash of `key` whose `matches` says they are it, and
    /// the moving note if it will be; never a conflict copy beside its original (see
    /// `isCopyBesideOriginal`).
    private func lookUp(_ table: HashTable, _ key: UnsafeRawBufferPointer, _ matches: (Int) -> Bool) -> [Int]
    {
        var found = table.positions(for: MappedIndex.hash(key)).map(Int.init).filter {
            matches($0) && !isCopyBesideOriginal($0)
        }
        if let moving, !found.contains(moving.position), matches(moving.position) {
            found.append(moving.position)
        }
        return found
    }

    /// Whether the note at `position` is a conflict copy whose original is a note: a second
    /// version of that note, which a link reaches only by its exact ID or path, never by a file
    /// name or a title it shares with the original, and so never in the original's place.
    func isCopyBesideOriginal(_ position: Int) -> Bool {
        position != moving?.position && tables.copies[position] != nil
    }

    /// Calls `body` with the file name of the note at `position`, without `.md` or `.markdown`.
    func withName<R>(of position: Int, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        if let moving, moving.position == position {
            return moving.path.withUnsafeBytes { body(LinkResolver.name(ofPath: $0)) }
        }
        return catalog.withPath(at: position) { body(LinkResolver.name(ofPath: $0)) }
    }

    /// Calls `body` with the folded title of the note at `position`; nil when the index has none.
    func withFoldedTitle<R>(of position: Int, _ body: (UnsafeRawBufferPointer) -> R) -> R? {
        if let moving, moving.position == position, let title = moving.foldedTitle {
            return title.withUnsafeBytes(body)
        }
        return catalog.tags(at: position).foldedTitle.map(body)
    }

    /// The file name in a path, without `.md` or `.markdown`.
    static func name(ofPath path: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        let start = path.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0
        var end = path.count
        if hasSuffix(path, ".markdown") && end - start > 9 {
            end -= 9
        } else if hasSuffix(path, ".md") && end - start > 3 {
            end -= 3
        }
        return UnsafeRawBufferPointer(rebasing: path[start..<end])
    }

    private static let md: StaticString = ".md"

    /// Calls `body` with the bytes of `.md`.
    static func withMD<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        body(UnsafeRawBufferPointer(start: md.utf8Start, count: md.utf8CodeUnitCount))
    }

    static func hasSuffix(_ bytes: UnsafeRawBufferPointer, _ suffix: StaticString) -> Bool {
        let n = suffix.utf8CodeUnitCount
        guard bytes.count >= n, let base = bytes.baseAddress else { return false }
        return memcmp(base + bytes.count - n, suffix.utf8Start, n) == 0
    }

    static func equal(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        guard let x = a.baseAddress, let y = b.baseAddress else { return a.count == 0 }
        return memcmp(x, y, a.count) == 0
    }

    /// The notes whose file name is `name`.
    func positions(named name: UnsafeRawBufferPointer) -> [Int] {
        lookUp(tables.byName, name) { position in withName(of: position) { LinkResolver.equal($0, name) } }
    }

    /// The notes a wiki target names by its end: by file name, or, with folders, by the end of
    /// their ID (`Plugins/Backlinks` names `en/Plugins/Backlinks`). With `caseless`, names and IDs
    /// compare as `CaselessName` makes them: case ignored, accents not.
    func positions(ending written: UnsafeRawBufferPointer, caseless: Bool) -> [Int] {
        let made = caseless ? CaselessName.key(written) : []
        return made.withUnsafeBytes { made in
            let target = caseless ? made : written
            let slash = target.lastIndex(of: UInt8(ascii: "/"))
            let name = UnsafeRawBufferPointer(rebasing: target[(slash.map { $0 + 1 } ?? 0)...])
            guard !name.isEmpty else { return [] }
            let named =
                caseless
                ? lookUp(tables.byCaselessName, name) { position in
                    withName(of: position) { CaselessName.key($0) }.elementsEqual(name)
                }
                : positions(named: name)
            guard slash != nil else { return named }
            return named.filter { position in
                var id = Array(Note.id(forPath: String(decoding: path(position), as: UTF8.self)).utf8)
                if caseless { id = id.withUnsafeBytes { CaselessName.key($0) } }
                return id.elementsEqual(target) || NamingKeys.ends(id, with: target)
            }
        }
    }

    /// The notes that list `alias` (folded) among their folded aliases.
    func positions(aliased alias: UnsafeRawBufferPointer) -> [Int] {
        lookUp(tables.byAlias, alias) { position in
            var found = false
            catalog.tags(at: position).forEachFoldedAlias { listed in
                found = LinkResolver.equal(listed, alias)
                return !found
            }
            return found
        }
    }

    /// The notes whose folded title is `title`.
    func positions(titled title: UnsafeRawBufferPointer) -> [Int] {
        lookUp(tables.byTitle, title) { position in
            withFoldedTitle(of: position) { LinkResolver.equal($0, title) } ?? false
        }
    }

    // MARK: Resolving

    /// Where a link with `keys` in the note at vault path `source` goes; nil when it is broken.
    func resolve(
        markdown: Bool, key: UnsafeRawBufferPointer, alternative: UnsafeRawBufferPointer,
        from source: [UInt8]
    ) -> Int? {
        if markdown {
            if !key.isEmpty, let found = position(ofPath: Array(key)) { return found }
            if !alternative.isEmpty, let found = position(ofPath: Array(alternative)) { return found }
            return nil
        }
        return resolveWiki(key: key, alternative: alternative, from: source)?.position
    }

    /// Where a wiki link with `key` and `alternative` in the note at `source` goes, and the step
    /// that found it: its ID, its file name (exactly, else caseless; or the end of its ID), then,
    /// unless the vault keeps Obsidian's rules, an alias, then its title. Nil when it is broken.
    func resolveWiki(key: UnsafeRawBufferPointer, alternative: UnsafeRawBufferPointer, from source: [UInt8])
        -> (position: Int, step: LinkStep)?
    {
        // `[[../Top]]`, `[[./s]]`, `[[/Top]]`: a path, and only that (one byte ruled out first).
        if let first = key.first, first == UInt8(ascii: ".") || first == UInt8(ascii: "/"),
            LinkResolver.isPathTarget(key)
        {
            return position(ofWikiPath: key, from: source).map { ($0, .id) }
        }
        if let found = position(ofID: key) { return (found, .id) }
        for caseless in [false, true] {
            let named = positions(ending: key, caseless: caseless)
            if !named.isEmpty { return (nearest(named, to: source), .fileName) }
        }
        guard catalog.linkRules == .all else { return nil }
        let aliased = positions(aliased: alternative)
        if !aliased.isEmpty { return (nearest(aliased, to: source), .alias) }
        let titled = positions(titled: alternative)
        if !titled.isEmpty { return (nearest(titled, to: source), .title) }
        return nil
    }

    /// Where a link of `kind` with `key` and `alternative` in the note at `source` goes when it
    /// goes to a note: a link to a note as `resolve` has it; a Markdown link without an extension
    /// as `note(ofBare:from:)` has it; nil for every other link. The one rule of `links`,
    /// `backlinks`, the link filters, orphans and a move.
    func note(
        kind: NoteLink.Kind, markdown: Bool, key: UnsafeRawBufferPointer, alternative: UnsafeRawBufferPointer,
        from source: [UInt8]
    ) -> Int? {
        switch kind {
        case .note: return resolve(markdown: markdown, key: key, alternative: alternative, from: source)
        case .attachment: return markdown ? note(ofBare: key, from: source) : nil
        case .sameNote: return nil
        }
    }

    /// `note(kind:markdown:key:alternative:from:)` of a link as the keys chunk has it.
    func note(of link: LinkKeysChunk.Link, from source: [UInt8]) -> Int? {
        note(
            kind: link.kind, markdown: link.isMarkdown, key: link.key, alternative: link.alternative,
            from: source)
    }

    /// Where a Markdown link whose target (its key: the path percent-decoded, without `#…`) has no
    /// extension goes, in the note at `source`: Obsidian reads `[p](Plan)` and `[p](../My%20Plan)`
    /// as links to the note at that path with `.md`. A file of the vault that is the link's target
    /// as an attachment link's (`LinkChecker`) takes it first; then it goes to no note.
    func note(ofBare key: UnsafeRawBufferPointer, from source: [UInt8]) -> Int? {
        guard LinkResolver.bareName(key) != nil else { return nil }
        let path = String(decoding: key, as: UTF8.self)
        let from = String(decoding: source, as: UTF8.self)
        // The note first: a file is looked for only when a note would take the link.
        guard
            let found = resolve(
                LinkKeys.markdown(path: path + ".md", from: from), markdown: true, from: source),
            files.resolve(path, from: from) == nil
        else { return nil }
        return found
    }

    /// The last part of a Markdown link's decoded target when it has no extension (`Plan` in
    /// `../Plan`, `/scripts/`): the file name of the note it may name, without `.md`. Nil when
    /// it has one, or is empty.
    static func bareName(_ key: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        let slash = UInt8(ascii: "/")
        var end = key.count
        while end > 0 && key[end - 1] == slash { end -= 1 }
        let start = key[..<end].lastIndex(of: slash).map { $0 + 1 } ?? 0
        guard start < end, !key[start..<end].contains(UInt8(ascii: ".")) else { return nil }
        return UnsafeRawBufferPointer(rebasing: key[start..<end])
    }

    /// A folded target without a `.md` ending (as the key of a wiki link is made).
    static func withoutMD(_ target: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        hasSuffix(target, ".md") && target.count > 3
            ? UnsafeRawBufferPointer(rebasing: target[..<(target.count - 3)]) : target
    }

    /// `resolve` of keys held in arrays.
    func resolve(_ keys: LinkKeys, markdown: Bool, from source: [UInt8]) -> Int? {
        keys.key.withUnsafeBytes { key in
            keys.alternative.withUnsafeBytes {
                resolve(markdown: markdown, key: key, alternative: $0, from: source)
            }
        }
    }

    /// Where a link of `kind` with `keys` goes when it goes to a note (as `note(kind:…)` has it),
    /// and by which step (a Markdown link's is always `.path`).
    func resolution(_ keys: LinkKeys, kind: NoteLink.Kind = .note, markdown: Bool, from source: [UInt8]) -> (
        position: Int, step: LinkStep
    )? {
        guard kind == .note else {
            return keys.key.withUnsafeBytes { key in
                let none = UnsafeRawBufferPointer(rebasing: key[0..<0])
                return note(kind: kind, markdown: markdown, key: key, alternative: none, from: source).map {
                    ($0, .path)
                }
            }
        }
        guard !markdown else { return resolve(keys, markdown: true, from: source).map { ($0, .path) } }
        return keys.key.withUnsafeBytes { key in
            keys.alternative.withUnsafeBytes { resolveWiki(key: key, alternative: $0, from: source) }
        }
    }

    /// Of `candidates`, the one nearest the note at `source`: fewest folder steps between their
    /// folders, then the smaller ID (byte order).
    func nearest(_ candidates: [Int], to source: [UInt8]) -> Int {
        guard candidates.count > 1 else { return candidates[0] }
        let from = LinkResolver.folders(of: source)
        var best = candidates[0]
        var bestSteps = Int.max
        var bestID: [UInt8] = []
        for candidate in candidates {
            let path = path(candidate)
            let to = LinkResolver.folders(of: path)
            var common = 0
            while common < from.count && common < to.count && from[common] == to[common] { common += 1 }
            let steps = from.count - common + to.count - common
            let id = Array(Note.id(forPath: String(decoding: path, as: UTF8.self)).utf8)
            if steps < bestSteps || (steps == bestSteps && id.lexicographicallyPrecedes(bestID)) {
                (best, bestSteps, bestID) = (candidate, steps, id)
            }
        }
        return best
    }

    /// The folder names of a vault path, outermost first.
    static func folders(of path: [UInt8]) -> [ArraySlice<UInt8>] {
        Array(path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropLast())
    }
}

/// Which steps resolve a wiki link in a vault.
enum LinkRules: Equatable, Sendable {
    /// Every step: ID, file name, aliases, title.
    case all
    /// Obsidian's own (a vault with `.obsidian/`): ID and file name only, so that what is broken
    /// here is what Obsidian shows unresolved.
    case obsidian
}

/// How a link found its note.
enum LinkStep: Equatable {
    /// A Markdown link, by its path.
    case path
    /// By the note's ID.
    case id
    /// By its file name, or the end of its ID.
    case fileName
    /// By one of its front-matter aliases.
    case alias
    /// By its title.
    case title

    /// Whether the step is one every editor takes (Obsidian and zk resolve by names and paths
    /// only, never by titles or aliases).
    var isByName: Bool { self == .path || self == .id || self == .fileName }
}

/// The keys by which a link can name one note — its ID, file name, path, folded title and
/// aliases, and the folded ID and file name — as they will be after a move when the resolver is a
/// moving one: what backlinks and a move compare each link's keys with, in place, before resolving
/// the few that match. Folded names stand for caseless ones: names equal but for case fold alike.
/// A class, so a loop over every link of the vault that asks it shares it rather than copying
/// its arrays.
final class NamingKeys: Sendable {
    let id: [UInt8], name: [UInt8], path: [UInt8]
    let foldedTitle: [UInt8]?, foldedID: [UInt8], foldedName: [UInt8]
    let foldedAliases: [[UInt8]]
    /// The last part of the ID (the file name, with `.markdown` if it has it).
    let idName: [UInt8]

    init(_ resolver: LinkResolver, _ position: Int) {
        path = resolver.path(position)
        id = Array(Note.id(forPath: String(decoding: path, as: UTF8.self)).utf8)
        idName = Array(id.split(separator: UInt8(ascii: "/")).last ?? [])
        name = resolver.withName(of: position) { Array($0) }
        foldedTitle = resolver.withFoldedTitle(of: position) { Array($0) }
        var folding = TextFolder()
        foldedID = id.withUnsafeBufferPointer { folding.foldedBytes(utf8: $0) }
        foldedName = name.withUnsafeBufferPointer { folding.foldedBytes(utf8: $0) }
        var aliases: [[UInt8]] = []
        resolver.catalog.tags(at: position).forEachFoldedAlias { alias in
            aliases.append(Array(alias))
            return true
        }
        foldedAliases = aliases
    }

    /// Whether `link` could resolve to the note (it does if it resolves to nothing nearer).
    func couldName(_ link: LinkKeysChunk.Link) -> Bool {
        guard link.isToNote else {
            // A Markdown link without an extension names a note by its file name (`[p](../Plan)`).
            guard link.kind == .attachment, link.isMarkdown, let bare = LinkResolver.bareName(link.key) else {
                return false
            }
            return Self.same(bare, name)
        }
        if link.isMarkdown { return Self.same(link.key, path) || Self.same(link.alternative, path) }
        if let first = link.key.first, first == UInt8(ascii: ".") || first == UInt8(ascii: "/"),
            LinkResolver.isPathTarget(link.key)
        {
            // `[[../Top]]` names a note by its path, whose last part is its file name.
            let last = LinkResolver.lastPart(link.key)
            return Self.same(last, name) || Self.same(last, idName)
                || Self.same(LinkResolver.lastPart(LinkResolver.withoutMD(link.alternative)), foldedName)
        }
        if Self.same(link.key, id) || Self.same(link.key, name) || NamingKeys.ends(id, with: link.key) {
            return true
        }
        if let foldedTitle, Self.same(link.alternative, foldedTitle) { return true }
        if foldedAliases.contains(where: { Self.same(link.alternative, $0) }) { return true }
        let folded = LinkResolver.withoutMD(link.alternative)
        return Self.same(folded, foldedName) || Self.same(folded, foldedID)
            || NamingKeys.ends(foldedID, with: folded)
    }

    /// Whether two keys are the same bytes (lengths first: most keys differ in length).
    private static func same(_ a: UnsafeRawBufferPointer, _ b: [UInt8]) -> Bool {
        a.count == b.count && a.elementsEqual(b)
    }

    /// Whether `id` ends with `/` and `target`, when `target` has folders.
    static func ends(_ id: [UInt8], with target: UnsafeRawBufferPointer) -> Bool {
        // The byte before the suffix first: it rules out most keys without a scan of the key.
        guard id.count > target.count, id[id.count - target.count - 1] == UInt8(ascii: "/"),
            target.contains(UInt8(ascii: "/"))
        else { return false }
        return id.suffix(target.count).elementsEqual(target)
    }
}

/// Positions filed under a hash (of a name, a title…): pairs in the order of their hashes, made
/// in one pass, where a dictionary of arrays would allocate an array per note; looked up through
/// a directory of where each run of hashes with the same top bits starts, then by binary search
/// in that run (mostly of one pair), rather than over the whole table far away in memory.
struct HashTable {
    private var hashes: [UInt64] = []
    private var positions: [Int32] = []
    /// For each value of a hash's top `bits` bits, the first pair with it or a larger one; and one
    /// past the end.
    private var starts: [Int32] = [0, 0]
    private var bits = 0

    /// The table of positions `0..<count`, each under the hash `hash` gives it (none for nil).
    init(count: Int, hash: (Int) -> UInt64?) {
        var pairs: [(UInt64, Int32)] = []
        pairs.reserveCapacity(count)
        for position in 0..<count {
            if let value = hash(position) { pairs.append((value, Int32(position))) }
        }
        self.init(pairs)
    }

    /// The table of positions `0..<count`, each under every hash `hashes` files it by (a note by
    /// each of its aliases).
    init(count: Int, hashes: (Int, (UInt64) -> Void) -> Void) {
        var pairs: [(UInt64, Int32)] = []
        for position in 0..<count {
            hashes(position) { pairs.append(($0, Int32(position))) }
        }
        self.init(pairs)
    }

    /// The table of `pairs`, in their order where hashes are equal. Placed by their top bits (the
    /// directory's counts, then each pair in its run), then each run put in order by insertion:
    /// hashes are spread evenly, so a run holds about one pair and the whole is linear (a sort
    /// of the pairs made a move's plan on 100,000 notes 110–155 ms, this 92–95).
    private init(_ pairs: [(UInt64, Int32)]) {
        guard !pairs.isEmpty else { return }
        let bits = min(24, max(1, Int.bitWidth - (pairs.count - 1).leadingZeroBitCount))
        let shift = UInt64(64 - bits)
        var starts = [Int32](repeating: 0, count: (1 << bits) + 1)
        for (hash, _) in pairs { starts[Int(hash >> shift) + 1] += 1 }
        for top in 0..<(1 << bits) { starts[top + 1] += starts[top] }
        var hashes = [UInt64](repeating: 0, count: pairs.count)
        var positions = [Int32](repeating: 0, count: pairs.count)
        var next = starts
        for (hash, position) in pairs {
            let top = Int(hash >> shift)
            let i = Int(next[top])
            next[top] += 1
            // Into its run, after the larger hashes of the run moved up one (stable: an equal hash
            // stays before it).
            var j = i
            while j > Int(starts[top]) && hashes[j - 1] > hash {
                hashes[j] = hashes[j - 1]
                positions[j] = positions[j - 1]
                j -= 1
            }
            hashes[j] = hash
            positions[j] = position
        }
        self.hashes = hashes
        self.positions = positions
        self.starts = starts
        self.bits = bits
    }

    /// The positions filed under `hash`.
    func positions(for hash: UInt64) -> ArraySlice<Int32> {
        let top = bits == 0 ? 0 : Int(hash >> UInt64(64 - bits))
        var low = Int(starts[top])
        var high = Int(starts[top + 1])
        while low < high {
            let middle = (low + high) / 2
            if hashes[middle] < hash { low = middle + 1 } else { high = middle }
        }
        var end = low
        while end < hashes.count && hashes[end] == hash { end += 1 }
        return positions[low..<end]
    }
}
