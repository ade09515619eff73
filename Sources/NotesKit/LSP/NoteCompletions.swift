import Foundation

/// What an editor's completion offers from one catalog: notes by folded title, ID or file name,
/// with the shortest link target that finds each by file name as Obsidian does; the vault's
/// tags by folded prefix; a note's headings. Made once per catalog — the notes newest first, their
/// folded titles and IDs side by side in one buffer — so a keystroke scans bytes and makes strings
/// only for the notes it offers.
public final class NoteCompletions {
    /// The catalog these come from.
    public let catalog: Catalog
    /// Catalog positions, newest first (the `updated` order), conflict copies left out.
    private let order: [Int32]
    /// For the k-th note of `order`: its folded title in `bytes[titleStarts[k]..<idStarts[k]]`,
    /// its folded ID in `bytes[idStarts[k]..<ends[k]]`, its folded file name from `nameStarts[k]`
    /// to the end of the ID (or of the extension's start).
    private var bytes: [UInt8] = []
    private var titleStarts: [Int32] = []
    private var idStarts: [Int32] = []
    private var nameStarts: [Int32] = []
    private var ends: [Int32] = []
    /// Whether the k-th note's file name is the only one of its caseless form in the vault.
    private var uniqueNames: [Bool] = []

    /// Lays out the catalog's notes for completion.
    public init(_ catalog: Catalog) {
        self.catalog = catalog
        let copies = catalog.originalsOfCopies()
        // The order `list` sorts by (see `Catalog.ordering`), its keys read once, not per comparison.
        let dates = (0..<catalog.count).map { catalog.date(at: $0, order: .updated).rounded(.down) }
        let mtimes = (0..<catalog.count).map { catalog.status(at: $0).mtime }
        order = (0..<catalog.count).filter { copies[$0] == nil }.sorted { a, b in
            if dates[a] != dates[b] { return dates[a] > dates[b] }
            if mtimes[a] != mtimes[b] { return mtimes[a] > mtimes[b] }
            return catalog.withID(at: a) { x in catalog.withID(at: b) { y in Catalog.precedes(x, y) } }
        }.map { Int32($0) }
        var folding = TextFolder()
        var names: [UInt64: Int] = [:]
        var nameHashes: [UInt64] = []
        for k in order.indices {
            let position = Int(order[k])
            titleStarts.append(Int32(truncatingIfNeeded: bytes.count))
            if let title = catalog.tags(at: position).foldedTitle {
                bytes.append(contentsOf: title)
            } else {
                folding.appendFolded(catalog.note(at: position).title, to: &bytes)
            }
            idStarts.append(Int32(truncatingIfNeeded: bytes.count))
            catalog.withID(at: position) { id in
                let slash = id.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0
                Self.appendFolded(UnsafeRawBufferPointer(rebasing: id[..<slash]), to: &bytes, &folding)
                nameStarts.append(Int32(truncatingIfNeeded: bytes.count))
                Self.appendFolded(UnsafeRawBufferPointer(rebasing: id[slash...]), to: &bytes, &folding)
            }
            ends.append(Int32(truncatingIfNeeded: bytes.count))
            let hash = catalog.withPath(at: position) { path in
                Self.caselessHash(LinkResolver.name(ofPath: path))
            }
            nameHashes.append(hash)
            names[hash, default: 0] += 1
        }
        uniqueNames = nameHashes.map { names[$0] == 1 }
    }

    /// Whether these were made from `other`, or from a catalog of the very same index files:
    /// the same notes in it.
    public func isMade(from other: Catalog) -> Bool {
        guard catalog.mapped == other.mapped else { return false }
        if catalog.index === other.index { return true }
        guard let mine = Self.files(of: catalog), let theirs = Self.files(of: other) else { return false }
        return mine == theirs
    }

    /// What tells an index's files apart: each is written whole under a new name and renamed into
    /// place, so the same inode and size is the same file. Nil for an index not read from files.
    private static func files(of catalog: Catalog) -> [UInt64]? {
        guard let index = catalog.index, let base = index.base.storage.inode else { return nil }
        var files = [base, index.base.generation, UInt64(index.base.storage.bytes.count)]
        if let delta = index.delta {
            guard let inode = delta.storage.inode else { return nil }
            files += [inode, UInt64(delta.storage.bytes.count)]
        }
        return files
    }

    /// `MappedIndex.hash` of the file name's `CaselessName.key`, made without a copy for ASCII.
    private static func caselessHash(_ name: UnsafeRawBufferPointer) -> UInt64 {
        guard !name.contains(where: { $0 >= 0x80 }) else {
            return CaselessName.key(name).withUnsafeBytes { MappedIndex.hash($0) }
        }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name {
            let lower = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
            hash = (hash ^ UInt64(lower)) &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    private static func appendFolded(
        _ text: UnsafeRawBufferPointer, to out: inout [UInt8], _ folding: inout TextFolder
    ) {
        // ASCII folds to its lower case: most IDs never reach the folder.
        if !text.contains(where: { $0 >= 0x80 }) {
            out.append(contentsOf: text.lazy.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 })
        } else {
            folding.appendFolded(utf8: text.assumingMemoryBound(to: UInt8.self), to: &out)
        }
    }

    /// A note completion offers, and the link target that finds it.
    public struct Candidate: Equatable, Sendable {
        /// The note.
        public var note: Note
        /// Its file name when no other note's file name is the same ignoring case (what a
        /// `[[link]]` finds in Obsidian), else its ID.
        public var target: String
    }

    /// The notes whose folded title, ID or file name holds `typed` folded: those whose title
    /// starts with it first, then those with a word of the title (or the file name) that does,
    /// then the others, each group newest first; at most `limit`, and whether more matched.
    public func notes(matching typed: String, limit: Int) -> (candidates: [Candidate], more: Bool) {
        var folding = TextFolder()
        let needle = folding.foldedBytes(typed)
        var groups: [[Int]] = [[], [], []]
        bytes.withUnsafeBytes { all in
            for k in order.indices {
                let title = UnsafeRawBufferPointer(
                    rebasing: all[Int(titleStarts[k])..<Int(idStarts[k])])
                let id = UnsafeRawBufferPointer(rebasing: all[Int(idStarts[k])..<Int(ends[k])])
                let name = UnsafeRawBufferPointer(rebasing: all[Int(nameStarts[k])..<Int(ends[k])])
                guard let rank = Self.rank(needle, title: title, id: id, name: name) else { continue }
                // One more than the limit tells that there are more.
                if groups[rank].count <= limit { groups[rank].append(k) }
                // The first group is full: nothing later can come before these.
                if groups[0].count > limit { break }
            }
        }
        let found = groups.joined()
        let candidates = found.prefix(limit).map { k in
            let note = catalog.note(at: Int(order[k]))
            return Candidate(note: note, target: uniqueNames[k] ? Note.fileTitle(note.path) : note.id)
        }
        return (candidates, found.count > limit)
    }

    /// 0: the title starts with `needle`; 1: a word of the title, or the file name, does;
    /// 2: the title or the ID holds it elsewhere; nil: neither holds it.
    static func rank(
        _ needle: [UInt8], title: UnsafeRawBufferPointer, id: UnsafeRawBufferPointer,
        name: UnsafeRawBufferPointer
    ) -> Int? {
        guard !needle.isEmpty else { return 0 }
        var (atStart, inTitle, wordStart) = (false, false, false)
        forEachOccurrence(of: needle, in: title) { at in
            inTitle = true
            atStart = at == 0
            wordStart = at > 0 && isBoundary(title[at - 1])
            return !atStart && !wordStart
        }
        if atStart { return 0 }
        if wordStart || firstOccurrence(of: needle, in: name) == 0 { return 1 }
        if inTitle || firstOccurrence(of: needle, in: id) != nil { return 2 }
        return nil
    }

    /// Whether a word may start after `byte` (folded): an ASCII byte that is not a letter or digit.
    private static func isBoundary(_ byte: UInt8) -> Bool {
        byte < 0x80 && !(byte >= 0x61 && byte <= 0x7A) && !(byte >= 0x30 && byte <= 0x39)
    }

    private static func firstOccurrence(of needle: [UInt8], in haystack: UnsafeRawBufferPointer) -> Int? {
        var found: Int?
        forEachOccurrence(of: needle, in: haystack) { at in
            found = at
            return false
        }
        return found
    }

    /// Calls `body` with each offset where `needle` starts in `haystack`, until it returns false.
    private static func forEachOccurrence(
        of needle: [UInt8], in haystack: UnsafeRawBufferPointer, _ body: (Int) -> Bool
    ) {
        guard !needle.isEmpty, haystack.count >= needle.count, let base = haystack.baseAddress else { return }
        needle.withUnsafeBytes { wanted in
            guard let first = wanted.first, let wantedBase = wanted.baseAddress else { return }
            var i = 0
            let last = haystack.count - needle.count
            while i <= last, let hit = memchr(base + i, Int32(first), last - i + 1) {
                i = base.distance(to: UnsafeRawPointer(hit))
                if memcmp(base + i, wantedBase, needle.count) == 0, !body(i) { return }
                i += 1
            }
        }
    }

    /// The vault's tags (as `Catalog.tagCounts` counts and spells them) with their folded forms,
    /// made when first asked.
    private lazy var tags: [(tag: TagCount, folded: [UInt8])] = {
        var folding = TextFolder()
        return catalog.tagCounts().map { ($0, folding.foldedBytes($0.tag)) }
    }()

    /// The tags whose folded name starts with `typed` folded, most used first; at most `limit`,
    /// and whether more matched.
    public func tags(startingWith typed: String, limit: Int) -> (tags: [TagCount], more: Bool) {
        var folding = TextFolder()
        let needle = folding.foldedBytes(typed)
        let found = tags.filter { $0.folded.starts(with: needle) }
        return (found.prefix(limit).map(\.tag), found.count > limit)
    }
}

extension Catalog {
    /// The headings and block ids of a note, as the index keeps them.
    public func anchors(of note: Note) -> NoteAnchors {
        guard let index, let position = position(ofPath: note.path) else { return NoteAnchors() }
        return index.anchors(at: Int(mapped[position]))
    }
}
