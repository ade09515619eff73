import Foundation

/// What the filters of `list`, `search` and the browser keep, besides what a search matches:
/// a span of dates, a folder, tags, and where links go. Every part is answered from the index.
public struct NoteFilter: Equatable, Sendable {
    /// Only notes whose date in the order (`updated` and `title`: `updatedAt`, else `createdAt`;
    /// `created`: `createdAt`) is at or after this, in seconds since 1970.
    public var since: Double?
    /// Only notes whose date in the order is before this, in seconds since 1970.
    public var before: Double?
    /// Only notes in this vault-relative folder (no slash at either end) or below it; `""` is the
    /// whole vault.
    public var folder: String?
    /// Tags every note must have (each, or one nested below it), as typed (`--tag`).
    public var tags: [String] = []
    /// Only notes that no other note links to (as `backlinks` finds links).
    public var orphan = false
    /// Only notes with a link that resolves to the note at this vault path, which is left out
    /// itself (as `backlinks` finds links).
    public var linksTo: String?
    /// Only the notes that the note at this vault path links to (as `links` finds them).
    public var linkedFrom: String?

    /// No filter: every note.
    public init() {}

    /// Whether it keeps every note.
    public var isEmpty: Bool { self == NoteFilter() }
}

/// A `NoteFilter` worked out for one catalog and order, but for its tags: what a scan asks of
/// each note. Links are resolved once, up front, into the positions they keep.
struct FilterSelection: Sendable {
    let since: Double?
    let before: Double?
    let order: SortOrder
    /// The folder with a final slash (`work/`), so that `work2/` is not inside `work`.
    let folder: [UInt8]?
    /// By position, whether the link filters keep the note; nil when none is asked for.
    let linked: [Bool]?

    /// Whether the note at `position`, record `record` of `index`, is kept.
    func keeps(_ position: Int, record: Int, of index: IndexView) -> Bool {
        if let linked, !linked[position] { return false }
        if since != nil || before != nil {
            // To the second, as dates are shown and kept in front matter.
            let date = index.date(at: record, order: order).rounded(.down)
            if let since, date < since { return false }
            if let before, date >= before { return false }
        }
        if let folder {
            let (file, n) = index.locate(record)
            let path = file.pathBytes(n)
            guard path.count > folder.count, path.starts(with: folder) else { return false }
        }
        return true
    }
}

extension Catalog {
    /// Tags as typed (`#work` or `work`), folded as the index keeps them.
    static func foldedTags(_ tags: [String]) -> [[UInt8]] {
        var folding = TextFolder()
        return tags.map { folding.foldedBytes($0.hasPrefix("#") ? String($0.dropFirst()) : $0) }
    }

    /// By position, whether `filter` keeps the note in `order`, tags and all.
    func kept(by filter: NoteFilter, order: SortOrder) -> [Bool] {
        let tags = Catalog.foldedTags(filter.tags)
        let selection = self.selection(filter, order: order)
        guard let index, selection != nil || !tags.isEmpty else {
            return [Bool](repeating: true, count: count)
        }
        return (0..<count).map { i in
            selection?.keeps(i, record: Int(mapped[i]), of: index) != false
                && (tags.isEmpty || self.tags(at: i).hasTags(tags))
        }
    }

    /// `filter` (but for its tags) worked out for this catalog in `order`; nil when it keeps every
    /// note.
    func selection(_ filter: NoteFilter, order: SortOrder) -> FilterSelection? {
        var plain = filter
        plain.tags = []
        guard !plain.isEmpty else { return nil }
        var linked: [Bool]?
        func keep(_ kept: [Bool]) {
            linked = linked.map { zip($0, kept).map { $0 && $1 } } ?? kept
        }
        if filter.orphan { keep(linkedFromOthers().map { !$0 }) }
        if let path = filter.linksTo { keep(sources(ofLinksTo: position(ofPath: path))) }
        if let path = filter.linkedFrom { keep(targets(ofLinksIn: position(ofPath: path))) }
        let folder = filter.folder.flatMap { $0.isEmpty ? nil : Array(($0 + "/").utf8) }
        return FilterSelection(
            since: filter.since, before: filter.before, order: order, folder: folder, linked: linked)
    }

    /// By position, whether a link from another note resolves to the note: what `backlinks`
    /// would find, less a note's links to itself (a conflict copy beside its original links
    /// nowhere, as there). Read from beside the index when it was worked out for this very
    /// catalog (`LinkedNotes`); else worked out from every link, and kept there.
    func linkedFromOthers() -> [Bool] {
        let kept = indexPath.flatMap { indexPath in
            LinkedNotes.key(of: self).map { (LinkedNotes.path(besideIndex: indexPath), indexPath, $0) }
        }
        if let (path, _, key) = kept, let linked = LinkedNotes.read(path, for: self, key: key) {
            Trace.mark("orphans kept")
            return linked
        }
        let linked = resolvedLinkedFromOthers()
        Trace.mark("orphans")
        if let (path, indexPath, key) = kept {
            LinkedNotes.write(linked, of: self, key: key, to: path, indexPath: indexPath)
            Trace.mark("orphans written")
        }
        return linked
    }

    /// `linkedFromOthers()` worked out from every link of every note, on all cores.
    func resolvedLinkedFromOthers() -> [Bool] {
        let resolver = UnsafeSendable(LinkResolver(catalog: self))
        resolver.value.makeTables()
        let catalog = self
        let notes = count
        // The notes in runs over the cores, each run giving the notes its links go to.
        let targets = Parallel.map(count: notes, runsOf: 2048) { positions in
            var found: [Int32] = []
            for position in positions where !resolver.value.isCopyBesideOriginal(position) {
                var source: [UInt8]?
                catalog.linkKeys(at: position).forEachLink { link in
                    guard link.mayBeToNote else { return true }
                    let from = source ?? catalog.withPath(at: position) { Array($0) }
                    source = from
                    if let target = resolver.value.note(of: link, from: from), target != position {
                        found.append(Int32(target))
                    }
                    return true
                }
            }
            return found
        }
        var linked = [Bool](repeating: false, count: notes)
        for found in targets {
            for target in found { linked[Int(target)] = true }
        }
        return linked
    }

    /// By position, whether the note has a link that resolves to the note at `target` (which
    /// itself is not kept): the linking notes of `backlinks(to:)`.
    func sources(ofLinksTo target: Int?) -> [Bool] {
        var kept = [Bool](repeating: false, count: count)
        guard let target else { return kept }
        let resolver = LinkResolver(catalog: self)
        let keys = NamingKeys(resolver, target)
        let copies = originalsOfCopies()
        for position in 0..<count where position != target && copies[position] == nil {
            linkKeys(at: position).forEachLink { link in
                guard keys.couldName(link) else { return true }
                let source = withPath(at: position) { Array($0) }
                if resolver.note(of: link, from: source) == target {
                    kept[position] = true
                    return false
                }
                return true
            }
        }
        return kept
    }

    /// By position, whether the note at `source` has a link that goes to it: the notes of
    /// `links(of:)`.
    func targets(ofLinksIn source: Int?) -> [Bool] {
        var kept = [Bool](repeating: false, count: count)
        guard let source else { return kept }
        var checker = LinkChecker(catalog: self, fewNotes: true)
        let path = withPath(at: source) { Array($0) }
        linkKeys(at: source).forEachLink { link in
            if let target = checker.check(link, at: source, from: path).note { kept[target] = true }
            return true
        }
        return kept
    }
}
