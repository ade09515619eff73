import Foundation

/// A tag and the number of notes that have it.
public struct TagCount: Equatable, Sendable {
    /// The tag as the newest note that has it spells it.
    public var tag: String
    /// How many notes have it (a nested tag does not count toward its parent).
    public var count: Int
}

/// A link of a note and where it goes: a note (also when the heading or block it names is
/// missing), or for an attachment link a file, and what is wrong with it.
public struct ResolvedLink: Equatable, Sendable {
    /// The link.
    public var link: IndexedLink
    /// The note it resolves to; nil when it goes to no note.
    public var note: Note?
    /// The vault path of the file it goes to (an attachment link, or a `[[notes.txt]]`).
    public var file: String?
    /// Why it is broken; nil when it is not.
    public var problem: LinkProblem?

    /// Whether it is broken.
    public var isBroken: Bool { problem != nil }
}

/// A link found in a note: the note, and the link's line and text (a backlink, or a broken link).
public struct LinkSite: Equatable, Sendable {
    /// The note the link is in.
    public var source: Note
    /// The 1-based line of the file.
    public var line: Int
    /// The link as written.
    public var text: String
    /// Why it is broken, for a broken link; nil for a backlink.
    public var problem: LinkProblem?
}

extension Catalog {
    /// Every tag with the number of notes that have it (a conflict copy beside its original is
    /// not one), most used first, ties A→Z by folded name (byte order); each spelled as in the
    /// newest note (the `updated` order, ties by ID) that has it. Reads the index's folded tags, and the spellings of the winners only.
    public func tagCounts() -> [TagCount] {
        struct Entry {
            var folded: [UInt8]
            var count: Int
            /// The newest note with the tag, and the tag's place among its tags.
            var position: Int
            var tagNumber: Int
        }
        var entries: [Entry] = []
        var byHash: [UInt64: [Int]] = [:]
        let copies = originalsOfCopies()
        for position in 0..<count where copies[position] == nil {
            var tagNumber = 0
            tags(at: position).forEachFoldedTag { tag in
                defer { tagNumber += 1 }
                let hash = MappedIndex.hash(tag)
                if let found = byHash[hash]?.first(where: { entries[$0].folded.elementsEqual(tag) }) {
                    entries[found].count += 1
                    if isNewer(position, than: entries[found].position) {
                        (entries[found].position, entries[found].tagNumber) = (position, tagNumber)
                    }
                } else {
                    byHash[hash, default: []].append(entries.count)
                    entries.append(
                        Entry(folded: Array(tag), count: 1, position: position, tagNumber: tagNumber))
                }
                return true
            }
        }
        Trace.mark("tags")
        entries.sort {
            $0.count != $1.count ? $0.count > $1.count : $0.folded.lexicographicallyPrecedes($1.folded)
        }
        // The spellings of a few notes scattered over the index are read, not mapped (see
        // `MappedIndex.note(at:viaPread:)`); of many, mapped, which is faster.
        let viaPread = entries.count <= 64
        return entries.map { entry in
            let spellings = note(at: entry.position, viaPread: viaPread).tags
            let tag =
                entry.tagNumber < spellings.count
                ? spellings[entry.tagNumber]
                : String(decoding: entry.folded, as: UTF8.self)
            return TagCount(tag: tag, count: entry.count)
        }
    }

    /// Whether the note at position `a` comes before `b` in the `updated` order (newest first,
    /// ties by ID).
    private func isNewer(_ a: Int, than b: Int) -> Bool {
        let (x, y) = (date(at: a, order: .updated), date(at: b, order: .updated))
        if x != y { return x > y }
        return withID(at: a) { x in withID(at: b) { y in Catalog.precedes(x, y) } }
    }

    /// The links of `note` (a note of this catalog) of every kind, in order, each with where it
    /// goes and whether it is broken.
    public func links(of note: Note) -> [ResolvedLink] {
        guard let position = position(ofPath: note.path) else { return [] }
        var checker = LinkChecker(catalog: self, fewNotes: true)
        let source = Array(note.path.utf8)
        return links(at: position).map { link in
            let outcome = checker.check(link, at: position, from: source)
            return ResolvedLink(
                link: link, note: outcome.note.map { self.note(at: $0) }, file: outcome.file,
                problem: outcome.problem)
        }
    }

    /// The links to `note` from every note (itself included; a conflict copy beside its original
    /// is not one), by linking note in ID order, then in file order. Only links whose keys could
    /// name it (`NamingKeys`) are resolved.
    public func backlinks(to note: Note) -> [LinkSite] {
        guard let target = position(ofPath: note.path) else { return [] }
        let resolver = LinkResolver(catalog: self)
        let keys = NamingKeys(resolver, target)
        let copies = originalsOfCopies()
        var sources: [(Int, [(Int, LinkProblem?)])] = []
        for position in 0..<count where copies[position] == nil {
            var numbers: [Int] = []
            var links = linkKeys(at: position).links
            while let link = links.next() {
                guard keys.couldName(link) else { continue }
                let source = withPath(at: position) { Array($0) }
                if resolver.note(of: link, from: source) == target { numbers.append(link.number) }
            }
            if !numbers.isEmpty { sources.append((position, numbers.map { ($0, nil) })) }
        }
        Trace.mark("links")
        return LinkSite.sorted(sites(sources))
    }

    /// Every broken link of the vault, with why, by linking note in ID order, then in file order:
    /// links to no note, to a missing heading or block, and attachment links to no file.
    public func brokenLinks() -> [LinkSite] {
        var checker = LinkChecker(catalog: self)
        var sources: [(Int, [(Int, LinkProblem?)])] = []
        for position in 0..<count {
            var source: [UInt8]?
            var broken: [(Int, LinkProblem?)] = []
            linkKeys(at: position).forEachLink { link in
                let from = source ?? withPath(at: position) { Array($0) }
                source = from
                if let problem = checker.check(link, at: position, from: from).problem {
                    broken.append((link.number, problem))
                }
                return true
            }
            if !broken.isEmpty { sources.append((position, broken)) }
        }
        return LinkSite.sorted(sites(sources))
    }

    /// The links numbered as given of each note, with the note and their problems, made whole;
    /// for a few notes read, not mapped (see `MappedIndex.note(at:viaPread:)`).
    private func sites(_ sources: [(position: Int, links: [(number: Int, problem: LinkProblem?)])])
        -> [LinkSite]
    {
        var found: [LinkSite] = []
        let viaPread = sources.count <= 64
        for (position, numbers) in sources {
            let links = links(at: position, viaPread: viaPread)
            let source = note(at: position, viaPread: viaPread)
            for (number, problem) in numbers where number < links.count {
                found.append(
                    LinkSite(
                        source: source, line: links[number].line, text: links[number].text, problem: problem))
            }
        }
        return found
    }
}

extension LinkSite {
    /// Sites by their note's ID (code-point order); a note's own in the order given (file order).
    static func sorted(_ sites: [LinkSite]) -> [LinkSite] {
        sites.enumerated().sorted { a, b in
            if a.element.source.id != b.element.source.id {
                return a.element.source.id.utf8.lexicographicallyPrecedes(b.element.source.id.utf8)
            }
            return a.offset < b.offset
        }.map(\.element)
    }
}
